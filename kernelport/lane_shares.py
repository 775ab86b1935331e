"""A run-time extent divided by the warp-size constant: each lane's share of data (`DPL = D / WARP`).

msa-style decode kernels split a vector of run-time length D over the lanes of a warp:
`const int DPL = D / WARP; ... q[lane * DPL + i]`, then fold the lanes' partial sums with a shuffle
ladder.  CUDA's split covers D when D is a multiple of 32.  Where the port makes `WARP` the wave
(a native group: `<<<grid, WARP>>>` becomes one 64-lane wave), the same code covers D only when D is a
multiple of 64: for D = 96 each of 64 lanes takes 1 element (64 of 96 summed), for D = 32 none; the
port compiles and computes something else.  The group then keeps CUDA's 32-lane warps (warpwidth's
code evidence: literals stay 32, shuffles get width 32), which computes what CUDA computes for every D.

Only a quotient a thread's index multiplies (`lane * DPL`: the lane's slice starts there), whose left
side carries no thread facts and reads a value parameter of the function (a run-time extent; a constant
or a template's count such as apex's `next_power_of_two / WARP_SIZE` is not), whose right side is a
warp-size site the dataflow confirms (a value the port rewrites), in device code.  Thread counts
(`blockDim.x / 32`: blocksizes.py), rounded-up counts (`(D + WARP - 1) / WARP`, whose lanes the code
guards) and warp indices (`t / WARP` that no thread's index multiplies) are not this.  Not seen: the
quotient as a chunk count (`for (c = 0; c < D / WARP; ++c) x[c * WARP + lane]`) or computed on the host.
"""
from __future__ import annotations

from tree_sitter import Node

from .blockdims import names, value
from . import dialect
from .source import ident_name
from .warpsites import WS

REASON = ("`{text}` (line {line}) splits a run-time extent over the warp's lanes: a port to the 64-lane wave "
          "would give each lane another share, which covers the extent only when it is a multiple of 64")


def note(an, n: Node, left_facts: frozenset, right_facts: frozenset) -> None:
    """warpbinary's `/`: record `n` (by its function's key) where it is such a share."""
    if left_facts or an.fn is None or not an.fn.is_device or an.cur in an.a.lane_shares:
        return
    sids = tuple(s for k, s in right_facts if k == WS and s >= 0)
    left = n.child_by_field_name("left")
    if not sids or left is None or value(left, an.m, names(an.m), an.fn) is not None or not _runtime(an, left):
        return  # (`256 / WARP`, `THREADS / WARP` of a template: constant counts, lint's and warpmultiples' matter)
    body, up = n, n.parent
    while up is not None and up.type == "parenthesized_expression":
        up = up.parent
    share = ident_name(up.child_by_field_name("declarator")) if up is not None and up.type == "init_declarator" \
        else None
    while body is not None and body.type != "function_definition":
        body = body.parent
    if body is not None and _sliced(an, body, n, share):
        an.a.lane_shares[an.cur] = (n, sids)


def _sliced(an, fn: Node, quotient: Node, share: str | None) -> bool:
    """A thread's index multiplies the share (`lane * DPL`, `DPL * threadIdx.x`, `lane * (D / WARP)`): each
    thread's slice of the extent starts there."""
    for b in an.src.index.under(fn, "binary_expression"):
        if an.src.text_of(b.child_by_field_name("operator")) != "*":
            continue
        sides = [b.child_by_field_name("left"), b.child_by_field_name("right")]
        for one, other in (sides, sides[::-1]):
            while one is not None and one.type == "parenthesized_expression" and one.named_children:
                one = one.named_children[0]
            if one is not None and other is not None and (one.id == quotient.id or (
                    share is not None and one.type == "identifier" and an.src.text_of(one) == share)) and \
                    _threads(an, fn, other):
                return True
    return False


def _threads(an, fn: Node, n: Node, depth: int = 0) -> bool:
    """`n` reads the thread index, itself or through a local it names (`lane = threadIdx.x & (WARP - 1)`)."""
    for i in [n] if n.type in ("identifier", "field_expression") else an.src.index.under_types(
            n, "identifier", "field_expression"):
        if i.type == "field_expression":
            base = i.child_by_field_name("argument")
            if base is not None and (c := dialect.lookup(an.dialect, an.src.text_of(base))) is not None and \
                    c.key == "thread_idx":
                return True
            continue
        if depth < 2:
            for d in an.src.index.under(fn, "init_declarator"):
                init = d.child_by_field_name("value")
                if init is not None and ident_name(d.child_by_field_name("declarator")) == an.src.text_of(i) and \
                        _threads(an, fn, init, depth + 1):
                    return True
    return False


def _runtime(an, left: Node) -> bool:
    """The left side reads a value parameter of the function: an extent known only when it runs."""
    ids = [left] if left.type == "identifier" else list(an.src.index.under(left, "identifier"))
    return any((p := an.fn.param(an.src.text_of(i))) is not None and not p.pointer for i in ids)


def evidence(a) -> dict[str, Node]:
    """The shares whose warp-size site the port rewrites (confirmed), by function key."""
    return {f: n for f, (n, sids) in a.lane_shares.items() if any(a.sites[s].confirmed for s in sids)}


def reason(src, n: Node) -> str:
    return REASON.format(text=" ".join(src.text_of(n).split()), line=src.loc(n).line)
