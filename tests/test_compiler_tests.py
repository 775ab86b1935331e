"""A directive test that tells the compilers apart itself keeps `__CUDACC__` as written (kernelport/compiler_tests.py).

    #if defined(__CUDACC__) && !defined(__HIPCC__)
    #define WARP_SIZE 32
    #else
    #define WARP_SIZE 64      // every compiler but nvcc: hipcc too, 64 on gfx1030's 32-lane waves
    #endif

Main respelled the test `defined(__HIPCC__) && !defined(__HIPCC__)` (the same value on hipcc, a test no
compiler takes): lint of the port read the 32 as every build's (WS001) and lost the #else's WS014, and
translate refused with KP220, "a kernelport bug".  Now the test is kept as the project wrote it and the
project's 64 for every AMD build is refused where it is, KP225 (WS014), as stop 63's class member is.
Look-alikes: `!defined(__CUDACC__) || defined(HOST_ONLY)` (true on hipcc as written, the respelling's value
there is the build's -D) is still respelled, or hipcc would compile the host branch; a bare `!defined(__CUDACC__)`
too.  (`!defined(__CUDACC__) && !defined(__HIPCC__)` is false on hipcc either way: kept.)"""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text, refusal

NVCC_ONLY = "#if defined(__CUDACC__) && !defined(__HIPCC__)\n"
WAVE = NVCC_ONLY + """#define WARP_SIZE 32
#else
#define WARP_SIZE 64
#endif

__global__ void count(const int* in, int* out)
{
    int lane = threadIdx.x & (WARP_SIZE - 1);
    unsigned m = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0);
    if (lane == 0) out[threadIdx.x / WARP_SIZE] = __popc(m);
}
"""


def test_the_projects_64_for_every_amd_build_is_refused_where_it_is_not_a_kernelport_bug():
    errors = refusal(WAVE, expect="KP225", dedent=False)
    assert [(e.code, e.line, e.column) for e in errors] == [("KP225", 4, 19)]
    assert "WS014" in errors[0].message


def test_a_test_naming_both_compilers_is_kept_as_written(tmp_path):
    src = NVCC_ONLY + """#define FAST_MATH 1
#else
#define FAST_MATH 0
#endif
__global__ void scale(float* x) { x[threadIdx.x] *= FAST_MATH ? 2.0f : 3.0f; }
"""
    text = port_text(src, dedent=False)
    assert NVCC_ONLY in text and "defined(__HIPCC__) && !defined(__HIPCC__)" not in text
    hip_compiles(tmp_path, text, "nvcc_only.hip")
    either = src.replace(NVCC_ONLY, "#if defined(__CUDACC__) || defined(__HIPCC__)\n")
    assert "#if defined(__CUDACC__) || defined(__HIPCC__)\n" in port_text(either, dedent=False)


def test_look_alikes_whose_value_on_hipcc_the_respelling_decides_are_respelled(tmp_path):
    host = """#if !defined(__CUDACC__) || defined(HOST_ONLY)
#define HD
#else
#define HD __host__ __device__
#endif
HD inline float sq(float x) { return x * x; }
__global__ void k(float* x) { x[threadIdx.x] = sq(x[threadIdx.x]); }
"""
    text = port_text(host, dedent=False)
    assert "#if !defined(__HIPCC__) || defined(HOST_ONLY)" in text  # as written, hipcc would take the host branch
    hip_compiles(tmp_path, text, "host.hip")
    bare = host.replace("!defined(__CUDACC__) || defined(HOST_ONLY)", "!defined(__CUDACC__)")
    assert "#if !defined(__HIPCC__)\n" in port_text(bare, dedent=False)
    both = host.replace("!defined(__CUDACC__) || defined(HOST_ONLY)", "!defined(__CUDACC__) && !defined(__HIPCC__)")
    assert "#if !defined(__CUDACC__) && !defined(__HIPCC__)\n" in port_text(both, dedent=False)
