"""NVTX's ranges and marks in a HIP port: roctracer's <roctracer/roctx.h> (kernelport/backends/
hip_profiler.py).  Main refused every NVTX use (KP209, "<nvtx3/nvToolsExt.h> has no HIP equivalent"): heldout85's
four gpu-benchmarks files were counted as an environment miss, but a ROCm install with roctx would have been
refused too.  Now `nvtxRangePush[A]` / `nvtxRangePop` / `nvtxMark[A]` / `nvtxRangeStart[A]` / `nvtxRangeEnd` /
`nvtxRangeId_t` are roctx's and the include is roctx.h; any other NVTX name (attributes, `...Ex`, domains,
naming) stays KP209 at its use.  The ports compile with hipcc for gfx90a and gfx1030 against roctx.h of
ROCm 5.3.3 (tests/fixtures/rocm_headers: Debian packages no roctracer)."""
from __future__ import annotations

from pathlib import Path

from conftest import hip_compiles
from port_support import ported, refusal

ROCM_HEADERS = ("-I", str(Path(__file__).parent / "fixtures" / "rocm_headers"))

RANGES = """
#include <nvtx3/nvToolsExt.h>
__global__ void twice(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2.0f;
}
int run(float* d, int n) {
    nvtxRangePush("all");
    nvtxRangePushA("twice");
    twice<<<(n + 255) / 256, 256>>>(d, n);
    nvtxMarkA("launched");
    nvtxMark("again");
    int level = nvtxRangePop();
    nvtxRangeId_t id = nvtxRangeStartA("sync");
    nvtxRangeId_t id2 = nvtxRangeStart("sync2");
    cudaDeviceSynchronize();
    nvtxRangeEnd(id);
    nvtxRangeEnd(id2);
    return level + nvtxRangePop();
}
"""


def test_nvtx_ranges_and_marks_are_roctxs(tmp_path):
    port, text = ported(RANGES)
    assert "#include <roctracer/roctx.h>" in text and "nvtx" not in text.lower().replace("<nvtx3/nvtoolsext.h>", ""), text
    for spelled in ('roctxRangePushA("all")', 'roctxRangePushA("twice")', 'roctxMarkA("launched")', 'roctxMarkA("again")',
                    "int level = roctxRangePop();", 'roctx_range_id_t id = roctxRangeStartA("sync");',
                    'roctx_range_id_t id2 = roctxRangeStartA("sync2");', "roctxRangeStop(id);", "level + roctxRangePop()"):
        assert spelled in text, (spelled, text)
    assert any(n.after == "<roctracer/roctx.h>" and "12 use(s)" in n.why for n in port.notes), port.notes
    hip_compiles(tmp_path, text, extra_args=ROCM_HEADERS)
    # NVTX 2's path
    hip_compiles(tmp_path, ported(RANGES.replace("nvtx3/nvToolsExt.h", "nvToolsExt.h"))[1], name="v2.hip",
                 extra_args=ROCM_HEADERS)


def test_nvtx_names_roctx_lacks_stay_refused_at_their_use():
    src = RANGES.replace('    nvtxMarkA("launched");\n', '    nvtxEventAttributes_t attr = {0};\n    nvtxRangePushEx(&attr);\n')
    errors = refusal(src, expect="KP209")
    assert [(e.code, e.line) for e in errors] == [("KP209", 11)], [e.message for e in errors]
    assert "nvtxEventAttributes_t" in errors[0].message, errors[0].message
    # an include whose names the file never uses goes, as before; Metal leaves host code out: no roctx
    _, text = ported("#include <nvtx3/nvToolsExt.h>\n__global__ void k(float* a) { a[0] = 1.0f; }\n")
    assert "roctx" not in text and "nvToolsExt" not in text.split("*/")[-1].split("\n", 1)[-1], text
    assert "roctx" not in ported(RANGES, to="metal")[1]


def test_a_files_own_nvtx_named_macro_is_no_use_of_the_header(tmp_path):
    # llm.c's cuda_common.h: `#define NVTX_RANGE_FN() NvtxRange nvtx_range(__FUNCTION__)` beside its ranges
    src = RANGES.replace("int run(", "struct NvtxRange { NvtxRange(const char* s) { nvtxRangePush(s); } "
                         "~NvtxRange() { nvtxRangePop(); } };\n#define NVTX_RANGE_FN() NvtxRange nvtx_range(__FUNCTION__)\n"
                         "int run(").replace("    nvtxMark(\"again\");\n", "    NVTX_RANGE_FN();\n")
    _, text = ported(src)
    assert "NVTX_RANGE_FN();" in text and "{ roctxRangePushA(s); }" in text, text
    hip_compiles(tmp_path, text, extra_args=ROCM_HEADERS)
