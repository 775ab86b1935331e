"""Calls of CUDA's mixed-sign integer overloads the target lacks (`min(int, unsigned int)`).

CUDA's math headers declare `min`/`max` for (int, unsigned int) and (unsigned int, int), both taking
the unsigned overload: the int converts to unsigned, as C's usual arithmetic conversions do
(math_functions.hpp: `unsigned int min(const int a, const unsigned int b)`). A target whose headers
have only the same-type overloads (the backend's `mixed_sign_calls`: ROCm 5's `min(int, int)`,
`min(float, float)`, ...) resolves `min(n - 1, blockIdx.x * 16 + ty)` to its float overload, which
hipcc then refuses as an array subscript, or takes silently as a float elsewhere (another value for a
negative int, a rounded one past 2^24). Where the two arguments' types are known, one int and one
unsigned int, the port converts the int one, `min((unsigned int)(n - 1), blockIdx.x * 16 + ty)`,
which is the conversion CUDA's call makes, so both targets take the same (unsigned) overload.

An argument's type is known for what says it plainly: an integer literal, a built-in coordinate
(`threadIdx.x`, unsigned int), a cast, a parameter or local whose every declaration in the function
names the same type, and +, -, *, /, %, &, |, ^, shifts and unary operators over those (C's
conversions). Anything else (a call, a member, a template type) is unknown and the call is left as
written.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import backends

if TYPE_CHECKING:
    from tree_sitter import Node

INT, UNSIGNED = "int", "unsigned int"
_COORDINATES = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim"})
_TYPES = {"int": INT, "signed": INT, "signed int": INT, "unsigned": UNSIGNED, "unsigned int": UNSIGNED,
          "uint": UNSIGNED, "uint32_t": UNSIGNED, "int32_t": INT}
_ARITHMETIC = frozenset({"+", "-", "*", "/", "%", "&", "|", "^"})
_SHIFTS = frozenset({"<<", ">>"})
_QUALIFIERS = frozenset({"const", "volatile", "static", "register"})


def _type_text(text: str) -> str | None:
    words = [w for w in text.replace("\n", " ").split() if w not in _QUALIFIERS]
    return _TYPES.get(" ".join(words))


def _literal(text: str) -> str | None:
    t = text.replace("'", "")
    digits, suffix = t.rstrip("uU"), t[len(t.rstrip("uU")):]
    if not digits or not (digits.isdigit() or (digits[:2] in ("0x", "0X") and len(digits) > 2)):
        return None  # a float, a long, another suffix
    try:
        v = int(digits, 16) if digits[:2] in ("0x", "0X") else int(digits, 8 if digits[0] == "0" and len(digits) > 1 else 10)
    except ValueError:
        return None
    if suffix:
        return UNSIGNED if v < 1 << 32 and len(suffix) == 1 else None
    if v < 1 << 31:
        return INT
    return UNSIGNED if digits[:2] in ("0x", "0X") and v < 1 << 32 else None  # a decimal past int is a long


class MixedSignCalls:
    def declared_type(self, name: str, where: "Node") -> str | None:
        """The one type every declaration of `name` in the function around `where` gives it (None where
        none does, they differ, or it is a pointer)."""
        from .warpflow import ident_name
        f = self.module.function_at(where)
        if f is None:
            return None
        found = set()
        p = f.param(name)
        if p is not None:
            found.add(None if p.pointer else _type_text(p.type))
        for d in self.src.index.under(f.body, "declaration") if f.body is not None else ():
            for decl in d.children_by_field_name("declarator"):
                if ident_name(decl) != name:
                    continue
                inner = decl.child_by_field_name("declarator") if decl.type == "init_declarator" else decl
                plain = inner is not None and inner.type == "identifier"
                found.add(_type_text(self.src.text_of(d.child_by_field_name("type")) + " " + " ".join(
                    self.src.text_of(c) for c in d.children if c.type == "type_qualifier")) if plain else None)
        return found.pop() if len(found) == 1 else None

    def int_type(self, n: "Node") -> str | None:
        """INT, UNSIGNED or None (unknown) for an integer expression, by C's conversions."""
        t = n.type
        if t == "parenthesized_expression" and n.named_child_count == 1:
            return self.int_type(n.named_children[0])
        if t == "number_literal":
            return _literal(self.src.text_of(n))
        if t == "field_expression":
            arg, field = n.child_by_field_name("argument"), n.child_by_field_name("field")
            if arg is not None and arg.type == "identifier" and self.src.text_of(arg) in _COORDINATES and \
                    field is not None and self.src.text_of(field) in ("x", "y", "z"):
                return UNSIGNED
            return None
        if t == "identifier":
            return self.declared_type(self.src.text_of(n), n)
        if t == "cast_expression":
            ty = n.child_by_field_name("type")
            return _type_text(self.src.text_of(ty)) if ty is not None else None
        if t == "unary_expression" and self.src.text_of(n.child_by_field_name("operator")) in ("-", "+", "~"):
            return self.int_type(n.child_by_field_name("argument"))
        if t == "binary_expression":
            op = self.src.text_of(n.child_by_field_name("operator"))
            left, right = self.int_type(n.child_by_field_name("left")), self.int_type(n.child_by_field_name("right"))
            if left is None or right is None:
                return None
            if op in _SHIFTS:
                return left
            if op in _ARITHMETIC:
                return UNSIGNED if UNSIGNED in (left, right) else INT
        return None

    def cast_mixed_sign_arguments(self) -> None:
        """`min(int, unsigned int)` where the target has no such overload: the int argument converted
        to unsigned int, as CUDA's overload does (module docstring)."""
        from .device_calls import device_calls
        for _call, _name, args in device_calls(self, backends.get(self.backend).mixed_sign_calls):
            kinds = [self.int_type(a) for a in args]
            if sorted(kinds, key=str) != [INT, UNSIGNED]:
                continue
            for a in args:  # the unsigned one too: HIP's `threadIdx.x` is an object that converts to it
                self.rw.replace(a, lambda rw, n: f"(unsigned int)({rw.stitch(n)})")
