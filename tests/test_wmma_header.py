"""<mma.h> (nvcuda::wmma, held-out set 14: tensor-core GEMM tutorials): HIP's runtime has no warp
matrix functions, so a port that uses them is refused at the first use (KP209) instead of being
written with an `#include <mma.h>` that no HIP compiler finds; an include the file never uses is
left out."""
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


def test_a_wmma_kernel_is_refused_at_its_first_use():
    p = port(WMMA)
    assert not p.ok
    kp209 = [d for d in p.diagnostics if d.code == "KP209"]
    assert kp209 and kp209[0].line == 3 and "<mma.h>" in kp209[0].message, [d.format() for d in p.diagnostics]


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


def test_the_refusal_names_the_first_use_in_the_file():  # a type (line 4) before a call (line 5)
    code = """
    #include <mma.h>
    __global__ void zero(float* c) {
        nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> fc;
        nvcuda::wmma::fill_fragment(fc, 0.0f);
        nvcuda::wmma::store_matrix_sync(c, fc, 16, nvcuda::wmma::mem_row_major);
    }
    """
    kp209 = [d for d in port(code).diagnostics if d.code == "KP209"]
    assert kp209 and kp209[0].line == 4, [d.format() for d in kp209]
