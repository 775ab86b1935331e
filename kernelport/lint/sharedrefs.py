"""Reference parameters that every call the run shows binds to `__shared__` storage.

gpu4pyscf's create_tasks.cu holds device functions `_fill_ejk_tasks(int& ntasks, int& pair_kl0, ...)`
that write `ntasks` under `if (t_id == 0)` and then `__syncthreads()`: their one caller, a kernel of
rys_contract_jk_ip2.cu (which `#include "create_tasks.cu"`), passes `__shared__ int ntasks, pair_kl0`.
The function body is the kernel's code on the kernel's shared scalars: divergence.py treats a
`__shared__` scalar as one value for the block (a write by one thread published by a barrier, as in a
kernel's own body), so a reference parameter aliasing one is such a scalar too.  The file alone shows
only the guarded write to a per-thread `int&`, and every loop bound reading it was a false SY001.

A reference parameter is taken as `__shared__` storage when the run shows at least one call of its
function and every such call binds it to `__shared__` storage: a `__shared__` scalar in scope at the
call (the nearest declaration of the name, so a local shadowing it does not count), an element of a
`__shared__` array at a literal index, or a reference parameter of the calling function that is itself
such storage (followed through its own callers).  The calls are those of the function's own file
(fnscopes: the definitions each call may run) and of the run's files that include it
(kernelport.includers.Elsewhere.calls).  A function no call reaches keeps the file-alone reading; one
call with a per-thread argument keeps it too (that thread's copy really is written by one thread).

A local reference bound to `__shared__` storage (rtp-llm's sampling kernels: `auto& temp_storage =
reinterpret_cast<SamplingTempStorage<...>&>(smem_sampling)`, smem_sampling an `extern __shared__` array)
is such storage too (`locals`): `temp_storage.max_val = v` stores into shared memory, it does not make the
reference per-thread, and a reference parameter every call binds to one (`GetMaxValue(..., temp_storage)`)
is shared storage as above.
"""
from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from .. import fnscopes
from ..model import inner_declarator
from ..source import call_args

_SCOPES = ("compound_statement", "for_statement", "for_range_loop", "if_statement", "while_statement",
           "switch_statement", "case_statement")


def params(d, hazardous: set[str]) -> set[str]:
    """The keys (`name@byte`, as divergence.py names a parameter) of d's module's reference parameters
    that every call the run shows binds to `__shared__` storage.  Only those the function writes, in the
    functions that execute a barrier or a full-mask warp operation (`hazardous`, by key) are asked: a
    parameter never written keeps its callers' tags, and elsewhere no finding can change (the callers
    of the run's other files are read only for these)."""
    funcs = [f for f in d.m.functions.values() if f.body is not None and d._fkey(f) in hazardous]
    vis = d.m.visible
    ew = vis.elsewhere if vis is not None else None
    memo: dict = {}
    out = set()
    for f in funcs:
        refs = _ref_indices(f)
        written = _written(d, f) if refs else set()
        for i in refs:
            if f.params[i].name in written and _refuted(d.m, f, i, ew, memo):
                p = f.params[i]
                out.add(f"{p.name}@{p.node.start_byte}")
    return out


def locals_bound(d) -> set[str]:
    """The keys (`name@byte`) of d's module's local references (`T& r = ...`) bound to `__shared__`
    storage (_shared_storage) where they are declared."""
    out = set()
    for f in d.m.functions.values():
        if f.body is None:
            continue
        for s in d.src.index.under(f.body, "declaration"):
            for decl in s.children_by_field_name("declarator"):
                ref = decl.child_by_field_name("declarator") if decl.type == "init_declarator" else None
                x = inner_declarator(ref) if ref is not None and ref.type == "reference_declarator" else None
                if x is not None and x.type == "identifier" and \
                        _shared_storage(d.m, f, decl.child_by_field_name("value"), {}):
                    out.add(f"{x.text.decode()}@{x.start_byte}")
    return out


def _ref_indices(f) -> list[int]:
    """The positions of f's parameters declared as references (`int& n`, `int &n`)."""
    out = []
    for i, p in enumerate(f.params):
        dd = p.node.child_by_field_name("declarator")
        if dd is not None and dd.type == "reference_declarator":
            out.append(i)
    return out


def _written(d, f) -> set[str]:
    """The names f's body assigns or steps, whole or a member (`n = 0`, `n += k`, `++n`, `n.max = v`)."""
    out = set()
    for a in d.src.index.under_types(f.body, "assignment_expression", "update_expression"):
        t = a.child_by_field_name("left" if a.type == "assignment_expression" else "argument")
        while t is not None and t.type == "field_expression" and d.src.text_of(t.child_by_field_name("operator")) == ".":
            t = t.child_by_field_name("argument")
        if t is not None and t.type == "identifier":
            out.add(d.src.text_of(t))
    return out


def _calls(m, f, ew) -> list[tuple[object, Node, object]]:
    """(module, call, calling function) for every call of f: its own file's calls that may run it, and
    those of the run's other files that see its file (Elsewhere.calls, by name and arity)."""
    out = []
    for c in m.source.index.of_type("call_expression"):
        if fnscopes.callee_name(c.child_by_field_name("function")) != f.name.split("::")[-1]:
            continue
        caller = m.function_at(c)
        if caller is not f and any(g is f for g in fnscopes.callees(m, caller, c)):
            out.append((m, c, caller))
    if ew is not None and ew.root is not None:
        lo, hi = fnscopes._arity(f)
        own = Path(m.source.path).resolve()
        got, _ = ew.calls(f.name.split("::")[-1])
        for om, c, caller in got:
            if Path(om.source.path).resolve() == own:
                continue  # (the file's own calls: resolved above)
            n = len(call_args(c))
            if n >= lo and (hi is None or n <= hi):
                out.append((om, c, caller))
    return out


def _refuted(m, f, i: int, ew, memo: dict) -> bool:
    """Whether every call of f the run shows (one at least) binds its i-th parameter to `__shared__` storage."""
    return every_call(m, f, i, ew, memo, "ref", lambda om, caller, arg: _shared_arg(om, caller, arg, memo))


def every_call(m, f, i: int, ew, memo: dict, tag: str, holds) -> bool:
    """Whether the run shows a call of f and every call's i-th argument `arg` in `caller` (of module om) has
    holds(om, caller, arg); memoised in `memo` under `tag` (a cycle of calls proves nothing)."""
    key = (tag, m.source.path, f.node.start_byte, i)
    if key in memo:
        return memo[key]
    memo[key] = False
    calls = _calls(m, f, ew)
    ok = bool(calls)
    for om, c, caller in calls:
        args = call_args(c)
        if caller is None or i >= len(args) or not holds(om, caller, args[i]):
            ok = False
            break
    memo[key] = ok
    return ok


def _strip(n: Node) -> Node:
    while n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


def _shared_arg(m, caller, arg: Node, memo: dict) -> bool:
    """Whether the argument `arg` of a call in `caller` (module m) names `__shared__` storage."""
    a = _strip(arg)
    if a.type == "subscript_expression":  # s[0]: one element of a shared array for the whole block
        base = a
        while base.type == "subscript_expression":
            idx = base.child_by_field_name("indices")
            if idx is None or any(x.type != "number_literal" for x in idx.named_children):
                return False
            base = _strip(base.child_by_field_name("argument"))
        return base.type == "identifier" and _declared_shared(m, caller, base, memo, array=True)
    return a.type == "identifier" and _declared_shared(m, caller, a, memo, array=False)


_CASTS = ("reinterpret_cast", "static_cast")


def _shared_storage(m, caller, init: Node | None, memo: dict) -> bool:
    """Whether a reference's initialiser names `__shared__` storage: a shared scalar or array element
    (_shared_arg), or a shared variable or array under `reinterpret_cast<T&>(...)`/`static_cast`."""
    if init is None:
        return False
    a = _strip(init)
    if a.type == "call_expression":
        fn, args = a.child_by_field_name("function"), call_args(a)
        name = fn.child_by_field_name("name") if fn is not None and fn.type == "template_function" else None
        if name is None or name.text.decode() not in _CASTS or len(args) != 1:
            return False
        a = _strip(args[0])
        return a.type == "identifier" and any(_declared_shared(m, caller, a, memo, array=x) for x in (False, True))
    return _shared_arg(m, caller, a, memo)


def _declared_shared(m, caller, ident: Node, memo: dict, array: bool) -> bool:
    """The nearest declaration of `ident` seen from where it is used: `__shared__` (a scalar, or an array
    where `array`), a local reference bound to shared storage (a scalar), a reference parameter bound to
    shared storage by its own callers, or a file-scope `__shared__` variable."""
    name = ident.text.decode()
    decl = nearest(caller, ident)
    if decl is not None:
        s, d = decl
        if d.type == "reference_declarator":
            return not array and _shared_storage(m, caller, d.parent.child_by_field_name("value"), memo)
        return _is_shared(s) and (d.type == "array_declarator") == array
    for i, p in enumerate(caller.params):
        if p.name == name:
            vis = m.visible
            return not array and i in _ref_indices(caller) and \
                _refuted(m, caller, i, vis.elsewhere if vis is not None else None, memo)
    return any(s.name == name and s.function is None and (bool(s.dims) or s.dynamic) == array for s in m.shared)


def nearest(caller, ident: Node) -> tuple[Node, Node] | None:
    """(declaration, outermost declarator) of the nearest declaration of `ident` in `caller` before it."""
    name = ident.text.decode()
    n = ident.parent
    while n is not None and n != caller.node and n.start_byte >= caller.node.start_byte:
        if n.type in _SCOPES:
            for s in n.named_children:
                if s.start_byte >= ident.start_byte:
                    break
                d = _declares(s, name)
                if d is not None:
                    return s, d
        n = n.parent
    return None


def _declares(s: Node, name: str) -> Node | None:
    """The declarator of `name` in the declaration `s` (its outermost: an array's array_declarator)."""
    if s.type != "declaration":
        return None
    for d in s.children_by_field_name("declarator"):
        top = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
        x = top
        while x is not None and x.type != "identifier":
            x = inner_declarator(x)
        if x is not None and x.text.decode() == name:
            return top
    return None


def _is_shared(decl: Node) -> bool:
    return any(c.text == b"__shared__" for c in decl.children if c.type in ("type_qualifier", "attribute_specifier",
                                                                             "storage_class_specifier", "identifier"))
