"""An operator on whole vector values (a project's own `float4` operators, hecbench sobel) is a
located 'not run' reason for the emulator, never an internal error."""
from __future__ import annotations

from pathlib import Path

from kernelport.verify import Verifier

KERNEL = """#include <cuda_runtime.h>
__device__ float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
__device__ float4 operator*(float4 a, float4 b) { return make_float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w); }

__global__ void k(const float4* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float4 two = make_float4(2.f, 2.f, 2.f, 2.f);
        float4 g = two * in[i] + in[i];
        out[i] = g.x;
    }
}

int main() {
    const int n = 256;
    float4* in; float* out;
    cudaMalloc(&in, n * sizeof(float4));
    cudaMalloc(&out, n * sizeof(float));
    k<<<n / 64, 64>>>(in, out, n);
    return 0;
}
"""


def test_an_operator_on_whole_vectors_is_a_located_reason_not_an_internal_error(tmp_path):
    f = tmp_path / "vec.cu"
    f.write_text(KERNEL)
    rep = Verifier(schedules=("block",), cache=False, timeout=60).verify(f)  # raised AttributeError before
    reasons = [c.detail for c in rep.checks if "whole vector values" in c.detail]
    assert reasons and all(f"{f}:9" in r for r in reasons), [c.detail for c in rep.checks]
