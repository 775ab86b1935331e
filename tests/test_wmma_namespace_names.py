"""KP209 on `wmma::X` names what the user wrote (heldout94's ishovkun-flash: its own `flash::wmma` namespace holds
`WMMA_M/N/K` and fragment aliases, and every use of them was refused as if <mma.h> declared them).  A name the
project declares that <mma.h>'s nvcuda::wmma does not (kernelport/backends/cuda.py header_namespace_names) is the
project's own: its use is not <mma.h>'s (the project's own declaration is refused where IT names what the port
lacks); a name <mma.h> declares that the port does not define stays KP209 at the use, the message saying it is
<mma.h>'s `wmma::X` and, through an alias (`namespace wm = nvcuda::wmma;`), naming the alias and its line."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

OWN = """\
#include <cuda_fp16.h>
#include <mma.h>
namespace flash::wmma {
using nvcuda::wmma::mma_sync;
constexpr int WMMA_M = 16;
using fragA_t = nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 16, 16, 16, half, nvcuda::wmma::row_major>;
}
namespace flash {
__global__ void k(const half* A, float* out) {
    wmma::fragA_t a;
    nvcuda::wmma::load_matrix_sync(a, A, wmma::WMMA_M);
    out[threadIdx.x] = (float)wmma::WMMA_M;
}
}
"""


def _errors(code: str):
    port, _ = translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")
    return port, [d for d in port.diagnostics if d.severity == "error"]


def test_a_projects_own_wmma_namespace_names_are_not_refused_as_mma_h_s():
    port, errors = _errors(OWN)
    assert port.ok and not errors, [d.format() for d in errors]


def test_a_name_of_mma_h_the_port_lacks_is_still_refused_through_the_project_namespace():  # look-alike
    port, errors = _errors(OWN.replace("half, nvcuda::wmma::row_major>", "nvcuda::wmma::precision::tf32, "
                                       "nvcuda::wmma::row_major>").replace("16, 16, 16, nvcuda", "16, 16, 8, nvcuda"))
    assert [(d.code, d.location.line) for d in errors] == [("KP209", 6)], [d.format() for d in errors]
    assert "<mma.h>'s `wmma::precision`" in errors[0].message, errors[0].message


def test_an_alias_of_nvcuda_wmma_is_named_in_the_message():
    code = ("#include <mma.h>\nnamespace wm = nvcuda::wmma;\n__global__ void k(float* o) {\n"
            "    wm::fragment<wm::matrix_a, 16, 16, 8, wm::precision::tf32, wm::row_major> t;\n    o[0] = 0.0f;\n}\n")
    port, errors = _errors(code)
    assert [(d.code, d.location.line) for d in errors] == [("KP209", 4)], [d.format() for d in errors]
    assert "`wm::precision::tf32` (`wm` is the alias `namespace wm = nvcuda::wmma;` at line 2): <mma.h>'s " \
           "`wmma::precision`" in errors[0].message, errors[0].message
