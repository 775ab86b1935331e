"""Callers whose constant argument rules out the branch a launch sits in (blocksizes.py's call-site values).

A host function that runs one of several kernels picks it with a parameter (heldout80's CUDA-MCGS prototype):

    CaseOutput run_case(const char* name, int budget, int blocks, int threads, int limit, SchedulerKind scheduler) {
      if (scheduler == kWarpTicketBatch) search_warp_ticket_batch<<<blocks, threads>>>(...);
      else search_global_ticket<<<blocks, threads>>>(...);
    }
    run_case("serial-baseline", n, 1, 1, kMaxNodes, kGlobalTicket);            // the warp kernel is not launched
    run_case("warp-ticket-contention", n, 8, 128, kMaxNodes, kWarpTicketBatch);

The block sizes a launch may have come from its function's callers' arguments; a call whose argument for the
parameter a guard of the launch compares makes the guard false does not run that launch, so its sizes are not the
launch's.  A guard: an `if` of the launching function whose consequence holds the launch, a conjunct of its condition
`P == C` (`C == P`) with P a parameter of the function that the function never assigns and C a constant; a call is
ruled out where its argument for P is a constant of another value.  Constants: integer literals and the file's
enumerators whose values the file spells (an `enum` with literal initialisers or none: 0, then the previous plus 1;
a name two enumerations define is no constant here).  Anything else (a variable argument, a `!=` test, an `else`
branch, a parameter the function assigns) rules out nothing: the call's sizes stay.
"""
from __future__ import annotations

from tree_sitter import Node

from .lint.loneguards import conjuncts
from .warpsites import int_value


def required(module, f, launch_node: Node) -> dict[int, int]:
    """Parameter index -> the value the guards of the launch require it to have."""
    out: dict[int, int] = {}
    if f is None or f.body is None:
        return out
    params = [p.name for p in f.params]
    n, child = launch_node.parent, launch_node
    while n is not None and n.id != f.body.id:
        if n.type == "if_statement" and _same(n.child_by_field_name("consequence"), child):
            for c in conjuncts(n.child_by_field_name("condition")):
                got = _equality(module, c, params)
                if got is not None and not _assigned(module, f, params[got[0]]):
                    out[got[0]] = got[1]
        n, child = n.parent, n
    return out


def ruled_out(module, need: dict[int, int], args: list[Node]) -> bool:
    """Whether a call with these arguments makes one of the launch's guards false."""
    for i, v in need.items():
        if i < len(args):
            got = constant(module, args[i])
            if got is not None and got != v:
                return True
    return False


def constant(module, e: Node | None) -> int | None:
    """An integer literal's value, or an enumerator's the file spells; None otherwise."""
    while e is not None and e.type == "parenthesized_expression" and e.named_child_count == 1:
        e = e.named_children[0]
    if e is None:
        return None
    text = module.source.text_of(e).strip()
    if e.type == "number_literal":
        return int_value(text)
    if e.type == "qualified_identifier":
        text = text.split("::")[-1].strip()
    elif e.type != "identifier":
        return None
    return _enumerators(module).get(text)


def _same(a: Node | None, b: Node) -> bool:
    return a is not None and a.id == b.id


def _equality(module, c: Node, params: list[str]) -> tuple[int, int] | None:
    op = c.child_by_field_name("operator") if c.type == "binary_expression" else None
    if op is None or op.type != "==":
        return None
    for p, k in ((c.child_by_field_name("left"), c.child_by_field_name("right")),
                 (c.child_by_field_name("right"), c.child_by_field_name("left"))):
        name = module.source.text_of(p).strip() if p is not None and p.type == "identifier" else None
        v = constant(module, k)
        if name in params and v is not None:
            return params.index(name), v
    return None


def _assigned(module, f, name: str) -> bool:
    src = module.source
    for n in src.index.under_types(f.body, "assignment_expression", "update_expression"):
        t = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
        if t is not None and t.type == "identifier" and src.text_of(t) == name:
            return True
    for n in src.index.under(f.body, "pointer_expression"):  # `&scheduler` handed on may be written through
        arg = n.child_by_field_name("argument")
        if src.text_of(n).lstrip().startswith("&") and arg is not None and src.text_of(arg).strip() == name:
            return True
    return False


def _enumerators(module) -> dict[str, int]:
    got = module.__dict__.get("_kp_enum_values")
    if got is not None:
        return got
    src, values, seen, twice = module.source, {}, set(), set()
    for spec in src.index.under(src.root, "enum_specifier"):
        nxt: int | None = 0
        for e in src.index.under(spec, "enumerator"):
            name = src.text_of(e.child_by_field_name("name"))
            value = e.child_by_field_name("value")
            v = int_value(src.text_of(value).strip()) if value is not None else nxt
            if name in seen:
                twice.add(name)
            seen.add(name)
            if v is not None:
                values[name] = v
            nxt = v + 1 if v is not None else None
    got = module.__dict__["_kp_enum_values"] = {k: v for k, v in values.items() if k not in twice}
    return got
