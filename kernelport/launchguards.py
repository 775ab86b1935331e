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

P must be the parameter wherever the function names it, with the caller's value: a parameter the function
assigns, declares again (a local or a lambda's parameter of that name: `{ Kind kind = ...; if (kind == kWarp) ... }`
tests the local), hands by its bare name to a call that may take it by non-const reference (a callee the file does
not define, or defines with a `T&` there) or reads into (`std::cin >> kind`) guards nothing.  And the argument must
reach P as its value: P's type is an `int`-like integer of at least 32 bits or one of the file's enumerations (a
`bool` P is true for `run(..., 2)`, which `kind == 1` then passes; a char is 1 for 257).
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
                if got is not None and _exact_type(module, f.params[got[0]]) and \
                        not _assigned(module, f, params[got[0]]):
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


_INTS = frozenset(("int", "signed", "unsigned", "signed int", "unsigned int", "long", "unsigned long", "long int",
                   "long long", "unsigned long long", "size_t", "std::size_t", "int32_t", "uint32_t", "int64_t",
                   "uint64_t", "std::int32_t", "std::uint32_t", "std::int64_t", "std::uint64_t"))
_DECLARATORS = ("init_declarator", "declaration", "parameter_declaration", "optional_parameter_declaration",
                "reference_declarator", "pointer_declarator", "array_declarator", "for_range_loop")


def _exact_type(module, p) -> bool:
    """Whether a constant argument reaches parameter `p` as its value: p is an int-like integer of >= 32 bits
    or one of the file's enumerations, by value or const reference (not a bool, a char, a float or a pointer)."""
    if p.pointer:
        return False
    t = " ".join(p.type.split())
    if t in _INTS:
        return True
    name = t.split("::")[-1]
    for n in module.source.named_under(module.source.root, "type_identifier", (name,)):
        up = n.parent
        if up is not None and up.type == "enum_specifier" and up.child_by_field_name("name") == n:
            return True  # `enum Kind { ... }`
        ty = up.child_by_field_name("type") if up is not None and up.type == "type_definition" else None
        if ty is not None and ty.type == "enum_specifier" and n in up.children_by_field_name("declarator"):
            return True  # `typedef enum { ... } Kind;`
    return False


def _by_value(module, call: Node, i: int) -> bool:
    """Whether every function of the file that `call` may reach by its plain name takes argument `i` by
    value or const reference (False where the file defines none: the callee may write through a reference)."""
    fn = call.child_by_field_name("function")
    if fn is None or fn.type != "identifier":
        return False
    name = module.source.text_of(fn)
    fs = [g for g in module.functions.values() if g.name.split("::")[-1] == name]
    for g in fs:
        if i >= len(g.params):
            continue
        d = g.params[i].node.child_by_field_name("declarator")
        if d is not None and d.type == "reference_declarator" and not g.params[i].const:
            return False
    return bool(fs)


def _assigned(module, f, name: str) -> bool:
    """Whether `f` may give parameter `name` another value than its caller's, or names another variable so."""
    src = module.source
    for n in src.named_under(f.body, "identifier", (name,)):
        up = n.parent
        if up is None:
            continue
        if up.type in _DECLARATORS and up.child_by_field_name("declarator") == n or \
                up.type == "structured_binding_declarator":
            return True  # `Kind kind = ...;` in a block, a lambda's `(Kind kind)`: another variable
        if up.type == "argument_list" and up.parent is not None and up.parent.type == "call_expression" and \
                not _by_value(module, up.parent, [c.id for c in up.named_children if c.type != "comment"].index(n.id)):
            return True  # `pick(kind)`: pick may take it by reference and write it
        if up.type == "binary_expression" and src.text_of(up.child_by_field_name("operator")) == ">>" and \
                up.child_by_field_name("right") == n:
            return True  # `std::cin >> kind`
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
