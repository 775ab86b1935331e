"""Where the shape of the code says a 32 counts lanes or warps (for warpflow's analyzer `an`).

- a per-warp shared array sized `THREADS / 32`: the 32 divides the block into warps, and the same
  expression elsewhere in its function counts the same warps;
- a loop the lanes of a warp walk together, `for (i = lane * C; ...; i += 32 * C)`: the stride's
  factor that is not the lane's chunk is the lane count;
- a library warp collective left at its default width (cub's `WarpReduce<T>`): the hardware warp,
  the wave on AMD;
- a helper whose shuffle width is a parameter that defaults to `warpSize` (PyTorch's
  `WARP_SHFL(v, lane, width = warpSize)`): a call that leaves it out shuffles the whole wave.
"""
from __future__ import annotations

from tree_sitter import Node

from . import collective_widths, declkeys
from .model import Function
from .source import call_args, walk
from .warpsites import HALF, LANE, LANE_OK, TID, VOTE, WS, int_value


def ladder_bounds(an) -> None:
    """Loop bounds of shuffle ladders and scans: `for (o = 16; ...)`, `for (d = 1; d < 32; ...)`."""
    for fname, var, loop in an.loops:
        if (fname, var) not in an.shuffle_vars or fname not in an.warp_keys:
            continue
        for part in ("initializer", "condition"):
            p = loop.child_by_field_name(part)
            for lit in (an.src.index.under_types(p, "number_literal", "identifier") if p is not None else ()):
                if lit.type == "number_literal" and int_value(an.src.text_of(lit)) in (16, 32):
                    role = "half" if int_value(an.src.text_of(lit)) == 16 else "ws"
                    an.confirm({(WS if role == "ws" else HALF, an.site(lit, role))}, "bounds a shuffle ladder", loop,
                               kinds=(WS, HALF))
                elif lit.type == "identifier":
                    an.confirm(an.lookup(an.src.text_of(lit), lit), "bounds a shuffle ladder", loop, kinds=(WS, HALF))


def ballot_leader(an, n: Node) -> None:
    """`if (lane == 32) words[i] = ballot;`: lane 32 stores a ballot as the leader of a second
    32-lane warp (two ballots of 32 lanes make a 64-lane mask); on a 64-wide wave it is mid-wave."""
    cond, body = n.child_by_field_name("condition"), n.child_by_field_name("consequence")
    if cond is None or body is None or not any(
            a.child_by_field_name("left").type == "subscript_expression" and
            any(k == VOTE for k, _ in an.ex(a.child_by_field_name("right")))
            for a in an.src.index.under(body, "assignment_expression")):
        return
    for c in an.src.index.under(cond, "binary_expression"):
        if an.src.text_of(c.child_by_field_name("operator")) == "==":
            lits = [x for x in (c.child_by_field_name("left"), c.child_by_field_name("right"))
                    if x.type == "number_literal" and int_value(an.src.text_of(x)) == 32]
            for lit in lits:
                an.confirm({(WS, an.site(lit, "ws"))}, "elects lane 32 to store a ballot", n, kinds=(WS,))


def per_warp_arrays(an) -> None:
    """Confirm the 32s that size per-warp shared arrays (an.warp_arrays: indexed by a lane or warp)."""
    src = an.src
    for sh in an.m.shared:
        use = an.warp_arrays.get(sh.name)
        if use is None:
            continue
        fn = an.m.function_at(sh.node)
        for d in sh.dims:
            if d.type == "number_literal" and int_value(src.text_of(d)) == 32:
                an.confirm({(WS, an.site(d, "ws"))}, f"sizes the per-warp shared array '{sh.name}'", use, kinds=(WS,))
            elif _per_warp(src, d) and fn is not None and fn.body is not None and \
                    fn.body.start_byte <= use.start_byte < fn.body.end_byte:
                text = "".join(src.text_of(d).split())
                same = [b for b in src.index.under(fn.body, "binary_expression")
                        if "".join(src.text_of(b).split()) == text]
                for b in {x.start_byte: x for x in same + [d]}.values():
                    an.confirm({(WS, an.site(b.child_by_field_name("right"), "ws"))},
                               f"counts the warps of the per-warp shared array '{sh.name}'", use, kinds=(WS,))


def lane_stride(an, var: str, loop: Node) -> None:
    """`for (i = lane * C; ...; i += 32 * C)`: confirm the stride's lane count."""
    src = an.src
    init, upd = loop.child_by_field_name("initializer"), loop.child_by_field_name("update")
    left = upd.child_by_field_name("left") if upd is not None and upd.type == "assignment_expression" else None
    # (the loop's own declaration's facts: `i` of another loop is another variable, kernelport/declkeys.py)
    if an.fn is None or an.cur not in an.warp_keys or left is None or not {LANE, LANE_OK} & {k for k, _ in (
            an.work.read(an.env, (an.cur, declkeys.key(an, left, var))) | an.work.read(an.env, (an.cur, var)))}:
        return
    if upd is None or upd.type != "assignment_expression" or \
            src.text_of(upd.child_by_field_name("operator")) != "+=" or \
            src.text_of(upd.child_by_field_name("left")) != var:
        return
    chunk = {src.text_of(f) for f in _factors(init) if not ({LANE, LANE_OK, TID} & {k for k, _ in an.ex(f)})}
    for f in _factors(upd.child_by_field_name("right")):
        if src.text_of(f) not in chunk:
            an.confirm({x for x in an.ex(f) if x[0] == WS}, "strides a loop over the lanes", loop, kinds=(WS,))


def wave_collective_types(src, dialect_name: str, f: Function) -> list[Node]:
    """The library warp collectives f instantiates at their default logical width, the hardware warp
    (`cub::WarpReduce<float>`; a class of that name that the file defines itself is the project's own,
    not the library's): the template types, in source order (collective_widths: the port writes
    CUDA's 32 where its library's default is the wave)."""
    if f.body is None:  # (dialect_name: the source's, whose table the collectives are read from)
        return []
    return collective_widths.default_width_types(src, src.index.under(f.body, "template_type"))


def width_param(an, f: Function, name: str, key: str) -> None:
    """Record f's parameter `name`, a shuffle's width, when it has a default that is no number."""
    for i, p in enumerate(f.params):
        default = p.node.child_by_field_name("default_value")
        if p.name == name and default is not None and int_value(an.src.text_of(default)) is None:
            an.width_params.setdefault(an.scopes.key(f), (i, key))


def _per_warp(src, d: Node) -> bool:
    """`THREADS / 32`: an array dimension that counts the warps of a block."""
    r = d.child_by_field_name("right") if d.type == "binary_expression" else None
    return r is not None and src.text_of(d.child_by_field_name("operator")) == "/" and \
        r.type == "number_literal" and int_value(src.text_of(r)) == 32


def _factors(n: Node | None) -> list[Node]:
    """The factors of a product (the expression itself when it is none), through parentheses
    and a declaration's or an assignment's value."""
    inner = {"parenthesized_expression": lambda x: x.named_children[0] if x.named_children else None,
             "declaration": lambda x: x.child_by_field_name("declarator"),
             "init_declarator": lambda x: x.child_by_field_name("value"),
             "assignment_expression": lambda x: x.child_by_field_name("right")}
    while n is not None and n.type in inner:
        n = inner[n.type](n)
    if n is not None and n.type == "binary_expression" and n.child_by_field_name("operator").type == "*":
        return _factors(n.child_by_field_name("left")) + _factors(n.child_by_field_name("right"))
    return [n] if n is not None else []


def literal_width(src, call: Node, width: Node | None) -> int | None:
    """A warp call's explicit logical width: its width argument when that is a literal, else a
    literal template argument of a library shuffle whose width is one (`cub::ShuffleIndex<16>(v, lane,
    mask)`); None when the call leaves the width to the hardware or to a variable."""
    if width is not None:
        return (int_value(src.text_of(width)) or 0) if width.type == "number_literal" else None
    fn = call.child_by_field_name("function")
    while fn is not None and fn.type == "qualified_identifier":
        fn = fn.child_by_field_name("name")
    targs = fn.child_by_field_name("arguments") if fn is not None and fn.type == "template_function" else None
    first = targs.named_children[0] if targs is not None and targs.named_children else None
    return (int_value(src.text_of(first)) or 0) if first is not None and first.type == "number_literal" else None


def masks_logical_shuffles(an, f: Function, call: Node) -> bool:
    """A vote whose value is only the member mask of shuffles with an explicit logical width of at
    most 32 (ADEPT's `unsigned mask = __ballot_sync(__activemask(), p);` then `__shfl_sync(mask, v,
    laneId - 1, 32)` three times): it names the lanes of those 32-lane shuffles and makes the
    function no full-wave code, so its `laneId = threadIdx.x % 32` stays the logical group's lane.
    A vote nested as the mask of such a vote (`__activemask()` there) counts the same."""
    return only_masks(an.src, f.body, call, _first_arg, lambda outer: _logical_shuffle(an, outer))


def only_masks(src, body: Node | None, call: Node, is_mask, accept) -> bool:
    """A vote `call` whose value is only a member mask: the argument `is_mask(outer, arg)` of a call
    `accept(outer)` takes (or of a vote whose value is only such a mask in turn), straight or through
    a local of the body each use of which is such an argument."""
    p = call.parent
    if p is not None and p.type == "argument_list":
        outer = p.parent
        return outer is not None and outer.type == "call_expression" and is_mask(outer, call) and (
            accept(outer) or only_masks(src, body, outer, is_mask, accept))
    if p is None or p.type != "init_declarator" or body is None:
        return False
    d = p.child_by_field_name("declarator")
    if d is None or d.type != "identifier":
        return False
    uses = [i for i in src.named_under(body, "identifier", {src.text_of(d)}) if i.id != d.id]
    return bool(uses) and all(u.parent is not None and u.parent.type == "argument_list" and
                              u.parent.parent is not None and u.parent.parent.type == "call_expression" and
                              is_mask(u.parent.parent, u) and accept(u.parent.parent) for u in uses)


def _first_arg(call: Node, arg: Node) -> bool:
    args = call.child_by_field_name("arguments")
    return args is not None and bool(args.named_children) and args.named_children[0].id == arg.id


def _logical_shuffle(an, call: Node) -> bool:
    fn = call.child_by_field_name("function")
    found = an.concept_call(an.src.text_of(fn)) if fn is not None else None
    if found is None or found[0].kind != "shuffle" or "width" not in found[1]:
        return False
    args = call_args(call)
    wi = found[1].index("width")
    lw = literal_width(an.src, call, args[wi] if wi < len(args) else None)
    return lw is not None and 0 < lw <= 32


def logical_callers(an, direct: dict[str, bool], level: set[str]) -> set[str]:
    """Functions warp-level only through their callees (`level` holds them by the call graph) whose
    own warp calls all take a literal logical width of at most 32, and which pass those callees no
    local declared from the thread index: their lane math (`laneId = threadIdx.x % 32`, `warpId =
    threadIdx.x / 32`, a slot per 32 lanes, `laneId == 31`) is their own logical group's, right on
    any wave, as in a function with no such callee.  ADEPT's alignment kernels exchange neighbours
    with `__shfl_sync(mask, v, laneId - 1, 32)` and call a block reduction that computes its lanes
    itself.  A callee given a value declared from `threadIdx` keeps its caller warp-level."""
    out = set()
    for f in an.m.functions.values():
        k = an.scopes.key(f)
        if k not in level or direct.get(k) or not 0 < an.a.logical_width.get(k, 0) <= 32 or f.body is None:
            continue
        tainted = _thread_locals(an, f)
        if not any(_passes_thread_value(an, f, n, tainted, level)
                   for n in an.src.index.under(f.body, "call_expression")):
            out.add(k)
    return out


def _thread_locals(an, f: Function) -> set[str]:
    """`threadIdx` and the locals whose declaration reads it, directly or through another such local."""
    out = {"threadIdx"}
    for d in an.src.index.under(f.body, "init_declarator"):
        name, value = d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if name is not None and name.type == "identifier" and value is not None and any(
                i.type == "identifier" and an.src.text_of(i) in out for i in walk(value)):
            out.add(an.src.text_of(name))
    return out


def _passes_thread_value(an, f: Function, call: Node, tainted: set[str], level: set[str]) -> bool:
    fn = call.child_by_field_name("function")
    targets = an.scopes.resolve(f, fn, call_args(call)) if fn is not None else None
    if not targets or not {an.scopes.key(g) for g in targets} & level:
        return False
    args = call.child_by_field_name("arguments")
    return args is not None and any(i.type == "identifier" and an.src.text_of(i) in tainted for i in walk(args))
