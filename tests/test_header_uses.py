"""A toolkit header with no HIP counterpart that only declares names of one shape (`<cudaTypedefs.h>`:
the driver API's `PFN_cu...` entry-point types; NVIDIA/warp's cuda_util.h includes it and uses none):
the port leaves the include out with a note where the file uses none of them, and refuses the first
use of one (KP209, at the use, naming it); another header with no counterpart is still refused at the
include (kernelport.header_uses, the source backend's `header_declares`)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

_HEAD = "#include <cuda.h>\n#include <cudaTypedefs.h>\n"
_KERNEL = "__global__ void k(float* x) { x[threadIdx.x] = 0.f; }\n"


def _port(text: str):
    return translate(SourceFile.from_text(text, "t.cu"), "hip")  # (the port, its whole text)


def test_a_file_that_uses_none_of_its_names_leaves_the_include_out_with_a_note():
    port, whole = _port(_HEAD + "typedef int PFN_mine;  // a name of another shape\n" + _KERNEL)
    assert port.ok, port.diagnostics
    assert "cudaTypedefs" not in whole and "#include <hip/hip_runtime.h>" in whole, whole
    assert any(n.before == "<cudaTypedefs.h>" and n.after == "(removed)" and "uses none" in n.why for n in port.notes)


def test_a_use_of_one_of_its_names_is_refused_at_the_use_naming_it():
    port, _ = _port(_HEAD + "static PFN_cuInit_v2000 init_fn = nullptr;\n" + _KERNEL)
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line, d.location.column) for d in errors] == [("KP209", 3, 8)], errors
    assert "`PFN_cuInit_v2000` comes from <cudaTypedefs.h>" in errors[0].message


def test_a_header_without_such_a_row_is_still_refused_at_the_include():
    port, _ = _port("#include <cuda_pipeline.h>\n" + _KERNEL)
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP209", 1)]


_CG = "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\nnamespace cg = cooperative_groups;\n"


def test_the_cg_reduce_header_included_for_nothing_is_left_out_with_a_note():
    # a helper header that includes <cooperative_groups/reduce.h> and uses none of its names (no cg::reduce,
    # no operator object): HIP has no such header, and the port is right without it
    port, whole = _port(_CG + "__device__ int lane(cg::thread_block_tile<32> t) { return t.thread_rank(); }\n" + _KERNEL)
    assert port.ok, port.diagnostics
    assert "cooperative_groups/reduce" not in whole and "hip_cooperative_groups.h" in whole, whole
    assert any(n.before == "<cooperative_groups/reduce.h>" and n.after == "(removed)" for n in port.notes)


def test_a_cg_reduce_or_its_operator_is_refused_at_the_use():
    body = "__device__ int sum(cg::thread_block_tile<32> t, int v) { return cg::reduce(t, v, cg::plus<int>()); }\n"
    port, _ = _port(_CG + body + _KERNEL)
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line, d.location.column) for d in errors] == [("KP209", 4, 69)], errors
    assert "`reduce` comes from <cooperative_groups/reduce.h>" in errors[0].message
