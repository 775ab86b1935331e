"""A shuffle step that can reach 32 lanes: evidence that the code means CUDA's 32-lane warp.

CUDA's `__shfl_down_sync(m, v, d)` (and `_up`, `_xor`) with no width works on a 32-lane warp: a step of
32 or more names a lane outside it and gives the calling lane its own value.  A ladder from a block count
(`for (o = blockDim.x / 2; o > 0; o /= 2) v = max(v, __shfl_down_sync(full, v, o));`, written as if a
shuffle spanned the block) therefore folds 32 lanes in CUDA: its steps of 32 and more do nothing.  A port
to a 64-lane wave makes the step of 32 a real one: at blockDim.x >= 64 lane 0 folds 64 lanes, another
value (beamsearch's select_top_k: another token at wave 64, the emulator's find).  A literal step of 32 or
more in CUDA code is the same no-op.  Such a function's group keeps CUDA's 32-lane groups (warpwidth
reads it as it reads a shuffle's explicit width 32): every shuffle then gets width 32, and HIP's
`__shfl_down(v, o, 32)` gives a lane its own value for o >= 32 exactly as CUDA does.

Read within one function: the step argument is a loop variable whose `for` initialiser reads `blockDim`,
or whose condition bounds it by `blockDim` (a scan's `for (i = 1; i < blockDim.x; i *= 2)`).  A step that
reads `warpSize` is the code's own account of the width (left to the wave), as is a shuffle that names its
width.  A literal step of 32 (`v += __shfl_xor_sync(m, v, 32)`) is not read here: CUDA code writes it in a
wave-64 branch (`#if WS == 64`), which kernelport/wavebranches.py reads (a literal ladder start of 64,
`for (o = 64; ...)`, the same no-op in CUDA, is left open for the same reason).
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import lazy_re
from .butterfly_lanes import loop_inits

_STEPS = {"shfl_down": "delta", "shfl_up": "delta", "shfl_xor": "lanemask"}  # dialect keys -> the step's param
_INIT = r"(?<![\w.])%s\s*=\s*([^;,]*)"  # `o = <start>` in a for's initialiser
WHY = "a shuffle step of 32 or more (line {line}), which CUDA's 32-lane warp makes the lane's own value"


def reaches_32(src, call: Node, key: str, params, args: list[Node]) -> bool:
    """Whether the shuffle `call` (dialect key `key`, its parameter names and arguments) steps 32 lanes or more
    in CUDA's reading, with no width named."""
    step = _STEPS.get(key)
    if step is None or step not in params or "width" in params and params.index("width") < len(args):
        return False
    i = params.index(step)
    if i >= len(args):
        return False
    arg = args[i]
    text = src.text_of(arg).strip()
    if arg.type != "identifier":
        return False
    for loop, init in loop_inits(src, call):
        got = lazy_re.compile(_INIT % re.escape(text)).search(init)
        if got is not None:
            start = got.group(1).strip()
            cond = loop.child_by_field_name("condition")
            bound = src.text_of(cond) if cond is not None else ""  # `i < blockDim.x`: a scan's steps up to it
            return "warpSize" not in start + bound and "blockDim" in start + bound
    return False
