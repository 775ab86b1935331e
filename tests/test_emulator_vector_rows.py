"""Vectors in memory rows on the emulator (oracle42, llm.c matmul_forward_kernel4's shapes):
- a local array of vector types, `float4 rhs[8]`, is 8 rows of 4 floats per thread, as a shared array of
  vectors is (was "arrays of structs are not supported by the emulator yet");
- `*reinterpret_cast<float4*>(p) = v` stores v at p's first row (it stored every 4th float: s[y][28..31]
  was written as s[y][28], s[y+1][0], ... and past the end);
- a function returning a vector, `return *reinterpret_cast<const float4*>(p);`, reads the row at its
  return, by value (it returned the row's address: a later store to the row changed the value)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from trust_support import assert_the_oracle_passes_and_catches_a_lane_hazard

HELPERS = """
__device__ float4 ld_vec(const float* address) { return *reinterpret_cast<const float4*>(address); }
__device__ void st_vec(float* address, float4 val) { *reinterpret_cast<float4*>(address) = val; }
"""

KERNEL = HELPERS + """
__global__ void k(const float* x, float* out) {
    __shared__ float s[4][8];
    int t = threadIdx.x;
    int y = t / 2, xo = 4 * (t % 2);
    st_vec(&s[y][xo], ld_vec(x + 4 * t));
    __syncthreads();
    float4 rows[2];
    rows[0] = ld_vec(&s[y][xo]);
    rows[1] = ld_vec(&s[(y + 1) % 4][xo]);
    float4 before = ld_vec(&s[y][xo]);
    __syncthreads();
    s[y][xo] = -1.0f;
    __syncthreads();
    out[t] = rows[0].x + rows[0].w + 100.0f * rows[1].y + 1000.0f * before.x + 10000.0f * s[y][xo];
}
"""


def test_local_vector_arrays_row_stores_and_vectors_returned_by_value():
    x = np.arange(32, dtype=np.float32)
    out = run_kernel(KERNEL, "k", args={"x": x, "out": np.zeros(8, np.float32)}, grid=(1, 1, 1),
                     block=(8, 1, 1)).outputs["out"]
    want = [x[4 * t] + x[4 * t + 3] + 100 * x[(4 * t + 8) % 32 + 1] + 1000 * x[4 * t] - 10000 for t in range(8)]
    assert out.tolist() == want


def test_an_initialised_local_array_of_vectors_is_refused_at_its_line():
    src = "__global__ void k(float* out) {\n    float2 v[2] = {};\n    out[0] = v[0].x;\n}\n"
    with pytest.raises(EmulatorError, match=r":2:\d+: an initialised local array of vector types"):
        run_kernel(src, "k", args={"out": np.zeros(1, np.float32)}, grid=(1, 1, 1), block=(1, 1, 1))


SOURCE = HELPERS + """
__global__ void lanes(const float *x, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 parts[2];
    parts[0] = ld_vec(x + 8 * i);
    parts[1] = ld_vec(x + 8 * i + 4);
    float4 r;
    r.x = (i % 32 < 32 ? 2.0f : -3.0f) * parts[1].x;
    r.y = parts[0].y; r.z = parts[1].z; r.w = parts[0].w;
    st_vec(out + 4 * i, r);
}

int main() {
    int n = 256;
    float *x, *out;
    cudaMalloc(&x, 8 * n * sizeof(float));
    cudaMalloc(&out, 4 * n * sizeof(float));
    lanes<<<n / 128, 128>>>(x, out, n);
}
"""


def test_the_oracle_runs_it_and_a_port_with_a_wave_64_hazard_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(SOURCE)
    assert_the_oracle_passes_and_catches_a_lane_hazard(f)
