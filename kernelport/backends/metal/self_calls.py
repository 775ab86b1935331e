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
from ...template_deduction import argument_type
from ...vector_types import VECTORS

YES, NO, MAYBE = "yes", "no", "maybe"

_ARITHMETIC = frozenset({
    "bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned", "unsigned int",
    "signed", "signed int", "long", "unsigned long", "long long", "unsigned long long", "long int",
    "long long int", "unsigned long long int", "float", "double", "half", "size_t", "uint", "ushort", "uchar",
    *(f"{u}int{n}_t" for u in ("", "u") for n in (8, 16, 32, 64))})
_UNSURE = "?"  # a match the model cannot decide


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
    return [_rank(t, _UNSURE if p.type in templated else p.type + ("*" if p.pointer else ""))
            for t, p in zip(types, g.params)]


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


def runs_user_function(tr, caller: Function, call: Node, name: str) -> bool:
    """Whether `call` of `name` (in `caller`) may run a function of the file of that name rather than CUDA's
    builtin: cuda-lbvh's `__stcg(float3* p, const float3& q)` stores with CUDA's `__stcg(&(p->x), q.x)`."""
    return any(runs(tr, caller, g, call) != NO for g in tr.module.functions.values() if g.name == name)


def expression_type(tr, f: Function, n: Node) -> str | None:
    """The type of argument `n` where the model knows it (template_deduction.argument_type's reading,
    with a vector's member and a call's return type); None when it does not."""
    while n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    if n.type == "unary_expression" and tr.src.text_of(n.child_by_field_name("operator")) in ("-", "+"):
        return expression_type(tr, f, n.child_by_field_name("argument"))
    if n.type == "field_expression":
        base = n.child_by_field_name("argument")
        dot = n.child_by_field_name("operator")
        t = expression_type(tr, f, base) if base is not None and dot is not None and dot.type == "." else None
        vec, member = VECTORS.get(_plain(t or "")), tr.src.text_of(n.child_by_field_name("field"))
        return vec[0] if vec is not None and member in "xyzw"[:vec[1]] else None
    if n.type == "call_expression":
        name = callee_name(n.child_by_field_name("function"), tr.src.text_of)
        b = backends.get(tr.backend)
        if name in b.float_math:
            return b.float_math[name][0]
        if name is not None and name.startswith("make_") and name[5:] in VECTORS:
            return name[5:]  # CUDA's vector makers: `make_float3(...)` is a float3
        returns = tr._returns(name) if name is not None else set()
        return next(iter(returns)) if len(returns) == 1 and "*" not in returns else None
    d = argument_type(tr.src, f, n)
    return None if d is None or d.array else d.base + "*" * d.depth
