"""A parameter named `warpSize` (cuTT's `void runCounters(const int warpSize, ...)` prototype, held-out
set 14) is the user's own name: the port keeps it, where the constant wave width rewrite once made
the prototype `const int KP_WAVE_SIZE` (64 after the macro: hipcc "expected ')'")."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), backend)[0]


CODE = """
void counters(const int warpSize, int* out);
void by_ref(const int& warpSize);
__global__ void k(int* out, int n = warpSize) { out[threadIdx.x] = n; }
void counters(const int warpSize, int* out) { k<<<1, 4 * warpSize>>>(out); }
"""


def test_a_prototypes_parameter_named_warp_size_is_kept():
    p = port(CODE)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "void counters(const int warpSize, int* out);" in p.body
    assert "void by_ref(const int& warpSize);" in p.body


def test_a_default_argument_of_warp_size_is_still_the_constant():  # look-alike: a use, not a name
    p = port(CODE)
    assert "int n = warpSize)" not in p.body and "int n = KP_WAVE_SIZE)" in p.body, p.body
