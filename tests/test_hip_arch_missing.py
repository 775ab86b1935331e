"""Device functions HIP's compiler refuses for one of the backend's archs (the backend's
`arch_missing`): ROCm 5.2's clang has no image sampling at an explicit level of detail, by
gradients or by gather for CDNA (gfx90a).  Translate refuses such a call at its line, naming the
function and the arch (KP210), instead of writing a port that fails to compile there; the table
is checked against hipcc itself."""
from __future__ import annotations

import pytest

from kernelport import backends
from kernelport.source import SourceFile
from kernelport.translate import translate

# A call of each texture fetch on a texture object `t` (HIP's template forms).
CALLS = {
    "tex1DLod": "tex1DLod<float>(t, 0.5f, 0.0f)",
    "tex2DLod": "tex2DLod<float>(t, 0.5f, 0.5f, 0.0f)",
    "tex3DLod": "tex3DLod<float>(t, 0.5f, 0.5f, 0.5f, 0.0f)",
    "texCubemapLod": "texCubemapLod<float>(t, 0.5f, 0.5f, 0.5f, 0.0f)",
    "texCubemapLayeredLod": "texCubemapLayeredLod<float>(t, 0.5f, 0.5f, 0.5f, 1, 0.0f)",
    "tex1DGrad": "tex1DGrad<float>(t, 0.5f, 0.0f, 0.0f)",
    "tex2DGrad": "tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(0, 0), make_float2(0, 0))",
    "tex3DGrad": "tex3DGrad<float>(t, 0.5f, 0.5f, 0.5f, make_float4(0, 0, 0, 0), make_float4(0, 0, 0, 0))",
    "tex1DLayeredGrad": "tex1DLayeredGrad<float>(t, 0.5f, 1, 0.0f, 0.0f)",
    "tex2DLayeredGrad": "tex2DLayeredGrad<float>(t, 0.5f, 0.5f, 1, make_float2(0, 0), make_float2(0, 0))",
    "tex2Dgather": "tex2Dgather<float4>(t, 0.5f, 0.5f, 0).x",
}
# Look-alikes that compile for every arch: not in the table.
COMPILE_EVERYWHERE = ["tex2D<float>(t, 0.5f, 0.5f)", "tex1Dfetch<float>(t, 3)", "tex3D<float>(t, 0.5f, 0.5f, 0.5f)",
                      "tex2DLayeredLod<float>(t, 0.5f, 0.5f, 1, 0.0f)", "tex1DLayeredLod<float>(t, 0.5f, 1, 0.0f)",
                      "texCubemapGrad<float>(t, 0.5f, 0.5f, 0.5f, make_float4(0, 0, 0, 0), make_float4(0, 0, 0, 0))"]


def _kernel(calls: list[str]) -> str:
    body = "".join(f"    out[threadIdx.x + {i}] = {c};\n" for i, c in enumerate(calls))
    return f"#include <hip/hip_runtime.h>\n__global__ void k(hipTextureObject_t t, float* out) {{\n{body}}}\n"


def test_the_table_is_what_hipcc_refuses(tmp_path):
    """Each listed function fails to compile for exactly its listed archs, with the listed error,
    and compiles for the backend's other archs; the look-alikes compile for all of them."""
    from conftest import require_tool
    from kernelport import toolchains

    require_tool("hipcc")
    hip = backends.get("hip")
    assert set(hip.arch_missing) == set(CALLS)
    archs = [r.arch for r in hip.runs]
    for arch in archs:
        fine = [CALLS[n] for n, (missing, _, _) in hip.arch_missing.items() if arch not in missing]
        path = tmp_path / f"fine_{arch}.hip"
        path.write_text(_kernel(fine + COMPILE_EVERYWHERE))
        r = toolchains.compile_hip(path, arch)
        assert r.ok, r.output
    for name, (missing, _, says) in hip.arch_missing.items():
        for arch in missing:
            path = tmp_path / f"{name}_{arch}.hip"
            path.write_text(_kernel([CALLS[name]]))
            r = toolchains.compile_hip(path, arch)
            assert not r.ok and says.split(": ", 1)[1] in r.output, (name, arch, r.output)


def _port(src: str, backend: str = "hip"):
    port, _ = translate(SourceFile.from_text(src, "tex.cu"), backend)
    return port


@pytest.mark.parametrize("backend", ["hip", "portable"])
@pytest.mark.parametrize("call", ["tex2DLod<float>(t, u, v, 1.0f)", "tex2DLod(ref, u, v, 1.0f)",
                                  "tex2Dgather<float4>(t, u, v, 0).x"])
def test_a_fetch_hip_lacks_for_an_arch_is_refused_at_its_line_naming_the_arch(call, backend):
    src = ("texture<float, 2, cudaReadModeElementType> ref;\n"
           "__global__ void k(cudaTextureObject_t t, float* out, float u, float v) {\n"
           f"    out[threadIdx.x] = tex2D<float>(t, u, v) + {call};\n}}\n")
    port = _port(src, backend)
    assert not port.ok
    [d] = [d for d in port.diagnostics if d.code == "KP210"]
    name = call.split("<")[0].split("(")[0]
    assert (d.location.line, d.location.column) == (3, src.splitlines()[2].index(call) + 1)
    assert f"`{name}`" in d.message and "gfx90a" in d.message and "not supported on this GPU" in d.message


def test_a_fetch_every_arch_has_and_a_users_own_function_of_that_name_are_ported():
    ok = _port("__global__ void k(cudaTextureObject_t t, float* out) {\n"
               "    out[threadIdx.x] = tex2D<float>(t, 0.5f, 0.5f) + tex2DLayeredLod<float>(t, 0.5f, 0.5f, 1, 0.0f);\n}\n")
    assert ok.ok and not [d for d in ok.diagnostics if d.code == "KP210"]
    own = _port("__device__ float tex2DLod(const float* p, float u, float v, float l) { return p[0] * u * v * l; }\n"
                "__global__ void k(const float* p, float* out) { out[threadIdx.x] = tex2DLod(p, 1.0f, 1.0f, 1.0f); }\n")
    assert own.ok, [d.format() for d in own.diagnostics]


def test_metal_keeps_its_own_refusal_of_textures():
    """Metal has no arch table: textures there are KP223 (no Metal meaning), as before."""
    port = _port("__global__ void k(cudaTextureObject_t t, float* out) {\n"
                 "    out[threadIdx.x] = tex2DLod<float>(t, 0.5f, 0.5f, 0.0f);\n}\n", "metal")
    assert not [d for d in port.diagnostics if d.code == "KP210"]
