"""The divergence tag of `threadIdx.y` / `threadIdx.z` in a wave-aware analysis (issue 11, heldout86's WS012 on
`warp_id = threadIdx.y` in a (32, 4) block).

A row of the block is blockDim.x threads: `threadIdx.y` is the same in every lane of a 32-lane warp only where
blockDim.x is a multiple of 32, and in every lane of a 64-lane wave only where it is a multiple of 64.  In a kernel
whose every launch the run shows (launchexits' conditions) and whose block argument's x extent constants decide
(blockdims.dims, a local stored to nowhere after its initialiser), the tag is: UNIFORM where every launch's extent
in that dimension is 1; WARP where every x extent is a multiple of 64; ROW where every one is a multiple of 32
(whole warps, half waves); THREAD otherwise.  Anywhere else (a helper, a launch not in view, a run-time block): ROW.
WS012 reports a full-mask warp operation under a ROW condition with the geometry it needs.
"""
from __future__ import annotations

from .. import blockdims
from . import launchblocks
from .tags import ROW, THREAD, UNIFORM, WARP


def tag(div, dim: int) -> int:
    """The tag of threadIdx's `dim` (1 or 2) in div.fn (see the module's doc), once per function."""
    f = div.fn
    if f is None:
        return ROW
    cache = div.__dict__.setdefault("_kp_row_tags", {})
    key = (f.node.id, dim)
    if key not in cache:
        cache[key] = _tag(div, f, dim)
    return cache[key]


def _tag(div, f, dim: int) -> int:
    from .launchexits import _known, _launches
    if not f.is_kernel:
        return ROW
    launches = _launches(div.ctx, f)
    if not launches:
        return ROW
    m = div.m
    exts = []
    for la in launches:
        owner = m.function_at(la.node)
        ext = blockdims.dims(la.config[1], owner, m, _known(m))
        if ext is None or not launchblocks.holds(div.src, m, owner, la.config[1]):
            return ROW
        exts.append(ext)
    if all(e[dim] == 1 for e in exts):
        return UNIFORM
    if all(e[0] % 64 == 0 for e in exts):
        return WARP
    return ROW if all(e[0] % 32 == 0 for e in exts) else THREAD
