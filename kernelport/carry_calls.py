"""PTX's carry flag across calls: a chain whose instructions are in separate asm statements, each the body of
a small function (era-bellman-cuda's `ptx::add_cc`, `ptx::addc_cc`, `ptx::madc_hi`, one instruction each,
which carry_chain.cuh and the field arithmetic call in sequence).

The flag is one value per thread that each `.cc` instruction sets and each `c` instruction reads, in program
order.  The port makes it a C variable, `kp_carry`, and threads it by reference: every device function that
holds such a statement (a *carrier*) or calls a carrier takes it as its first parameter, every call of a
carrier passes it on, and the functions that start a thread's program order (a kernel, a host function that
calls a host-device carrier) declare it.  One variable per thread passed through every call between a writer
and its reader is the flag itself: each read sees the last write before it in program order, which is what
the hardware's flag holds where the CUDA code relies on it (the writer's value reaching its reader).  The
statements themselves are ported by kernelport.ptx_idioms with the flag as that variable (`carried`).

What cannot be followed stays KP201 at the call, naming it: a call that may run a carrier or another
function of its name (the overloads' count of arguments and template arguments, fnscopes.may_call, do not
tell them apart), two carrier calls in one expression whose order C++ leaves unsequenced, a carrier called
at file scope or from a lambda (no `kp_carry` in scope there).  The first parameter is the carry so that a
parameter with a default argument stays last.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node

from . import asm_templates, carry_masked, carry_prototypes, conditional_lists, fnscopes, ptx_idioms
from .model import Function, Module

NAME = "kp_carry"
_CLASSES = ("class_specifier", "struct_specifier", "union_specifier")
_ORDERED = ("&&", "||")  # a binary operator whose left operand is sequenced before its right


@dataclass
class Plan:
    """Where PTX's carry flag travels: the functions and calls that take it, and where it is refused."""
    carriers: set = field(default_factory=set)  # function keys (path, start, end) that take the carry
    roots: set = field(default_factory=set)  # function keys that declare it (a kernel, a host caller)
    calls: set = field(default_factory=set)  # call keys that pass it
    refused: dict = field(default_factory=dict)  # call key -> why the carry is not followed there
    unread: dict = field(default_factory=dict)  # asm statement key -> why its carry-in has no writer
    summary: dict = field(default_factory=dict)  # carrier key -> _connect's (must read first, may set, may read
    # one it did not set, must set)
    callees: dict = field(default_factory=dict)  # call key -> the carriers it may run
    events: dict = field(default_factory=dict)  # function key -> its carry events (_connect's)
    funcs: dict = field(default_factory=dict)  # function key -> the Function
    callers: dict = field(default_factory=dict)  # carrier key -> [(path, caller key, call node)]
    prototypes: set = field(default_factory=set)  # declaration keys of carriers' prototypes (carry_prototypes)
    names: set = field(default_factory=set)  # names only carriers bear in the run (carry_masked)


def key(path: str, node: Node) -> tuple[str, int, int]:
    return (path, node.start_byte, node.end_byte)


def flag_statement(text: str) -> bool:
    """Whether the asm statement `text` reads or sets the carry flag across statements (why_not's carry
    reason) and ports with the flag as a C variable in scope."""
    why = ptx_idioms.why_not(text) or ""
    return ptx_idioms.CARRY_ACROSS_MARK in why and ptx_idioms.match(text, carried=True) is not None


def parameters(f: Function) -> Node | None:
    """The parameter list of a definition's function declarator."""
    d = f.node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator") if d.type != "reference_declarator" else (
            d.named_children[-1] if d.named_children else None)
    return d.child_by_field_name("parameters") if d is not None else None


def declared_parameters(decl: Node) -> Node | None:
    """The parameter list of a prototype's function declarator (carry_prototypes)."""
    from .member_spaces import _declarator
    fd = _declarator(decl)
    return fd.child_by_field_name("parameters") if fd is not None else None


def _member(f: Function) -> bool:
    p = f.node.parent
    while p is not None:
        if p.type in _CLASSES:
            return True
        p = p.parent
    return "::" in f.name


class _Index:
    """The run's device and host-device functions by their last name, with each one's module and path."""

    def __init__(self, units: list[tuple[str, Module]]):
        self.units = units
        self.protos = carry_prototypes.prototypes(units)  # a qualified call of one names it (carry_prototypes)
        self.by_name: dict[str, list[tuple[str, Module, Function]]] = {}
        self.aliases: dict[str, list[tuple[str, Module, Function, int]]] = {}  # a body's masked heads' names
        for path, m in units:
            for f in m.functions.values():
                if f.body is not None:
                    self.by_name.setdefault((fnscopes._parts(f.name) or (f.name,))[-1], []).append((path, m, f))
                    for alias, count in carry_masked.aliases(m.source, f):
                        self.aliases.setdefault(alias, []).append((path, m, f, count))

    def targets(self, path: str, m: Module, caller: Function | None, call: Node) -> list[tuple[str, Function]]:
        """The definitions of the run a call may run: its own file's as fnscopes resolves them, else every
        function of its name whose counts of arguments and template arguments fit (qualified as spelled where
        one is), a member call's among members; those the caller's side (host, device) cannot call left out."""
        fn = call.child_by_field_name("function")
        if fn is None:
            return []
        member = fn.type == "field_expression"
        if member:
            name_node = fn.child_by_field_name("field")
            parts: tuple[str, ...] = (fnscopes._parts(name_node.text.decode()) or ("",)) if name_node is not None else ("",)
        elif fn.type in ("identifier", "qualified_identifier", "template_function"):
            parts = fnscopes._parts(fn.text.decode())
            own = fnscopes.callees(m, caller, call)
            if own:
                return [(path, f) for f in own if f.body is not None and _sides(caller, f)]
            # `FD::add(...)` of a template's type parameter FD: a static member of that class, not a namespace's
            member = len(parts) > 1 and caller is not None and parts[0] in caller.template_params
        else:
            return []
        found = [(p, g, f) for p, g, f in self.by_name.get(parts[-1] if parts else "", ())
                 if conditional_lists.may_call(f, g.source, call, m.source) and (not member or _member(f)) and _sides(caller, f)]
        if not found and not member and len(parts) == 1:  # another head of a body (carry_masked.aliases)
            n = len(fnscopes.call_args(call))
            found = [(p, g, f) for p, g, f, count in self.aliases.get(parts[0], ()) if count == n and _sides(caller, f)]
        cls = _object_class(m, caller, fn.child_by_field_name("argument")) if member else None
        if cls is not None:  # `chain.add(...)` of a `carry_chain<N> chain;`: that class's methods
            found = [(p, g, f) for p, g, f in found if (fnscopes.enclosing(f.node) + fnscopes._parts(f.name)[:-1])[-1:]
                     == (cls,)] or found
        if len(parts) > 1:
            spelled = [(p, g, f) for p, g, f in found
                       if tuple(fnscopes.of(g).qualified(f).split("::"))[-len(parts):] == parts]
            # (an alias of a class template names none of them: every candidate; a prototype's name, none of them)
            found = spelled or ([] if carry_prototypes.names_prototype(self.protos, parts) else found)
        return [(p, f) for p, _, f in found]


def _object_class(m: Module, caller: Function | None, obj: Node | None) -> str | None:
    """The class a member call's object is declared with in `caller` (a local or a parameter, `carry_chain<4>
    chain;` -> 'carry_chain'), None where it is not a plain name declared there."""
    if caller is None or obj is None or obj.type != "identifier":
        return None
    name = obj.text.decode()
    types = [p.type for p in caller.params if p.name == name and not p.pointer]
    for d in m.source.index.under(caller.node, "declaration"):
        if d.start_byte < obj.start_byte and any(
                (c.child_by_field_name("declarator") or c).text.decode() == name if c.type == "init_declarator"
                else c.text.decode() == name for c in d.children_by_field_name("declarator")):
            t = d.child_by_field_name("type")
            types.append(t.text.decode() if t is not None else "")
    parts = fnscopes._parts(types[-1]) if types else ()
    return parts[-1] if parts and re.fullmatch(r"[A-Za-z_]\w*", parts[-1]) else None


def _sides(caller: Function | None, f: Function) -> bool:
    """Whether `caller` may call `f` (never a kernel): device code a device function, host code a host one."""
    return not f.is_kernel and (caller is None or (caller.is_device and f.is_device) or (caller.is_host and f.is_host))


def plan(units: list[tuple[str, Module]]) -> Plan:
    """The carriers of the run's files (`units`: (path, module)), the calls that pass the carry, the functions
    that declare it and the calls where it is not followed."""
    out = Plan()
    calls: list[tuple[str, Module, Function | None, Node, list]] = []
    for path, m in units:
        for node, _ in m.asm:
            f = m.function_at(node)
            if f is not None and f.is_device and flag_statement(asm_templates.text(m.source, node)):
                (out.roots if f.is_kernel else out.carriers).add(key(path, f.node))
    if not out.carriers and not out.roots:
        return out  # (no carry statement in the run: no call to resolve)
    ix = _Index(units)
    for path, m in units:
        for c in m.source.index.of_type("call_expression"):
            caller = m.function_at(c)
            got = ix.targets(path, m, caller, c)
            if got:
                calls.append((path, m, caller, c, got))
    grew = True
    while grew:  # a device function that may call a carrier is one
        grew = False
        for path, m, caller, c, got in calls:
            if caller is None or not caller.is_device or caller.is_kernel or key(path, caller.node) in out.carriers:
                continue
            if any(key(p, f.node) in out.carriers for p, f in got):
                out.carriers.add(key(path, caller.node))
                grew = True
    out.prototypes = carry_prototypes.of_carriers(units, ix.protos, out.carriers, key)
    per_scope: dict[tuple, list[Node]] = {}
    for path, m, caller, c, got in calls:
        hits = [key(p, f.node) in out.carriers for p, f in got]
        if not any(hits):
            continue
        where = key(path, c)
        name = m.source.text_of(c.child_by_field_name("function"))
        if not all(hits):
            out.refused[where] = (f"this call of '{name}' may run a function that passes PTX's carry flag on (a chain "
                                  "across calls) or one of its name that does not, which its arguments do not tell apart")
        elif caller is None or _in_lambda(c, caller):
            out.refused[where] = (f"'{name}' passes PTX's carry flag on (a chain across calls), and is called "
                                  "where no function of the port holds the flag (file scope, a lambda)")
        else:
            out.calls.add(where)
            if key(path, caller.node) not in out.carriers:
                out.roots.add(key(path, caller.node))
            per_scope.setdefault((path, _statement(c).id), []).append(c)
    for path, m, caller, c, got in calls:
        out.callees[key(path, c)] = [key(p, f.node) for p, f in got if key(p, f.node) in out.carriers]
    _connect(out, units, calls)
    for (path, _), cs in per_scope.items():
        for i, a in enumerate(cs):
            for b in cs[i + 1:]:
                if not _sequenced(a, b) and not _closed_pair(out, path, a, b):
                    out.refused[key(path, b)] = (
                        f"this call and '{a.text.decode()[:60]}' both read or set PTX's carry flag, in one expression "
                        "whose order of evaluation C++ leaves open: which reads the other's carry is not known")
                    out.calls.discard(key(path, b))
    others = {f.name for p, m in units for f in m.functions.values() if key(p, f.node) not in out.carriers}
    out.names = {f.name for k, f in out.funcs.items() if k in out.carriers} - others
    out.names |= {a for a, got in ix.aliases.items() if all(key(p, f.node) in out.carriers for p, _, f, _ in got)} - others
    return out


def _closed_pair(out: Plan, path: str, a: Node, b: Node) -> bool:
    """Two unsequenced carrier calls whose order changes nothing: neither reads a flag it did not set (each chain
    of theirs starts with a write of its own: their summaries), so each computes what it does in either order, and
    what the later one leaves is read by nothing (_left_unread): ec.cuh's `fd.mul(fd.mul(y, zz), fd.sqr(z))`."""
    def closed(c: Node) -> bool:
        got = [out.summary.get(k, (True,) * 4) for k in out.callees.get(key(path, c), ())]
        return bool(got) and not any(g[2] for g in got)
    caller = next((k for k, evs in out.events.items() if any(e[0] == a for e in evs)), None)
    return closed(a) and closed(b) and caller is not None and \
        _left_unread(out, caller, _statement(a), (a, b), frozenset())


def _left_unread(out: Plan, fk: tuple, stmt: Node, done: tuple, stack: frozenset) -> bool:
    """Whether the flag as the calls `done` (of statement `stmt` in function `fk`) leave it is read by nothing:
    every carry event of the function that may run after them reads no flag it did not set, up to one that must
    set it (the call whose arguments they are, or an unconditional one after the statement); else the flag
    leaves the function so: a root's thread ends there, a carrier's callers are asked the same at each call (a
    carrier the run never calls leaves it to nothing of the run: a run's ports are judged by what it holds, as
    every carry check here)."""
    f, evs = out.funcs.get(fk), out.events.get(fk, [])
    if f is None:
        return False
    def inside(n: Node, outer: Node) -> bool:
        return outer.start_byte <= n.start_byte and n.end_byte <= outer.end_byte
    after = [e for e in evs if not any(inside(e[0], d) for d in done) and _may_follow(e[0], stmt, f)]
    kills = [e for e in after if _flags(out.summary, e)[3] and (
        all(_argument_of(d, e[0]) for d in done) or (e[0].start_byte >= stmt.end_byte and _unconditional(e[0], f)))]
    kill = min(kills, key=lambda e: e[0].end_byte) if kills else None
    if any(_flags(out.summary, e)[2] for e in after if kill is None or e is kill or e[0].start_byte < kill[0].end_byte):
        return False
    if kill is not None or fk in out.roots:
        return True
    if fk in stack:
        return False
    return all(_left_unread(out, ck, _statement(c), (c,), stack | {fk}) for _, ck, c in out.callers.get(fk, ()))


def _argument_of(inner: Node, call: Node) -> bool:
    args = call.child_by_field_name("arguments") if call.type == "call_expression" else None
    return args is not None and args.start_byte <= inner.start_byte and inner.end_byte <= args.end_byte


def _may_follow(e: Node, stmt: Node, f: Function) -> bool:
    """Whether the event `e` may run after the statement `stmt` of `f` has: after it in the text, within it
    (unsequenced: either way), or both in one loop's body."""
    return e.start_byte >= stmt.start_byte or _in_one_loop(e, stmt, f)


def _in_one_loop(node: Node, anchor: Node, f: Function) -> bool:
    """Whether a loop of `f` around `anchor` also holds `node` (a later turn runs it again)."""
    p = anchor.parent
    while p is not None and p != f.node:
        if p.type in _LOOPS and p.start_byte <= node.start_byte < p.end_byte:
            return True
        p = p.parent
    return False


def _in_lambda(node: Node, caller: Function) -> bool:
    p = node.parent
    while p is not None and p != caller.node:
        if p.type == "lambda_expression":
            return True
        p = p.parent
    return False


def _statement(node: Node) -> Node:
    """The full expression's statement (or declaration, or a `for` header's part) that holds a call."""
    p = node
    while p.parent is not None and not (p.type.endswith("statement") or p.type in ("declaration", "init_declarator")
                                        or p.parent.type in ("for_statement", "while_statement", "if_statement",
                                                             "condition_clause")):
        p = p.parent
    return p


def _sequenced(a: Node, b: Node) -> bool:
    """Whether C++ orders two calls of one full expression (or runs at most one): one inside the other's
    arguments, the operands of `&&`, `||`, `,`, or a conditional's condition and branches."""
    up: list[Node] = []
    p: Node | None = a
    while p is not None:
        up.append(p)
        p = p.parent
    ids = {n.id for n in up}
    below, p = b, b.parent
    if a.id == b.id or b.id in ids:
        return True
    while p is not None and p.id not in ids:
        below, p = p, p.parent
    if p is None:
        return False
    if p.id == a.id:
        return True  # b is inside a's arguments: evaluated before a's body runs
    if p.type in ("conditional_expression", "comma_expression"):
        return True
    if p.type == "binary_expression":
        op = p.child_by_field_name("operator")
        return op is not None and op.type in _ORDERED
    return False  # two operands, two arguments, or a call's function and its argument: unordered


def for_translator(tr) -> tuple[Plan, str]:
    """The run's plan and this file's path in it (a translator outside a run: its own module alone)."""
    vis = getattr(tr.module, "visible", None)
    ew = getattr(vis, "elsewhere", None)
    if ew is None or ew.root is None:
        got = tr.__dict__.get("_kp_carry_plan")
        if got is None:
            got = tr.__dict__["_kp_carry_plan"] = (plan([("", tr.module)]), "")
        return got
    from .includers import _run_files
    proj, root = ew.project, str(Path(ew.root).resolve())
    cached = proj.__dict__.get("_kp_carry_plan")
    if cached is None:
        units = []
        for f in _run_files(proj):
            try:
                units.append((str(Path(f).resolve()), proj.module(f)))
            except Exception:  # noqa: BLE001 - a file that does not parse holds no carrier; the command reports it
                continue
        if root not in {p for p, _ in units}:
            units.append((root, tr.module))
        cached = proj.__dict__["_kp_carry_plan"] = plan(units)
    return cached, root


_BRANCHES = ("if_statement", "for_statement", "for_range_loop", "while_statement", "switch_statement", "case_statement",
             "conditional_expression", "lambda_expression", "try_statement", "catch_clause")
_LOOPS = ("for_statement", "for_range_loop", "while_statement", "do_statement")


def _asm_flags(text: str) -> tuple[bool, bool]:
    """(reads the flag before setting it, sets it) of a carry statement, its instructions in order."""
    reads = writes = False
    for n in ptx_idioms._names(text):
        c = re.fullmatch(r"(add|sub|mad)(c?)(?:\.(lo|hi))?(\.cc)?\.u(32|64)", n)
        if c is not None:
            reads = reads or (bool(c.group(2)) and not writes)
            writes = writes or bool(c.group(4))
    return reads, writes


def _unconditional(node: Node, f: Function) -> bool:
    """Whether every run of `f` reaches `node`: no branch, loop or `&&`/`||` around it, no return before it."""
    p = node.parent
    while p is not None and p != f.node:
        if p.type in _BRANCHES or (p.type == "binary_expression" and p.child_by_field_name("operator") is not None
                                   and p.child_by_field_name("operator").type in _ORDERED):
            return False
        p = p.parent
    return not any(r.end_byte <= node.start_byte for r in _returns(f))  # (a return before it; not the one it is in)


def _returns(f: Function) -> list[Node]:
    got = f.__dict__.get("_kp_returns")
    if got is None:
        got, todo = [], [f.body] if f.body is not None else []
        while todo:
            n = todo.pop()
            if n.type == "return_statement":
                got.append(n)
            elif n.type != "lambda_expression":
                todo.extend(n.children)
        f.__dict__["_kp_returns"] = got
    return got


def _may_precede(w: Node, e: Node, f: Function) -> bool:
    """Whether the event `w` may run before `e` in `f`: earlier in the text, inside e's arguments, or both in one
    loop's body."""
    if w.end_byte <= e.start_byte or (e.start_byte <= w.start_byte and w.end_byte <= e.end_byte and w != e):
        return True
    return _in_one_loop(w, e, f)


def _flags(summary: dict, ev) -> tuple[bool, bool, bool, bool]:
    """An event's (must read the flag first, may set it, may read one it did not set, must set it): an asm
    statement's own, a call's from its carriers' summaries (unknown ones as doing nothing yet)."""
    node, own, callees, _ = ev
    if own is not None:
        return own[0], own[1], own[0], own[1]
    got = [summary.get(k, (False,) * 4) for k in callees]
    return (bool(got) and all(g[0] for g in got), any(g[1] for g in got), any(g[2] for g in got),
            bool(got) and all(g[3] for g in got))


def _connect(out: Plan, units, calls) -> None:
    """A carry-in no writer may reach is KP201 at the call (or statement) that reads it: each function's
    events (its carry statements and carrier calls) in program order, a carrier summarised as whether it
    must read the flag before it sets it (a read every run reaches first) and whether it may set it; a
    thread's chain starts unset at a kernel's or host function's entry."""
    events: dict[tuple, list] = {}  # function key -> [(node, reads (statement), callee keys or None, path)]
    funcs: dict[tuple, Function] = {}
    for path, m in units:
        for node, _ in m.asm:
            f = m.function_at(node)
            if f is not None and (key(path, f.node) in out.carriers | out.roots) and flag_statement(asm_templates.text(m.source, node)):
                events.setdefault(key(path, f.node), []).append((node, _asm_flags(asm_templates.text(m.source, node)), None, path))
                funcs[key(path, f.node)] = f
    for path, m, caller, c, got in calls:
        if (key(path, c) in out.calls or key(path, c) in out.refused) and caller is not None:  # (a refused call may
            # set it: what follows is not called unconnected for it)
            events.setdefault(key(path, caller.node), []).append(
                (c, None, [key(p, f.node) for p, f in got if key(p, f.node) in out.carriers], path))
            funcs[key(path, caller.node)] = caller
    # per carrier: (must read the flag first, may set it, may read one it did not set, must set it)
    summary: dict[tuple, tuple[bool, bool, bool, bool]] = {}
    out.events, out.funcs = events, funcs
    for path, m, caller, c, got in calls:
        if caller is not None:
            for p, f in got:
                out.callers.setdefault(key(p, f.node), []).append((path, key(path, caller.node), c))

    def flags(ev) -> tuple[bool, bool, bool, bool]:
        return _flags(summary, ev)
    changed = True
    while changed:  # (each grows from False: a recursive carrier settles)
        changed = False
        for k, evs in events.items():
            if k not in out.carriers:
                continue
            f = funcs[k]

            def unset(e) -> bool:  # no event that may set the flag may run before e
                return not any(flags(x)[1] and x[0] != e[0] and _may_precede(x[0], e[0], f) for x in evs)
            got = (any(flags(e)[0] and _unconditional(e[0], f) and unset(e) for e in evs), any(flags(e)[1] for e in evs),
                   any(flags(e)[2] and unset(e) for e in evs), any(flags(e)[3] and _unconditional(e[0], f) for e in evs))
            if got != summary.get(k, (False,) * 4):
                summary[k], changed = got, True
    out.summary = summary
    for k in out.roots:
        evs, f = events.get(k, []), funcs.get(k)
        for e in evs:
            if flags(e)[0] and key(e[3], e[0]) not in out.refused and \
                    not any(flags(x)[1] and x[0] != e[0] and _may_precede(x[0], e[0], f) for x in evs):
                node, own, _, path = e
                what = "this asm statement reads" if own is not None else \
                    f"'{node.child_by_field_name('function').text.decode()}' reads"
                why = (f"a carry chain across calls: {what} PTX's carry flag before setting it, and nothing before it "
                       "in this thread sets it (no `.cc` instruction, no call of a function that does): the carry-in "
                       "has no writer to connect to")
                (out.unread if own is not None else out.refused)[key(path, node)] = why
                if own is None:
                    out.calls.discard(key(path, node))
