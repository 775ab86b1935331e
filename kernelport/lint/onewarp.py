"""Whether SY002's shared-memory steps run inside one warp: which barrier its advice may name.

`__syncwarp()` orders the lanes of one warp only.  The classic last-warp tree (`if (tid < 32) { s[tid] +=
s[tid + 32]; s[tid] += s[tid + 16]; ... }`) runs in threads 0-31 of a one-row block, one warp, and a
`__syncwarp()` between each step's read and write makes it correct.  Steps no such test confines (HinesGPU's
`if (threadIdx.x % 2 == 0) cl[threadIdx.x + 1] += cl[threadIdx.x]; ...` over a 64-thread block, a loop under
`if (threadIdx.x < nNeuronsGroup)`, a tree under `if (tid < 64)`) may read slots another warp writes: there
only `__syncthreads()`, reached by every thread of the block, orders them.

A node runs in one warp when an enclosing `if` of its function (the node in its consequence) has, as its
condition or a `&&` conjunct of it, `t < K`, `t <= K - 1`, `K > t` or `K - 1 >= t` with K an integer literal
of at most 32 (or the file's macro of one: `#define WARP_SIZE 32`), or `t < warpSize` (kaldi's `if (tid <
warpSize)`: the hardware wave), and t the thread's x index (loneguards.is_x: `threadIdx.x` or an unchanged copy)
or the block's linear index (`threadIdx.y * blockDim.x + threadIdx.x`, rowmajor.width, or an unchanged copy).
"""
from __future__ import annotations

from tree_sitter import Node

from .. import rowmajor
from .loneguards import _declared, _stored, guarded_by, is_x

_BELOW = {"<": 0, "<=": 1}     # t < K: threads 0..K-1; t <= K: threads 0..K
_ABOVE = {">": 0, ">=": 1}     # K > t, K >= t


def one_warp(ctx, node: Node) -> bool:
    """Whether an enclosing `if` keeps `node` to x indices below 32 (see the module's docstring)."""
    f = ctx.module.function_at(node)
    if f is None or f.body is None:
        return False
    return guarded_by(ctx, f, node, _below_32) is not None


def _below_32(ctx, f, c: Node) -> bool:
    op = c.child_by_field_name("operator") if c.type == "binary_expression" else None
    if op is None:
        return False
    left, right = c.child_by_field_name("left"), c.child_by_field_name("right")
    if op.type in _BELOW:
        t, k, extra = left, right, _BELOW[op.type]
    elif op.type in _ABOVE:
        t, k, extra = right, left, _ABOVE[op.type]
    else:
        return False
    if k is None or not (is_x(ctx, f, t) or _linear(ctx, f, t)):
        return False
    if k.type == "identifier" and ctx.text(k) == "warpSize":
        return extra == 0  # `tid < warpSize`: the hardware wave, one warp whatever its width
    mac = ctx.module.macros.get(ctx.text(k)) if k.type == "identifier" else None
    text = mac.value if mac is not None and mac.value else ctx.text(k) if k.type == "number_literal" else None
    try:
        bound = int(text.strip("() ").rstrip("uUlL"), 0) if text is not None else None
    except ValueError:
        return False
    return bound is not None and 0 < bound + extra <= 32


def _linear(ctx, f, t: Node | None) -> bool:
    """t is the block's linear thread index: `threadIdx.y * blockDim.x + threadIdx.x` (rowmajor.width), or an
    unchanged local of it (kaldi's `const int32_cuda tid = threadIdx.y * blockDim.x + threadIdx.x;`)."""
    if t is None:
        return False
    if t.type != "identifier":
        return rowmajor.width(ctx.text(t)) == "blockDim.x"
    inits = _declared(ctx, f, ctx.text(t))
    return len(inits) == 1 and inits[0][1] is not None and rowmajor.width(ctx.text(inits[0][1])) == "blockDim.x" \
        and not _stored(ctx, f, ctx.text(t))
