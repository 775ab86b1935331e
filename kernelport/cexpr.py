"""The small C constant expressions that annotations use (sizes, launch geometry, scalar values).

A real C expression grammar, not Python's: literals with C's types and suffixes (`1u`, `1LL`,
`0x1p3`, `2.5f`), casts, `sizeof(T)`, unary `+ - ! ~`, the binary operators with C precedence,
`&& || ?:` (short-circuit: the branch not taken is not evaluated), and the annotation functions
`ceil_div(a, b)`, `min(a, b)`, `max(a, b)`, and GCC's bit builtins that host code folds into a
`constexpr` (`__builtin_clz(x)`, `ctz`, `popcount`, their `ll` forms).  Values carry their C type and every operation
follows C's conversions, with the checks a compiler's constant folder makes: signed overflow,
division by zero, shift counts out of range, values outside their type, non-finite results are
errors (CExprError, with the offset of the offending text and a hint), never a Python value.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

_INT_WORDS = frozenset({"signed", "unsigned", "short", "long", "int", "char"})


def int_spelling(t: str) -> str:
    """C's integer specifiers in any order (`long unsigned int`, `int long`, `signed`) as DTYPES spells the
    type (`unsigned long`, `long`, `int`); any other text as it is."""
    words = t.split()
    longs = words.count("long")
    if not words or not set(words) <= _INT_WORDS or ("signed" in words and "unsigned" in words) or \
            longs > 2 or len(words) != len(set(words)) + max(longs - 1, 0) or \
            ("char" in words) + ("short" in words) + (longs > 0) > 1 or {"char", "int"} <= set(words):
        return t  # (`short long`, `char int`: no type)
    base = "char" if "char" in words else "short" if "short" in words else " ".join(["long"] * longs) or "int"
    if "unsigned" in words:
        return "unsigned int" if base == "int" else "unsigned " + base
    return base


SIZEOF = {
    "char": 1, "signed char": 1, "unsigned char": 1, "bool": 1, "short": 2, "unsigned short": 2,
    "int": 4, "unsigned": 4, "unsigned int": 4, "uint": 4, "float": 4, "long long": 8,
    "unsigned long long": 8, "long": 8, "unsigned long": 8, "double": 8, "size_t": 8,
    "half": 2, "__half": 2, "__nv_bfloat16": 2, "bfloat": 2, "int8_t": 1, "uint8_t": 1,
    "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "int64_t": 8, "uint64_t": 8,
    "float2": 8, "float4": 16, "int2": 8, "int4": 16, "uint2": 8, "uint4": 16,
}

MAX_DEPTH = 100  # levels of nesting or chained operators, far beyond any annotation; more is an error
MAX_LENGTH = 4096  # characters in one expression


from .cscalar import (  # noqa: F401  (part of this module's interface)
    BOOL, CExprError, CHAR, CType, DOUBLE, FLOAT, HALF, INT, LLONG, LONG, SCHAR, SHORT, TYPES, UCHAR,
    UINT, ULLONG, ULONG, USHORT, Value, _common, _float_max, _in_range, _promote, _round, _show,
    convert, ctype, fits)
from . import lazy_re


# -- lexer -----------------------------------------------------------------------------------------
_TOKEN = lazy_re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<name>[A-Za-z_]\w*)
  | (?P<op><<|>>|<=|>=|==|!=|&&|\|\||//|\*\*|[-+*/%<>&|^~!?:(),])
""", re.X)

_PY_ONLY = {
    "//": "'//' is not a C operator", "**": "'**' is not a C operator",
}
_PY_HINTS = {
    "//": "C's '/' already truncates integer division; write a / b",
    "**": "write 1 << k for powers of two, or the product",
}
_PY_WORDS = {
    "and": ("&&", "Python's 'and'"), "or": ("||", "Python's 'or'"), "not": ("!", "Python's 'not'"),
    "if": ("c ? x : y", "Python's 'x if c else y'"), "else": ("c ? x : y", "Python's 'x if c else y'"),
    "True": ("1", "Python's 'True'"), "False": ("0", "Python's 'False'"), "None": ("0", "Python's 'None'"),
}


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise CExprError(f"unexpected character '{text[pos]}'", pos,
                             hint="annotation expressions are C: numbers, scalars, operators, sizeof, ceil_div, "
                                  "min, max")
        if m.lastgroup != "ws":
            if m.lastgroup == "op" and m.group() in _PY_ONLY:
                raise CExprError(_PY_ONLY[m.group()], pos, hint=_PY_HINTS[m.group()])
            out.append((m.lastgroup, m.group(), pos))
        pos = m.end()
    out.append(("end", "", len(text)))
    return out


_INT_LIT = lazy_re.compile(r"(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9]\d*)([uU](?:ll|LL|[lL])?|(?:ll|LL|[lL])[uU]?)?")
_FLOAT_LIT = lazy_re.compile(r"((?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+"
                             r"|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+)([fFlL]?)")


def _literal(text: str, offset: int) -> Value:
    m = _INT_LIT.fullmatch(text)
    if m:
        digits, suffix = m.group(1), (m.group(2) or "").lower()
        # past 64 significant digits no base fits 64 bits (and int() of a huge text is slow); leading
        # zeros are padding: C reads 0x0...01 of any length as 1
        if len((digits[2:] if digits[:2].lower() in ("0x", "0b") else digits).lstrip("0")) > 64:
            raise CExprError(f"integer literal {text[:20]}... is too large for any C integer type", offset,
                             hint="the largest is unsigned long long (18446744073709551615)")
        base = 16 if digits[:2] in ("0x", "0X") else 2 if digits[:2] in ("0b", "0B") else 8 if len(digits) > 1 \
            and digits[0] == "0" else 10
        v = int(digits[2:] if base in (16, 2) else digits, base)
        decimal = base == 10
        unsigned, size = "u" in suffix, suffix.count("l")
        cands = [INT, UINT, LONG, ULONG, LLONG, ULLONG][2 * size:]
        if unsigned:
            cands = [t for t in cands if not t.signed]
        elif decimal:
            cands = [t for t in cands if t.signed]
        for t in cands:
            if t.lo <= v <= t.hi:
                return Value(t, v)
        raise CExprError(f"integer literal {text} is too large for its type", offset,
                         hint="the largest is unsigned long long (18446744073709551615); a 'u' suffix makes "
                              "a literal unsigned")
    m = _FLOAT_LIT.fullmatch(text)
    if m:
        body, suffix = m.group(1), m.group(2).lower()
        if suffix == "l":
            raise CExprError(f"long double literal {text} is not supported", offset, hint="drop the 'L' suffix")
        try:
            v = float.fromhex(body) if body[:2] in ("0x", "0X") else float(body)
        except OverflowError:
            v = math.inf
        t = FLOAT if suffix == "f" else DOUBLE
        if not _in_range(t, v):
            raise CExprError(f"floating literal {text} is out of the range of {t.name}", offset,
                             hint=f"{t.name} holds magnitudes up to {_float_max(t):.7g}")
        return Value(t, _round(t, v))
    raise CExprError(f"cannot read number '{text}'", offset,
                     hint="C literals: 42, 42u, 42LL, 0x2a, 1.5, 1.5f, 1e-3, 0x1p-3")


# -- parser: a precedence climber over C's binary operators -----------------------------------------
_BINARY = {
    "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, "<=": 7, ">": 7, ">=": 7,
    "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}
FUNCS = {"ceil_div": 2, "min": 2, "max": 2}
# GCC's bit builtins: the operand's type (unsigned int, or unsigned long long for the `ll` form)
BIT_BUILTINS = {f"__builtin_{f}{w}": t for f in ("clz", "ctz", "popcount") for w, t in (("", UINT), ("ll", ULLONG))}
FUNCS.update(dict.fromkeys(BIT_BUILTINS, 1))


@dataclass
class Node:
    """One node of a parsed C constant expression."""
    op: str  # "lit" | "name" | "sizeof" | "cast" | "call" | "?:" | unary "u-" ... | binary operator
    offset: int
    args: tuple = ()
    value: Value | None = None
    text: str = ""  # name, function or type
    ctype: CType | None = None  # the static type, filled by _type
    start: int = -1  # where the expression's text starts (offset is its operator's)

    def __post_init__(self):
        if self.start < 0:
            self.start = self.args[0].start if self.op not in ("lit", "name", "call", "cast") and self.args \
                and not self.op.startswith("u") else self.offset


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.depth = -1  # the innermost operand is a level of its own: count only what is around it

    def peek(self, k: int = 0):
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def take(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def expect(self, s: str):
        kind, text, off = self.peek()
        if text != s or kind == "end":
            where = f"'{text}'" if kind != "end" else "the end"
            raise CExprError(f"expected '{s}' before {where}", off, hint=_GRAMMAR)
        return self.take()

    def deeper(self, off: int):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise CExprError(f"expression nested too deeply (more than {MAX_DEPTH} levels of parentheses or "
                             "operators)", off,
                             hint="annotation expressions are small: name intermediate values as scalars")

    def parse(self) -> Node:
        if not self.text.strip():
            raise CExprError("empty expression", 0, hint=_GRAMMAR)
        n = self.cond()
        kind, text, off = self.peek()
        if kind != "end":
            if kind == "name" and text in _PY_WORDS:
                c, what = _PY_WORDS[text]
                raise CExprError(f"{what} is not C", off, hint=f"write {c}")
            raise CExprError(f"unexpected '{text}' after a complete expression", off, hint=_GRAMMAR)
        return n

    def cond(self) -> Node:
        start = self.depth
        c = self.binary(1)
        kind, text, off = self.peek()
        if text == "?" and kind == "op":
            self.take()
            self.deeper(off)
            a = self.cond()
            self.expect(":")
            b = self.cond()
            self.depth = start
            return Node("?:", off, (c, a, b))
        return c

    def binary(self, min_prec: int) -> Node:
        left = self.unary()
        while True:
            kind, text, off = self.peek()
            prec = _BINARY.get(text) if kind == "op" else None
            if prec is None or prec < min_prec:
                return left
            self.take()
            self.deeper(off)
            right = self.binary(prec + 1)
            left = Node(text, off, (left, right))

    def unary(self) -> Node:
        kind, text, off = self.peek()
        saved = self.depth
        self.deeper(off)
        try:
            if kind == "op" and text in "+-!~" and text:
                self.take()
                return Node("u" + text, off, (self.unary(),))
            if kind == "op" and text == "(":
                cast = self._type_name(1)
                if cast is not None:
                    words, n = cast
                    self.i += 1 + n
                    self.expect(")")
                    return Node("cast", off, (self.unary(),), text=words)
                self.take()
                inner = self.cond()
                self.expect(")")
                inner.start = off
                return inner
            if kind == "num":
                self.take()
                return Node("lit", off, value=_literal(text, off))
            if kind == "name":
                self.take()
                if text == "sizeof":
                    return self._sizeof(off)
                if self.peek()[1] == "(" and self.peek()[0] == "op":
                    return self._call(text, off)
                if text in _PY_WORDS:
                    c, what = _PY_WORDS[text]
                    raise CExprError(f"{what} is not C", off, hint=f"write {c}")
                return Node("name", off, text=text)
            where = f"'{text}'" if kind != "end" else "the end of the expression"
            raise CExprError(f"expected a value before {where}", off, hint=_GRAMMAR)
        finally:
            self.depth = saved

    def _type_name(self, k: int) -> tuple[str, int] | None:
        """A parenthesised type name starting at token +k: (words, token count), or None."""
        words, n = [], 0
        while self.peek(k + n)[0] == "name":
            words.append(self.peek(k + n)[1])
            n += 1
        if n and self.peek(k + n)[1] == ")" and " ".join(w for w in words if w != "const") in TYPES:
            return " ".join(w for w in words if w != "const"), n
        return None

    def _sizeof(self, off: int) -> Node:
        if self.peek()[1] != "(":
            raise CExprError("sizeof needs a parenthesised type name", off, hint="write sizeof(float)")
        self.take()
        words = []
        while self.peek()[0] == "name":
            words.append(self.take()[1])
        t = int_spelling(" ".join(w for w in words if w != "const"))  # `long unsigned int`: unsigned long
        if not words or self.peek()[1] != ")":
            raise CExprError("sizeof needs a type name", off, hint="write sizeof(float); sizeof of an expression "
                                                                  "is not supported")
        self.take()
        if t not in SIZEOF:
            raise CExprError(f"unknown type in sizeof: {t}", off, hint="types: " + ", ".join(sorted(SIZEOF)))
        return Node("lit", off, value=Value(ULONG, SIZEOF[t]))

    def _call(self, name: str, off: int) -> Node:
        if name not in FUNCS:
            raise CExprError(f"unknown function '{name}'", off, hint="functions: ceil_div(a, b), min(a, b), max(a, b), "
                             "__builtin_clz / ctz / popcount(x)")
        self.take()
        args = []
        if self.peek()[1] != ")":
            args.append(self.cond())
            while self.peek()[1] == ",":
                self.take()
                args.append(self.cond())
        self.expect(")")
        if len(args) != FUNCS[name]:
            raise CExprError(f"{name}() takes {FUNCS[name]} arguments, got {len(args)}", off,
                             hint=f"write {name}(" + ", ".join("ab"[:FUNCS[name]]) + ")")
        return Node("call", off, tuple(args), text=name)


_GRAMMAR = ("annotation expressions are C: numbers, earlier scalars, sizeof(T), casts, + - * / % << >> & | ^ "
            "~ ! && || == != < <= > >= c ? a : b, ceil_div(a, b), min(a, b), max(a, b)")


# -- static types, then checked evaluation -----------------------------------------------------------
_INT_ONLY = {"%", "<<", ">>", "&", "|", "^", "u~"}
_COMPARE = {"==", "!=", "<", "<=", ">", ">=", "&&", "||", "u!"}


def _type(n: Node, names: dict[str, Value]) -> CType:
    """The C type of every node (C types are static: the branch of ?: not taken still has one)."""
    if n.op == "lit":
        t = n.value.type
    elif n.op == "name":
        if n.text not in names:
            raise CExprError(f"unknown name '{n.text}'", n.offset,
                             hint="names are scalars annotated earlier (// @kp scalar NAME = VALUE)"
                             + (f"; known: {', '.join(names)}" if names else ""))
        t = names[n.text].type
    elif n.op == "cast":
        _type(n.args[0], names)
        t = _promote(TYPES[n.text]) if TYPES[n.text] is not BOOL else INT
    else:
        ts = [_type(a, names) for a in n.args]
        if n.op in _INT_ONLY or (n.op == "call" and (n.text == "ceil_div" or n.text in BIT_BUILTINS)):
            for a, t in zip(n.args, ts):
                if t.kind != "int":
                    what = f"{n.text}()" if n.op == "call" else f"'{n.op.lstrip('u')}'"
                    raise CExprError(f"the operands of {what} must be integers, not {t.name}", a.start,
                                     hint="cast it: (int)x")
        if n.op in _COMPARE or (n.op == "call" and n.text in BIT_BUILTINS):
            t = INT
        elif n.op in ("u-", "u+", "u~"):
            t = _promote(ts[0])
        elif n.op in ("<<", ">>"):
            t = _promote(ts[0])
        elif n.op == "?:":
            t = _common(ts[1], ts[2])
        else:
            t = _common(ts[0], ts[1])
    n.ctype = t
    return t


def _bits(n: Node, a: Value) -> Value:
    """__builtin_clz / ctz / popcount of `a` (already converted to the builtin's unsigned operand type)."""
    width, v = a.type.bits, a.v
    if "popcount" in n.text:
        return Value(INT, bin(v).count("1"))
    if v == 0:  # GCC: the result is undefined for 0
        raise CExprError(f"{n.text}(0) is undefined", n.offset, hint="guard the operand: x ? __builtin_clz(x) : 32")
    return Value(INT, width - v.bit_length() if "clz" in n.text else (v & -v).bit_length() - 1)


def _overflow(n: Node, op: str, v: int, t: CType) -> CExprError:
    wider = "long long (suffix LL)" if t.bits < 64 else None
    return CExprError(f"'{op}' overflows {t.name}: the result {v} is outside {t.lo} to {t.hi} (signed overflow is "
                      "undefined in C)", n.offset,
                      hint=f"compute in {wider}, e.g. 1LL << 40" if wider else "use smaller values")


def _check_float(n: Node, t: CType, v: float, op: str) -> Value:
    if not _in_range(t, v):
        raise CExprError(f"'{op}' gives a non-finite or out-of-range {t.name} ({v})", n.offset,
                         hint="annotation values must be finite")
    return Value(t, _round(t, v))


def _int_result(n: Node, op: str, v: int, t: CType) -> Value:
    """An integer operation's exact result in `t`: signed overflow is an error, unsigned wraps."""
    if t.signed:
        if not t.lo <= v <= t.hi:
            raise _overflow(n, op, v, t)
        return Value(t, v)
    return Value(t, v & ((1 << t.bits) - 1))


def _eval(n: Node, names: dict[str, Value]) -> Value:
    op, t = n.op, n.ctype
    if op == "lit":
        return n.value
    if op == "name":
        return names[n.text]
    if op == "cast":
        target = TYPES[n.text]
        return convert(convert(_eval(n.args[0], names), target, n.offset), t)
    if op == "?:":
        c = _eval(n.args[0], names)
        return convert(_eval(n.args[1] if c.v != 0 else n.args[2], names), t, n.offset)
    if op in ("&&", "||"):
        a = _eval(n.args[0], names).v != 0
        if (op == "&&") != a:
            return Value(INT, int(a))
        return Value(INT, int(_eval(n.args[1], names).v != 0))
    if op[0] == "u":
        a = _eval(n.args[0], names)
        if op == "u!":
            return Value(INT, int(a.v == 0))
        a = convert(a, t)
        if op == "u+":
            return a
        if op == "u-":
            return _check_float(n, t, -a.v, "-") if t.kind == "float" else _int_result(n, "-", -a.v, t)
        return convert(Value(LLONG, ~a.v), t)  # u~: wraps to the type's width
    if op == "call" and n.text in BIT_BUILTINS:
        return _bits(n, convert(_eval(n.args[0], names), BIT_BUILTINS[n.text]))
    if op == "call":
        a, b = (_eval(x, names) for x in n.args)
        a, b = convert(a, t), convert(b, t)
        if n.text == "min":
            return a if a.v <= b.v else b
        if n.text == "max":
            return a if a.v >= b.v else b
        if b.v == 0:
            raise CExprError("ceil_div by zero", n.args[1].start, hint="the divisor must not be 0")
        return _int_result(n, "ceil_div", -((-a.v) // b.v), t)
    a, b = (_eval(x, names) for x in n.args)
    if op in ("<<", ">>"):
        a = convert(a, t)
        count = b.v
        if count < 0 or count >= t.bits:
            raise CExprError(f"shift count {count} is out of range for {t.name} (0 to {t.bits - 1})",
                             n.args[1].start, hint="use a wider left operand (1ULL << k) or a smaller count")
        if op == ">>":
            return Value(t, a.v >> count)
        if t.signed and a.v < 0:
            raise CExprError(f"left shift of the negative value {a.v} is undefined in C", n.offset,
                             hint="shift an unsigned value, or multiply")
        v = a.v << count
        if t.signed and getattr(names, "cxx", False) and t.hi < v < 1 << t.bits:
            # C++14 [expr.shift]: a non-negative value whose shift fits the unsigned type is that value
            # converted to the signed type (`0xf << 28` in a CUDA lane mask): C calls it overflow
            return Value(t, v - (1 << t.bits))
        return _int_result(n, "<<", v, t)
    if op in _COMPARE:
        ct = _common(n.args[0].ctype, n.args[1].ctype)
        a, b = convert(a, ct), convert(b, ct)
        return Value(INT, int({"==": a.v == b.v, "!=": a.v != b.v, "<": a.v < b.v, "<=": a.v <= b.v,
                               ">": a.v > b.v, ">=": a.v >= b.v}[op]))
    a, b = convert(a, t), convert(b, t)
    if t.kind == "float":
        if op == "/" and b.v == 0:
            raise CExprError("division by zero", n.args[1].start, hint="the divisor must not be 0")
        return _check_float(n, t, {"+": a.v + b.v, "-": a.v - b.v, "*": a.v * b.v, "/": a.v / b.v if b.v else 0}[op],
                            op)
    if op in ("/", "%"):
        if b.v == 0:
            raise CExprError("division by zero" if op == "/" else "remainder by zero", n.args[1].start,
                             hint="the divisor must not be 0")
        q = abs(a.v) // abs(b.v) * (1 if (a.v < 0) == (b.v < 0) else -1)  # C truncates toward zero
        return _int_result(n, op, q if op == "/" else a.v - q * b.v, t)
    v = {"+": a.v + b.v, "-": a.v - b.v, "*": a.v * b.v, "&": a.v & b.v, "|": a.v | b.v, "^": a.v ^ b.v}[op]
    return _int_result(n, op, v, t)


def as_value(v) -> Value:
    """A name's value: a Value as is; a Python number as C would type the literal (int, long long, ...)."""
    if isinstance(v, Value):
        return v
    if isinstance(v, bool):
        return Value(INT, int(v))
    if isinstance(v, int):
        for t in (INT, LLONG, ULLONG):
            if t.lo <= v <= t.hi:
                return Value(t, v)
        raise CExprError(f"{v} is too large for any C integer type")
    if hasattr(v, "item"):  # numpy scalars
        return as_value(v.item())
    return Value(DOUBLE, float(v))


class _Values(dict):
    """`names` as Values, each converted when the expression reads it: a caller may pass every
    constant of a file, and converting all of them per expression made a file's evaluations quadratic."""

    def __init__(self, names: dict):
        super().__init__()
        self.names = names
        self.cxx = False  # evaluator(cxx=True): C++14 signed left shifts

    def __missing__(self, name: str) -> Value:
        v = self[name] = as_value(self.names[name])
        return v

    def __contains__(self, name) -> bool:
        return name in self.names

    def __iter__(self):
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


def evaluate_typed(expr: str, names: dict) -> Value:
    """The typed value of a C expression over `names`; raises CExprError (offset into `expr`)."""
    return evaluator(expr)(names)


def evaluator(expr: str, cxx: bool = False):
    """`evaluate_typed(expr, names)` as a function of `names`, the expression parsed once (a lane mask
    evaluated at every lane); the names keep their types from one call to the next.  `cxx`: the text
    is CUDA C++'s, not an annotation's, so a signed left shift follows C++14 (see _eval)."""
    if len(expr) > MAX_LENGTH:
        raise CExprError(f"expression longer than {MAX_LENGTH} characters", 0,
                         hint="name intermediate values as scalars")
    lead = len(expr) - len(expr.lstrip())
    try:
        node = _Parser(expr.strip()).parse()
    except CExprError as e:
        e.offset += lead
        raise
    typed: list[bool] = []

    def at(names: dict) -> Value:
        try:
            vals = _Values(names)
            vals.cxx = cxx
            if not typed:
                _type(node, vals)
                typed.append(True)
            return _eval(node, vals)
        except CExprError as e:
            e.offset += lead
            raise
    return at


def evaluate(expr: str, names: dict) -> int | float:
    """Value of a C expression over `names` (numbers or Values) as a Python number."""
    return evaluate_typed(expr, names).v


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
