"""The emulator runs the C++ that tiled GEMM kernels are written in (heldout14's cuda-gemm-
optimization v02..v07): a device function template with a defaulted template parameter
(`size_t SKEW = 0U`), a `static_assert` in its body, and a template argument the caller names by
its own constexpr local (`constexpr size_t NUM_THREADS{BX * BY};` then `load<T, NUM_THREADS>(...)`).
Each was "the emulator cannot run the original" (every function lost, an unknown function, an
unknown name); a wave-64 hazard in such a kernel is still told apart at wave 64."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

HELPER = """template <typename T, size_t BX, size_t NT, size_t SKEW = 0U>
__device__ void load(T const* A, T tile[BX + SKEW], size_t i)
{
    static_assert(BX % NT == 0U, "whole tiles");
    for (size_t j{0U}; j < BX / NT; ++j) { tile[i + j * NT] = A[i + j * NT]; }
}
"""
KERNEL = """template <typename T, size_t BX>
__global__ void k(T const* A, T* y)
{
    constexpr size_t HALF{BX / 2U};
    constexpr size_t NT = HALF;
    __shared__ T tile[BX];
    size_t const i{threadIdx.x};
    if (i < NT) { load<T, BX, NT>(A, tile, i); }
    __syncthreads();
    y[i] = tile[BX - 1U - i] + (float)(HAZARD);
}
"""


def _run(src, wave=32):
    r = run_kernel(src, "k", args=dict(A=np.arange(8, dtype=np.float32), y=np.zeros(8, np.float32)),
                   grid=(1,), block=(8,), template_args=["float", "8"], wave=wave)
    return list(r.outputs["y"])


def test_a_defaulted_template_parameter_static_assert_and_constexpr_arguments():
    src = HELPER + KERNEL.replace("HAZARD", "0")
    assert _run(src) == [7, 6, 5, 4, 3, 2, 1, 0]
    assert _run(src, 64) == _run(src)


def test_a_wave_hazard_in_such_a_kernel_is_seen_at_64():
    src = HELPER + KERNEL.replace("HAZARD", "warpSize - 32")  # code that assumes 32 lanes
    assert _run(src) == [7, 6, 5, 4, 3, 2, 1, 0]
    assert _run(src, 64) == [39, 38, 37, 36, 35, 34, 33, 32]


def test_look_alike_a_name_that_is_no_constexpr_stays_unknown():
    src = HELPER + KERNEL.replace("HAZARD", "0").replace("constexpr size_t NT = HALF;", "size_t NT = HALF;")
    with pytest.raises(EmulatorError):
        _run(src)


def test_a_vector_list_initialised_is_built_as_its_constructor():
    # gemm_v02_vectorized's `int4 A_row_vector_vals{0, 0, 0, 0};`; `{}` zero-fills
    src = "__global__ void k(int* y) { int4 v{1, 2, 3, 4}; int2 z{}; float4 f{0.5f, 1.f, 2.f, 3.f};\n" \
          "    y[threadIdx.x] = v.x + v.w + z.y + (int)(f.w * 2.f); }\n"
    r = run_kernel(src, "k", args=dict(y=np.zeros(2, np.int32)), grid=(1,), block=(2,))
    assert list(r.outputs["y"]) == [11, 11]
