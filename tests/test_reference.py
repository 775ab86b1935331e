"""The scalar C reference: compiled with the system C compiler, or interpreted."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport import reference
from kernelport.emulator import run_kernel
from kernelport.reference import extract_c, run_reference

from conftest import require_tool

SRC = r"""
#include <cuda_runtime.h>
#include <math.h>
#define BLOCK 256
typedef float real;
static const int SCALE = 3;

__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
    for (int k = BLOCK / 2; k > 0; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

static real square(real v) { return v * v; }

// the reference: plain C
void block_sum_ref(const float* x, float* out, int n) {
    for (int i = 0; i < n; ++i) out[i / BLOCK] += x[i];
}

void scaled_squares_ref(const real* x, real* y, unsigned int n, int* count) {
    for (unsigned int i = 0; i < n; ++i) {
        y[i] = SCALE * square(x[i]) + sqrtf(fabsf(x[i]));
        if (y[i] > 1.0f) count[0] += 1;
    }
}

int main(void) {
    float* d = 0;
    block_sum<<<1, 256>>>(d, d, 0);
    return 0;
}
"""


def test_compiled_reference_matches_kernel():
    require_tool("cc")
    n = 256 * 5
    x = np.random.default_rng(0).integers(-20, 20, n).astype(np.float32)
    ref = run_reference(SRC, "block_sum_ref", dict(x=x, out=np.zeros(5, np.float32), n=n), path="k.cu")
    emu = run_kernel(SRC, "block_sum", args=dict(x=x, out=np.zeros(5, np.float32), n=n), grid=(5, 1, 1),
                     block=(256, 1, 1), path="k.cu")
    assert np.array_equal(ref["out"], emu.outputs["out"])
    assert np.array_equal(ref["x"], x)


def test_helpers_typedefs_and_constants_are_extracted():
    text = extract_c(SRC, "scaled_squares_ref", "k.cu")
    assert "square" in text and "SCALE" in text and "block_sum_ref" not in text and "<<<" not in text


@pytest.mark.parametrize("interpret", [False, True])
def test_reference_compiled_and_interpreted_agree(interpret):
    if not interpret:
        require_tool("cc")
    n = 50
    x = np.random.default_rng(1).uniform(-2, 2, n).astype(np.float32)
    out = run_reference(SRC, "scaled_squares_ref", dict(x=x, y=np.zeros(n, np.float32), n=n,
                                                        count=np.zeros(1, np.int32)), path="k.cu",
                        interpret=interpret)
    expect = (np.float32(3) * (x * x)) + np.sqrt(np.abs(x))
    np.testing.assert_array_equal(out["y"], expect)
    assert out["count"][0] == int((expect > 1).sum())


def test_compiled_library_is_cached():
    require_tool("cc")
    args = dict(x=np.ones(256, np.float32), out=np.zeros(1, np.float32), n=256)
    run_reference(SRC, "block_sum_ref", args, path="k.cu")
    before = len(reference._LIBS)
    run_reference(SRC, "block_sum_ref", args, path="k.cu")
    assert len(reference._LIBS) == before


def test_missing_reference_function():
    with pytest.raises(Exception) as ei:
        run_reference(SRC, "nope_ref", {}, path="k.cu")
    assert "nope_ref" in str(ei.value)
