"""C99 classification functions called unqualified in host code (`if (isnan(h_out[i]))` in a validation loop):
nvcc compiles them, CUDA's headers declaring the global `isnan` for host and device; hipcc does not ("no matching
function for call to 'isnan'": clang's HIP headers declare the global ones for the device only; in a
`__host__ __device__` function "reference to __device__ function 'isnan'").  Main wrote the calls as they were;
the HIP port now writes `std::isnan` in host and `__host__ __device__` functions (kernelport/host_classifiers.py,
the backend's host_std_classifiers).  Look-alikes: device-only calls, the project's own `isinf`, a qualified call,
a name nothing classifies (`isnanf_count`), left as written."""
from __future__ import annotations

import pytest

from conftest import hip_compiles
from port_support import port_text

VALIDATE = """
#include <cstdio>
#include <cmath>
__global__ void scale(float *x, float a) { int i = threadIdx.x; x[i] = isnan(x[i]) ? 0.0f : a * x[i]; }
__host__ __device__ bool bad(double v) { return isinf(v) || signbit(v); }
int validate(const float *h, const double *d, int n) {
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
        if (isnan(h[i]) || !isfinite(d[i]) || bad(d[i])) ++wrong;
        if (isgreater(h[i], 1.0f) && fpclassify(d[i]) == FP_NORMAL && isnormal(h[i])) ++wrong;
    }
    std::printf("%d wrong\\n", wrong);
    return wrong;
}
"""


def test_host_and_host_device_calls_are_std(tmp_path):
    text = port_text(VALIDATE)
    assert "x[i] = isnan(x[i])" in text  # device code: the global device overload, as written
    assert "return std::isinf(v) || std::signbit(v);" in text
    assert "if (std::isnan(h[i]) || !std::isfinite(d[i]) || bad(d[i])) ++wrong;" in text
    assert "std::isgreater(h[i], 1.0f) && std::fpclassify(d[i]) == FP_NORMAL && std::isnormal(h[i])" in text
    hip_compiles(tmp_path, text)


def test_portable_keeps_isnormal_in_host_device_code():
    code = """
    #include <cmath>
    __global__ void k(float *x) { x[threadIdx.x] = 1.0f; }
    __host__ __device__ bool ok(float v) { return isnormal(v) && isfinite(v); }
    bool host(float v) { return isnormal(v) && ok(v); }
    """
    text = port_text(code, to="portable")
    assert "return isnormal(v) && std::isfinite(v);" in text and "return std::isnormal(v) && ok(v);" in text
    assert "return std::isnormal(v) && std::isfinite(v);" in port_text(code)


@pytest.mark.parametrize("to", ["hip", "portable"])
def test_look_alikes_are_left_as_written(tmp_path, to):
    code = """
    #include <cmath>
    static bool isinf(int code) { return code == 9; }
    int isnanf_count(const float *h, int n) { int c = 0; for (int i = 0; i < n; ++i) c += std::isnan(h[i]); return c; }
    __device__ bool dev(float v) { return isnan(v) || isfinite(v); }
    __global__ void k(float *x) { x[threadIdx.x] = dev(x[0]) ? 1.0f : 0.0f; }
    int host(float v) { return isinf(3) + ::isnanf_count(&v, 1) + (int)std::isinf(v); }
    """
    text = port_text(code, to=to)
    assert "std::std" not in text and "return isnan(v) || isfinite(v);" in text
    assert "return isinf(3) + ::isnanf_count(&v, 1) + (int)std::isinf(v);" in text
    if to == "hip":
        hip_compiles(tmp_path, text)
