"""Votes of a logical 32-lane group that shares a 64-lane wave: each over its own CUDA warp.

A group kept at CUDA's 32 lanes (warpwidth: an explicit width-32 shuffle, rows of 32 threads) keeps
every shuffle and lane expression exact at wave 64, but a vote over the wave (`__ballot(p)`) sees
two CUDA warps: its bits 32-63 are the other warp's, and `__any`/`__all` answer for both.  CUDA's
warps are the block's linear threads in runs of 32 and a 64-lane wave is a run of 64, so the caller's
warp is always the half of the wave that `__lane_id() & 32` names, at any geometry (a partial last
wave included: its missing lanes vote 0).  With CUDA's full mask every lane of that warp runs the
vote together (CUDA requires it), so the wave's ballot shifted down by that half and cut to 32 bits
is CUDA's ballot exactly, and any/all are tests of those 32 bits: the dialect's `group_ballot`,
`group_any`, `group_all` over the mask 0xffffffff, spelled by each backend (dialect.group_votes).

Only where every vote of the group is a ballot, any or all with a full mask (a constant whose low 32
bits are all set), and the group calls no header's warp helper (ported on its own at the wave
width); an `__activemask()`, a partial mask or a match stay KP219.  A header's group is not changed:
the header is ported on its own, and its includer's port may compile branches of it written for a
64-lane wave (`#if WS == 64`: a 64-bit ballot split in halves), which a 32-bit vote would break.
"""
from __future__ import annotations

import dataclasses
import re

from tree_sitter import Node

from . import backends, dialect, fullmask
from .source import call_args

_VOTES = ("ballot", "any", "all")
_HEADER = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc")


def kind(module, votes: list[Node], names, read_as: str) -> str | None:
    """'full': every vote is a ballot, any or all of the source dialect with a full 32-bit mask (the
    original: translate may spell each over its caller's warp); 'spelled': every vote already is that
    spelling (a port read again, its self-check: 32 lanes exactly); None otherwise."""
    src = module.source
    if not votes or str(getattr(src, "path", "")).lower().endswith(_HEADER):
        return None
    kinds = set()
    for n in votes:
        fn = n.child_by_field_name("function")
        found = dialect.spelled_by(read_as, src.text_of(fn)) if fn is not None else None
        if not found or found[0].key not in _VOTES:
            return None
        params = dialect.call_params(*found)[0]
        args = call_args(n)
        if "mask" not in params and _half(src, n):
            kinds.add("spelled")
            continue
        if "mask" not in params or params.index("mask") >= len(args):
            return None
        if not fullmask.low_32_full(module, src.text_of(args[params.index("mask")]), names):  # (`~0u`, known values)
            return None
        kinds.add("full")
    return kinds.pop() if len(kinds) == 1 else None


def adopted(widths):
    """translate's view of the groups: an undecided group whose votes may each be over its caller's
    CUDA warp is a logical 32-lane group (lint's stays undecided: a plain port's votes see two warps)."""
    if not any(g.half_votes for g in widths.groups):
        return widths
    new = {id(g): dataclasses.replace(g, width="32", why=f"{g.why}: kept at 32 lanes, each vote over its own CUDA "
                                      "warp (a half of the wave)") if g.half_votes or _launches_kept(g) else g
           for g in widths.groups}
    return dataclasses.replace(widths, groups=list(new.values()),
                               by_function={k: new[id(g)] for k, g in widths.by_function.items()})


def _launches_kept(g) -> bool:
    """A host group that took its (undecided) width from kernels kept at 32 lanes takes theirs: its warp-size macro
    (`#define WARP_SIZE 32`, decided at file scope from every group) stays the kernels' 32, not the wave."""
    return g.host and g.width == "undecided" and bool(g.launches) and all(t.half_votes for t in g.launches)


def spans(tr) -> list[tuple[int, int]]:
    """The byte spans of the functions translate keeps at 32 lanes with each vote over its warp: lint of
    the original reports a plain port's hazards there (a 64-bit ballot in `unsigned`, `% 32` lanes beside
    a wave-wide vote), which this port does not have (soundness.self_check: no KP225 for them)."""
    from . import fnscopes
    out = []
    for g in tr.widths.groups:
        if g.half_votes:
            out += [(f.node.start_byte, f.node.end_byte) for m in g.functions
                    if (f := fnscopes.of(tr.module).function(m)) is not None]
    return out


def exact_word(tr, issue) -> bool:
    """A KP207 store of a lane mask into 32-bit memory inside a function translate keeps at 32 lanes with
    each vote over its own CUDA warp: every ballot there is spelled as its warp's 32 bits and every lane
    is CUDA's, so a 32-bit word holds exactly CUDA's mask (aihwkit's count kernels store one word per
    32-thread group: tests/labelled21); the port keeps the layout instead of refusing it."""
    at = issue.node.start_byte
    return issue.code == "KP207" and any(s <= at < e for s, e in spans(tr))


def per_warp_after(text: str) -> bool:
    """`text` (what follows a vote's call in a port's text) shifts it to the caller's warp: `>> (lane_id() & 32)`."""
    m = re.match(r"[\s)]*>>\s*\(([^&()]*(?:\(\s*\))?)\s*&\s*32\s*\)", text)
    lane = "".join(m.group(1).split()) if m else None
    return lane is not None and any(lane == sp for b in backends.names() if (sp := dialect.concept("lane_id").spelling(b)))


def _half(src, call: Node) -> bool:
    """`ballot(p) >> (lane_id() & 32)`: the group votes' shift of a wave ballot to the caller's warp."""
    p = call.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    if p is None or p.type != "binary_expression" or src.text_of(p.child_by_field_name("operator")) != ">>":
        return False
    right = "".join(src.text_of(p.child_by_field_name("right")).split()).strip("()")
    return any(right == f"{lane_id}&32" for b in backends.names()  # (a port is read in the source dialect too)
               if (lane_id := dialect.concept("lane_id").spelling(b)))


def concept(tr, c: dialect.Concept, call: Node) -> dialect.Concept:
    """translate: a vote of a group whose votes are over each caller's CUDA warp is its group vote."""
    from . import fnscopes
    g = tr.widths.by_function.get(fnscopes.owner(tr.module, call))
    if g is None or not g.half_votes or c.key not in _VOTES:
        return c
    group = dialect.concept(f"group_{c.key}")
    if group is None or group.spelling(tr.backend) is None:
        return c
    tr.note(call, dialect.render(group, tr.backend, {"mask": "0xffffffff", "predicate": "p"}),
            f"a vote of a logical 32-lane group that shares a 64-lane wave: over the caller's own CUDA warp ({g.why})")
    return group
