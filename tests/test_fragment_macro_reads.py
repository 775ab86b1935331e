"""A fragment element read by its place inside a `#define` body (`#define SCALE_FIRST(f) for (i = 0; i < 4;
++i) f.x[i] *= 2.0f`, expanded at a wmma fragment): the parse reads a macro body as text, so
fragment_elements' check of the file's code never saw it, and the HIP port (whose <mma.h> lays fragments out
otherwise) was written computing other elements.  The body's read is refused at the definition (KP209);
the look-alike, an element-wise loop to the fragment's `num_elements` in the body, is ported and compiles.
The snippets are written here."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text, refusal

KERNEL = """#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;
#define SCALE(f) for (int i = 0; BOUND; ++i) f.x[i] *= 2.0f
__global__ void k(const half* a, const half* b, float* c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    SCALE(fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
"""


def test_a_macro_body_reading_a_fragment_element_by_place_is_refused():
    for bound in ("i < 4", "i < 8"):
        errors = refusal(KERNEL.replace("BOUND", bound), dedent=False, expect="KP209")
        assert [(e.code, e.line) for e in errors] == [("KP209", 4)], [e.format() for e in errors]
    one = KERNEL.replace("for (int i = 0; BOUND; ++i) f.x[i] *= 2.0f", "f.x[0] = 0.0f")
    assert [(e.code, e.line) for e in refusal(one, dedent=False, expect="KP209")] == [("KP209", 4)]


def test_an_element_wise_macro_body_is_ported(tmp_path):
    text = port_text(KERNEL.replace("BOUND", "i < f.num_elements"), dedent=False)
    assert "#define SCALE(f) for (int i = 0; i < f.num_elements; ++i) f.x[i] *= 2.0f" in text
    hip_compiles(tmp_path, text)
