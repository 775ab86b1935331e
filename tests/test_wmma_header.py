"""<mma.h> (nvcuda::wmma, held-out set 14: tensor-core GEMM tutorials): HIP's runtime has no warp
matrix functions, so the HIP port defines the ones it can in place of the include (over logical 32-lane
warps: kernelport/backends/hip_wmma.py, tests/test_hip_wmma.py) and refuses any other `wmma::` name at
its first use (KP209) instead of leaving it to the compiler; Metal refuses wmma (KP223); an include the
file never uses is left out."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), backend)[0]


WMMA = """
#include <mma.h>
using namespace nvcuda;
__global__ void tile(const half* a, const half* b, float* c) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
"""


def test_a_wmma_kernel_s_hip_port_defines_wmma_in_place_of_the_include():
    p = port(WMMA)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "#include <mma.h>" not in p.body and "namespace wmma {" in p.body
    assert p.body.index("namespace wmma {") < p.body.index("__global__ void tile")


def test_a_wmma_kernel_is_refused_on_metal():
    p = port(WMMA, "metal")
    assert not p.ok and p.diagnostics[0].code in ("KP209", "KP223"), [d.format() for d in p.diagnostics]


def test_an_unused_mma_include_is_left_out():  # look-alike: the header, none of its names
    p = port("#include <mma.h>\n__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n")
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "mma.h" not in p.body


def test_a_users_own_fragment_without_mma_h_is_ported():  # look-alike: the same names, no <mma.h>
    code = """
    struct fragment { float x[4]; };
    __device__ void fill_fragment(fragment& f, float v) { for (int i = 0; i < 4; ++i) f.x[i] = v; }
    __global__ void k(float* out) { fragment f; fill_fragment(f, 1.0f); out[threadIdx.x] = f.x[0]; }
    """
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "fill_fragment(f, 1.0f)" in p.body


def test_a_wmma_name_the_port_lacks_is_refused_at_each_use():  # a type (line 4), a call (line 6), at `wmma::`
    code = """
    #include <mma.h>
    __global__ void bits(const unsigned* a, const unsigned* b, int* c) {
        nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 8, 8, 128, nvcuda::wmma::experimental::precision::b1,
                               nvcuda::wmma::row_major> fa;
        nvcuda::wmma::bmma_sync(fc, fa, fb, fc);
    }
    """
    kp209 = [d for d in port(code).diagnostics if d.code == "KP209"]
    assert [(d.line, d.column) for d in kp209] == [(4, 71), (6, 13)], [d.format() for d in kp209]
    assert "`wmma::bmma_sync`" in kp209[1].message, kp209[1].format()
