"""The `.hpp` companions of CUDA toolkit headers (heldout59's CUDA_MeanShift: `#include "vector_functions.hpp"`
was kept in the HIP port, which hipcc failed with "file not found" and no word from kernelport)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

COMPANIONS = """\
#include <cuda.h>
#include "cuda_runtime.h"
#include "vector_functions.hpp"
#include <sm_32_intrinsics.hpp>
#include <cuda_fp16.hpp>
#include "helper.hpp"
__global__ void k(float4* out, const float* in, __half* h) {
    int i = threadIdx.x;
    out[i] = make_float4(__ldg(in + i), 0.f, 0.f, 1.f);
    h[i] = __float2half(in[i]);
}
"""


def test_a_toolkit_headers_hpp_companion_is_read_as_its_h(tmp_path):
    port, text = translate(SourceFile.from_text(COMPANIONS, "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "vector_functions.hpp" not in text and "sm_32_intrinsics.hpp" not in text
    assert "cuda_fp16.hpp" not in text and "#include <hip/hip_fp16.h>" in text
    # look-alike: a project's own .hpp of another name is the project's, kept as written
    assert '#include "helper.hpp"' in text
    require_tool("hipcc")
    f = tmp_path / "t.hip"
    f.write_text(text.replace('#include "helper.hpp"\n', ""))
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))
