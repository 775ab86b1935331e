"""A file's own C++ operator functions on vector types (hecbench's Scan.h `uint4 operator+(uint4 a, uint4 b)`
and `void operator+=(uint4 &a, uint4 b)`, sobel's `float4 operator*(float4 a, float4 b)`): the C99
parser reads no `operator`, so each free definition is renamed to a plain name of this table
(`__kp_operator_add`, ...), several of one operator becoming overloads as any function's do.  The
emulator calls the definition where the operator meets a whole vector value (emulator/operators.py),
so the program's own meaning runs, whatever its body says.  A member operator (inside a class) and
the other operators are left as written: their uses stay located refusals.
"""
from __future__ import annotations

import re

PREFIX = "__kp_operator_"
NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div",
         "+=": "add_assign", "-=": "sub_assign", "*=": "mul_assign", "/=": "div_assign"}
_HEAD = re.compile(r"\boperator\s*(\+=|-=|\*=|/=|\+|-|\*|/)\s*\(")


def operator_function(op: str) -> str | None:
    """The name a definition of `operator op` has after lowering, None for an operator not read."""
    return PREFIX + NAMES[op] if op in NAMES else None


def rename_operators(text: str) -> str:
    """One item's `operator OP(` in a free function's head (before its body) as its table name."""
    if "operator" not in text:
        return text
    brace = text.find("{")
    head = text if brace < 0 else text[:brace]
    if re.match(r"\s*(?:typedef\s+)?(?:struct|class|union)\b", head):
        return text  # a class's member operators stay (its item is the whole class)
    return _HEAD.sub(lambda m: operator_function(m.group(1)) + "(", head) + ("" if brace < 0 else text[brace:])
