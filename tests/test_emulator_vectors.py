"""Vector values held in registers (issue 12): float2/uint3/... variables loaded from a vector
buffer, built by make_<type>, changed a component at a time under divergence, passed to
helpers and stored back; Metal's uint3 built-ins passed whole to a helper.  Each with a
look-alike that must stay refused, at its line."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

VARS = """
__device__ float dot2(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
__global__ void k(const float2* v, float2* o, float* s, int n) {
    int i = threadIdx.x;
    if (i < n) {
        float2 p = v[i];
        float2 q = make_float2(p.y, 2.0f);
        if (i % 2) q.x = -1.0f;
        q.y += 1.0f;
        s[i] = dot2(p, q);
        o[i] = q;
    }
}
"""


def _vars(wave, src=VARS):
    v = np.arange(10, dtype=np.float32)   # float2 (0, 1), (2, 3), ...
    return run_kernel(src, "k", args=dict(v=v, o=np.zeros(10, np.float32), s=np.zeros(5, np.float32), n=4),
                      grid=(1, 1, 1), block=(5, 1, 1), wave=wave)


@pytest.mark.parametrize("wave", [32, 64])
def test_vector_variables_load_change_pass_and_store(wave):
    r = _vars(wave)
    q = [(1, 3), (-1, 3), (5, 3), (-1, 3)]
    p = [(0, 1), (2, 3), (4, 5), (6, 7)]
    assert r.outputs["o"].reshape(5, 2).tolist() == [list(x) for x in q] + [[0, 0]]
    assert r.outputs["s"].tolist() == [a[0] * b[0] + a[1] * b[1] for a, b in zip(p, q)] + [0]


def test_a_component_assigned_in_one_lane_leaves_the_others():
    src = VARS.replace("if (i % 2) q.x = -1.0f;", "if (i == 2) q.x = 9.0f;")
    assert _vars(32, src).outputs["o"].reshape(5, 2)[:4, 0].tolist() == [1, 3, 9, 7]


@pytest.mark.parametrize("line, text, what", [
    (7, "float2 q = make_float2(p.y, 2.0f); float2 w = p; s[i] = (w + q).x;", "operator \\+ on a vector value"),
    (8, "if (i % 2) q.z = -1.0f;", "no member .z in a 2-component vector"),
    (9, "float2 r = p.x; q.y += 1.0f;", "a scalar assigned to a vector variable"),
])
def test_what_a_vector_variable_cannot_do_is_located(line, text, what):
    lines = VARS.split("\n")
    lines[line - 1] = "        " + text
    with pytest.raises(EmulatorError, match=what) as ei:
        _vars(32, "\n".join(lines))
    assert ei.value.line == line


METAL = """
#include <metal_stdlib>
using namespace metal;
inline uint flat(uint3 tid, uint3 bdim) { return tid.y * bdim.x + tid.x; }
kernel void k(device uint* out [[buffer(0)]],
              uint3 tid [[thread_position_in_threadgroup]],
              uint3 bdim [[threads_per_threadgroup]]) {
    out[flat(tid, bdim)] = tid.x * 100 + tid.y;
}
"""


def test_metal_builtin_vectors_passed_whole_to_a_helper():
    r = run_kernel(METAL, "k", args=dict(out=np.zeros(8, np.uint32)), grid=(1, 1, 1), block=(4, 2, 1),
                   backend="metal")
    assert r.outputs["out"].tolist() == [0, 100, 200, 300, 1, 101, 201, 301]


def test_metal_builtin_vector_has_no_fourth_component():
    with pytest.raises(EmulatorError, match="no member .w in a 3-component vector"):
        run_kernel(METAL.replace("tid.y * bdim.x", "tid.w * bdim.x"), "k", args=dict(out=np.zeros(8, np.uint32)),
                   grid=(1, 1, 1), block=(4, 2, 1), backend="metal")


HALF2 = """
#include <cuda_fp16.h>
__global__ void k(const __half2* v, float* out, __half2* o) {
    int i = threadIdx.x;
    __half2 p = v[i];
    __half s = __hadd(p.x, p.y);
    __half2 q = __hmul2(__halves2half2(p.y, p.x), __float2half2_rn(3.0f));
    out[i] = __half2float(s) + __low2float(q);
    o[i] = __hadd2(q, p);
}
"""


def _half2(src=HALF2):
    v = (np.arange(8, dtype=np.float16) / np.float16(3)).astype(np.float16)
    r = run_kernel(src, "k", args=dict(v=v, out=np.zeros(4, np.float32), o=np.zeros(8, np.float16)),
                   grid=(1, 1, 1), block=(4, 1, 1))
    return v[0::2], v[1::2], r


def test_half2_values_round_each_operation_to_half():
    a, b, r = _half2()
    three = np.float16(3)
    assert r.outputs["out"].tolist() == ((a + b).astype(np.float32) + (b * three).astype(np.float32)).tolist()
    assert r.outputs["o"].tolist() == np.stack([b * three + a, a * three + b], 1).reshape(-1).tolist()
    # rounded to half after every operation, not once at the end in float
    exact = (b.astype(np.float32) * 3 + a.astype(np.float32)).astype(np.float16)
    assert (r.outputs["o"][0::2] != exact).any()


def test_half2_operation_on_a_scalar_is_located():
    with pytest.raises(EmulatorError, match="__hadd2: a half2 argument expected") as ei:
        _half2(HALF2.replace("__hadd2(q, p)", "__hadd2(q, s)"))
    assert ei.value.line == 9


ROWS = """
__device__ float2 cmul(float2 a, float2 b) {
    float2 c;
    c.x = a.x * b.x - a.y * b.y;
    c.y = a.x * b.y + a.y * b.x;
    return c;
}
__global__ void k(float2* a, const float2* b, int n) {
    int i = threadIdx.x;
    if (i < n) a[i] = cmul(a[i], b[i]);
}
"""


def test_an_element_of_a_vector_buffer_passed_by_value_to_a_helper():
    """simpleCUFFT's ComplexMul(a[i], b[i]): each parameter holds the element's components."""
    a = np.array([1, 2, 3, 4, 5, 6], np.float32)   # (1+2i), (3+4i), (5+6i)
    b = np.array([0, 1, 2, 0, 7, 7], np.float32)   # i, 2, 7+7i
    r = run_kernel(ROWS, "k", args={"a": a, "b": b, "n": 2}, grid=(1, 1, 1), block=(4, 1, 1))
    assert r.outputs["a"].tolist() == [-2, 1, 6, 8, 5, 6]   # the third is past n: unchanged


def test_a_scalar_passed_to_a_vector_parameter_is_located():
    src = ROWS.replace("cmul(a[i], b[i])", "cmul(a[i], 2.0f)")
    with pytest.raises(EmulatorError, match=r"<kernel>:10:\d+: a scalar assigned to a vector variable"):
        run_kernel(src, "k", args={"a": np.zeros(6, np.float32), "b": np.zeros(6, np.float32), "n": 2},
                   grid=(1, 1, 1), block=(4, 1, 1))


SHARED_ROWS = """
__global__ void k(const uint2* in, uint2* out) {
    __shared__ uint2 s[4];
    uint2 a = in[threadIdx.x];
    s[threadIdx.x] = a;
    __syncthreads();
    uint2 v = s[3 - threadIdx.x];
    v.y += 10;
    out[threadIdx.x] = v;
}
"""


def test_a_shared_array_of_a_vector_type_holds_rows():
    """radixsort's `__shared__ uint2 sKeys2[CTA_SIZE]` (was a TypeError, an internal error)."""
    r = run_kernel(SHARED_ROWS, "k", args={"in": np.arange(8, dtype=np.uint32), "out": np.zeros(8, np.uint32)},
                   grid=(1, 1, 1), block=(4, 1, 1))
    assert r.outputs["out"].tolist() == [6, 17, 4, 15, 2, 13, 0, 11]


def test_a_shared_array_of_another_struct_is_refused_at_its_line():
    src = "struct P { int a; float b; };\n" + SHARED_ROWS.replace("__shared__ uint2 s[4];", "__shared__ P q[4];")
    with pytest.raises(EmulatorError, match=r"<kernel>:4:\d+: shared variable `q` of struct type"):
        run_kernel(src, "k", args={"in": np.arange(8, dtype=np.uint32), "out": np.zeros(8, np.uint32)},
                   grid=(1, 1, 1), block=(4, 1, 1))


CHAR4 = """
__global__ void k(const char* data, int* out) {
    int i = threadIdx.x;
    char4 j = *(char4 *)(data + 4 * i);  // all-pairs-distance reads four bytes at once
    uchar4 u = make_uchar4(1, 2, 3, 250);
    out[i] = j.x + j.y * 10 + j.z * 100 + j.w * 1000 + u.w;
}
"""


def test_char4_and_uchar4_are_rows_of_bytes():
    d = np.arange(16, dtype=np.int8)
    r = run_kernel(CHAR4, "k", args={"data": d, "out": np.zeros(4, np.int32)}, grid=(1, 1, 1), block=(4, 1, 1))
    assert r.outputs["out"].tolist() == [b + (b + 1) * 10 + (b + 2) * 100 + (b + 3) * 1000 + 250 for b in (0, 4, 8, 12)]
    # a vector type the prelude does not declare (CUDA has no half4) stays a located refusal
    with pytest.raises(EmulatorError, match="<kernel>:4:11: cannot lower"):
        run_kernel(CHAR4.replace("char4 j = *(char4 *)", "half4 j = *(half4 *)"), "k",
                   args={"data": d, "out": np.zeros(4, np.int32)}, grid=(1, 1, 1), block=(4, 1, 1))
