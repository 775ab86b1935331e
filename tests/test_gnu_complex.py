"""GNU C's complex types, `_Complex float` / `__complex__ double`, in host code of a CUDA file (a C
library's `extern "C"` wrappers that pass complex arrays to kernels written with cuFloatComplex):
nvcc and hipcc accept them, tree-sitter's grammar does not. They are seen as the float type they
qualify (masked where the parse stops, kernelport/macro_repair.py), and every port keeps them byte
for byte. A genuine syntax error beside one is still reported where it is."""
from __future__ import annotations

import textwrap

from conftest import hip_compiles
from kernelport.model import build
from kernelport.source import SourceFile
from kernelport.translate import translate

WRAPPERS = """
#include <cuComplex.h>

__global__ static void kern_zsadd(long N, cuFloatComplex val, cuFloatComplex* dst, const cuFloatComplex* src)
{
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < N)
        dst[i] = cuCaddf(src[i], val);
}

extern "C" void cuda_zsadd(long N, _Complex float val, _Complex float* dst, const _Complex float* src)
{
    cuFloatComplex v = *(cuFloatComplex*)&val;
    kern_zsadd<<<(N + 255) / 256, 256>>>(N, v, (cuFloatComplex*)dst, (const cuFloatComplex*)src);
}

static __complex__ double zsum_host(long N, const __complex__ double* src)
{
    __complex__ double s = 0;
    for (long i = 0; i < N; i++)
        s += src[i];
    return s;
}
"""


def src(code: str) -> SourceFile:
    return SourceFile.from_text(textwrap.dedent(code), "wrappers.cu")


def test_complex_host_wrappers_parse_and_are_kept(tmp_path):
    s = src(WRAPPERS)
    assert s.syntax_errors() == [], s.syntax_errors()
    model = build(s)
    assert [p.name for p in model.functions["cuda_zsadd"].params] == ["N", "val", "dst", "src"]
    assert "zsum_host" in model.functions
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    for line in ('extern "C" void cuda_zsadd(long N, _Complex float val, _Complex float* dst, const _Complex float* src)',
                 "static __complex__ double zsum_host(long N, const __complex__ double* src)",
                 "    __complex__ double s = 0;"):
        assert line in text, (line, text)
    assert "kern_zsadd<<<" in text and "hipFloatComplex* dst" in text
    hip_compiles(tmp_path, text, "wrappers.hip")


def test_a_syntax_error_beside_a_complex_type_is_still_reported():
    s = src("""
    extern "C" void f(long N, _Complex float val val2, _Complex float* dst)
    {
        dst[0] = val;
    }
    """)
    errors = s.syntax_errors()
    assert errors, "two declarator names in one parameter is an error nvcc reports too"
    assert errors[0][0].line == 2, errors
