"""What a helper makes thread-dependent by itself: its return tag with its parameters UNIFORM.

divergence.py joins a helper's return tag over all its call sites (`self.returns`): one call with a
thread-dependent argument (prna's `wrap(ktmp, n)`) made every call's result THREAD, so a
block-uniform `j = wrap(jtmp, n)` read as thread-dependent.  This module computes R0[f], f's
return tag when every parameter is UNIFORM: what f's own reads of threadIdx, shuffles, atomics,
votes, thread-dependent control and its callees' R0 (the same rule, recursively) make it.  A call's
tag is then min(the joined return tag, max(R0[f], the tags of all its arguments)).

Why max(R0, arguments) bounds a call: every transfer of the analysis is a join of its inputs and
constants, or lowers THREAD to WARP (`/ warpSize`), so a result is never above the join of what
the body makes by itself and what flows in.  What flows in besides the arguments is kept
conservative here:
- globals: one assigned in any function body of the file reads THREAD (the joined analysis may
  tag it from any caller's arguments);
- pointer and reference parameters: a pointer argument's tag is its own (`&a[tid]`, a local array
  written with thread-dependent values: THREAD) and joins the call; a load through a parameter at
  a uniform index is UNIFORM here as in the joined analysis; a store through one is not a value
  the analysis tracks in either;
- recursion: a least fixpoint, as the joined returns; when the sweeps do not converge, no R0 at
  all (every call keeps its joined tag).
"""
from __future__ import annotations

from tree_sitter import Node

from .. import fnscopes
from ..model import inner_declarator
from ..source import ident_name
from .divergence import THREAD, UNIFORM, Divergence

SWEEPS = 10  # as Divergence.run


class ParamFreeReturns(Divergence):
    """The analysis of the called functions with parameters that no call binds: `returns` is R0."""

    def __init__(self, main: Divergence, funcs):
        self.__dict__.update(main.__dict__)  # the resolution (keys, declarations), the summaries
        self.wave_names = set(main.wave_names)  # a name this pass learns must not reach the main one early
        self.env = {k: THREAD for k in self._written_globals(funcs)}
        self.returns = {}
        self.fn = None
        self.changed = False
        self._dirty = set(self._all)
        self.computed: set[str] = set()  # the keys solve() gives an R0 (another callee's call: THREAD)

    def _written_globals(self, funcs) -> set[str]:
        """The global keys the joined analysis may bind in some function body: a name on an
        assignment's left, and a declaration whose name no scope resolves (Divergence.stmt)."""
        out = set()
        for f in funcs:
            for a in self.src.index.under(f.body, "assignment_expression"):
                left = a.child_by_field_name("left")
                if left is not None:
                    out.update(k for i in self._identifiers(left) if (k := self.key(i)).endswith("@global"))
            for d in self.src.index.under(f.body, "declaration"):
                for dd in d.children_by_field_name("declarator"):
                    name = ident_name(dd)
                    while dd is not None and dd.type != "identifier":
                        dd = inner_declarator(dd)
                    if name and dd is None:
                        out.add(f"{name}@global")
        return out

    @staticmethod
    def _identifiers(n: Node):
        if n.type == "identifier":
            yield n
        for c in n.named_children:
            yield from ParamFreeReturns._identifiers(c)

    def _call_functions(self, n: Node, tags: list[int]) -> int:
        """A parameter is never bound by a call here; the call's tag is its callees' R0 joined with
        its arguments' tags."""
        found = fnscopes.callees(self.m, self.fn, n)
        arg = max(tags, default=UNIFORM)
        if not found:
            return arg
        return max(max(self.returns.get(k, UNIFORM) if k in self.computed else THREAD, arg)
                   for k in map(self._fkey, found))

    def solve(self, called) -> dict[str, int] | None:
        self.computed = {self._fkey(f) for f in called}
        for _ in range(SWEEPS):
            self.changed = False
            for f in called:
                if id(f) not in self._dirty:
                    continue
                self._dirty.discard(id(f))
                self.fn = f
                self.stmt(f.body, ())
            if not self.changed:
                return {**{self._fkey(f): UNIFORM for f in called}, **self.returns}
        return None


def _void(src, f) -> bool:
    """A function that returns no value: no call's tag is read from it (it keeps its joined tag)."""
    t, d = f.node.child_by_field_name("type"), f.node.child_by_field_name("declarator")
    return t is not None and src.text_of(t) == "void" and d is not None and d.type == "function_declarator"


def param_free_returns(main: Divergence, funcs) -> dict[str, int]:
    """R0 by function key for the functions that return a value and that some call in the file names
    (main's worklist is set up: main._callers); a function without one (void, not called by name,
    or sweeps that do not converge) keeps its joined tag at every call."""
    called = [f for f in funcs if f.name.split("::")[-1] in main._callers and not _void(main.src, f)]
    if not called:
        return {}
    return ParamFreeReturns(main, funcs).solve(called) or {}
