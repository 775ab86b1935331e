"""C++ overload resolution cut to the types kernelport's model knows (backends/metal/self_calls.py reads
recursion with it; api_names and the Metal port read whether a call of a CUDA builtin's name runs the
builtin or a function of the file that overloads it).

An argument matches a parameter exactly (the same type), by conversion (two arithmetic scalars), or not at
all (a vector for a scalar, a pointer for a value, two vector types); a type the model cannot place (a
typedef, a class, a template parameter) matches uncertainly (`_UNSURE`).  A candidate wins when it is no
worse for any argument and better for one.
"""
from __future__ import annotations

from typing import Callable

from tree_sitter import Node

from . import cscalar
from .model import Function
from .source import call_args
from .template_deduction import argument_type
from .vector_types import VECTORS

# C's arithmetic spellings (cscalar's one table), and the short ones CUDA code borrows from Metal's typedefs.
_ARITHMETIC = frozenset(cscalar.TYPES) | {"uchar", "ushort"}
_UNSURE = "?"  # a match the model cannot decide


def _better(a: list, b: list) -> bool:
    """C++'s best viable function, of two candidates' per-argument ranks (0 exact, 1 a conversion)."""
    return all(x <= y for x, y in zip(a, b)) and any(x < y for x, y in zip(a, b))


def _ranks(tr, g: Function, types: list[str | None]) -> list | None:
    """Per argument, how it matches g's parameter; None when g cannot take this many arguments."""
    required = next((i for i, p in enumerate(g.params) if p.node.type == "optional_parameter_declaration"),
                    len(g.params))
    if not required <= len(types) <= len(g.params):
        return None
    templated = set(g.template_params)
    return [_rank(t, _UNSURE if p.type in templated else p.type + "*" * _depth(tr, p))
            for t, p in zip(types, g.params)]


def _depth(tr, p) -> int:
    """How many pointers deep parameter `p` is (`float** p`: 2; `float p[]`: 1; the model's Param says only
    whether it is one)."""
    return max(1, tr.src.text_of(p.node).count("*")) if p.pointer else 0


def _rank(t: str | None, p: str):
    """0: `t` is `p`; 1: a conversion makes it; None: it cannot; _UNSURE: the model cannot tell."""
    if t is None or p == _UNSURE:
        return _UNSURE
    t, p = _plain(t), _plain(p)
    kinds = _kind(t), _kind(p)
    if "other" in kinds:
        return 0 if t == p else _UNSURE
    if t == p:
        return 0
    return 1 if kinds == ("scalar", "scalar") else None


def _plain(t: str) -> str:
    return " ".join(w for w in t.replace("&", " ").replace("*", " * ").split()
                    if w not in ("const", "volatile", "__restrict__", "__restrict")).replace(" *", "*")


def _kind(t: str) -> str:
    if t.endswith("*"):
        return "other" if t.rstrip("*") in ("void", "") or _kind(t.rstrip("*")) == "other" else "pointer"
    return "scalar" if t in _ARITHMETIC else "vector" if t in VECTORS else "other"


def expression_type(tr, f: Function, n: Node, call_type: Callable[[str], str | None] = lambda name: None) -> str | None:
    """The type of argument `n` where the model knows it (template_deduction.argument_type's reading,
    with a vector's member, a vector maker's vector and `call_type`'s return type of a call); None when it
    does not."""
    while n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    if n.type == "unary_expression" and tr.src.text_of(n.child_by_field_name("operator")) in ("-", "+"):
        return expression_type(tr, f, n.child_by_field_name("argument"), call_type)
    if n.type == "pointer_expression" and n.children and n.children[0].type == "&":
        t = expression_type(tr, f, n.child_by_field_name("argument"), call_type)
        return t + "*" if t is not None else None  # `&(p->x)` of a float3* p: a float*
    if n.type == "field_expression":
        base = n.child_by_field_name("argument")
        dot = n.child_by_field_name("operator")
        t = expression_type(tr, f, base, call_type) if base is not None and dot is not None else None
        if t is not None and dot.type == "->":
            t = _plain(t)[:-1] if _plain(t).endswith("*") else None  # `p->x`: a member of what p points at
        elif dot is not None and dot.type != ".":
            t = None
        vec, member = VECTORS.get(_plain(t or "")), tr.src.text_of(n.child_by_field_name("field"))
        return vec[0] if vec is not None and member in "xyzw"[:vec[1]] else None
    if n.type == "call_expression":
        fn = n.child_by_field_name("function")
        if fn is not None and fn.type == "template_function":
            fn = fn.child_by_field_name("name")  # `f<T>(...)`: f's return type
        name = tr.src.text_of(fn) if fn is not None and fn.type == "identifier" else None
        if name is not None and name.startswith("make_") and name[5:] in VECTORS:
            return name[5:]  # CUDA's vector makers: `make_float3(...)` is a float3
        return call_type(name) if name is not None else None
    d = argument_type(tr.src, f, n)
    return None if d is None or d.array else d.base + "*" * d.depth


def runs_user_function(tr, caller: Function, call: Node, name: str,
                       call_type: Callable[[str], str | None] = lambda name: None) -> bool:
    """Whether `call` of `name` (in `caller`) may run a function of the file of that name rather than CUDA's
    builtin of that name: cuda-lbvh's `__stcg(float3* p, const float3& q)` stores each component with CUDA's
    `__stcg(&(p->x), q.x)` (a float is no float3: the builtin), while `__stcg(&out[i], v)` runs the user's."""
    users = [g for g in tr.module.functions.values() if g.name == name]
    if not users:
        return False
    types = [expression_type(tr, caller, a, call_type) for a in call_args(call)]
    return any((r := _ranks(tr, g, types)) is not None and None not in r for g in users)


def calls_cuda_builtin(tr, call: Node, name: str) -> bool:
    """Whether `call` (a call of `name`, a CUDA builtin the file also defines functions of) runs CUDA's
    builtin: no function of the file of that name can take its arguments (the port spells it as CUDA's)."""
    if call.type != "call_expression":
        return False
    users = [g for g in tr.module.functions.values() if g.name == name]
    caller = next((g for g in tr.module.functions.values()
                   if g.node.start_byte <= call.start_byte < g.node.end_byte), None)
    return bool(users) and caller is not None and not runs_user_function(tr, caller, call, name)
