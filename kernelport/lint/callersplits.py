"""32-lane rows a helper takes from its callers, judged at the calls the run shows (issue 11).

A header's block reduction (TransformerEngine's `reduce_max(m, warpid)` in utils.cuh) takes its lane
from the thread index itself (`threadIdx.x % 32 == 0`) but its warp index as a parameter: its rows
are 32 lanes only where every caller passes `threadIdx.x / 32` (`>> 5`, or a local holding it).  A file
linted alone never shows that; a run over the project does (kernelport.includers.Elsewhere.calls:
the run's files that see the helper).  The helper gets the split of its callers (rowsplits then
checks its warp operations as for a split of its own) only where

- the run shows at least one call (no call is no evidence), and every call the run shows passes,
  at the same place, the caller's warp index of 32 from the same thread index the helper's lane
  uses (`threadIdx.x`): the expression itself, or a local initialised to it and never written;
- the helper never writes that parameter (a value parameter: what the caller passed stays).

The down-tree results a helper hands on (`return result;`, rowsplits._calls_of) are read in the
callers: where the run shows callers in other files, each such call's result must be read under a
leader test of that caller's own rows (`if (threadIdx.x == 0)`, warpsplits' split of the caller),
exactly as for a caller in the helper's own file; a caller that hands it on again, or has no rows
of its own, does not hold.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tree_sitter import Node

from .. import fnscopes, warpsplits
from ..source import call_args, ident_name, walk


def _elsewhere(ctx):
    vis = ctx.module.visible
    return vis.elsewhere if vis is not None and getattr(vis, "elsewhere", None) is not None else None


def splits(ctx, known: dict, wave_named: set[str], known32: frozenset[str]) -> dict:
    """Function key -> warpsplits.Split for this file's helpers whose warp index parameter every call
    the run shows binds to the caller's `threadIdx.x / 32`."""
    where = _elsewhere(ctx)
    out: dict = {}
    if where is None:
        return out
    for f in ctx.module.functions.values():
        key = ctx.key(f)
        if f.body is None or f.is_kernel or not f.is_device or key in known or key in wave_named:
            continue
        got = warpsplits.lanes_only(ctx.module, f, known32)
        if got is None or "threadIdx.x" not in got[1]:
            continue
        calls, looked = where.calls(f.name.split("::")[-1], callee=f)  # (that overload's calls only)
        if not calls or not only_called(where, f.name, looked):
            continue  # no call in the run: nothing says what the warp index is
        for i, p in enumerate(f.params):
            if p.pointer or "&" in ctx.text(p.node) or _written(ctx.src, f.body, p.name):
                continue
            if all(_warp_arg(m, call, caller, i, known32, f.name) for m, call, caller in calls):
                ident = next((n for n in walk(p.node) if n.type == "identifier" and ctx.text(n) == p.name), p.node)
                n = len(calls)
                out[key] = warpsplits.Split(ident, got[0], got[1],
                                            source=f"the warp index of 32 each of the run's {n} call{'s' if n != 1 else ''} passes")
                break
    return out


def only_called(where, name: str, looked) -> bool:
    """Every mention of `name` in the files looked in is a call of it or its own declaration: no address
    taken (`&f`, a function pointer), no explicit instantiation (`template void f<64>(..)`), whose
    callers or instances the run's calls would not show."""
    for path in looked:
        try:
            m = where.project.module(path)
        except Exception:  # noqa: BLE001 - a file that does not parse: its mentions are unknown
            return False
        src = m.source
        for i in src.named_under(src.root, "identifier", {name}):
            n, p = i, i.parent
            while p is not None and p.type in ("template_function", "qualified_identifier"):
                n, p = p, p.parent
            if p is not None and p.type == "function_declarator" and n.type == "template_function":
                return False  # `template float f<64>(float);`, `template<> float f<64>(..)`: an instance of its own
            if p is None or p.type in ("function_declarator",) or \
                    p.type == "call_expression" and p.child_by_field_name("function") == n:
                continue
            if p.type == "declaration" and any(c.type == "function_declarator" for c in p.named_children):
                continue
            return False
    return True


def _written(src, body: Node, name: str) -> bool:
    return any(warpsplits._written(src, i) for i in src.named_under(body, "identifier", {name}))


def _warp_arg(m, call: Node, caller, i: int, known32: frozenset[str], callee: str) -> bool:
    """The call's argument `i` is the caller's warp index of 32 from `threadIdx.x`."""
    args = call_args(call)
    if caller is None or caller.body is None or i >= len(args):
        return False
    src = m.source
    names32 = known32 | warpsplits._macros32(m) | warpsplits.local32(src, caller.body)
    threads = {"threadIdx.x"}
    values: dict[str, list[Node]] = {}
    for d in src.index.under(caller.body, "init_declarator"):
        name, v = ident_name(d.child_by_field_name("declarator")), d.child_by_field_name("value")
        if name:
            values.setdefault(name, []).append(v)
    for name, vs in values.items():
        if len(vs) == 1 and vs[0] is not None and " ".join(src.text_of(vs[0]).split()) == "threadIdx.x" and \
                not _changed(src, caller.body, name, callee):
            threads.add(name)
    a = args[i]
    while a.type == "parenthesized_expression" and a.named_children:
        a = a.named_children[0]
    if a.type == "identifier":
        vs = values.get(src.text_of(a), [])
        if len(vs) != 1 or vs[0] is None or _changed(src, caller.body, src.text_of(a), callee) or \
                caller.param(src.text_of(a)) is not None:
            return False
        a = vs[0]
    return warpsplits.warp_index(src, a, threads, names32)


def _changed(src, body: Node, name: str, callee: str | None = None) -> bool:
    """A local given another value after its declaration (assigned, stepped, its address taken, a
    reference to it made, or passed to a call that may take it by reference: any call but one of
    `callee`, whose parameter is a value, unless the local is `const`)."""
    const = False
    for i in src.named_under(body, "identifier", {name}):
        p = i.parent
        if p is not None and p.type == "init_declarator" and p.child_by_field_name("declarator") == i:
            decl = p.parent
            const = decl is not None and decl.type == "declaration" and \
                any(c.type == "type_qualifier" and src.text_of(c) in ("const", "constexpr") for c in decl.children)
    for i in src.named_under(body, "identifier", {name}):
        p = i.parent
        if p is None:
            continue
        if p.type == "argument_list":
            call = p.parent
            fn = call.child_by_field_name("function") if call is not None else None
            while fn is not None and fn.type in ("template_function", "qualified_identifier"):
                fn = fn.child_by_field_name("name")
            if const or (callee is not None and fn is not None and src.text_of(fn) == callee):
                continue
            return True
        if p.type == "init_declarator" and p.child_by_field_name("declarator") == i:
            continue
        if warpsplits._written(src, i):
            return True
    return False


def readers_hold(ctx, downs: set[str], check) -> bool:
    """Every call in the run's OTHER files of a helper of `downs` that hands its down-tree result to
    its callers reads that result under a leader test of the caller's own rows.  `check(adapter,
    stmt, names, split, fn)` is rowsplits' reader check; a caller in another file with no rows of its
    own, or that nests the call in another call, does not hold."""
    where = _elsewhere(ctx)
    if where is None:
        return True
    found: dict[int, dict] = {}
    for key in sorted(downs):
        fn = ctx.function_of(key)
        if fn is None or fn.is_kernel:
            continue
        calls, looked = where.calls(fn.name.split("::")[-1], callee=fn)
        if any(not (m is ctx.module or _same_file(m, ctx)) for m, _, _ in calls) and not only_called(where, fn.name, looked):
            return False
        for m, call, caller in calls:
            if m is ctx.module or _same_file(m, ctx):
                continue  # this file's callers: rowsplits checks them (a group's own calls)
            if caller is None:
                return False
            if id(m) not in found:
                found[id(m)] = warpsplits.find(m, ctx_known32(ctx))[0]
            split = found[id(m)].get(fnscopes.of(m).key(caller))
            adapter = SimpleNamespace(text=m.source.text_of)
            stmt = _statement(call)
            if split is None or stmt.type == "return_statement" or _nested(call, stmt):
                return False  # no rows of its own; handed on again; reduced again
            if not check(adapter, stmt, _results(m, stmt, call, fn), split, None):
                return False
    return True


def _same_file(m, ctx) -> bool:
    try:
        return Path(str(m.source.path)).resolve() == Path(str(ctx.module.source.path)).resolve()
    except (AttributeError, OSError):
        return False


def ctx_known32(ctx) -> frozenset[str]:
    from .rowsplits import _known32
    return _known32(ctx)


def _statement(n: Node) -> Node:
    while n.parent is not None and n.parent.type != "compound_statement" and \
            n.type not in ("expression_statement", "declaration", "return_statement"):
        n = n.parent
    return n


def _nested(call: Node, stmt: Node) -> bool:
    """The call's result is an argument of another call in its statement (another reduction of it)."""
    p = call.parent
    while p is not None and p != stmt:
        if p.type == "call_expression":
            return True
        p = p.parent
    return False


def _results(m, stmt: Node, call: Node, callee) -> set[str]:
    """The names the statement leaves the call's result in (`float v = f(..)`, `v = f(..)`, and the
    variables passed to the callee's reference parameters)."""
    src = m.source
    out: set[str] = set()
    if stmt.type == "declaration":
        out |= {ident_name(d) for d in stmt.children_by_field_name("declarator")} - {None}
    elif stmt.type == "expression_statement" and stmt.named_children and \
            stmt.named_children[0].type == "assignment_expression":
        lhs = stmt.named_children[0].child_by_field_name("left")
        if lhs is not None and lhs.type == "identifier":
            out.add(src.text_of(lhs))
    for p, a in zip(callee.params, call_args(call)):
        if a.type == "identifier" and any(c.type == "reference_declarator" for c in walk(p.node)):
            out.add(src.text_of(a))
    return out
