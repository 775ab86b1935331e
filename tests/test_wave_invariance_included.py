"""`verify --wave-invariance` runs the kernels of a file the given one #includes (heldout63's gpuSteiner
CUDAMST.cu includes CUDAMST.h, which includes CUDAMST_kernel.cu: on main "no kernels"), in the including
file's text and with its launches, once per run; a header without kernels adds no row."""
from __future__ import annotations

from pathlib import Path

from kernelport import wave_invariance

KERNEL = """__global__ void scale(const P* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = SCALE * x[i].v + WIDTH_TERM;
}
"""
MAIN = """#include <cuda_runtime.h>
struct P { float v; };
#define SCALE 2.0f
#include "shapes.h"
#include "kern.cu"
int main() {
    const int n = 1024;
    P* x; float* y;
    cudaMalloc(&x, n * sizeof(P));
    cudaMalloc(&y, n * sizeof(float));
    scale<<<n / 256, 256>>>(x, y, n);
    return 0;
}
"""


def _files(tmp_path: Path, width_term: str = "0.0f") -> Path:
    (tmp_path / "kern.cu").write_text(KERNEL.replace("WIDTH_TERM", width_term))
    (tmp_path / "shapes.h").write_text("#pragma once\n__device__ inline float twice(float a) { return 2.0f * a; }\n")
    (tmp_path / "main.cu").write_text(MAIN)
    return tmp_path / "main.cu"


def test_an_included_kernel_file_runs_in_its_includer(tmp_path):
    rows = wave_invariance.rows([_files(tmp_path)])
    assert [(Path(r["path"]).name, r["line"], r["kernel"], r["status"]) for r in rows] == [("kern.cu", 1, "scale", "same")]
    assert f"run in {tmp_path / 'main.cu'}, which #includes it" in rows[0]["detail"], rows[0]
    assert rows[0]["inputs"] == "inferred"  # the includer's launch: 4 blocks of 256, n = 1024


def test_an_included_kernel_that_depends_on_the_width_is_found(tmp_path):
    rows = wave_invariance.rows([_files(tmp_path, "(float)warpSize")])
    assert [(r["kernel"], r["status"]) for r in rows] == [("scale", "differs")], rows
    assert "at wave 64" in rows[0]["detail"]


def test_an_included_kernel_runs_once_and_kernel_free_headers_add_nothing(tmp_path):
    # the look-alike: a second includer of the same kernel file, and shapes.h (no kernel) in both
    main = _files(tmp_path)
    (tmp_path / "again.cu").write_text(MAIN)
    rows = wave_invariance.rows([main, tmp_path / "again.cu"])
    assert [(Path(r["path"]).name, r["kernel"]) for r in rows] == [("kern.cu", "scale")], rows
    own = tmp_path / "own.cu"  # a file with its own kernel and only the kernel-free header: its one row
    own.write_text('#include "shapes.h"\n' + KERNEL.replace("const P* x", "const float* x").replace(
        "x[i].v", "twice(x[i])").replace("SCALE", "1.0f").replace("WIDTH_TERM", "0.0f") +
        MAIN.split("#include \"kern.cu\"\n")[1].replace("P* x", "float* x").replace("sizeof(P)", "sizeof(float)"))
    assert [(Path(r["path"]).name, r["status"]) for r in wave_invariance.rows([own])] == [("own.cu", "same")]
