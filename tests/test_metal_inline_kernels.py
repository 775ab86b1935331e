"""`inline` on a kernel goes from the Metal port (heldout102 LBMProject streaming.h: `__global__ inline void
pullStreamingKernel(...)`, a header's kernels made inline for the one-definition rule).  Main wrote `kernel inline
void`, which the checker did not take as a kernel (KP224: "[[thread_position_in_threadgroup]] is only valid on a
kernel parameter"); a Metal kernel is an entry point, which nothing inlines, as `static` on a kernel already goes.
The look-alikes: a device function keeps its `inline` and its `__forceinline__` (Metal's spelling).  Written for
the test."""
from __future__ import annotations

from pathlib import Path

from test_metal_port_causes46 import _port, _write

KERNELS = {"k.cu": """
    __device__ inline float one(float x) { return x + 1.0f; }
    __device__ __forceinline__ float two(float x) { return x + 2.0f; }
    __global__ inline void a(float* f, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) f[i] = one(f[i]); }
    inline __global__ void b(float* f, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) f[i] = two(f[i]); }
    __global__ __forceinline__ void c(float* f, int n) { int i = threadIdx.x; if (i < n) f[i] = 3.0f; }
    static __inline__ __global__ void d(float* f, int n) { int i = threadIdx.x; if (i < n) f[i] = 4.0f; }
"""}


def test_inline_goes_from_kernels_and_stays_on_device_functions(tmp_path: Path):
    _write(tmp_path, KERNELS)
    text = _port(tmp_path / "k.cu")
    for k in "abcd":
        assert f"kernel void {k}(" in text, text
    assert "inline float one(float x)" in text
    assert "inline float two(float x)" in text, text
