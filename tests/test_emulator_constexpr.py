"""A `constexpr` local is a constant the emulator sizes arrays by (llm.c's attention_backward
softmax_autoregressive_backward_kernel4: `constexpr int UNROLL = 8; float result[UNROLL] = {};`), and
`if constexpr` is an if: before, "`UNROLL` is not a constant expression" and verify's oracle did not
run the original.  Look-alike: a plain local is still no array length (a located refusal)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from trust_support import assert_a_broken_hip_port_fails, assert_the_oracle_runs_and_ports_match

KERNEL = """
__global__ void k(const float* x, float* out) {
    constexpr int UNROLL = 4;
    static constexpr int TWICE = 2 * UNROLL;
    float r[UNROLL] = {};
    float w[TWICE];
    for (int k = 0; k < UNROLL; ++k) r[k] = x[threadIdx.x * UNROLL + k];
    if constexpr (UNROLL > 2) { r[0] += 100.0f; }
    for (int k = 0; k < TWICE; ++k) w[k] = k;
    float s = 0.0f;
    for (int k = 0; k < UNROLL; ++k) s += r[k] * w[k + UNROLL];
    out[threadIdx.x] = s;
}
"""


def test_constexpr_locals_size_arrays_and_if_constexpr_is_an_if():
    x = np.arange(16, dtype=np.float32)
    res = run_kernel(KERNEL, "k", args={"x": x, "out": np.zeros(4, np.float32)}, grid=(1, 1, 1), block=(4, 1, 1))
    xs = x.reshape(4, 4).copy()
    xs[:, 0] += 100
    np.testing.assert_array_equal(res.outputs["out"], (xs * np.arange(4, 8)).sum(axis=1))


def test_a_plain_local_is_no_array_length():
    src = KERNEL.replace("constexpr int UNROLL = 4;", "int UNROLL = 4;")
    with pytest.raises(EmulatorError, match="`UNROLL` is not a constant expression") as e:
        run_kernel(src, "k", args={"x": np.zeros(16, np.float32), "out": np.zeros(4, np.float32)},
                   grid=(1, 1, 1), block=(4, 1, 1))
    assert e.value.line == 5, e.value  # float r[UNROLL]


FILE = """#include <cuda_runtime.h>

__global__ void window_sums(const float* x, float* out, int n) {
    constexpr int UNROLL = 8;
    float acc[UNROLL] = {};
    int base = UNROLL * (blockIdx.x * blockDim.x + threadIdx.x);
    for (int k = 0; k < UNROLL; ++k) {
        if (base + k < n) acc[k] = x[base + k];
    }
    float s = 0.0f;
    for (int k = 0; k < UNROLL; ++k) s += acc[k];
    if (base < n) out[base / UNROLL] = s;
}

int main() {
    int n = 1 << 14;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n / 8 * sizeof(float));
    window_sums<<<n / 8 / 128, 128>>>(x, out, n);
    cudaDeviceSynchronize();
    return 0;
}
"""


def test_the_oracle_runs_and_a_wrong_port_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(FILE)
    assert_the_oracle_runs_and_ports_match(f)
    # the port's lanes past 32 of a 64-lane wave leave their windows' last element out
    assert_a_broken_hip_port_fails(f, "for (int k = 0; k < UNROLL; ++k) s += acc[k];",
                                   "for (int k = 0; k < UNROLL - (threadIdx.x % 64 >= 32); ++k) s += acc[k];")
