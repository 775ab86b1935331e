"""C++ array-reference parameters on the emulator (issue 18: apex's `ldg(float (&dst)[N], ...)`):
the parameter is the caller's array, overloads are chosen by an array's element type and length,
and a template's length parameter is deduced from the array passed.  Each with its look-alike."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

HELPERS = """
template <int N>
__device__ void pack(int (&dst)[N], const float (&src)[2 * N]) {
    for (int i = 0; i < N; ++i) dst[i] = (int)src[2 * i] * 1000 + (int)src[2 * i + 1];
}
template <int N>
__device__ void pack(float (&dst)[N], const float (&src)[N]) {
    for (int i = 0; i < N; ++i) dst[i] = -src[i];
}
__device__ void put(float* out, int (&src)[1]) { out[0] = src[0] + 0.25f; }
__device__ void put(float* out, int (&src)[2]) { out[0] = src[0] + 0.5f; out[1] = src[1] + 0.5f; }
template <int N>
__device__ void put(float* out, float (&src)[N]) {
    int tmp[N / 2];
    pack(tmp, src);
    put(out, tmp);
}
"""


def _run(body: str, helpers: str = HELPERS):
    src = helpers + "__global__ void k(const float* x, float* y) {\n    int t = threadIdx.x;\n" + body + "\n}\n"
    args = dict(x=np.arange(64, dtype=np.float32), y=np.zeros(64, np.float32))
    return run_kernel(src, "k", args=args, grid=(1, 1, 1), block=(16, 1, 1)).outputs["y"]


def test_overloads_are_chosen_by_length_and_element_type_and_n_is_deduced():
    """put(float[4]) deduces N = 4, packs into int[2] (pack's int overload, 2 * N checked against
    the float[4]) and calls put(int[2]); with float[2] it takes put(int[1])."""
    y = _run("    float v[4];\n    for (int i = 0; i < 4; ++i) v[i] = x[4 * t + i];\n    put(y + 2 * t, v);")
    assert y[:4].tolist() == [1.5, 2003.5, 4005.5, 6007.5]
    y = _run("    float v[2];\n    v[0] = x[2 * t]; v[1] = x[2 * t + 1];\n    put(y + t, v);")
    assert y[:3].tolist() == [1.25, 2003.25, 4005.25]


def test_writes_through_an_array_reference_reach_the_caller():
    y = _run("    float v[2], w[2];\n    v[0] = x[t]; v[1] = 1.0f;\n    pack(w, v);\n    y[t] = w[0] + w[1];")
    assert y[:3].tolist() == [-1.0, -2.0, -3.0]


def test_a_row_of_a_2d_array_and_a_comma_declarator_are_arrays_too():
    y = _run("    float n = 0.f, m[2][2];\n    m[1][0] = x[2 * t]; m[1][1] = x[2 * t + 1];\n    put(y + t, m[1]);")
    assert y[:2].tolist() == [1.25, 2003.25]


def test_an_argument_no_declaration_gives_is_refused_at_its_line():
    """The look-alike of a deducible call: a pointer, not an array: no length to choose by."""
    with pytest.raises(EmulatorError, match=r":21:.*cannot choose the definition of put for `put\(y \+ t, p\)`"):
        _run("    int* p = (int*)0;\n    put(y + t, p);")
