"""Qualifiers before a declaration of a type alone, `__device__ struct Config { ... };` (heldout48's mandelspace
util.hpp): nvcc and g++ ignore them (a warning), the grammar wanted a declarator after them, so the file (and any
port that splices it) stopped at a syntax error on main.  The parse now sees the words as blanks
(grammar_gaps, mask macros.IGNORED_QUALIFIERS); a HIP port keeps the user's text (hipcc warns as nvcc does),
a Metal port, which cannot spell `__device__`, drops them.  And a device prototype nothing in a Metal port calls
(fractals.hpp's `cuda_mandelbulb_de(..., double pow)` in the port of menger_prison.cu) is left out with host
code, where on main its `double` refused the port (KP214).  Snippets written for the test."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

_KERNEL = "__global__ void k(Config c, float* out) { out[threadIdx.x] = c.scale * c.iterations; }\n"


@pytest.mark.parametrize("words", ["__device__", "__host__ __device__", "static const", "__constant__"])
def test_qualifiers_on_a_type_alone_parse(words: str):
    src = SourceFile.from_text(f"{words} struct Config {{ int iterations; float scale; }};\n" + _KERNEL, "c.cu")
    assert src.syntax_errors() == []
    assert [m.name for m in src.masks] == ["ignored qualifiers"]


def test_a_declarator_after_the_type_is_no_gap():
    # the look-alike: `__device__ struct C {...} c;` declares a variable, which the grammar reads: no mask
    src = SourceFile.from_text("__device__ struct Config { int iterations; float scale; } cfg;\n", "c.cu")
    assert src.syntax_errors() == [] and src.masks == ()


def test_the_metal_port_drops_them_and_hip_keeps_them():
    text = "__device__ struct Config { int iterations; float scale; };\n" + _KERNEL
    port, metal = translate(SourceFile.from_text(text, "c.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert " struct Config { int iterations; float scale; };" in metal and "__device__" not in metal, metal
    assert not [d for d in port.diagnostics if d.code == "KP230"]
    port, hip = translate(SourceFile.from_text(text, "c.cu"), "hip")
    assert "__device__ struct Config { int iterations; float scale; };" in hip


def test_a_device_prototype_nothing_in_the_port_calls_is_left_out(tmp_path: Path):
    (tmp_path / "fr.hpp").write_text("#pragma once\n__device__ float bulb(float3 p, double power);\n"
                                     "__device__ float prison(float3 p);\n")
    (tmp_path / "prison.cu").write_text('#include "fr.hpp"\n__device__ float prison(float3 p) { return length(p); }\n'
                                        "__global__ void k(float3* p, float* d) { d[threadIdx.x] = prison(p[threadIdx.x]); }\n")
    port, text = translate(SourceFile.read(tmp_path / "prison.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "/* bulb: a prototype nothing in the port calls, left out of the Metal port */" in text, text
    assert "float prison(float3 p);" in text  # the look-alike: the prototype of a function the port has stays


def test_a_called_prototypes_double_is_still_refused(tmp_path: Path):
    (tmp_path / "fr.hpp").write_text("#pragma once\n__device__ float bulb(float3 p, double power);\n")
    (tmp_path / "k.cu").write_text('#include "fr.hpp"\n'
                                   "__global__ void k(float3* p, float* d) { d[threadIdx.x] = bulb(p[threadIdx.x], 8.0); }\n")
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    got = [d.format() for d in port.diagnostics if d.severity == "error"]
    assert len(got) == 1 and "fr.hpp:2:33: error: KP214" in got[0], got
