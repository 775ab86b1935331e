"""Reads of per-warp slots bounded by a count of 32-lane warps that a wave-wide port leaves at 32.

A two-level block reduction writes one shared slot per warp (`if (lane == 0) part[warp] = v;`) and
reads the slots back: `v = lane < 256 / 32 ? part[lane] : 0.0f;`, `if (tid < NWARPS) v = part[tid];`,
`for (int i = 0; i < 8; ++i) s += part[i];`, `part[0] + part[1] + ... + part[7]`.  Ported to the
wave (`tid / warpSize`), a 256-thread block writes slots 0-3 at wave 64, and a read bounded by a
constant the port does not rewrite (no confirmed warp-size site in it, nor in the macro or constant
it names) still takes 8: slots 4-7 no wave wrote, and every lane that reads the second level's
result gets another sum.  Such a bound says the code counts its block in warps of 32: warpwidth.decide
marks the native group (`Group.counted`) and translate keeps its CUDA 32-lane groups (`adopted`), exact at
any wave width; lint still reads the code as written.  A bound the port does rewrite (`blockDim.x / 32`
-> `blockDim.x / warpSize`) or one that no constant decides (a parameter) is left to the wave-wide port.
"""
from __future__ import annotations

from tree_sitter import Node

from .blockdims import names as _names, value as _value
from .model import Function
from .source import ident_name, walk
from .warpsites import LANE, LANE_OK, WARP, WARP_OK, WS_OK

_UPPER = {"<": "left", "<=": "left", ">": "right", ">=": "right"}  # the side an upper bound bounds
_CONDITIONED = ("if_statement", "conditional_expression", "for_statement", "while_statement", "do_statement")


def evidence(an) -> dict[str, Node]:
    """Function key -> the first read of its per-warp slots bounded by a fixed count of 32-lane warps
    (the bound's node), for the warp-level functions of the analysis `an` (warpflow's, after its fixpoint)."""
    src, out = an.src, {}
    if not an.warp_arrays:
        return out
    known = _names(an.m)
    rewritten = [s.node for s in an.a.sites if s.confirmed]
    for f in an.m.functions.values():
        key = an.scopes.key(f)
        if f.body is None or key not in an.warp_keys:
            continue
        subs = [n for n in src.index.under(f.body, "subscript_expression") if _array(src, n) in an.warp_arrays]
        stores = [(_array(src, n), _kinds(an, f, _index(n))) for n in subs if _stored(n)]
        lanes = {a for a, k in stores if {LANE, LANE_OK} & k and not {WARP, WARP_OK} & k}  # also per-lane storage
        slots = {a for a, k in stores if {WARP, WARP_OK} & k} - lanes  # one slot per warp, nothing else
        for n in subs:
            if _array(src, n) in slots and not _stored(n) and \
                    (bound := _fixed_bound(an, f, n, known, rewritten)) is not None:
                out[key] = bound
                break
    return out


def _array(src, n: Node) -> str | None:
    base = n.child_by_field_name("argument")
    return src.text_of(base) if base is not None and base.type == "identifier" else None


def _index(n: Node) -> Node | None:
    idx = n.child_by_field_name("indices")
    return idx.named_children[0] if idx is not None and idx.named_children else None


def _stored(n: Node) -> bool:
    """Whether the subscript is only written: the left side of a plain `=` (`+=` reads it too); a slot's
    first index of a row of values is written as the whole element is (`part[warp][0] = v`)."""
    while n.parent is not None and n.parent.type == "subscript_expression" and n.parent.child_by_field_name("argument") == n:
        n = n.parent
    p = n.parent
    return p is not None and p.type == "assignment_expression" and p.child_by_field_name("left") == n and \
        p.child_by_field_name("operator").type == "="


def _kinds(an, f: Function, n: Node | None) -> set[str]:
    """The fact kinds of an expression of f, as the fixpoint left them."""
    if n is None:
        return set()
    fn, cur = an.fn, an.cur
    an.fn, an.cur = f, an.scopes.key(f)
    try:
        return {k for k, _ in an.ex(n)}
    finally:
        an.fn, an.cur = fn, cur


def _fixed_bound(an, f: Function, read: Node, known, rewritten) -> Node | None:
    """A constant slot (`part[7]`) or a test on the read's index against a fixed count (`lane < 8`)."""
    src, idx = an.src, _index(read)
    if idx is None:
        return None
    v = _value(idx, an.m, known, f)
    if v is not None:
        return idx if v >= 1 and _fixed(an, f, idx, known, rewritten) else None
    terms = {" ".join(src.text_of(c).split()) for c in walk(idx) if c.type in ("identifier", "field_expression")}
    child, p = read, read.parent
    while p is not None and child != f.body:
        cond = _condition(src, p, child)
        for c in (walk(cond) if cond is not None else ()):
            side = _UPPER.get(src.text_of(c.child_by_field_name("operator"))) if c.type == "binary_expression" else None
            if side is None:
                continue
            x, bound = c.child_by_field_name(side), c.child_by_field_name("right" if side == "left" else "left")
            if x is not None and bound is not None and " ".join(src.text_of(x).split()) in terms and \
                    (_value(bound, an.m, known, f) or 0) >= 1 and _fixed(an, f, bound, known, rewritten):
                return bound  # `lane < 8`, `8 > tid`: at most that many slots (`warp > 0` bounds nothing above)
        child, p = p, p.parent
    return None


def _condition(src, p: Node, child: Node) -> Node | None:
    """The condition that decides whether `child` (a part of `p`) runs: an `if`'s, a `?:`'s, a loop's, or
    the left side of `&&` for its right side."""
    if p.type in _CONDITIONED:
        cond = p.child_by_field_name("condition")
        return cond if cond is not None and cond != child else None
    if p.type == "binary_expression" and src.text_of(p.child_by_field_name("operator")) == "&&" and \
            p.child_by_field_name("right") == child:
        return p.child_by_field_name("left")
    return None


def _fixed(an, f: Function, bound: Node, known, rewritten, depth: int = 0) -> bool:
    """Whether `bound` is a constant the port keeps as written: constants decide it, and no confirmed
    warp-size site lies in it or in the macros and constants it names, nor the wave's `warpSize`."""
    if depth == 0 and (_value(bound, an.m, known, f) is None or {WS_OK, WARP_OK} & _kinds(an, f, bound)):
        return False
    if any(bound.start_byte <= s.start_byte and s.end_byte <= bound.end_byte for s in rewritten):
        return False
    if depth > 4:
        return True
    for n in walk(bound):
        if n.type != "identifier":
            continue
        for d in _definitions(an, f, an.src.text_of(n)):
            if not _fixed(an, f, d, known, rewritten, depth + 1):
                return False
    return True


def _definitions(an, f: Function, name: str) -> list[Node]:
    """The value of the macro or `const` variable `name` names, as seen from f."""
    mac = an.m.macros.get(name)
    if mac is not None:
        return [mac.value_node] if mac.value_node is not None else []
    src, out = an.src, []
    scopes = [f.body] + [n for n in src.index.of_type("declaration") if an.m.function_at(n) is None]
    for scope in scopes:
        for d in src.index.under(scope, "init_declarator"):
            v = d.child_by_field_name("value")
            if v is not None and ident_name(d.child_by_field_name("declarator")) == name:
                out.append(v)
    return out


def adopted(widths, analysis):
    """translate's view of the groups: a native group marked `counted` keeps CUDA's 32-lane groups (its
    votes, where halfvotes can spell each over its CUDA warp, are kept so by halfvotes.adopted); with other
    votes, or where its code uses a warp-size macro the port makes the wave width (`#define WARP_SIZE 32`
    read by native groups too: one definition cannot be both), it is undecided, refused (KP219) at the count."""
    import dataclasses
    from .warpwidth import LOGICAL, NATIVE, UNDECIDED
    marked = [g for g in widths.groups if g.counted is not None and g.width == NATIVE]
    if not marked:
        return widths
    new = {}
    for g in widths.groups:
        if g not in marked or any(cls != "full" and fn in g.functions for _, cls, fn in analysis.shuffle_masks):
            new[id(g)] = g  # (a partial mask's group: groupmasks ports it at the wave; not yet at 32 lanes)
            continue
        macro = _wave_macro(analysis, g.functions)
        width = LOGICAL if not macro and (not g.votes or g.half_votes) else UNDECIDED
        why = g.counted_why if width == LOGICAL else f"{g.counted_why}, but its lanes read `{macro}`, a warp-size " \
            "macro the port makes the wave width" if macro else \
            f"{g.counted_why}, with votes that may see two 32-lane groups of one 64-lane wave"
        new[id(g)] = dataclasses.replace(g, width=width, node=g.counted, why=why,
                                         half_votes=g.half_votes and width == LOGICAL)
    return dataclasses.replace(widths, groups=list(new.values()),
                               by_function={k: new[id(g)] for k, g in widths.by_function.items()})


def spans(tr) -> list[tuple[int, int]]:
    """The byte spans of the functions translate keeps at 32 lanes for a fixed count of warps (adopted): lint
    of the original reports a port to the wave's hazards there, which this CUDA-exact port does not have
    (soundness.self_check: no KP225 for them)."""
    from . import fnscopes
    return [(f.node.start_byte, f.node.end_byte) for g in tr.widths.groups if g.counted is not None
            and g.width == "32" for m in g.functions if (f := fnscopes.of(tr.module).function(m)) is not None]


def _wave_macro(analysis, functions: set[str]) -> str:
    """The name of a confirmed warp-size macro (`ws_macro`: this file's definition; `ws_macro_use`: a header's)
    whose value reaches a warp-level use in one of `functions` ('' where none)."""
    from . import fnscopes
    m = analysis.module
    scopes = fnscopes.of(m)
    for s in analysis.sites:
        if not s.confirmed or s.role not in ("ws_macro", "ws_macro_use"):
            continue
        if s.role == "ws_macro_use" and s.function in functions or any(
                (f := m.function_at(n)) is not None and scopes.key(f) in functions for n in analysis.sinks.get(s.id, ())):
            name = s.node.parent.child_by_field_name("name") if s.role == "ws_macro" else s.node
            return m.source.text_of(name) if name is not None else "WARP_SIZE"
    return ""
