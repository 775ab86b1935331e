"""Causes of HIP ports of the thirty-second held-out set (bench/heldout32.toml, medical imaging) that
did not compile, each as a minimal CUDA snippet written here (no fetched file is read)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool
from trust_support import kp_inproc

# DoseCUDA's dose kernels: the classes header includes <math_constants.h>, each .cu uses CUDART_PI_F
# through it. The header's port carried the fallback of ROCm 5.2's absent <hip/hip_math_constants.h>
# only for what the header itself uses (nothing), so the .cu's port named HIP_PI_F undefined (3
# files); it now defines what it uses after the include line of the header that reaches it.
HEADER = """\
#pragma once
#include <math_constants.h>
struct Beam { float angle; };
"""
INNER = """\
#pragma once
#include "classes.cuh"
"""
KERNEL = """\
#include "inner.cuh"
__global__ void rotate(const Beam* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = b[i].angle * CUDART_PI_F / 180.0f + CUDART_PIO2_F;
}
"""


def _port(tmp_path, kernel: str) -> tuple[str, str]:
    (tmp_path / "classes.cuh").write_text(HEADER)
    (tmp_path / "inner.cuh").write_text(INNER)
    (tmp_path / "k.cu").write_text(kernel)
    out = tmp_path / "out"
    rc, _, err = kp_inproc("translate", str(tmp_path / "k.cu"), "--to", "hip", "-o", str(out))
    assert rc == 0, err
    return (out / "k.hip").read_text(), err


def test_constants_used_through_a_local_header_are_defined_where_hip_lacks_them(tmp_path):
    text, err = _port(tmp_path, KERNEL)
    assert "KP210" not in err, err
    block = ('#include "inner.hip.h"\n#if !__has_include(<hip/hip_math_constants.h>)')
    assert block in text, text
    defined = [line.split()[1] for line in text.splitlines() if line.startswith("#define HIP_")]
    assert defined == ["HIP_PIO2_F", "HIP_PI_F"], text
    require_tool("hipcc")
    assert_hip_file_compiles(tmp_path / "out" / "k.hip", ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


def test_no_block_where_the_file_includes_the_header_itself_or_uses_none_of_it(tmp_path):
    own = "#include <math_constants.h>\n" + KERNEL  # its own include carries them (api_fallbacks.carried)
    text, _ = _port(tmp_path, own)
    assert "#if !__has_include" not in text
    assert [line.split()[1] for line in text.splitlines() if line.startswith("#define HIP_")] == ["HIP_PIO2_F", "HIP_PI_F"]
    unused = KERNEL.replace(" * CUDART_PI_F / 180.0f + CUDART_PIO2_F", "")
    text, _ = _port(tmp_path, unused)
    assert "__has_include" not in text.split('#include "inner.hip.h"')[1], text


# DoseCUDA's Texture3D::makeTexture sets every field of a value-initialised cudaTextureDesc, among them
# `disableTrilinearOptimization = false`, which ROCm 5.2's hipTextureDesc lacks: the port did not
# compile. Setting a field the target lacks to a zeroed struct's value (CUDA's default) asks nothing
# of it: the statement is left out, said in a comment; any other value is KP210 at its line.
TEXTURE = """\
#include <cuda_runtime.h>
cudaTextureObject_t make(cudaArray_t arr, bool trilinear_off) {
    cudaResourceDesc rs{ };
    cudaTextureDesc tx{ };
    rs.resType = cudaResourceTypeArray;
    rs.res.array.array = arr;
    tx.filterMode = cudaFilterModeLinear;
    tx.readMode = cudaReadModeElementType;
    tx.disableTrilinearOptimization = VALUE;
    cudaTextureObject_t t = 0;
    cudaCreateTextureObject(&t, &rs, &tx, nullptr);
    return t;
}
"""


def test_a_default_value_for_a_texture_field_hip_lacks_is_left_out(tmp_path):
    src = SourceFile.from_text(TEXTURE.replace("VALUE", "false"), str(tmp_path / "tex.cu"))
    port, text = translate(src, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "/* tx.disableTrilinearOptimization = false; (kernelport: hipTextureDesc has no " in text
    assert "tx.filterMode = hipFilterModeLinear;" in text
    require_tool("hipcc")
    (tmp_path / "tex.hip").write_text(text)
    assert_hip_file_compiles(tmp_path / "tex.hip", ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


def test_any_other_value_for_a_field_hip_lacks_is_refused_at_its_line(tmp_path):
    for value in ("true", "1", "trilinear_off"):
        port, _ = translate(SourceFile.from_text(TEXTURE.replace("VALUE", value), str(tmp_path / "tex.cu")), "hip")
        found = [d for d in port.diagnostics if d.code == "KP210"]
        assert found and found[0].location.line == 9 and "disableTrilinearOptimization" in found[0].message, value


# bart's C headers, shared with its CUDA units, declare `extern _Bool debug_logging;` after
# <stdbool.h>: GCC's <stdbool.h> (nvcc's host compiler) defines `_Bool` in C++, clang's only outside
# strict ISO modes, so hipcc -std=c++17 stopped at `_Bool` (10 of bart's 12 files, once they parsed).
# The HIP port writes GCC's definition after the include.
BOOLS = """\
#include <stdbool.h>
extern "C" _Bool debug_logging;
__global__ void mark(float* x, _Bool on, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && on) x[i] = 1.0f;
}
void run(float* x, int n) { if (debug_logging) mark<<<(n + 127) / 128, 128>>>(x, true, n); }
"""


def test_c_bool_after_stdbool_compiles_in_strict_cxx(tmp_path):
    port, text = translate(SourceFile.from_text(BOOLS, str(tmp_path / "b.cu")), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#include <stdbool.h>\n#if defined(__cplusplus) && !defined(_Bool)\n#define _Bool bool" in text
    no_include = BOOLS.replace("#include <stdbool.h>\n", "#include <stdio.h>\n")
    assert "define _Bool" not in translate(SourceFile.from_text(no_include, str(tmp_path / "c.cu")), "hip")[1]
    require_tool("hipcc")
    (tmp_path / "b.hip").write_text(text)
    assert_hip_file_compiles(tmp_path / "b.hip", ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


# bart's wl3-cuda.cu: `ldim3 ind = Wpmuladd(blockIdx, blockDim, threadIdx);` with
# `Wpmuladd(dim3 a, dim3 b, dim3 c)`: CUDA's dim3 has a constructor from the coordinates' uint3;
# the port spelled them `make_uint3(...)`, which ROCm 5.2's dim3 does not take. Where the value goes
# to a dim3 (a parameter of every function of that name, a declared variable) it is spelled dim3(...).
COORDS = """\
struct ldim3 { unsigned long x, y, z; };
__device__ ldim3 pmuladd(dim3 a, dim3 b, dim3 c) {
    return { (unsigned long)a.x * b.x + c.x, (unsigned long)a.y * b.y + c.y, (unsigned long)a.z * b.z + c.z };
}
__device__ unsigned int first(uint3 v) { return v.x; }
__global__ void k(float* o) {
    ldim3 i = pmuladd(blockIdx, blockDim, threadIdx);
    dim3 g = gridDim;
    const uint3 t = threadIdx;
    o[i.x] = g.x + first(blockIdx) + t.y;
}
"""


def test_whole_coordinates_going_to_a_dim3_are_spelled_as_one(tmp_path):
    port, text = translate(SourceFile.from_text(COORDS, str(tmp_path / "w.cu")), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "pmuladd(dim3(blockIdx.x, blockIdx.y, blockIdx.z), dim3(blockDim.x, blockDim.y, blockDim.z), " \
           "dim3(threadIdx.x, threadIdx.y, threadIdx.z))" in text
    assert "dim3 g = dim3(gridDim.x, gridDim.y, gridDim.z);" in text
    # a uint3 destination keeps the vector spelling
    assert "const uint3 t = make_uint3(threadIdx.x, threadIdx.y, threadIdx.z);" in text
    assert "first(make_uint3(blockIdx.x, blockIdx.y, blockIdx.z))" in text
    require_tool("hipcc")
    (tmp_path / "w.hip").write_text(text)
    assert_hip_file_compiles(tmp_path / "w.hip", ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))
