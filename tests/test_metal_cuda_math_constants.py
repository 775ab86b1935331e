"""CUDA's <math_constants.h> single-precision constants in a Metal port (heldout67 gputools hcluster.cu:
`dist[...] = CUDART_INF_F;`, KP224 'use of undeclared identifier' on main): each is defined as MSL's name for
the same float (INFINITY, M_PI_F, ...).  Look-alikes: a file's own definition stays its own, and a
double constant (CUDART_PI: Metal has no double) is not given a float meaning."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port as metal, require_tool
    from .port_support import metal_checker as checker, metal_numeric_checks
except ImportError:  # pragma: no cover
    from conftest import metal_port as metal, require_tool
    from port_support import metal_checker as checker, metal_numeric_checks


def test_cuda_float_constants_are_metal_ones():
    require_tool("clang")
    port, text = metal("""\
        #include <math_constants.h>
        __global__ void k(float *d, float *m)
        {
            d[threadIdx.x] = CUDART_INF_F;
            m[threadIdx.x] = CUDART_PI_F * CUDART_SQRT_HALF_F + (m[0] != m[0] ? CUDART_NAN_F : CUDART_ZERO_F);
        }
    """)
    assert [d.format() for d in port.diagnostics if d.severity == "error"] == []
    for c, m in (("CUDART_INF_F", "INFINITY"), ("CUDART_PI_F", "M_PI_F"), ("CUDART_SQRT_HALF_F", "M_SQRT1_2_F"),
                 ("CUDART_NAN_F", "NAN"), ("CUDART_ZERO_F", "0.0f")):
        assert f"#define {c} {m}\n" in text
    assert checker(text) == []


def test_a_files_own_definition_and_a_double_constant_are_left_alone():
    port, text = metal("""\
        #define CUDART_INF_F 1e30f
        __global__ void k(float *d) { d[threadIdx.x] = CUDART_INF_F + (float)CUDART_PI; }
    """)
    assert "#define CUDART_INF_F INFINITY" not in text and "#define CUDART_PI " not in text
    assert any(d.code == "KP224" and d.location.line == 2 for d in port.diagnostics if d.severity == "error"), \
        [d.format() for d in port.diagnostics]  # CUDART_PI: undeclared in the port, refused at its line


def test_the_port_computes_what_cuda_computes(tmp_path):
    """verify runs the port's own text on the emulator beside the original (Metal at wave 32)."""
    require_tool("clang")
    checks = metal_numeric_checks(tmp_path, "mins.cu", """\
        // @kp kernel     k
        // @kp grid       ceil_div(n, 64)
        // @kp block      64
        // @kp why        one row a thread; 64 is a whole wave of every backend
        // @kp arg        x     in   float[4 * n]   uniform(-1, 1)
        // @kp arg        out   out  float[n]
        // @kp scalar     n = 256
        #include <math_constants.h>
        __global__ void k(const float *x, float *out, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i >= n) return;
            float m = CUDART_INF_F;
            for (int j = 0; j < 4; j++) m = fminf(m, x[4 * i + j] * 3.0f);
            out[i] = m;
        }
    """)
    assert all(c["status"] == "pass" for c in checks), checks
