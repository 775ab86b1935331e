"""`#pragma unroll N` with a non-positive literal N: nvcc ignores the pragma (CUDA C++ Programming Guide),
clang rejects it ("invalid value '0'; must be positive"), so every port drops it, its text kept in a
comment on its line (kernelport/unroll_counts.py).  Held-out set 30's cuFHE bootstrap_gpu.cu
(`#pragma unroll 0` above its key-switching loops) was written and failed hipcc there."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

SRC = textwrap.dedent("""\
    __global__ void key_switch(const unsigned* in, unsigned* out, int n) {
      unsigned acc = 0;
      #pragma unroll 0
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        #pragma unroll (-1)
        for (int j = 0; j < 4; j++) acc += in[i * 4 + j];
        #pragma unroll 2
        for (int j = 0; j < 4; j++) acc ^= in[i * 4 + j] >> j;
      }
      #pragma unroll
      for (int j = 0; j < 2; j++) out[threadIdx.x * 2 + j] = acc + j;
    }
    """)


@pytest.mark.parametrize("backend", ["hip", "metal", "portable"])
def test_a_non_positive_unroll_count_is_dropped_and_the_others_kept(backend):
    p, text = translate(SourceFile.from_text(SRC, "t.cu"), backend)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "#pragma unroll 0" not in text.replace("/* #pragma unroll 0", "") and "/* #pragma unroll 0:" in text
    assert "/* #pragma unroll (-1):" in text
    assert "#pragma unroll 2" in text and "\n  #pragma unroll\n" in p.body or "#pragma unroll\n" in p.body


def test_the_port_keeps_its_lines_and_compiles_for_gfx90a_and_gfx1030(tmp_path):
    p, text = translate(SourceFile.from_text(SRC, "t.cu"), "hip")
    assert p.ok
    assert len(p.body.splitlines()) == len(SRC.splitlines()), p.body
    assert p.body.splitlines()[2].strip().startswith("/* #pragma unroll 0"), p.body
    hip_compiles(tmp_path, text)
