"""Inline PTX on the emulator (issue 18: apex's fp16 packing and cache-hinted loads): the
instructions of kernelport/emulator/frontend/ptx.py's table run as what they compute; any other is
refused at its line when a kernel reaches it, and not before."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

KERNEL = """
__device__ void exp2_in_place(float& x) { asm volatile("ex2.approx.f32 %0, %0;" : "+f"(x)); }
__global__ void k(const float* x, float* y, unsigned short* h) {
    int t = threadIdx.x;
    unsigned short lo, hi;
    asm volatile("cvt.rn.f16.f32 %0, %1;" : "=h"(lo) : "f"(x[2 * t]));
    asm volatile("cvt.rn.f16.f32 %0, %1;" : "=h"(hi) : "f"(x[2 * t + 1]));
    int packed;
    asm volatile("mov.b32 %0, {%1, %2};" : "=r"(packed) : "h"(lo), "h"(hi));
    asm volatile ("st.global.cs.s32 [%0], %1;"
        :: "l"((unsigned int *)(h + 2 * t)) , "r"(packed));
    unsigned short a, b;
    asm volatile("mov.b32 {%0, %1}, %2;" : "=h"(a), "=h"(b) : "r"(packed));
    float fa, fb;
    asm volatile("cvt.f32.f16 %0, %1;" : "=f"(fa) : "h"(a));
    asm volatile("cvt.f32.f16 %0, %1;" : "=f"(fb) : "h"(b));
    float4 q;
    asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
        : "=f"(q.x), "=f"(q.y), "=f"(q.z), "=f"(q.w) : "l"(x + 4 * t));
    y[2 * t] = fa; y[2 * t + 1] = fb;
    y[64 + t] = q.x + q.y + q.z + q.w;
    EXTRA
}
"""


def _run(extra: str = ""):
    args = dict(x=(np.arange(64, dtype=np.float32) / 3), y=np.zeros(128, np.float32), h=np.zeros(64, np.uint16))
    return run_kernel(KERNEL.replace("EXTRA", extra), "k", args=args, grid=(1, 1, 1), block=(16, 1, 1)).outputs


def test_fp16_conversion_packing_and_global_accesses_run_from_the_table():
    out = _run()
    x = np.arange(64, dtype=np.float32) / 3
    assert out["h"][:32].tolist() == x[:32].astype(np.float16).view(np.uint16).tolist()  # rounded to half
    assert out["y"][:32].tolist() == x[:32].astype(np.float16).astype(np.float32).tolist()
    assert out["y"][64:80].tolist() == pytest.approx(x.reshape(16, 4).sum(axis=1).tolist(), rel=1e-6)


def test_an_instruction_outside_the_table_is_refused_where_a_kernel_reaches_it():
    """The unreached helper above did not stop the run; calling it does, at the asm's line."""
    with pytest.raises(EmulatorError, match=r":2:\d+: inline PTX `ex2.approx.f32` not emulated"):
        _run("exp2_in_place(fa);")


def test_a_vector_filled_component_by_component_runs_and_an_unset_component_is_never_written():
    src = """
__global__ void k(const int* x, int* y) {
    int2 v;
    v.x = x[threadIdx.x];
    READ
}
"""
    args = dict(x=np.arange(8, dtype=np.int32), y=np.zeros(8, np.int32))
    out = run_kernel(src.replace("READ", "v.y = 2; y[threadIdx.x] = v.x * v.y;"), "k", args=args,
                     grid=(1, 1, 1), block=(8, 1, 1)).outputs["y"]
    assert out.tolist() == [0, 2, 4, 6, 8, 10, 12, 14]
    # stop 51 (emulator.undefined): the unset component is a value never written, no longer an error: the
    # elements stored from it are marked and the store located
    r = run_kernel(src.replace("READ", "y[threadIdx.x] = v.x * v.y;"), "k", args=args, grid=(1, 1, 1),
                   block=(8, 1, 1))
    assert r.undefined["y"].all() and r.undefined_at == {"<kernel>:5:5": 8}
