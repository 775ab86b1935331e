"""Which of a CUB call's same-arity overloads a call is, where the HIP table's row needs to know.

CUB 2.x's in-place device scans with a stream count as many arguments as hipCUB's out-of-place ones without:
`cub::DeviceScan::InclusiveSum(tmp, bytes, d_data, n, stream)` and `InclusiveSum(tmp, bytes, d_in, d_out, n)`.
The table's row `name/N:cond` (scripts/gen_hip_api.py CUB_OVERLOADS) applies where its condition holds of
the call's arguments, shown from the file's own text:

- `intK`: argument K is an integer (the in-place call's num_items, where the out-of-place call has its output
  iterator or its operator): an integer literal, a variable the function declares with an integer type (not a
  pointer), a cast to one, `sizeof`, `v.size()`, or arithmetic of those;
- `fnK`: argument K is an operator (the in-place ExclusiveScan's scan_op, where the out-of-place call has
  d_out): constructed with no arguments (`cub::Max()`, `MyMin{}`) or a variable the function declares (`CustomMin
  min_op;`), of a cub type (not an iterator) or a class the file defines.

Anything else is not shown, and the call keeps the name's own spelling (an in-place call then fails hipcc's
overload resolution, never a silently different call)."""
from __future__ import annotations

import re

from tree_sitter import Node

from .source import call_args

_INTEGRAL = frozenset({"int", "unsigned", "unsigned int", "signed", "signed int", "long", "unsigned long", "long int",
                       "long long", "unsigned long long", "long long int", "short", "unsigned short", "size_t",
                       "std::size_t", "ptrdiff_t", "std::ptrdiff_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
                       "std::int32_t", "std::uint32_t", "std::int64_t", "std::uint64_t"})
_ARITH = frozenset({"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"})
_COND = re.compile(r"(int|fn)(\d+)")


def holds(tr, cond: str, args: list[Node]) -> bool:
    """Whether the row condition `cond` holds of the call's `args` (`tr`: the translator, its source)."""
    m = _COND.fullmatch(cond)
    if m is None or int(m.group(2)) >= len(args):
        return False
    a = args[int(m.group(2))]
    return _integral(tr, a) if m.group(1) == "int" else _operator(tr, a)


def _type(text: str) -> str:
    return " ".join(w for w in text.split() if w not in ("const", "volatile", "constexpr", "static"))


def _integral(tr, n: Node) -> bool:
    t, src = n.type, tr.src
    if t == "parenthesized_expression" and n.named_child_count == 1:
        return _integral(tr, n.named_children[0])
    if t == "number_literal":
        return re.fullmatch(r"(0[xX][0-9a-fA-F']+|[0-9']+)[uUlL]*", src.text_of(n)) is not None
    if t == "identifier":
        types = _declared(tr, n)
        return bool(types) and all(x in _INTEGRAL for x in types)
    if t == "cast_expression":
        ty = n.child_by_field_name("type")
        return ty is not None and _type(src.text_of(ty)) in _INTEGRAL
    if t == "sizeof_expression":
        return True
    if t == "binary_expression":
        op = n.child_by_field_name("operator")
        return op is not None and src.text_of(op) in _ARITH and \
            _integral(tr, n.child_by_field_name("left")) and _integral(tr, n.child_by_field_name("right"))
    if t == "call_expression":
        fn = n.child_by_field_name("function")
        field = fn.child_by_field_name("field") if fn is not None and fn.type == "field_expression" else None
        return field is not None and src.text_of(field) == "size" and not call_args(n)
    return False


def _declared(tr, n: Node) -> set:
    """The types every declaration of the identifier `n` in the function around it gives it (None for a pointer,
    an array or a reference); empty where the function declares none."""
    f = tr.module.function_at(n)
    if f is None:
        return set()
    name = tr.src.text_of(n)
    p = f.param(name)
    if p is not None:
        return {None if p.pointer else _type(p.type)}
    found = set()
    for d in tr.src.index.under(f.body, "declaration") if f.body is not None else ():
        for decl in d.children_by_field_name("declarator"):
            inner = decl.child_by_field_name("declarator") if decl.type == "init_declarator" else decl
            if inner is not None and inner.type == "identifier" and tr.src.text_of(inner) == name:
                ty = d.child_by_field_name("type")
                found.add(_type(tr.src.text_of(ty)) if ty is not None else None)
            elif inner is not None and tr.src.text_of(inner).lstrip("*&( ").startswith(name):
                found.add(None)  # a pointer or array of that name
    return found


def _operator(tr, n: Node) -> bool:
    src = tr.src
    if n.type == "identifier":  # `CustomMin min_op;` declared in the function
        types = _declared(tr, n)
        return len(types) == 1 and None not in types and _operator_type(src, next(iter(types)))
    if n.type == "call_expression" and not call_args(n):
        name = src.text_of(n.child_by_field_name("function"))
    elif n.type == "compound_literal_expression":
        ty = n.child_by_field_name("type")
        value = n.child_by_field_name("value")
        if ty is None or value is None or value.named_child_count:
            return False
        name = src.text_of(ty)
    else:
        return False
    return _operator_type(src, name)


def _operator_type(src, name: str) -> bool:
    """A cub operator (`cub::Max`) or a class the file defines (never an iterator: no template arguments)."""
    name = "".join(name.split())
    if name.startswith("cub::") and "<" not in name and "Iterator" not in name:
        return True
    last = name.rsplit("::", 1)[-1]
    return re.fullmatch(r"[A-Za-z_]\w*", last) is not None and \
        re.search(rb"\b(?:struct|class)\s+" + re.escape(last.encode()) + rb"\s*[:{]", src.data) is not None
