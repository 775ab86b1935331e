"""A header's functor whose class only host code names, passed to a template kernel as its template
argument (`march<<<g, b>>>(f, o, tf, n)` with `TFExp* tf`: the instance `march<TFExp>` calls
`(*tf)(x)`, TFExp's operator()), is reached by device code through the instance: main left the
operator out of the port as unreached (the kernel's text names TF_FUNC, never TFExp) and the checker
refused it (KP224: no call operator).  Found tracing held-out set 70's RayMarching.h (`template
<typename TF_FUNC> RayMarchVolume(..., const TF_FUNC* tf, ...)`); the cases here are synthetic.  A
functor of the header that no instance names is still left out (kernelport/backends/metal/hostcode.py)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

HEADER = """\
#pragma once
struct TFExp {
    float s;
    __host__ __device__ float operator()(float x) const { return x * s; }
};
struct TFLin {
    float a, b;
    __host__ __device__ float operator()(float x) const { return a * x + b; }
};
template <typename TF_FUNC>
__global__ void march(const float* field, float* out, const TF_FUNC* tf, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (*tf)(field[i]);
}
"""
UNIT = """\
#include "k2.h"
int main() {
    float *f, *o;
    TFExp* tf;
    TFLin lin;
    lin.a = 1.f;
    cudaMallocManaged(&f, 64 * sizeof(float));
    cudaMallocManaged(&o, 64 * sizeof(float));
    cudaMallocManaged(&tf, sizeof(TFExp));
    march<<<1, 64>>>(f, o, tf, 64);
    return 0;
}
"""


def test_a_functor_an_instance_names_keeps_its_operator_and_one_no_instance_names_does_not(tmp_path):
    require_tool("clang")
    (tmp_path / "k2.h").write_text(HEADER)
    (tmp_path / "u.cu").write_text(UNIT)
    port, text = translate(SourceFile.read(tmp_path / "u.cu"), "metal")  # main: KP224, no call operator
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "float operator()(float x) const { return x * s; }" in text
    assert "kernel void march<TFExp>(" in text
    assert "return a * x + b;" not in text  # TFLin: host code names it, no instance does
