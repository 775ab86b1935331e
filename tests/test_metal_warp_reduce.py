"""sm_80's `__reduce_{add,min,max,and,or,xor}_sync(0xffffffff, v)` in a Metal port: the SIMD-group
reductions of MSL 6.9.2 (simd_sum, simd_min, simd_max, simd_and, simd_or, simd_xor), every lane gets
the result, over the 32-wide SIMD-group a full-mask __shfl_sync assumes too.  Type-checked by
kernelport's checker only (no Metal compiler on Linux); other masks: tests/test_warp_reduce.py (KP203)."""
from __future__ import annotations

import numpy as np

from conftest import metal_checked
from kernelport.emulator.run import run_kernel


# heldout22 fpcompress: `__reduce_add_sync(~0, partc)` was KP202 on Metal ('no METAL equivalent')
SRC = """
    __global__ void k(int* out, const int* in, unsigned int* bits)
    {
        int v = in[threadIdx.x];
        out[threadIdx.x] = __reduce_add_sync(0xffffffff, v) + __reduce_min_sync(~0, v) + __reduce_max_sync(~0u, v);
        bits[threadIdx.x] = __reduce_and_sync(~0, (unsigned)v) | __reduce_or_sync(~0, 1u) ^ __reduce_xor_sync(~0, 3u);
    }
"""


def test_full_mask_reductions_are_simd_group_reductions():
    out = metal_checked(SRC)
    assert "out[tid.x] = simd_sum(v) + simd_min(v) + simd_max(v);" in out, out
    assert "bits[tid.x] = simd_and((unsigned)v) | simd_or(1u) ^ simd_xor(3u);" in out, out
    assert "__reduce_" not in out


def test_the_port_reduces_each_simd_group_as_cuda_reduces_each_warp():
    text = metal_checked(SRC)
    x = (np.arange(64, dtype=np.int32) * 7919) % 1000 - 500
    args = {"out": np.zeros(64, np.int32), "in": x, "bits": np.zeros(64, np.uint32)}
    got = {}
    for source, backend in ((text, "metal"), (SRC, None)):  # the port, and the CUDA original
        r = run_kernel(source, "k", args=args, grid=(1, 1, 1), block=(64, 1, 1), backend=backend, wave=32)
        got[backend] = r.outputs
    for w in range(2):
        seg, lanes = x[32 * w:32 * (w + 1)].astype(np.int64), slice(32 * w, 32 * (w + 1))
        assert (got["metal"]["out"][lanes] == np.int32(seg.sum() + seg.min() + seg.max())).all()
        want_bits = np.bitwise_and.reduce(seg.astype(np.uint32)) | (1 ^ 0)  # or(1) over 32 lanes, xor(3) even: 0
        assert (got["metal"]["bits"][lanes] == want_bits).all()
    for name in ("out", "bits"):
        assert (got["metal"][name] == got[None][name]).all()
