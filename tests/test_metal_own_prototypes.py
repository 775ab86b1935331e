"""A header's prototype of a function the file itself defines is no reason to need the header (heldout48's
mandelspace: fractals.hpp declares `cuda_menger_prison_de` for the -rdc link; menger_prison.cu defines
it).  On main the Metal port refused the include, KP209 "the port needs name 'de' from ...", where
the header could not be spliced (here: it does not parse).  A function the file does not define,
declared by the same header, still needs it: KP209, located.  Snippets written for the test."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

_HEADER = """
    #pragma once
    __device__ float de(float3 p);
    __device__ float other_de(float3 p);
    struct Config { int iterations; };
"""


@pytest.fixture
def unspliced(monkeypatch):
    """The splice takes no header (as where one does not parse): the include is the refusal's to decide."""
    from kernelport.backends.metal import translator
    monkeypatch.setattr(translator, "splice", lambda src, *a, **k: (src, None))


def _translate(tmp_path: Path, body: str):
    (tmp_path / "fractals.hpp").write_text(textwrap.dedent(_HEADER).lstrip())
    (tmp_path / "k.cu").write_text(textwrap.dedent(body).lstrip())
    return translate(SourceFile.read(tmp_path / "k.cu"), "metal")


def test_the_files_own_function_declared_in_a_header_is_ported(tmp_path: Path, unspliced):
    port, text = _translate(tmp_path, """
        #include "fractals.hpp"
        __device__ float de(float3 p) { return length(p) - 1.0f; }
        __global__ void march(float3* pos, float* d) { d[threadIdx.x] = de(pos[threadIdx.x]); }
    """)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "float de(float3 p)" in text and "kernel void march(" in text
    assert '// #include "fractals.hpp": device code uses nothing of it, left out of the Metal port' in text


def test_a_function_only_the_header_declares_stays_kp209(tmp_path: Path, unspliced):
    port, _ = _translate(tmp_path, """
        #include "fractals.hpp"
        __device__ float de(float3 p) { return length(p) - 1.0f; }
        __global__ void march(float3* pos, float* d) { d[threadIdx.x] = de(pos[threadIdx.x]) + other_de(pos[0]); }
    """)
    assert not port.ok
    kp209 = [d.format() for d in port.diagnostics if d.code == "KP209"]
    assert len(kp209) == 1 and "k.cu:1:1:" in kp209[0] and "the port needs name 'other_de' from \"fractals.hpp\"" in kp209[0], kp209


def test_a_header_that_defines_what_device_code_uses_is_still_spliced(tmp_path: Path):
    (tmp_path / "ops.hpp").write_text("#pragma once\n__device__ float de(float3 p);\n"
                                      "__device__ inline float twice(float x) { return 2.0f * x; }\n")
    (tmp_path / "k.cu").write_text('#include "ops.hpp"\n__device__ float de(float3 p) { return twice(p.x); }\n'
                                   "__global__ void march(float3* pos, float* d) { d[threadIdx.x] = de(pos[threadIdx.x]); }\n")
    port, text = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert '"ops.hpp", spliced' in text and "inline float twice(float x)" in text
