"""Causes of HIP ports of the seventy-seventh held-out set (bench/heldout77.toml, game and interactive
physics) that did not compile, each as a minimal CUDA snippet written here (no fetched file is read)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

# A linear-BVH collision code's headers use FLT_MAX / FLT_EPSILON (empty boxes, a float compare) with no
# include of <cfloat>: its units include thrust first, and CCCL's thrust/ and cub/ headers include
# <cfloat> (CUDA 13: cuda/std/cfloat), so nvcc compiled them. rocThrust's and hipCUB's (5.3.3) do not:
# with both present the ports stopped at "use of undeclared identifier 'FLT_EPSILON'" (2 files). The HIP
# port writes <cfloat> once, before the file's first thrust/ or cub/ include.
BOXES = """\
#include <thrust/device_vector.h>
#include "thrust/sort.h"
#include <cub/cub.cuh>
struct Box { float lo, hi; };
__device__ bool near_eq(float a, float b) { return fabsf(a - b) <= FLT_EPSILON * 16.0f; }
__global__ void reset(Box* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { b[i].lo = FLT_MAX; b[i].hi = -FLT_MAX; }
}
"""
LINE = "#include <cfloat>  // as CUDA's thrust/cub headers include it (kernelport)\n"


def test_cfloat_before_the_first_thrust_or_cub_include(tmp_path):
    port, text = translate(SourceFile.from_text(BOXES, str(tmp_path / "boxes.cu")), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert text.count(LINE) == 1, text
    assert text.index(LINE) < text.index("#include <thrust/device_vector.h>") < text.index("hipcub"), text


def test_no_cfloat_without_a_thrust_or_cub_include(tmp_path):
    # look-alikes: a folder whose name starts like cub's, a system header, and the Metal port
    alike = BOXES.replace("#include <thrust/device_vector.h>\n#include \"thrust/sort.h\"\n#include <cub/cub.cuh>\n",
                          "#include <cubic/spline.h>\n#include <stdio.h>\n#include <cfloat>\n")
    _, text = translate(SourceFile.from_text(alike, str(tmp_path / "alike.cu")), "hip")
    assert "as CUDA's thrust/cub headers include it" not in text, text
    only_kernel = BOXES.split("struct Box", 1)[1]
    _, metal = translate(SourceFile.from_text("#include <thrust/sort.h>\nstruct Box" + only_kernel,
                                              str(tmp_path / "m.cu")), "metal")
    assert "as CUDA's thrust/cub headers include it" not in metal
