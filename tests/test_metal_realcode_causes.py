"""Causes of Metal refusals on real code (issue 11, Metal part): llm.c's dev/cuda kernels
(encoder_forward, gelu_forward, residual_forward) and what else tests/realcorpus showed, each as a
minimal CUDA snippet written for the test (no fetched file is read)."""
from __future__ import annotations

from pathlib import Path

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool


def _checked(text: str) -> None:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text


def _port(code: str, tmp_path: Path):
    port, text = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    return port, text


# llm.c common.h's Packed128: a constructor and a const method memcpy between a local and the
# struct's own member (`&payload`, through `this`: `thread` in MSL, `__generic` in the checker's
# C++ for OpenCL), so the polyfill's byte views had no overload for it (KP224 at line 1: no
# matching function for call to 'kp_bytes' / 'kp_cbytes', in the port's prologue).
PACKED = """\
struct Packed { 
  float payload[4];
  __device__ explicit Packed(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }
  __device__ int4 get_bits() const { int4 bits; memcpy(&bits, &payload, sizeof(bits)); return bits; }
};
__global__ void k(const int4 *in, int4 *out) {
  Packed p(in[threadIdx.x]);
  out[threadIdx.x] = p.get_bits();
}
"""


def test_memcpy_to_and_from_a_member_through_this_passes_the_checker(tmp_path: Path):
    port, text = _port(PACKED, tmp_path)
    assert "kp_memcpy(&payload, &bits, sizeof(bits));" in port.body
    assert "kp_memcpy(&bits, &payload, sizeof(bits));" in port.body
    _checked(text)
