"""One SY001 finding per early return that skips several barriers (issue 11, stop 62; heldout85).

tdarr-normalizer's loudnorm kernel returns early under `if (blockIdx.x != 0 || ... || c >= channels) return;`
(c = threadIdx.x) and then runs 21 barriers: SY001 reported the one cause 21 times, once per barrier.  What a
user acts on is the return (hoist the barriers out, or make the test uniform), so where one return makes
two or more barriers hazards the rule reports once, at the return, naming how many barriers it skips and
their lines, each barrier a related location (`related` in JSON, SARIF's relatedLocations).  A return that
skips one barrier keeps the finding at the barrier, as before (its message names the return's line).

Suppressions keep working on either line: one on the return's line suppresses the grouped finding (the
engine matches a finding's own lines); one on a barrier's line (the place the finding was before) takes
that barrier out of the group here, and counts as used, so it is not reported unused (KP003).  The
severity and so the exit code are the rule's, unchanged.
"""
from __future__ import annotations

from . import suppress


def grouped(ctx, hazards) -> tuple[list, dict]:
    """(the hazards reported one by one, {return node id: (return node, [its hazards])}): the early
    returns' hazards that are two or more after the barrier lines' suppressions are set aside."""
    by: dict[int, tuple] = {}
    single = []
    for h in hazards:
        if h.frame.kind == "exit":
            by.setdefault(h.frame.node.id, (h.frame.node, []))[1].append(h)
        else:
            single.append(h)
    groups = {}
    for key, (ret, hs) in by.items():
        if len(hs) < 2:
            single.extend(hs)
            continue
        sups = suppress.of(ctx)
        kept = [h for h in hs if not _suppressed(ctx, sups, h.node)]
        if len(kept) >= 2:
            groups[key] = (ret, kept)
        else:
            single.extend(kept)
    single.sort(key=lambda h: h.node.start_byte)
    return single, groups


def _suppressed(ctx, sups, node) -> bool:
    line = ctx.position(node.start_byte)[0]
    for s in sups:
        if s.first <= line <= s.last:
            c = s.covers("SY001")
            if c is not None:
                s.used.add(c)
                return True
    return False
