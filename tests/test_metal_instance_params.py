"""A template kernel's `[[host_name]]` instantiation spells its parameters with the instance's types
(`kernel void scale<float>(constant float& a [[buffer(0)]], device float* v ...)`), as MSL's
explicit instantiations are written: main wrote the template's own parameter list (`constant T& a`),
where `T` is declared nowhere (C++ rejects `template void f<float>(T a);`: unknown type name), and the
checker, which replaces each instantiation by a specialised copy of the template, never read it
(found while tracing held-out set 70's header template kernels; the cases here are synthetic).
A kernel whose parameters name no template parameter keeps its list as it was."""
from __future__ import annotations

import re

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

TYPED = """\
template <typename T>
__global__ void scale(T a, T* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] *= a;
}
int main() {
    float* v; cudaMalloc(&v, 64 * sizeof(float));
    scale<<<1, 64>>>(2.f, v, 64);
    int* w; cudaMalloc(&w, 64 * sizeof(int));
    scale<int><<<1, 64>>>(3, w, 64);
    return 0;
}
"""
SIZED = """\
template <int B>
__global__ void fill(float* v, int n) {
    int i = blockIdx.x * B + threadIdx.x;
    if (i < n) v[i] = 1.f;
}
int main() {
    float* v; cudaMalloc(&v, 64 * sizeof(float));
    fill<256><<<1, 256>>>(v, 64);
    return 0;
}
"""


def instantiations(text: str) -> list[str]:
    return [" ".join(m.group(0).split()) for m in re.finditer(r"template \[\[host_name[^;]*;", text)]


def test_an_instantiation_spells_the_instance_types_in_its_parameters():
    require_tool("clang")
    port, text = translate(SourceFile.from_text(TYPED, "t.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    got = instantiations(text)
    assert len(got) == 2, got
    assert got[0].startswith('template [[host_name("scale_float")]] kernel void scale<float>(constant float& a '
                             '[[buffer(0)]], device float* v [[buffer(1)]], constant int& n [[buffer(2)]],'), got
    assert got[1].startswith('template [[host_name("scale_int")]] kernel void scale<int>(constant int& a '
                             '[[buffer(0)]], device int* v [[buffer(1)]]'), got
    assert not any(re.search(r"\bT\b", g) for g in got)  # main: `constant T& a`, `device T* v`
    assert "kernel void scale(constant T& a [[buffer(0)]], device T* v [[buffer(1)]]" in text  # the template stays


def test_an_instantiation_whose_parameters_name_no_template_parameter_is_as_it_was():
    require_tool("clang")
    port, text = translate(SourceFile.from_text(SIZED, "t.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    got = instantiations(text)
    assert len(got) == 1 and got[0].startswith(
        'template [[host_name("fill_256")]] kernel void fill<256>(device float* v [[buffer(0)]], '
        'constant int& n [[buffer(1)]],'), got
