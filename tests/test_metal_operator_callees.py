"""A helper's callees are kept by the translator's key, not by name: two classes of a spliced header
that each define `operator()` are two device functions (`operator()` and `operator()@2`), and one that
nothing of the port reaches is left out of it (hostcode.py's unreached_header_code).  A call of the
other class's `operator()` through a local reference (`const Grid &g = *this; g(v, i)`) was recorded
under the bare name, which then named the left-out one: the Metal translation stopped with an
internal error, `KeyError: 'operator()'` (held-out set 70's SRaimondi/VolumeRender ScalarField.cu, whose
Geometry.h's Ray and ScalarField.h's ScalarFieldDescription both define one; the cases here are
synthetic).  Where both classes' operators are reached the port is as it was."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

HEADER = """
    struct Ray {
        float o, d;
        __host__ __device__ float operator()(float t) const { return o + d * t; }
    };
    struct Grid {
        int n;
        __host__ __device__ float operator()(const float* v, int i) const { return i < n ? v[i] : 0.f; }
        __host__ __device__ float Pair(const float* v, int i) const;
    };
"""
SOURCE = """
    #include "shapes.h"
    __host__ __device__ float Grid::Pair(const float* v, int i) const {
        const Grid &g = *this;
        return g(v, i) + g(v, i + 1);
    }
    __global__ void pairs(const float* v, float* out, int n) {
        Grid g;
        g.n = n;
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = g.Pair(v, i)USE_RAY;
    }
"""
WITHOUT_RAY = SOURCE.replace("USE_RAY", "")
WITH_RAY = SOURCE.replace("USE_RAY", " + r(0.5f)").replace("        g.n = n;\n", "        g.n = n;\n        Ray r;\n        r.o = 1.f;\n        r.d = 2.f;\n")


def metal(tmp_path, source: str):
    (tmp_path / "shapes.h").write_text(textwrap.dedent(HEADER).lstrip())
    (tmp_path / "grid.cu").write_text(textwrap.dedent(source).lstrip())
    return translate(SourceFile.read(tmp_path / "grid.cu"), "metal")


def test_an_operator_of_a_second_class_is_ported_when_the_first_classs_is_left_out(tmp_path):
    require_tool("clang")
    port, text = metal(tmp_path, WITHOUT_RAY)  # main: internal error, KeyError: 'operator()'
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "Ray: used by host code only, left out of the Metal port" in text
    assert "float operator()(const device float* v, int i) const" in text
    assert "return g(v, i) + g(v, i + 1);" in text


def test_both_classes_operators_reached_keep_both(tmp_path):
    require_tool("clang")
    port, text = metal(tmp_path, WITH_RAY)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "float operator()(float t) const { return o + d * t; }" in text
    assert "float operator()(const device float* v, int i) const" in text
    assert "out[i] = g.Pair(v, i) + r(0.5f);" in text
