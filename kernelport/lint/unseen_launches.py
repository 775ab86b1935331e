"""Where a kernel's block would come from, when no launch of it is in the run (issue 11, labelled25).

A group of warp-level code (warpwidth: a kernel and the helpers it calls) takes its width from the
kernel's launches.  VMEC++'s `k_residuals_finalize_K` is defined in fft_toroidal_cuda_kernels.cu,
declared in fft_toroidal_cuda_common.cuh and launched `<<<n, 32>>>` only from
fft_toroidal_cuda_control.cu: a run without that file sees no launch, so the group is taken as whole
64-lane waves (the convention, docs/soundness.md) and its ladder from 16 is flagged.  That is the
right verdict: nothing the run reads bounds the block (a comment saying "TPB must be <= 32" binds no
launch), and a block of 64 threads would fold half of it.  What the finding lacked is where the
evidence would come from; this clause says it: the kernel is launched in no file of the run (and,
in a run of several files, which header declares it: the files that include it are where a launch
may be), a launch of at most 32 threads (or rows of blockDim.x == 32) would make the 32 lanes hold,
and the two ways to give it: lint the launching file with this one, or `__launch_bounds__(32)`,
which the compiler enforces (a launch of more threads fails) and warpwidth reads.

Only where the group has no evidence at all: not annotated, no geometry, and none of its kernels
launched in the run (a launch whose block lint cannot evaluate is another case: its size is there);
a kernel with `__launch_bounds__` states its bound already.  The severity is unchanged.
"""
from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from .. import unit_launches, warpwidth


def attach(ctx, at: Node, message: str) -> str:
    """`message` with the clause in its hardware explanation (the `why` of --format full and of SARIF; the
    concise line keeps what and where), or after it where the message names no hardware."""
    text = clause(ctx, at)
    if not text:
        return message
    from .formats import split_message
    why = split_message(message)[1]
    return message.replace(why, f"{why} ({text})", 1) if why else f"{message}; {text}"


def clause(ctx, at: Node) -> str:
    """Where the block of the kernel around `at` would come from, or "" (no `; ` in it: formats.split_message)."""
    f = ctx.function_at(at)
    widths = getattr(ctx.analysis, "widths", None)
    g = widths.by_function.get(ctx.key(f)) if f is not None and widths is not None else None
    if g is None or g.width != warpwidth.NATIVE or g.node is not None or g.annotated or g.host:
        return ""
    kernels = sorted((k for k in (ctx.function_of(key) for key in g.functions)
                      if k is not None and k.is_kernel and k.body is not None), key=lambda k: k.node.start_byte)
    if not kernels or any(k.launch_bounds is not None or ctx.launches_of(k) or
                          unit_launches.elsewhere(ctx.module, k) for k in kernels):
        return ""
    names = " or ".join(f"`{k.name}`" for k in kernels[:2]) + (" (and others)" if len(kernels) > 2 else "")
    where = _declared_in(ctx, kernels[0])
    return (f"{names} is launched in no file of this run{where}, its block taken as whole 64-lane waves: a block of "
            f"at most 32 threads (or rows of 32) would keep these 32 lanes, so lint the file that launches it with this "
            f"one or state the bound with `__launch_bounds__(32)`")


def _declared_in(ctx, k) -> str:
    """` (declared in HEADER)`: the first header of the unit's includes in a run of several files that
    declares the kernel (the files including it are where a launch may be), or ""."""
    vis = ctx.module.visible
    ew = getattr(vis, "elsewhere", None) if vis is not None else None
    if ew is None or ew.root is None:
        return ""
    from ..carry_prototypes import _declared
    got = _declared(ctx.module.source, k.node)
    if got is None:
        return ""
    proj = ew.project
    for p in proj.scan(ew.root).order:
        if p != ew.root and got[0] in unit_launches._declarations(proj, p, True):
            return f" (declared in {Path(p).name})"
    return ""
