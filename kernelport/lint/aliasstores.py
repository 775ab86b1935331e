"""Stores through a local pointer or reference to a local: the local takes the stored value's tag.

divergence.py binds a store to the variable it names; a store through an alias named nothing:

    int src = 0;
    int* p = &src;                                  // (or `int& r = src; r = ...;`)
    *p = threadIdx.x & 3;                           // src is now per thread
    unsigned b = __shfl_sync(FULL, v, src);         // read from a per-thread lane: per thread
    if (b > 5) { ... __shfl_xor_sync(FULL, ...) }   // a partial region (WS012)

src kept its declaration's UNIFORM tag, so `b` read as one lane's broadcast (lanebroadcasts.py) and the branch
as warp-uniform.  Here a local pointer initialised or assigned `&x` (also `&x.f`, `&x[i]`, or a local array x
itself), or a local reference bound to x, is an alias of x; an alias of an alias is one of its target.  Every store
whose base is an alias (`*p = E`, `p[i] = E`, `p->f = E`, `r = E`, `r.f = E`) also binds x (divergence._store).
A write through the address passed to a call (`pick(&x)`) is not followed here.
"""
from __future__ import annotations

from tree_sitter import Node

from ..model import inner_declarator


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type in ("parenthesized_expression", "cast_expression") and n.named_children:
        n = n.named_children[-1]
    return n


def _base(n: Node | None) -> Node | None:
    """The variable a place names: `x`, `x.f`, `x[i]` -> x."""
    n = _strip(n)
    while n is not None and n.type in ("field_expression", "subscript_expression"):
        if n.type == "field_expression" and n.child_by_field_name("operator") is not None and \
                n.child_by_field_name("operator").type == "->":
            return None  # `&q->f`: the pointee of q, not a local
        n = _strip(n.child_by_field_name("argument"))
    return n if n is not None and n.type == "identifier" else None


def _target(d, val: Node | None, ref: bool) -> Node | None:
    """The local an alias's initial value names (None: none)."""
    val = _strip(val)
    if val is None:
        return None
    if ref:
        return _base(val)
    if val.type == "pointer_expression" and val.child_by_field_name("operator").type == "&":
        return _base(val.child_by_field_name("argument"))
    if val.type == "identifier":  # a local array (decays to its address) or another alias
        return val
    return None


def prepare(d) -> dict[str, set[str]]:
    """Alias key -> the keys of the locals its stores may write (after declscopes resolved the keys)."""
    edges: dict[str, set[str]] = {}
    for f in d.m.functions.values():
        if f.body is None:
            continue
        for n in d.src.index.under_types(f.body, "init_declarator", "assignment_expression"):
            if n.type == "init_declarator":
                decl, val = n.child_by_field_name("declarator"), n.child_by_field_name("value")
                ref = decl is not None and decl.type == "reference_declarator"
                if decl is None or decl.type not in ("pointer_declarator", "reference_declarator"):
                    continue
                while decl is not None and decl.type != "identifier":
                    decl = inner_declarator(decl)
                alias = decl
            else:
                if n.child_by_field_name("operator").type != "=":
                    continue
                alias, val, ref = _strip(n.child_by_field_name("left")), n.child_by_field_name("right"), False
            t = _target(d, val, ref)
            if alias is None or alias.type != "identifier" or t is None:
                continue
            a, k = d.key(alias), d.key(t)
            if a.endswith("@global") or k.endswith("@global") or d.decl_at.get(k, -1) < 0:
                continue  # (parameters and globals: not a local of this thread's frame)
            if not ref and t is val and k not in d.local_arrays and k not in edges:
                continue  # `p = q`: q no local array nor alias (yet: see below)
            edges.setdefault(a, set()).add(k)
    out: dict[str, set[str]] = {}
    for a in edges:  # the closure: an alias of an alias writes its target
        seen, todo = set(), [a]
        while todo:
            for k in edges.get(todo.pop(), ()):
                if k not in seen:
                    seen.add(k)
                    todo.append(k)
        out[a] = seen - {a}
    return out
