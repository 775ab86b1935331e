"""A function no nvcc pass compiles is not a host function device code calls (helper_math.h / cutil_math.h,
as heldout48's mandelspace vector_ops.hpp carries it: `#ifndef __CUDACC__` host versions of CUDA's own
`rsqrtf`, `fminf`, ... for a host compiler).  nvcc never sees them, so a device call of `rsqrtf` is CUDA's
own (Metal's rsqrt).  On main the Metal port refused it: KP223 "a call of host function 'rsqrtf' from device
code ... nvcc rejects it too", which nvcc does not.  Snippets written for the test."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

_KERNEL = "__global__ void k(float3* p) { p[threadIdx.x] = unit(p[threadIdx.x]); }\n"
_UNIT = ("inline __host__ __device__ float3 unit(float3 v) {\n"
         "    float inv = rsqrtf(v.x * v.x + v.y * v.y + v.z * v.z);\n"
         "    return make_float3(v.x * inv, v.y * inv, v.z * inv);\n}\n")


def _port(tmp_path: Path, fallback: str):
    (tmp_path / "math.h").write_text("#pragma once\n" + fallback + _UNIT)
    (tmp_path / "k.cu").write_text('#include "math.h"\n' + _KERNEL)
    return translate(SourceFile.read(tmp_path / "k.cu"), "metal")


def test_a_host_fallback_nvcc_never_compiles_leaves_cudas_own(tmp_path: Path):
    port, text = _port(tmp_path, "#ifndef __CUDACC__\n#include <math.h>\n"
                                 "inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }\n#endif\n")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "rsqrt(v.x * v.x + v.y * v.y + v.z * v.z)" in text and "#ifndef __METAL_VERSION__" in text, text


def test_the_else_of_ifdef_cudacc_too(tmp_path: Path):
    port, _ = _port(tmp_path, "#if defined(__CUDACC__)\n#define HM_CUDA 1\n#else\n"
                              "inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }\n#endif\n")
    assert port.ok, [d.format() for d in port.diagnostics]


def test_a_host_function_nvcc_compiles_stays_refused(tmp_path: Path):
    # the look-alike: the same host function outside the conditional: nvcc rejects the device call too
    (tmp_path / "k.cu").write_text("inline float inv_len(float x) { return 1.0f / sqrtf(x); }\n"
                                   "__global__ void k(float* p) { p[threadIdx.x] = inv_len(p[threadIdx.x]); }\n")
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    got = [d.format() for d in port.diagnostics if d.code == "KP223"]
    assert len(got) == 1 and "k.cu:2:48:" in got[0] and "a call of host function 'inv_len'" in got[0], got
