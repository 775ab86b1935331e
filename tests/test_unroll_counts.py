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


TEMPLATE = textwrap.dedent("""\
    #define NUM_VALS 4
    template <unsigned POWER, unsigned Nth_POWER>
    __global__ void update_r(const float* in, float* out) {
      float g = in[threadIdx.x];
      #pragma unroll Nth_POWER
      for (unsigned i = POWER >> 1; i >= 1; i >>= 1) g += in[i];
      #pragma unroll NUM_VALS
      for (int j = 0; j < 4; j++) g += in[j];
      out[threadIdx.x] = g;
    }
    template <int N> struct Rows {
      __device__ static void zero(float* x) {
        #pragma unroll N - 1
        for (int i = 0; i < 8; i++) x[i] = 0;
      }
    };
    __global__ void use(const float* in, float* out) { Rows<1>::zero(out); }
    template __global__ void update_r<1, 0>(const float*, float*);
    template __global__ void update_r<4, 2>(const float*, float*);
    """)


@pytest.mark.parametrize("backend", ["hip", "metal", "portable"])
def test_a_count_read_from_a_template_parameter_is_guarded_for_its_zero_instances(backend):
    """Zialus/cumf_ccd's `#pragma unroll Nth_POWER` met update_r<1, 0> (held-out set 44): clang rejects the
    instance nvcc ignores the pragma in.  A class template's parameter too; a macro's count is the build's."""
    p, _ = translate(SourceFile.from_text(TEMPLATE, "t.cu"), backend)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "#pragma unroll +(Nth_POWER) > 0 ? (Nth_POWER) : 1\n" in p.body, p.body
    assert "#pragma unroll +(N - 1) > 0 ? (N - 1) : 1\n" in p.body, p.body
    assert "#pragma unroll NUM_VALS\n" in p.body and "#pragma unroll 2\n" not in p.body


def test_the_guarded_template_compiles_for_gfx90a_and_gfx1030(tmp_path):
    """Its zero instance (update_r<1, 0>, Rows<1>) stopped hipcc: "invalid value '0'; must be positive"."""
    p, text = translate(SourceFile.from_text(TEMPLATE, "t.cu"), "hip")
    assert p.ok and len(p.body.splitlines()) == len(TEMPLATE.splitlines())
    hip_compiles(tmp_path, text)
