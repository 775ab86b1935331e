"""Functional casts whose type is several words, `unsigned int(v >> 24)` (kernelport/grammar_gaps.py's
`functional_cast`, lexing.functional_casts), and CUDA's float-pointer `sincos`/`sincospi` overloads
ROCm 5.2 lacks (retyped_calls.rename_float_pointer_calls, the HIP backend's `float_pointer_calls`).

nvcc's EDG front end takes `unsigned int(v >> 24)` (CudaTracerLib on heldout25); C++, clang (hipcc)
and tree-sitter's grammar do not ("cannot parse 'unsigned'"). The parse now sees the cast C-style and
the ports write `((unsigned int)(v >> 24))`, the same conversion. hipcc's `sincos(x, &s, &c)` with
float pointers is "no matching function" (clang 15's __clang_hip_math.h: double pointers only): the
port calls `sincosf` where the pointers plainly point to float.
"""
from __future__ import annotations

import re

from conftest import hip_compiles, metal_checked, run_host_check
from port_support import port_text

CASTS = """#include <cuda_runtime.h>
__host__ __device__ inline unsigned long long packed(unsigned int v, int n, signed char b)
{
    // -- body --
    unsigned long long r = unsigned int(v >> 24) + unsigned char(v) * 3u;
    r += (unsigned long long)(long long(n) * 5) ^ unsigned long long (v) << 7;
    r += unsigned short(n) + (long long) signed char(v) + b;
    return unsigned long long(r >> 1) + r;
    // -- end --
}
__global__ void k(unsigned long long* out, const unsigned int* in, int n)
{
    unsigned int x(5);
    unsigned int v = in[threadIdx.x] + x + sizeof(unsigned int);
    out[threadIdx.x] = packed(v, n, -3) + static_cast<unsigned int>(v) + (unsigned int)(v);
}
"""

EXPECTED = """
static unsigned long long expected(unsigned int v, int n, signed char b)
{
    unsigned long long r = static_cast<unsigned int>(v >> 24) + static_cast<unsigned char>(v) * 3u;
    r += (unsigned long long)(static_cast<long long>(n) * 5) ^ static_cast<unsigned long long>(v) << 7;
    r += static_cast<unsigned short>(n) + (long long) static_cast<signed char>(v) + b;
    return static_cast<unsigned long long>(r >> 1) + r;
}
int main()
{
    int failures = 0;
    const unsigned int vs[] = {0u, 1u, 0x7Fu, 0x80u, 0xFFu, 0x1234ABCDu, 0x80000000u, 0xFFFFFFFFu};
    const int ns[] = {0, 1, -1, 40000, -40000, 2147483647, -2147483647 - 1};
    for (unsigned int v : vs)
        for (int n : ns)
            failures += packed(v, n, (signed char)-3) != expected(v, n, (signed char)-3);
    std::printf("%d failures\\n", failures);
    return failures != 0;
}
"""


def test_multi_word_functional_casts_are_written_c_style(tmp_path):
    whole = port_text(CASTS, dedent=False)
    assert "unsigned long long r = ((unsigned int)(v >> 24)) + ((unsigned char)(v)) * 3u;" in whole, whole
    assert "r += (unsigned long long)(((long long)(n)) * 5) ^ ((unsigned long long)(v)) << 7;" in whole, whole
    assert "r += ((unsigned short)(n)) + (long long) ((signed char)(v)) + b;" in whole, whole
    assert "return ((unsigned long long)(r >> 1)) + r;" in whole, whole
    # look-alikes: a declaration, sizeof, a named cast and a C-style one are as written
    assert "unsigned int x(5);" in whole and "+ x + sizeof(unsigned int);" in whole, whole
    assert "+ static_cast<unsigned int>(v) + (unsigned int)(v);" in whole, whole
    hip_compiles(tmp_path, whole)
    body = re.search(r"// -- body --\n(.*?)// -- end --", whole, re.S).group(1)
    run_host_check(tmp_path, "casts", "#include <cstdio>\nstatic unsigned long long packed(unsigned int v, int n, "
                   "signed char b)\n{\n" + body + "}\n" + EXPECTED)


def test_metal_port_writes_the_cast_c_style():
    text = metal_checked("""
        __global__ void k(unsigned int* out, const unsigned int* in)
        {
            unsigned int v = in[threadIdx.x];
            out[threadIdx.x] = unsigned int(v >> 24) + unsigned char(v);
        }
        """)
    assert "= ((unsigned int)(v >> 24)) + ((unsigned char)(v));" in text, text


SINCOS = """#include <cuda_runtime.h>
void rotation(float angle, float* m, double* d)
{
    float sinTheta, cosTheta;
    sincos(angle, &sinTheta, &cosTheta);
    m[0] = cosTheta;
    m[1] = -sinTheta;
    sincos((double)angle, d, d + 1);
}
__global__ void k(float* o, const float* in, double* d, float* cs)
{
    float s, c;
    const float x = in[threadIdx.x];
    sincos(x, &s, &c);
    o[threadIdx.x] = s + c;
    sincospi(x, &cs[2 * threadIdx.x], cs + 2 * threadIdx.x + 1);
    double ds, dc;
    sincos((double)x, &ds, &dc);
    sincospi(d[0], &ds, &dc);
    d[threadIdx.x] = ds + dc;
}
"""


def test_float_sincos_calls_the_float_function(tmp_path):
    whole = port_text(SINCOS, dedent=False)
    assert "    sincosf(x, &s, &c);" in whole, whole
    assert "    sincospif(x, &cs[2 * threadIdx.x], cs + 2 * threadIdx.x + 1);" in whole, whole
    assert "    sincos(angle, &sinTheta, &cosTheta);" not in whole, whole  # a host function: glibc's sincosf
    assert "    sincosf(angle, &sinTheta, &cosTheta);" in whole, whole
    # look-alikes: double pointers keep the double function
    assert "    sincos((double)x, &ds, &dc);" in whole and "    sincospi(d[0], &ds, &dc);" in whole, whole
    assert "    sincos((double)angle, d, d + 1);" in whole, whole
    hip_compiles(tmp_path, whole)
