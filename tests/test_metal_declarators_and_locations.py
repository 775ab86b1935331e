"""Small Metal gaps of stop 56 (kernelport/backends/metal): a checker error inside the prologue located at the
user's call (selfcheck.py: the instantiation note's line; main said "1:1 (in the port's prologue)"), one
declaration of a pointer and a scalar (`float *p = a, x;`: main wrote `device float *p = a, x;`, a device
local the checker refused), `long long` after a macro the grammar reads into the type (vec_math.h's
`SUTIL_INLINE SUTIL_HOSTDEVICE long long max(...)`: main kept the return type's `long long`), and the checker
judging a `#if !defined(__METAL_VERSION__)` branch Metal never compiles (dead_branches.py)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port, require_tool


def test_a_prologue_error_is_located_at_the_call_that_reached_it():
    port, _ = metal_port("""
    __global__ void k(const int *in, float *m, int *e)
    {
        int i = threadIdx.x;
        int ex;
        m[i] = frexp(in[i], &ex);
        e[i] = ex;
    }
    """)
    assert not port.ok
    [d] = [d for d in port.diagnostics if d.code == "KP224"]
    assert d.location.line == 6 and "kp_frexp<int" in d.message, d.format()


def test_a_float_frexp_is_still_written():
    out = metal_checked("""
    __global__ void k(const float *in, float *m, int *e) {
        int ex;
        m[threadIdx.x] = frexpf(in[threadIdx.x], &ex);
        e[threadIdx.x] = ex;
    }
    """)
    assert "kp_frexp(in[tid.x], &ex)" in out


def test_scalars_declared_after_pointers_get_their_own_declaration():
    out = metal_checked("""
    __global__ void k(float *a, float *out)
    {
        float *p = a, *q = a + 1, x = 2.0f, y;
        unsigned long long *r = (unsigned long long *)out, n;
        y = q[0]; n = 1;
        out[threadIdx.x] = x * p[threadIdx.x] + y + (float)n + (float)r[0];
    }
    """)
    assert "device float *p = a, *q = a + 1; float x = 2.0f, y;" in out, out
    assert "device ulong *r = (device ulong *)out; ulong n;" in out, out


def test_a_scalar_beside_pointers_in_a_for_is_refused_located():
    """(A pointer after a scalar in a plain declaration is split since stop 58: test_metal_scalars_first67.py.)"""
    port, _ = metal_port("""
    __global__ void k(float *a, float *out) {
        float s = 0.0f;
        for (float *p = a, x = 1.0f; p < a + 4; ++p) s += *p * x;
        out[threadIdx.x] = s;
    }
    """)
    assert [(d.code, d.location.line) for d in port.diagnostics] == [("KP215", 4)]


def test_thread_pointers_and_scalars_share_one_declaration():
    """Pointers into thread memory need no split: `thread` on a local scalar is its own space (the look-alike
    of the device-pointer refusal above; the merge of h/metal57 refused it and failed test_decl_split)."""
    out = metal_checked("__global__ void k(float *out) { int s = 3, *q = &s, arr[2] = {1, 2}; "
                        "out[0] = *q + s + arr[1]; }\n")
    assert "thread int s = 3, *q = &s, arr[2] = {1, 2};" in out


def test_pointers_alone_share_one_declaration():
    out = metal_checked("__global__ void k(float *a, float *out) { float *p = a, *q = out; q[0] = p[0]; }\n")
    assert "device float *p = a, *q = out;" in out


def test_long_long_after_a_macro_in_the_type_is_long():
    out = metal_checked("""
    #define SUTIL_INLINE inline
    #define SUTIL_HOSTDEVICE __host__ __device__
    SUTIL_INLINE SUTIL_HOSTDEVICE long long maxll(long long a, long long b) { return a > b ? a : b; }
    __device__ unsigned long long int minull(unsigned long long int a, unsigned long long int b) { return a < b ? a : b; }
    __global__ void k(long long *o, unsigned long long *u) { o[0] = maxll(o[1], o[2]); u[0] = minull(u[1], u[2]); }
    """)
    assert "SUTIL_INLINE SUTIL_HOSTDEVICE long maxll(long a, long b)" in out
    assert "ulong minull(ulong a, ulong b)" in out


def test_a_branch_metal_never_compiles_is_not_checked():
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    text = """#include <metal_stdlib>
using namespace metal;
#if !defined(__METAL_VERSION__)
inline long long host_max(long long a, long long b) { return a > b ? a : b; }
#endif
kernel void k(device float *o [[buffer(0)]], uint3 tid [[thread_position_in_threadgroup]]) { o[tid.x] = 1.0f; }
"""
    assert [str(d) for d in check_metal_source(text, "t.metal")] == []
    live = text.replace("#if !defined(__METAL_VERSION__)", "#if defined(__METAL_VERSION__)")
    assert any("no 'long long'" in str(d) for d in check_metal_source(live, "t.metal"))
