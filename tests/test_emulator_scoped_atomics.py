"""Scoped atomics on the emulator (oracle42: cuda-samples systemWideAtomics, `atomicAdd_system(&a[0], 10)`,
before "unknown function `atomicAdd_system`", its kernel not run): `atomicOP_system` and `atomicOP_block`
(CUDA's and HIP's `Lowering.atomic_scopes`) run as atomicOP: the emulator's one device sees one memory.
A name whose stem is no atomic stays unknown."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from trust_support import assert_the_oracle_passes_and_catches_a_lane_hazard

KERNEL = """
__global__ void k(int* a) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    EXTRA
    atomicAdd_system(&a[0], 10);
    atomicMax_block(&a[1], t);
    atomicCAS_system(&a[2], 0, 7);
    atomicInc_system((unsigned int*)&a[3], 1000);
    atomicOr_block(&a[4], 1 << (t % 31));
}
"""


def test_system_and_block_scoped_atomics_run_as_the_atomic():
    a = np.zeros(5, np.int32)
    got = run_kernel(KERNEL.replace("EXTRA", ""), "k", args={"a": a}, grid=(2, 1, 1), block=(64, 1, 1)).outputs["a"]
    assert got.tolist() == [1280, 127, 7, 128, (1 << 31) - 1]


def test_a_scope_suffix_on_a_name_that_is_no_atomic_stays_unknown():
    with pytest.raises(EmulatorError, match="unknown function `__syncthreads_system`"):
        run_kernel(KERNEL.replace("EXTRA", "__syncthreads_system();"), "k", args={"a": np.zeros(5, np.int32)},
                   grid=(1, 1, 1), block=(32, 1, 1))


SOURCE = """
__global__ void lanes(const float *x, float *out, int *total, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = (i % 32 < 32 ? 2.0f : -3.0f) * x[i];
        atomicAdd_system(total, 1);
    }
}

int main() {
    int n = 256;
    float *x, *out;
    int *total;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMallocManaged(&total, sizeof(int));
    lanes<<<n / 128, 128>>>(x, out, total, n);
}
"""


def test_the_oracle_runs_it_and_a_port_with_a_wave_64_hazard_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(SOURCE)
    assert_the_oracle_passes_and_catches_a_lane_hazard(f)
