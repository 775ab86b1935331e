"""warpflow's facts of a binary expression: lanes (`tid % 32`, `tid & 31`), warp indices (`tid / 32`,
`tid >> 5`), lane masks (`1u << lane`, a ballot's bits) and the sinks they reach (a leader test, a
ballot combined with a mask).  Two operands without facts (data: a quarter of the binary expressions
lint reads) make no facts and confirm nothing, whatever the operator: that case returns before the
operator is read.
"""
from __future__ import annotations

from tree_sitter import Node

from . import laddersteps, lane_shares, maskmemory, masktypes, siteless_full_tests
from .source import field_ids
from .warpsites import (BDIM, FIVE, FULL, HALF, LANE, LANE_OK, MASK, ONE, OPAQUE, TID, VOTE, WARP, WARP_OK, WRES, WS,
                        WS_M1, WS_OK, is_address, shuffled_name)

_NONE: frozenset = frozenset()
_F_LEFT, _F_RIGHT, _F_OPERATOR = field_ids("left", "right", "operator")  # (by id: no name look-up per expression)


def binary(an, n: Node) -> frozenset:
    """The facts of a binary expression `n` in warpflow's analyzer `an` (its sinks confirmed)."""
    L, R = an.ex(n.child_by_field_id(_F_LEFT)), an.ex(n.child_by_field_id(_F_RIGHT))
    if not L and not R:
        return _NONE  # (a quarter of them: data) every operator below makes nothing of two fact-free sides
    op = an.src.text_of(n.child_by_field_id(_F_OPERATOR))
    kinds_L, kinds_R = {k for k, _ in L}, {k for k, _ in R}
    threadish = {TID, LANE, WARP} & kinds_L
    out = set()
    if op in ("%",):
        if threadish and WS in kinds_R:
            out |= {(LANE, s) for k, s in R if k == WS}
        if WS_OK in kinds_R:
            out.add((LANE_OK, -1))
        return an.a.derived(n, out, L, {(TID, -1)} if TID in kinds_L else ())
    if op == "&":
        if is_address(an, n):
            return frozenset()  # `0x1f & (uintptr_t)p`: an alignment of an address, not a lane
        if (threadish or TID in kinds_L) and WS_OK in kinds_R:
            out |= {(LANE_OK, -1), (TID, -1)}  # tid & (warpSize - 1): a portable lane
        if threadish and WS_M1 in kinds_R:
            out |= {(LANE, s) for k, s in R if k == WS_M1}
            out.add((TID, -1))
        if threadish and WS_M1 in kinds_L:
            out |= {(LANE, s) for k, s in L if k == WS_M1}
        if {TID, LANE, WARP} & kinds_R and WS_M1 in kinds_L:  # `31 & tid`: the same lane, literal first
            out |= {(LANE, s) for k, s in L if k == WS_M1}
            out.add((TID, -1))
        if VOTE in kinds_L | kinds_R:
            an.confirm(L | R, "combined with a ballot mask", n, kinds=(MASK, LANE, WS_M1, WS))
            out.add((VOTE, -1))
            out |= {f for f in L | R if f[0] in (MASK, OPAQUE)}  # `__activemask() & 0xff`: some lanes
        elif MASK in kinds_L | kinds_R:
            if (MASK in kinds_L and WRES in kinds_R) or (MASK in kinds_R and WRES in kinds_L):
                # `__shfl(word, j) & (1u << lane)`: a lane's bit of a broadcast word, a lane mask
                an.confirm(L | R, "tests a lane's bit of a shuffled lane mask", n, kinds=(MASK,))
                for w in filter(None, (shuffled_name(an.src, c, an.dialect) for c in n.named_children)):
                    an._check_store(w, frozenset({(VOTE, -1)}), n)  # the word it broadcasts is a mask
            out |= {f for f in L | R if f[0] in (MASK, FULL, OPAQUE)}
        return an.a.derived(n, out, L)
    if op in ("|", "^"):
        if VOTE in kinds_L | kinds_R:
            an.confirm(L | R, "combined with a ballot mask", n, kinds=(MASK,))
            out.add((VOTE, -1))
        # `lane ^ 1` (a butterfly partner) is still a lane
        return frozenset(out | {f for f in L | R if f[0] in (MASK, VOTE, TID, LANE, WARP)})
    if op == "/":
        if ({TID, BDIM} & kinds_L) and WS_OK in kinds_R:
            out.add((WARP_OK, -1))  # tid / warpSize: a portable warp index
        if ({TID, BDIM, LANE, WARP} & kinds_L) and WS in kinds_R:
            out |= {(WARP, s) for k, s in R if k == WS}
            out |= {(WARP, s) for k, s in L if k in (WS_M1, WS)}  # (x + 31) / 32, (32 + x - 1) / 32
        out |= {f for f in L if f[0] in (TID, BDIM)}
        lane_shares.note(an, n, L, R)  # `D / WARP`: each lane's share of a run-time extent
        return an.a.derived(n, out, L)
    if op == ">>":
        if ({TID, BDIM, LANE, WARP} & kinds_L) and FIVE in kinds_R:
            out |= {(WARP, s) for k, s in R if k == FIVE}
            out |= {(WARP, s) for k, s in L if k in (WS_M1, WS)}  # (x + 31) >> 5 rounds up, as / 32 does
            out |= {f for f in L if f[0] in (TID, BDIM)}
        if VOTE in kinds_L:
            an.confirm(R, "shifts a ballot mask", n, kinds=(LANE, WS_M1, WS, WARP))
            out.add((VOTE, -1))
        return an.a.derived(n, out, L)
    if op == "<<":
        if ONE in kinds_L and ({TID, LANE, LANE_OK} & kinds_R):
            out |= {(MASK, s) for k, s in L if k == ONE}
            out |= {f for f in R if f[0] == LANE}
        if WARP in kinds_L and FIVE in kinds_R:  # warp << 5: the warp's first lane
            out |= {(WARP, s) for k, s in R if k == FIVE} | {f for f in L if f[0] in (WARP, TID)}
        if VOTE in kinds_L:  # `hi << 32`: two 32-lane ballots in one 64-bit word, which one
            maskmemory.ballot_pair(an, n, kinds_R)  # 64-lane ballot fills: no rewrite (KP226)
            maskmemory.top_lane_shift(an, n, kinds_R)  # `<< (31 - lane)`: 32 bits drop the rest (KP236)
            out.add((VOTE, -1))
        return frozenset(out)
    if op in ("==", "!=", "<", "<=", ">", ">="):
        if an.fn is not None and (an.cur in an.warp_keys or not masktypes.MASK_LANE.isdisjoint(L | R)) and (
                {LANE, WARP, LANE_OK, WRES} & (kinds_L | kinds_R)):
            step = laddersteps.threshold(an.src, an.dialect, n)  # `n >= 32` over a step at 16 keeps its 32
            an.confirm({f for f in L | R if not (step and f[1] >= 0 and an.a.sites[f[1]].node == step[0])},
                         "leader or lane test in warp-level code", n)
        if VOTE in kinds_L | kinds_R:
            for side in (L, R):
                an.confirm({f for f in side if f[0] == FULL}, "compared with a ballot", n, kinds=(FULL,))
            siteless_full_tests.check(an, n, op, L, R)  # `__ballot_sync(FULL, p) == FULL`, FULL a macro: KP244
        return frozenset()
    if op in ("&&", "||"):
        return frozenset()
    if op in ("+", "-") and is_address(an, n):
        return frozenset()  # `d + tid % 32`: an address, not a lane (its loads are data)
    if op == "*" and ({LANE, LANE_OK, WS_OK} & (kinds_L | kinds_R) or (WS in kinds_L and WS in kinds_R)):
        # `lane * 32`: a lane's chunk of 32 elements (a warp's first lane, `warp * 32`, keeps its
        # 32); `warpSize * 32`, `32 * 32`: counts of elements, no width.  A lane-strided loop
        # tells the lane count from the chunk (_lane_stride).
        return frozenset(f for f in L | R if f[0] not in (FULL, VOTE, WS, WS_M1, HALF))
    # + - * and the rest: values mix.
    return frozenset(f for f in L | R if f[0] not in (FULL, VOTE))
