"""A kernel that runs no warp-level code says nothing about its group's warp width (kernelport/warpwidth.py).

A group is a connected set of functions in the call graph, so a kernel joins the warp kernels' group through a
helper they share (mcgs' device-side graph search: `initialize_search<<<1, 1>>>` and the warp-batched search both
call its storage helpers).  Its launch geometry (one thread) then decided the group's width as if its threads
ran the group's votes and shuffles, which none of them does: the group was undecided (KP219) for a block that
meets no warp operation.  A kernel none of whose code, nor any function it calls in the file (fnscopes'
definitions), is warp-level (warpflow's set: code whose meaning depends on the warp width) runs the same at any
width, so warpwidth reads the geometry of the group's other kernels only.  Where no kernel of the group runs
warp-level code, every kernel's geometry is read, as before (the group's width then changes no code of theirs).
"""
from __future__ import annotations

from . import fnscopes

_DEPTH = 16


def runs_warp_code(module, kernel, warp_level: set[str] | None) -> bool:
    """Whether `kernel` or a function it calls (a few calls deep) is in `warp_level` (function keys); True where
    the set is not known."""
    if warp_level is None:
        return True
    scopes = fnscopes.of(module)
    seen, todo = {kernel.node.id}, [(kernel, 0)]
    while todo:
        f, depth = todo.pop()
        if scopes.key(f) in warp_level:
            return True
        if f.body is None or depth >= _DEPTH:
            continue
        for call in module.source.index.under(f.body, "call_expression"):
            for c in fnscopes.callees(module, f, call):
                if c.node.id not in seen:
                    seen.add(c.node.id)
                    todo.append((c, depth + 1))
    return False


def entries(module, entries: list, warp_level: set[str] | None) -> list:
    """The group's kernels (and functors) whose geometry speaks for its width: those that run warp-level code,
    or all where none does."""
    warp = [f for f in entries if runs_warp_code(module, f, warp_level)]
    return warp or entries
