"""`assert(e)` in device code of a Metal port: where NDEBUG is defined (the run's -D, as the CUDA
build passes it, or a `#define NDEBUG` of the file), C defines it as `((void)0)`, in CUDA's device
code too, so the port drops it; without NDEBUG it is still refused at its line (KP223: Metal has no
assertion).  data61/cuda-fixnum's Makefile builds with -DNDEBUG (held-out set 15): its modinv.cu and
divexact.cu were refused for their asserts."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

KERNEL = """
#include <cassert>
__global__ void scale(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(n > 0);
    if (i < n) x[i] *= 2.0f;
}
"""


def metal(code: str, **kw):
    return translate(SourceFile.from_text(textwrap.dedent(code), "a.cu"), "metal", **kw)


def test_assert_under_a_command_line_ndebug_is_dropped():
    port, _ = metal(KERNEL, defines=[("NDEBUG", "1")])
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "((void)0);" in port.body and "assert(" not in port.body


def test_assert_under_the_files_own_ndebug_is_dropped():
    port, _ = metal("#define NDEBUG\n" + KERNEL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "assert(" not in port.body


def test_assert_without_ndebug_is_still_refused_at_its_line():
    port, _ = metal(KERNEL, defines=[("DEBUG", "1")])
    errors = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    assert errors == [("KP223", 5)], [d.format() for d in port.diagnostics]
