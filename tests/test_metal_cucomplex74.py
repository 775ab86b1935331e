"""cuComplex.h's single-precision complex on Metal (heldout74: autd3-backend-cuda's phased-array kernels use
`cuFloatComplex` and `make_cuFloatComplex` throughout; main refused the unit, KP223 "defined neither in this
file nor in Metal's standard library").  CUDA's cuFloatComplex is a float2; the Metal prologue defines each
name the port uses (backend data `complex_macros`) as a macro reading each argument once: the type,
make_cuFloatComplex, cuCrealf / cuCimagf, cuCaddf / cuCsubf (float2's componentwise + and -, exactly CUDA's).
Look-alikes: cuDoubleComplex (Metal has no double) stays refused at its use (KP214 since h/metal60, which
gives cuCmulf & co. as inline functions); a file that defines make_cuFloatComplex itself keeps its own."""
from __future__ import annotations

import re
import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

UNIT = """
    #include <cuComplex.h>
    __device__ float norm2(const cuFloatComplex z) { return cuCrealf(z) * cuCrealf(z) + cuCimagf(z) * cuCimagf(z); }
    __global__ void shift(const cuFloatComplex *a, cuFloatComplex *b, float *m, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) { b[i] = cuCaddf(a[i], make_cuFloatComplex(1.0f, 0.0f)); m[i] = norm2(b[i]); }
        EXTRA
    }
"""


def _metal(extra: str = "", before: str = ""):
    text = before + textwrap.dedent(UNIT).replace("EXTRA", extra)
    return translate(SourceFile.from_text(text, "c.cu"), "metal")


def test_the_float_complex_names_a_kernel_uses_are_defined_by_the_prologue():
    port, text = _metal()
    assert port.ok and not port.empty, [d.format() for d in port.diagnostics]
    for line in ("#define cuFloatComplex float2", "#define make_cuFloatComplex(r, i) float2((r), (i))",
                 "#define cuCaddf(a, b) ((a) + (b))", "#define cuCrealf(z) ((z).x)"):
        assert line in text, line
    assert "cuCsubf" not in text and not re.search(r"(?m)^\s*#\s*include <cuComplex.h>", text)


def test_double_complex_stays_refused():
    # (cuCmulf & co. are the prologue's inline functions since h/metal60: tests/test_metal_cucomplex60.py)
    port, _ = _metal("cuDoubleComplex d = make_cuDoubleComplex(0.0, 1.0);")
    errors = [(d.code, "cuDoubleComplex" in d.message) for d in port.diagnostics if d.severity == "error"]
    assert ("KP214", True) in errors, errors


def test_a_file_that_defines_the_maker_keeps_its_own():
    own = "__device__ cuFloatComplex make_cuFloatComplex(float r, float i) { cuFloatComplex z; z.x = r; z.y = i; return z; }\n"
    port, text = _metal(before="#include <cuComplex.h>\n" + own)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "#define make_cuFloatComplex" not in text and "#define cuFloatComplex float2" in text
