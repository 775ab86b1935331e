"""Annotation expressions (`ceil_div(n, 256)`, `M * K`) as C, Rust and Swift host code.

The launchers, the Rust crate and the Swift snippet compute the annotated geometry and buffer
lengths from the caller's scalars at run time, so each needs the expression in its own
language.  All of them evaluate in 64-bit signed integers (`long long`, `i64`, `Int`), which is
what `kernelport.cexpr` does in Python for these integer expressions (`/` and `%` truncate
toward zero); a float in a geometry or length expression is refused, since an integer
evaluation would silently differ from the annotation's meaning.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .. import cexpr
from ..annotations import Text
from ..errors import KernelportError

# Same surface as kernelport.cexpr (which the annotation validation already ran).
_SIZEOF_RE = re.compile(r"sizeof\s*\(\s*([A-Za-z_][\w ]*?)\s*\)")
_NUM_RE = re.compile(r"(?<![\w.])((?:0[xX][0-9a-fA-F]+)|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)([uUlLfF]+)\b")
_SIZEOF_NAME = "__kp_sizeof_"
FUNCTIONS = ("ceil_div", "min", "max", "round_up")  # round_up: the Metal sidecar's threadgroup bytes
# sizeof operands every C host compiler knows without the CUDA headers.
_C_TYPES = {"char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned", "unsigned int",
            "long", "unsigned long", "long long", "unsigned long long", "float", "double", "size_t", "int8_t",
            "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"}


@dataclass
class Expr:
    """A parsed annotation expression; `text` keeps the annotation as written (for comments)."""
    text: str
    tree: ast.expr
    sizes: tuple[str, ...]  # the types of sizeof(...) placeholders, by index
    where: Text | None

    @property
    def names(self) -> set[str]:
        return {n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name) and not n.id.startswith(_SIZEOF_NAME)
                and not _is_call_name(n, self.tree)}


def _is_call_name(node: ast.Name, tree: ast.expr) -> bool:
    return any(isinstance(c, ast.Call) and c.func is node for c in ast.walk(tree))


def parse(text: str | Text, integer_names: set[str], float_names: set[str]) -> Expr:
    """Parse `text`; every name must be an integer scalar (`float_names` get a precise refusal)."""
    where = text if isinstance(text, Text) else None
    raw = text.text if isinstance(text, Text) else text
    sizes: list[str] = []

    def sz(m: re.Match) -> str:
        t = " ".join(m.group(1).split())
        if t not in cexpr.SIZEOF:
            raise _error(f"unknown type in sizeof: {t}", where)
        sizes.append(t)
        return f"{_SIZEOF_NAME}{len(sizes) - 1}"

    s = _SIZEOF_RE.sub(sz, raw.strip())
    s = _NUM_RE.sub(lambda m: m.group(1), s)
    s = s.replace("&&", " and ").replace("||", " or ")
    s = re.sub(r"!(?!=)", " not ", s)
    try:
        tree = ast.parse(s, mode="eval").body
    except SyntaxError:
        raise _error(f"cannot read expression '{raw.strip()}'", where) from None
    e = Expr(raw.strip(), tree, tuple(sizes), where)
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and not isinstance(n.value, int):
            raise _error(f"'{e.text}' has a non-integer constant; bind computes geometry and lengths in 64-bit "
                         "integers", where)
        if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id in FUNCTIONS):
            raise _error(f"'{e.text}' calls an unknown function", where)
    for name in e.names:
        if name in float_names:
            raise _error(f"'{e.text}' uses the floating-point scalar '{name}'; bind computes geometry and "
                         "lengths in 64-bit integers", where)
        if name not in integer_names:
            raise _error(f"'{e.text}' names '{name}', which is not a scalar parameter of the kernel", where)
    return e


def _error(msg: str, where: Text | None) -> KernelportError:
    return KernelportError(msg, where.loc if where else None,
                           hint="geometry and lengths may use integer scalars, numbers, sizeof, ceil_div, min, max")


# -- emitters ---------------------------------------------------------------------------------
_BIN = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "/", ast.Mod: "%",
        ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}
_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}


@dataclass(frozen=True)
class Language:
    """How one host language spells 64-bit integer arithmetic over the scalars."""
    name: str
    literal: str  # format of an integer literal
    scalar: str  # format of a scalar converted to the 64-bit integer type
    bool_to_int: str  # a comparison result as an integer
    truth: str  # an integer as a condition
    ternary: str
    invert: str
    call: dict[str, str]  # kernelport function -> helper name in the generated code


C = Language("c", "{}LL", "(long long){}", "({})", "({})", "({c} ? {a} : {b})", "~", {
    "ceil_div": "kp_ceil_div", "min": "kp_min", "max": "kp_max", "round_up": "kp_round_up"})
RUST = Language("rust", "{}i64", "({} as i64)", "(({}) as i64)", "({} != 0)", "(if {c} {{ {a} }} else {{ {b} }})",
                "!", {"ceil_div": "kp_ceil_div", "min": "kp_min", "max": "kp_max", "round_up": "kp_round_up"})
SWIFT = Language("swift", "{}", "Int({})", "(({}) ? 1 : 0)", "({} != 0)", "({c} ? {a} : {b})", "~", {
    "ceil_div": "kpCeilDiv", "min": "Swift.min", "max": "Swift.max", "round_up": "kpRoundUp"})


def emit(e: Expr, lang: Language, rename=lambda n: n) -> str:
    """`e` in `lang`, its scalar names passed through `rename` (e.g. Rust raw identifiers)."""
    def go(n: ast.AST) -> str:
        if isinstance(n, ast.Constant):
            return lang.literal.format(n.value)
        if isinstance(n, ast.Name):
            if n.id.startswith(_SIZEOF_NAME):
                t = e.sizes[int(n.id[len(_SIZEOF_NAME):])]
                if lang is C and t in _C_TYPES:
                    return f"((long long)sizeof({t}))"
                return lang.literal.format(cexpr.SIZEOF[t])
            return lang.scalar.format(rename(n.id))
        if isinstance(n, ast.UnaryOp):
            v = go(n.operand)
            if isinstance(n.op, ast.USub):
                return f"(-{v})"
            if isinstance(n.op, ast.UAdd):
                return v
            if isinstance(n.op, ast.Invert):
                return f"({lang.invert}{v})"
            return lang.bool_to_int.format(f"{v} == {lang.literal.format(0)}")
        if isinstance(n, ast.BinOp):
            return f"({go(n.left)} {_BIN[type(n.op)]} {go(n.right)})"
        if isinstance(n, ast.Compare) and len(n.ops) == 1:
            return lang.bool_to_int.format(f"{go(n.left)} {_CMP[type(n.ops[0])]} {go(n.comparators[0])}")
        if isinstance(n, ast.BoolOp):
            op = " && " if isinstance(n.op, ast.And) else " || "
            return lang.bool_to_int.format(op.join(lang.truth.format(go(v)) for v in n.values))
        if isinstance(n, ast.IfExp):
            return lang.ternary.format(c=lang.truth.format(go(n.test)), a=go(n.body), b=go(n.orelse))
        if isinstance(n, ast.Call):
            return f"{lang.call[n.func.id]}({', '.join(_bare(go(a)) for a in n.args)})"
        raise _error(f"unsupported expression '{e.text}'", e.where)

    return _bare(go(e.tree))


def _bare(s: str) -> str:
    """`s` without parentheses around the whole of it (an argument or a statement needs none)."""
    return s[1:-1] if s.startswith("(") and s.endswith(")") and _balanced(s[1:-1]) else s


def _balanced(s: str) -> bool:
    depth = 0
    for ch in s:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0
