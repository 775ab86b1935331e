"""Evaluate the small C constant expressions that annotations use (sizes, launch geometry).

C semantics where they differ from Python's: `/` and `%` truncate toward zero on integers.
"""
from __future__ import annotations

import ast
import math
import re

SIZEOF = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "short": 2, "unsigned short": 2,
    "int": 4, "unsigned": 4, "unsigned int": 4, "uint": 4, "float": 4, "long long": 8,
    "unsigned long long": 8, "long": 8, "unsigned long": 8, "double": 8, "size_t": 8,
    "half": 2, "__half": 2, "__nv_bfloat16": 2, "bfloat": 2, "int8_t": 1, "uint8_t": 1,
    "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8,
    "float2": 8, "float4": 16, "int2": 8, "int4": 16, "uint2": 8, "uint4": 16,
}


class CExprError(ValueError):
    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


_SIZEOF_RE = re.compile(r"sizeof\s*\(\s*([A-Za-z_][\w ]*?)\s*\)")
_NUM_RE = re.compile(r"(?<![\w.])((?:0[xX][0-9a-fA-F]+)|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)([uUlLfF]+)\b")


def _to_python(expr: str) -> str:
    def sz(m: re.Match) -> str:
        t = " ".join(m.group(1).split())
        if t not in SIZEOF:
            raise CExprError(f"unknown type in sizeof: {t}", m.start())
        return str(SIZEOF[t])

    s = _SIZEOF_RE.sub(sz, expr)
    s = _NUM_RE.sub(lambda m: m.group(1), s)
    s = s.replace("&&", " and ").replace("||", " or ")
    s = re.sub(r"!(?!=)", " not ", s)
    return s


_FUNCS = {
    "ceil_div": lambda a, b: -((-a) // b),
    "min": min,
    "max": max,
}


def evaluate(expr: str, names: dict[str, float | int]) -> int | float:
    """Value of a C expression over `names`; raises CExprError with a message on failure."""
    try:
        tree = ast.parse(_to_python(expr.strip()), mode="eval")
    except SyntaxError as e:
        raise CExprError(f"cannot read expression '{expr.strip()}'", max((e.offset or 1) - 1, 0)) from None
    return _eval(tree.body, names)


def _eval(n: ast.AST, names):
    if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)):
        return n.value
    if isinstance(n, ast.Name):
        if n.id in names:
            return names[n.id]
        raise CExprError(f"unknown name '{n.id}'", n.col_offset)
    if isinstance(n, ast.UnaryOp):
        v = _eval(n.operand, names)
        if isinstance(n.op, ast.USub):
            return -v
        if isinstance(n.op, ast.UAdd):
            return v
        if isinstance(n.op, ast.Invert):
            return ~int(v)
        if isinstance(n.op, ast.Not):
            return int(not v)
    if isinstance(n, ast.BinOp):
        a, b = _eval(n.left, names), _eval(n.right, names)
        op = n.op
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, (ast.Div, ast.FloorDiv)):
            if b == 0:
                raise CExprError("division by zero", n.col_offset)
            if isinstance(a, int) and isinstance(b, int):
                return int(math.copysign(abs(a) // abs(b), a * b)) if a * b < 0 else a // b
            return a / b
        if isinstance(op, ast.Mod):
            if b == 0:
                raise CExprError("division by zero", n.col_offset)
            if isinstance(a, int) and isinstance(b, int):
                return int(math.fmod(a, b))
            return math.fmod(a, b)
        if isinstance(op, ast.LShift):
            return int(a) << int(b)
        if isinstance(op, ast.RShift):
            return int(a) >> int(b)
        if isinstance(op, ast.BitAnd):
            return int(a) & int(b)
        if isinstance(op, ast.BitOr):
            return int(a) | int(b)
        if isinstance(op, ast.BitXor):
            return int(a) ^ int(b)
    if isinstance(n, ast.Compare) and len(n.ops) == 1:
        a, b = _eval(n.left, names), _eval(n.comparators[0], names)
        ops = {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b, ast.Eq: a == b, ast.NotEq: a != b}
        return int(ops[type(n.ops[0])])
    if isinstance(n, ast.BoolOp):
        vals = [_eval(v, names) for v in n.values]
        return int(all(vals)) if isinstance(n.op, ast.And) else int(any(vals))
    if isinstance(n, ast.IfExp):
        return _eval(n.body, names) if _eval(n.test, names) else _eval(n.orelse, names)
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _FUNCS and not n.keywords:
        return _FUNCS[n.func.id](*[_eval(a, names) for a in n.args])
    raise CExprError("unsupported expression (use numbers, scalars, + - * / % << >>, sizeof, ceil_div, min, max)",
                     getattr(n, "col_offset", 0))


def split_top_level(text: str, sep: str = ",", brackets: str = "([{", strip: bool = True) -> list[tuple[str, int]]:
    """Split at `sep` outside brackets; (part, offset) pairs, parts stripped unless strip=False.

    brackets="(<[{" also treats angle brackets as nesting (template argument lists)."""
    closing = {"(": ")", "[": "]", "{": "}", "<": ">"}
    close = "".join(closing[b] for b in brackets)
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in brackets:
            depth += 1
        elif ch in close:
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append((text[start:i], start))
            start = i + 1
    parts.append((text[start:], start))
    if not strip:
        return parts
    out = []
    for p, off in parts:
        lead = len(p) - len(p.lstrip())
        out.append((p.strip(), off + lead))
    return out
