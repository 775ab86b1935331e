"""A kernel file compiled only through a header that includes it after its macros (heldout63 gpuSteiner:
CUDAMST.h `#define MAX_THREADS_PER_BLOCK 512` ... `#include "CUDAMST_kernel.cu"`, inside its include guard)
runs with that header's lines before the #include, the guard closed after the file as the header closes
it (verify_oracle.INCLUDERS, preprocess._open_conditionals); a macro the header defines only after its
#include is not the kernel's, and the kernel stays "not run" at it."""
from __future__ import annotations

from pathlib import Path

from kernelport.verify import Verifier

HEADER = "#ifndef DEFS_H\n#define DEFS_H\n#define TILE 64\n#include \"tile_kernel.cu\"\n#endif\n"
# the macro after the #include: the kernel file, compiled where the header includes it, does not see it
LATE = "#ifndef DEFS_H\n#define DEFS_H\n#include \"tile_kernel.cu\"\n#define TILE 64\n#endif\n"
KERNEL = """__global__ void tile_sum(const float* in, float* out, int n) {
    __shared__ float s[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.0f;
        for (int j = 0; j < TILE; j++) t += s[j];
        out[blockIdx.x] = t;
    }
}
"""
MAIN = """#include "defs.h"
int main() {
    int n = 4096;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, (n / TILE) * sizeof(float));
    tile_sum<<<n / TILE, TILE>>>(in, out, n);
}
"""


def _checks(tmp_path, header: str):
    (tmp_path / "defs.h").write_text(header)
    (tmp_path / "main.cu").write_text(MAIN)
    (tmp_path / "tile_kernel.cu").write_text(KERNEL)
    rep = Verifier(schedules=("block",), cache=False).verify(Path(tmp_path / "tile_kernel.cu"))
    return [c for c in rep.checks if c.kind == "oracle"], [c for c in rep.checks if c.kind == "numeric"]


def test_a_kernel_file_a_guarded_header_includes_runs_with_its_macros(tmp_path):
    oracle, numeric = _checks(tmp_path, HEADER)
    assert [c.status for c in oracle] == ["pass"], oracle
    ran = [c for c in numeric if c.status != "skip"]
    assert ran and all(c.status == "pass" for c in ran) and {c.wave for c in ran} == {32, 64}, numeric


def test_a_macro_the_header_defines_after_its_include_is_not_seen(tmp_path):
    oracle, numeric = _checks(tmp_path, LATE)
    assert [c.status for c in oracle] == ["skip"], oracle
    assert "TILE" in oracle[0].detail and not [c for c in numeric if c.status in ("pass", "fail")]
