"""`assert(e)` in device code of a Metal port: where NDEBUG is defined (the run's -D, as the CUDA
build passes it, or a `#define NDEBUG` of the file), C defines it as `((void)0)`, in CUDA's device
code too, so the port drops it; without NDEBUG it is a check whose failure the host reads back
(metal/assertions.py; KP223 at its line before stop 43).  data61/cuda-fixnum's Makefile builds with -DNDEBUG (held-out set 15): its modinv.cu and
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


def test_assert_without_ndebug_is_a_recorded_check():
    # Re-pinned at stop 43: KP223 at line 5 before; now a failure the host reads back (a flag argument the
    # sidecar describes; tests/test_metal_assertions.py), as Metal cannot stop a kernel.  Re-pinned at stop 44:
    # a statement of a kernel whose threads never wait for each other returns where it fails, as CUDA stops
    port, _ = metal(KERNEL, defines=[("DEBUG", "1")])
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "{ if (!kp_assert(n > 0, 1u, kp_assert_failed)) return; }" in port.body
