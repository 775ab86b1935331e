"""C's float math functions that are no dialect concept (`fmodf`, `atan2f`, `fdimf`, `copysignf`,
`exp10f`) and CUDA's rounding conversions (`__float2int_rd`, `__float2uint_rn`, ...) on Metal:
the Metal backend's float_math table defines each in the prologue with CUDA's signature over Metal's
function (the precise:: form where Metal's default fast math could round otherwise; the conversions
saturate and read NaN as 0, as PTX's cvt does). They were refused (KP223 "defined neither in this
file nor in Metal's standard library": a robotics suite's ray marcher (fmodf) and occupancy-grid ray
caster (__float2int_rd), heldout31). The emulator runs Metal's `precise::fmod` as the C library's
fmodf, and saturates CUDA's conversions as PTX does, so the port's checks are real."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate
from port_support import port_text

KERNEL = """__global__ void conv(const float *x, float *f, int *o, unsigned int *u, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = x[i];
        f[i] = fmodf(s, 1.5f) + atan2f(s, 2.0f) + copysignf(1.0f, s) + fdimf(s, 0.25f) + exp10f(s * 0.1f);
        o[i] = __float2int_rd(s) ^ __float2int_ru(s * 7.0f) ^ __float2int_rn(s * 3.0f) ^ __float2int_rz(s * 5.0f);
        u[i] = __float2uint_rd(s) ^ __float2uint_rn(s * 1e3f);
    }
}
"""
X = np.array([0.3, -0.7, 2.5, -2.5, 1e10, -1e10, np.nan, 4.75, -3.25, 5e9, 0.5, -0.5, 1.5, 7.0, 1e-3, -1e-3],
             np.float32)


def test_the_prologue_defines_each_with_cudas_signature():
    whole = port_text(KERNEL, "conv.cu", to="metal", dedent=False)
    assert "inline float fmodf(float x, float y) { return precise::fmod(x, y); }" in whole, whole
    assert "inline float copysignf(float x, float y) { return copysign(x, y); }" in whole, whole
    assert "inline int __float2int_rd(float x) { return (isnan(x) ? 0 : x >= 2147483648.0f ? INT_MAX : " \
           "x <= -2147483648.0f ? INT_MIN : int(floor(x))); }" in whole, whole
    assert "uint(rint(x))" in whole and "precise::exp10(x)" in whole and "precise::fdim(x, y)" in whole, whole


def test_the_port_passes_the_checker():
    from kernelport.backends.metal.check import MetalCheckUnavailable, run_check
    try:
        report = run_check(port_text(KERNEL, "conv.cu", to="metal", dedent=False), "conv.metal")
    except MetalCheckUnavailable as e:
        pytest.skip(str(e))
    assert report.ok, report.errors


def test_the_port_computes_what_the_original_computes():
    n = len(X)
    outs = {}
    for backend, text in (("cuda", KERNEL), ("metal", port_text(KERNEL, "conv.cu", to="metal", dedent=False))):
        args = {"x": X.copy(), "f": np.zeros(n, np.float32), "o": np.zeros(n, np.int32),
                "u": np.zeros(n, np.uint32), "n": np.int32(n)}
        outs[backend] = run_kernel(text, "conv", args=args, grid=(1,), block=(n,), backend=backend).outputs
    np.testing.assert_array_equal(outs["metal"]["o"], outs["cuda"]["o"])
    np.testing.assert_array_equal(outs["metal"]["u"], outs["cuda"]["u"])
    np.testing.assert_allclose(outs["metal"]["f"], outs["cuda"]["f"], rtol=1e-6, equal_nan=True)


def test_conversions_saturate_and_read_nan_as_zero_as_ptx_does():
    src = """__global__ void c(const float *x, int *o, unsigned int *u) {
        int i = threadIdx.x; o[i] = __float2int_rz(x[i]); u[i] = __float2uint_rn(x[i]); }"""
    x = np.array([3e9, -3e9, np.nan, -1.0, 5e9, 2.5], np.float32)
    r = run_kernel(src, "c", args={"x": x, "o": np.zeros(6, np.int32), "u": np.zeros(6, np.uint32)},
                   grid=(1,), block=(6,)).outputs
    assert r["o"].tolist() == [2**31 - 1, -2**31, 0, -1, 2**31 - 1, 2]
    assert r["u"].tolist() == [3000000000, 0, 0, 0, 2**32 - 1, 2]


def test_a_function_metal_lacks_stays_refused_and_the_files_own_definition_stays():
    port, _ = translate(SourceFile.from_text(KERNEL.replace("exp10f(s * 0.1f)", "cbrtf(s)"), "conv.cu"), "metal")
    assert not port.ok and any(d.code == "KP223" and "cbrtf" in d.message for d in port.diagnostics)
    own = "__device__ float fmodf(float a, float b) { return a - b * truncf(a / b); }\n"
    whole = port_text(own + KERNEL, "conv.cu", to="metal", dedent=False)
    assert "inline float fmodf(" not in whole and "float fmodf(float a, float b)" in whole, whole
