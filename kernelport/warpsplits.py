"""Blocks a kernel splits into 32-lane groups by its own arithmetic: `lane = tid & 31` with
`warp = tid >> 5` (or `% 32` with `/ 32`) of the same thread index.

Such a kernel means groups of 32 lanes whatever the hardware wave is: its per-warp slots, leaders
(`lane == 0`) and warp counts (`BLOCK / 32`) all agree on 32, and a shuffle whose lanes stay in an
aligned 32 (`xor`/`down` ladders from 16, read at each group's lane 0) computes the same on a
64-lane wave, two groups to a wave.  warpwidth takes it as evidence for a logical 32-lane group,
as it takes rows of 32 from a launch.

Not evidence where the group also addresses the hardware wave: names it (`warpSize`, a
`WARP_SIZE`-style name, `__lane_id()`), shuffles from a source lane at the default width, or runs a
library collective at the hardware width (cub's `WarpReduce<T>`, warpflow's wave_collectives), or
votes (a ballot's bits are the wave's lanes; warpwidth): there the 32s disagree with code that
follows the wave, and stay wave-width sites (translate keeps rewriting them to the wave).
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends, dialect
from .model import Module
from .source import call_args, ident_name
from .warpsites import WARP_SIZE_NAME, int_value

_LANE = {"&": 31, "%": 32}
_WARP = {">>": 5, "/": 32}
_THREAD = re.compile(r"^threadIdx\.x$")
_HARDWARE_LANE = {"__lane_id", "__laneid", "laneid"}


def _thread_index(text: str, locals_: dict[str, str]) -> bool:
    """`threadIdx.x`, or a local initialised from it (`const int tid = threadIdx.x;`)."""
    return bool(_THREAD.match(text)) or bool(_THREAD.match(locals_.get(text, "")))


def _wave_source_lane(src, call: Node) -> bool:
    """A shuffle from a source lane at the default width (`__shfl_sync(m, v, 0)`): it addresses the
    hardware wave's lanes, so the code's 32s are not a group of their own (flashinfer's broadcast
    from `threadIdx.x | FULL_MASK`)."""
    fn = call.child_by_field_name("function")
    name = src.text_of(fn) if fn is not None and fn.type == "identifier" else None
    c = dialect.lookup(backends.source().name, name) if name else None
    if c is None or c.kind != "shuffle" or "lane" not in c.params:
        return False
    found = dialect.spelled_by(backends.source().name, name)
    params = dialect.call_params(*found)[0] if found else ()
    return "width" not in params or params.index("width") >= len(call_args(call))


def find(module: Module) -> tuple[dict[str, Node], set[str]]:
    """(functions that split the block into 32-lane groups -> the warp index's expression,
    functions that name the hardware wave)."""
    src = module.source
    splits: dict[str, Node] = {}
    wave_named: set[str] = set()
    for f in module.functions.values():
        if f.body is None:
            continue
        locals_: dict[str, str] = {}
        for d in src.index.under(f.body, "init_declarator"):
            v = d.child_by_field_name("value")
            name = ident_name(d.child_by_field_name("declarator"))
            if v is not None and name:
                locals_[name] = " ".join(src.text_of(v).split())
        if any(WARP_SIZE_NAME.search(t) or t in _HARDWARE_LANE
               for t in (src.text_of(i) for i in src.index.under(f.body, "identifier"))) or \
                any(_wave_source_lane(src, c) for c in src.index.under(f.body, "call_expression")):
            wave_named.add(f.name)
            continue
        lanes, warps = set(), {}
        for n in src.index.under(f.body, "binary_expression"):
            op, left, right = (n.child_by_field_name(k) for k in ("operator", "left", "right"))
            if op is None or left is None or right is None:
                continue
            o, x, k = src.text_of(op), " ".join(src.text_of(left).split()), int_value(src.text_of(right))
            if not _thread_index(x, locals_):
                continue
            if _LANE.get(o) == k:
                lanes.add(locals_.get(x, x))
            elif _WARP.get(o) == k:
                warps.setdefault(locals_.get(x, x), n)
        both = [warps[x] for x in lanes if x in warps]
        if both:
            splits[f.name] = both[0]
    return splits, wave_named
