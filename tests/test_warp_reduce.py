"""sm_80's `__reduce_{add,min,max,and,or,xor}_sync(mask, v)` on HIP (dialect concepts `warp_reduce_*`,
the HIP prologue's `kp_reduce_*`, translate's full-mask check).

heldout22: the LC-framework's `partc = __reduce_add_sync(~0, partc)` was refused (KP202). With CUDA's
full mask it is now an xor tree of shuffles over the group's lanes: width 32 in a logical 32-lane
group (a half of a 64-lane wave, as CUDA's warp), the wave's warpSize in a wave-wide one (where the
port reads the full mask as every lane of the wave, as for its shuffles). Any other mask is a located
refusal (KP203). On Metal (h/metal40) a full-mask reduction is the SIMD-group's simd_sum/min/max/and/or/xor
(tests/test_metal_warp_reduce.py); another mask is KP203 there too.
"""
from __future__ import annotations

import os
import subprocess

from conftest import require_tool
from kernelport.source import SourceFile
from kernelport.translate import translate

LOGICAL = """#include <cuda_runtime.h>
__global__ void k(int* out, const int* in, unsigned int* bits)
{
    int v = in[threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 1, 32);
    out[threadIdx.x] = __reduce_add_sync(0xffffffff, v) + __reduce_min_sync(~0, v) + __reduce_max_sync(~0u, v);
    bits[threadIdx.x] = __reduce_and_sync(~0, (unsigned)v) | __reduce_or_sync(~0, 1u) ^ __reduce_xor_sync(~0, 3u);
}
"""
WAVE = """#include <cuda_runtime.h>
__global__ void k(int* out, const int* in)
{
    const int lane = threadIdx.x % warpSize;
    const int s = __reduce_add_sync(0xffffffff, in[threadIdx.x]);
    if (lane == 0) out[threadIdx.x / warpSize] = s;
}
"""


def _port(text: str, backend: str = "hip"):
    return translate(SourceFile.from_text(text, "t.cu"), backend)


def _compile(tmp_path, whole: str) -> None:
    hipcc = require_tool("hipcc")
    f = tmp_path / "t.hip"
    f.write_text(whole)
    for arch in ("gfx90a", "gfx1030"):
        r = subprocess.run([hipcc.path, "-x", "hip", "-std=c++17", f"--offload-arch={arch}", "--cuda-device-only",
                            "-Werror", "-c", str(f), "-o", str(tmp_path / f"t-{arch}.o")], capture_output=True,
                           text=True, env={**os.environ, "HIP_PLATFORM": "amd"})
        assert r.returncode == 0, r.stderr[-2000:]


def test_full_mask_reductions_in_a_logical_group_are_width_32_trees(tmp_path):
    port, whole = _port(LOGICAL)
    assert port.ok, port.diagnostics
    assert "out[threadIdx.x] = kp_reduce_add(v, 32) + kp_reduce_min(v, 32) + kp_reduce_max(v, 32);" in whole, whole
    assert "kp_reduce_and((unsigned)v, 32) | kp_reduce_or(1u, 32) ^ kp_reduce_xor(3u, 32)" in whole, whole
    assert "__reduce_" not in whole.split("__global__")[1], whole
    _compile(tmp_path, whole)


def test_a_wave_wide_group_reduces_over_the_wave(tmp_path):
    port, whole = _port(WAVE)
    assert port.ok, port.diagnostics
    assert "const int s = kp_reduce_add(in[threadIdx.x], warpSize);" in whole, whole
    _compile(tmp_path, whole)


def test_other_masks_are_located_refusals_on_hip_and_metal():
    src = """#include <cuda_runtime.h>
__global__ void p(int* out, const int* in)
{
    int v = in[threadIdx.x];
    unsigned m = __ballot_sync(0xffffffff, v > 0);
    if (v > 0) out[threadIdx.x] = __reduce_add_sync(m, v);
    out[0] = __reduce_xor_sync(0xffff, (unsigned)v);
}
"""
    for backend in ("hip", "metal"):
        port, _ = _port(src, backend)
        got = sorted((d.code, d.location.line) for d in port.diagnostics if d.severity == "error")
        assert got == [("KP203", 6), ("KP203", 7)], (backend, port.diagnostics)


def _tree(values: list[int], width: int, op, bits: int = 32) -> list[int]:
    """The prologue's kp_reduce_* on one wave, lane by lane: `v = op(v, __shfl_xor(v, o, width))` for
    o = width/2 .. 1, where lane l reads lane l ^ o of its own width-lane segment."""
    v = list(values)
    o = width // 2
    while o:
        v = [op(v[lane], v[(lane // width) * width + ((lane % width) ^ o)]) & ((1 << bits) - 1)
             for lane in range(len(v))]
        o //= 2
    return v


def test_the_tree_is_cudas_reduction_over_each_32_lane_half_of_a_64_lane_wave():
    import random
    rng = random.Random(22)
    mask = (1 << 32) - 1
    signed = lambda x: x - (1 << 32) if x >> 31 else x  # noqa: E731
    for _ in range(50):
        wave = [rng.getrandbits(32) for _ in range(64)]
        for name, op, want in (
                ("add", lambda a, b: a + b, lambda xs: sum(xs) & mask),
                ("and", lambda a, b: a & b, lambda xs: __import__("functools").reduce(lambda a, b: a & b, xs)),
                ("or", lambda a, b: a | b, lambda xs: __import__("functools").reduce(lambda a, b: a | b, xs)),
                ("xor", lambda a, b: a ^ b, lambda xs: __import__("functools").reduce(lambda a, b: a ^ b, xs)),
                ("umin", min, min), ("umax", max, max),
                ("min", lambda a, b: a if signed(a) <= signed(b) else b, lambda xs: min(xs, key=signed)),
                ("max", lambda a, b: a if signed(a) >= signed(b) else b, lambda xs: max(xs, key=signed))):
            got = _tree(wave, 32, op)
            for lane in range(64):  # CUDA: each 32-lane warp's lanes all get their warp's reduction
                half = wave[(lane // 32) * 32:(lane // 32) * 32 + 32]
                assert got[lane] == want(half), (name, lane)
            whole = _tree(wave, 64, op)  # a wave-wide group: every lane gets the wave's
            assert all(x == want(wave) for x in whole), name
