"""Whether a device function's call of its own name runs itself: recursion, which Metal lacks (KP223).

A call of the function's name may run another overload: the user's (`int f(int)` calling `f(float)`) or
the math library's (helper headers' `float3 sin(float3 v)` calling `sin(v.x)`, CUDA's float `sin`).  C++
picks by the arguments' types, so the call is read as recursion only where overload resolution on the
types the model knows says so: a parameter's or local's declared type, a cast, a literal, a member of a
CUDA vector type (`v.x` of a float3 is a float), a call's return type.  Where a type is unknown and
another overload could match, it is not claimed (`MAYBE`): the port keeps the call, and the Metal
compiler has the last word.

The resolution is C++'s, cut to what the types say: an argument matches a parameter exactly (the same
type), by conversion (two arithmetic scalars), or not at all (a vector for a scalar, a pointer for a
value, two vector types); a type the model cannot place (a typedef, a class, a template parameter)
matches uncertainly.  A candidate wins when it is no worse for any argument and better for one.

A template's call of another instantiation of itself (`f<N - 1>(x)`) is another function (a
specialisation ends the chain at compile time): not recursion.  Recursion through other functions
(`even` calls `odd`, which calls `even`) is found on the graph of the calls so resolved (`cycles`).
"""
from __future__ import annotations

from tree_sitter import Node

from ... import backends, dialect
from ...model import Function
from ...source import call_args
from ...overload_ranks import _UNSURE, _better, _rank, _ranks
from ...overload_ranks import expression_type as ranks_expression_type
from ...overload_ranks import runs_user_function as user_overload_runs

YES, NO, MAYBE = "yes", "no", "maybe"


def callee_name(fn: Node | None, text) -> str | None:
    """`f` of `f(...)` and of `f<T>(...)` (a template's call of itself); None for anything else."""
    if fn is not None and fn.type == "template_function":
        fn = fn.child_by_field_name("name")
    return text(fn) if fn is not None and fn.type == "identifier" else None


def calls_itself(tr, f: Function, call: Node) -> str:
    """YES, NO or MAYBE: whether `call` (of f's own name, in f's body) runs f itself."""
    return runs(tr, f, f, call)


def runs(tr, caller: Function, g: Function, call: Node) -> str:
    """YES, NO or MAYBE: whether `call` (of g's name, in `caller`'s body) runs g rather than another overload."""
    args = call_args(call)
    if _ranks(tr, g, [None] * len(args)) is None:
        return NO  # not g's count of arguments
    fn = call.child_by_field_name("function")
    if g.template_params and (g is not caller or fn is None or fn.type == "template_function" and [
            "".join(tr.src.text_of(a).split()) for a in fn.child_by_field_name("arguments").named_children]
            != g.template_params):
        # another instantiation (`f<N - 1>(x)`: recursion at compile time, ended by a specialisation), or a
        # template reached from another function (its arguments are not read): not claimed
        return MAYBE
    rivals = [h for h in tr.module.functions.values() if h.name == g.name and h is not g and
              _ranks(tr, h, [None] * len(args)) is not None]
    library = _library_params(tr.backend, g.name, len(args))
    if not rivals and library is None:
        return YES  # the one function of that name (the arguments' types are not read: no choice to make)
    types = [expression_type(tr, caller, a) for a in args]
    others = [_ranks(tr, h, types) for h in rivals]
    if library is not None:
        others.append([_rank(t, p) for t, p in zip(types, library)] if library else [_UNSURE] * len(types))
    own = _ranks(tr, g, types)
    if None in own:
        return NO  # the arguments cannot be g's: another overload is called
    others = [r for r in others if None not in r]
    if not others:
        return YES
    if _UNSURE in own or any(_UNSURE in r for r in others):
        return MAYBE
    return YES if all(_better(own, r) for r in others) else NO


def cycles(tr, calls: list[tuple[Function, Node, str]]) -> list[tuple[Node, str]]:
    """Calls between device functions that lead back to the caller (`f` calls `h`, which calls `f`): each
    such call with the names around its cycle.  `calls`: (caller, call, name called), of other names."""
    by_name: dict[str, list[Function]] = {}
    for h in tr.module.functions.values():
        if h.name in tr.device and h.is_device:
            by_name.setdefault(h.name, []).append(h)
    names: dict[str, set[str]] = {}  # by name first: only a call that may close a cycle has its types read
    for f, _, name in calls:
        if name in by_name:
            names.setdefault(f.name, set()).add(name)
    edges: dict[int, list[tuple[Function, Node]]] = {}
    for f, call, name in calls:
        if name not in by_name or not _reaches(names, name, f.name):
            continue
        for g in by_name[name]:
            if g is not f and runs(tr, f, g, call) == YES:
                edges.setdefault(id(f), []).append((g, call))

    def path(start: Function, goal: Function) -> list[str] | None:
        """The names along a chain of calls from `start` to `goal`, or None."""
        seen, todo = {id(start)}, [(start, [start.name])]
        while todo:
            h, names = todo.pop()
            for g, _ in edges.get(id(h), ()):
                if g is goal:
                    return names
                if id(g) not in seen:
                    seen.add(id(g))
                    todo.append((g, names + [g.name]))
        return None

    found = []
    for f, call, _ in calls:
        for g, c in edges.get(id(f), ()):
            if c is call and (back := path(g, f)) is not None:
                found.append((call, " -> ".join([f.name, *back, f.name])))
                break
    return found


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        for m in graph.get(todo.pop(), ()):
            if m == goal:
                return True
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return False


def _library_params(backend: str, name: str, count: int) -> tuple | None:
    """The parameter types of the math library's overload of `name` for `count` arguments: the exact ones
    where the backend's float_math table gives them, else `double` for each (CUDA's float and double
    overloads of `sin`, `sqrtf`, `min`: any arithmetic argument converts, a float3 does not), None when
    the library has no such function."""
    b = backends.get(backend)
    if name in b.float_math:
        params = b.float_math[name][1]
        return tuple(params) if len(params) == count else None
    if name in b.library_counterparts or any(c is not None and c.kind == "math" for c in (
            dialect.lookup("cuda", name), dialect.lookup("cuda", name + "f"))):
        return tuple("double" for _ in range(count))  # a scalar: every arithmetic argument converts
    if dialect.lookup("cuda", name) is not None or name in (*getattr(b, "plain_loads", ()), *getattr(b, "plain_stores", ())):
        return ()  # CUDA's own builtin (`__stcg`, `atomicAdd`): overloads of types the model does not list
    return None




def expression_type(tr, f: Function, n: Node) -> str | None:
    """The type of argument `n` where the model knows it (overload_ranks.expression_type), a call's return
    type from the backend's float functions or the port's declarations of the callee."""
    return ranks_expression_type(tr, f, n, lambda callee: _call_type(tr, callee))


def _call_type(tr, name: str) -> str | None:
    b = backends.get(tr.backend)
    if name in b.float_math:
        return b.float_math[name][0]
    returns = tr._returns(name)
    return next(iter(returns)) if len(returns) == 1 and "*" not in returns else None


def runs_user_function(tr, caller: Function, call: Node, name: str) -> bool:
    """overload_ranks.runs_user_function, with this port's reading of calls' return types."""
    return user_overload_runs(tr, caller, call, name, lambda callee: _call_type(tr, callee))
