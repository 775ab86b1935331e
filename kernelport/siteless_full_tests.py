"""A ballot's value compared with a full mask the port has no literal of: `__ballot_sync(FULL, p) == FULL`.

The port compares a ballot with the wave's active lanes where the full mask is a literal it rewrites (the
`full_value` site: `0xffffffff` -> `__ballot(1)` on HIP), and literal_lanes writes a ballot variable's test
(`b == FULL`) as the thread's 32-lane warp's word.  A full mask spelled by a macro (`#define FULL 0xffffffffu`,
one naming a constant), a qualified constant (`ns::FULL`, `Traits::FULL`), `UINT32_MAX` or `~0u` is all ones
in 32 bits with no literal here to rewrite: compared with the ballot's value itself (a call, an expression:
no variable for literal_lanes), the 64-lane wave's 64-bit word never equals it, and the port computed another
test, silently (stop 66's review of h/hip66b).  Refused, KP244 at the comparison, where a wave can be 64 wide.
`-1` and `~0` are all ones at any width (the wave's test as written): not judged.
"""
from __future__ import annotations

from tree_sitter import Node

from .warpsites import FULL, VOTE, Issue

CODE = "KP244"
_ANY_WIDTH = frozenset({"-1", "~0", "(-1)", "(~0)"})


def check(an, n: Node, op: str, L, R) -> None:
    """KP244 (an analysis issue) at `n`, `a == b` / `a != b`, where one side is a ballot's value that is no
    variable and the other a full mask with no literal the port rewrites."""
    if op not in ("==", "!="):
        return
    left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
    for vote, full, vf, ff in ((left, right, L, R), (right, left, R, L)):
        if vote is None or full is None or not any(k == VOTE for k, _ in vf):
            continue
        kinds = [s for k, s in ff if k == FULL]
        if not kinds or any(s >= 0 for s in kinds) or "".join(an.src.text_of(full).split()) in _ANY_WIDTH:
            continue
        inner = vote
        while inner.type == "parenthesized_expression" and inner.named_child_count == 1:
            inner = inner.named_children[0]
        if inner.type == "identifier":
            continue  # (a ballot variable: literal_lanes' test of the thread's warp)
        if any(i.node == n for i in an.a.issues):
            return
        an.a.issues.append(Issue(
            CODE, n, f"`{' '.join(an.src.text_of(n).split())}` compares a ballot with `{an.src.text_of(full)}`, a "
            "full mask of 32 bits the port has no literal of to rewrite: the port's ballot is the wave's lane mask, "
            "64 bits on a 64-lane wave, which never equals it", an.scopes.key(an.fn) or None,
            f"keep the ballot in a variable (`unsigned b = ...; b {op} {an.src.text_of(full)}`: the port tests the "
            "thread's 32-lane warp), or write the literal (0xffffffff) in the comparison"))
        return
