"""CUDA's round-to-nearest float intrinsics on Metal (kernelport/backends/metal/__init__.py: float_math and
no_meaning).  main refused `__fsqrt_rn` and its kin as names "defined neither in this file nor in Metal's standard
library (it comes from a header the Metal port cannot include)", which says nothing of what they are.  Now:
__fsqrt_rn, __fdiv_rn, __frcp_rn and __fmaf_rn are ported over what MSL's precise variant rounds correctly
(precise::sqrt, precise::divide, fma: MSL spec 7.4), whatever the fast-math option the host compiles with;
__fadd_rn / __fsub_rn / __fmul_rn, whose point is that CUDA never contracts them into an fma, are refused saying
so (Metal's default fast math may contract or re-associate them); the double forms are refused as double."""
from __future__ import annotations

from conftest import metal_checked, metal_port

_NEAREST = """
    __global__ void k(float *a) {
        int i = threadIdx.x;
        a[i] = __fsqrt_rn(a[i]) + __fdiv_rn(a[i + 1], a[i + 2]) + __frcp_rn(a[i + 3]) + __fmaf_rn(a[i], a[i + 1], 2);
    }
"""


def _refusals(code: str) -> list[tuple[int, str]]:
    port, _ = metal_port(code)
    return [(d.location.line, d.format()) for d in port.diagnostics if d.severity == "error"]


def test_correctly_rounded_intrinsics_port_over_precise_functions():
    text = metal_checked(_NEAREST)
    assert "inline float __fsqrt_rn(float x) { return precise::sqrt(x); }" in text
    assert "inline float __fdiv_rn(float x, float y) { return precise::divide(x, y); }" in text
    assert "inline float __frcp_rn(float x) { return precise::divide(1.0f, x); }" in text
    assert "inline float __fmaf_rn(float x, float y, float z) { return fma(x, y, z); }" in text
    assert "__fmaf_rn(a[i], a[i + 1], 2)" in text  # the int literal converts as CUDA's float signature does


def test_an_unfused_add_or_multiply_is_refused_saying_why():
    got = _refusals("""
        __global__ void k(float *a) {
            a[0] = __fadd_rn(a[1], a[2]) - __fsub_rn(a[3], a[4]);
            a[5] = __fmul_rn(a[6], a[7]);
        }
    """)
    assert [line for line, _ in got] == [3, 3, 4], got
    assert all("KP223" in m and "CUDA never contracts into an fma: Metal's default fast math may contract or "
               "re-associate it" in m for _, m in got), got
    assert "round-to-nearest float multiply" in got[2][1]


def test_a_double_round_to_nearest_is_refused_as_double():
    got = _refusals("__device__ float f(float x) { return (float)__dsqrt_rn((double)x); }\n"
                    "__global__ void k(float *a) { a[0] = f(a[1]); }\n")
    assert any("'__dsqrt_rn'" in m and "Metal has no double" in m for _, m in got), got


def test_lookalike_a_directed_rounding_keeps_its_refusal():
    got = _refusals("__global__ void k(float *a) { a[0] = __fsqrt_ru(a[1]) + __fdiv_rz(a[2], a[3]); }\n")
    assert len(got) == 2 and all("arithmetic with a directed rounding" in m for _, m in got), got
