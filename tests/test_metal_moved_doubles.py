"""Doubles a kernel only moves are ported as Metal's 64-bit ulong (kernelport/backends/metal/moved_doubles.py).

tokura-dgeev's tokura_blas_matrix_rearrangements.cu (held-out set 54) transposes batches of double matrices
through threadgroup memory and never computes on a double: main refused it (KP214, Metal has no double).
A copy moves 8 bytes whatever they mean, so `ulong` (8 bytes, the same stride) moves every value bit for bit
and the host binds its double buffers unchanged.  Anything that reads a double as a number (arithmetic, a
comparison, a conversion to float, a call, a compound assignment) keeps KP214."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write

MOVES = """
__global__ void transpose(const int n, const double* __restrict__ a, double *out)
{
    __shared__ double tile[32 * 33];
    if (threadIdx.x < n)
        tile[threadIdx.y * 33 + threadIdx.x] = a[threadIdx.y * n + threadIdx.x];
    __syncthreads();
    if (threadIdx.x < n)
        out[threadIdx.x * n + threadIdx.y] = tile[threadIdx.y * 33 + threadIdx.x];
}

__global__ void split(int n, const double *re_im, double *re, double *im)
{
    extern __shared__ double stage[];
    double *first = &stage[0];
    double *second = stage + n;
    int i = threadIdx.x;
    first[i] = re_im[2 * i];
    second[i] = re_im[2 * i + 1];
    __syncthreads();
    double v = first[i];
    re[i] = v;
    *(im + i) = second[i];
}
"""


def test_a_kernel_that_only_moves_doubles_is_ported_with_ulong(tmp_path: Path):
    _write(tmp_path, {"k.cu": MOVES})
    text = _port(tmp_path / "k.cu")  # main: KP214 at every double
    assert "double" not in text.split("using namespace metal;", 1)[1], text
    assert "const device ulong* __restrict__ a [[buffer(1)]], device ulong *out [[buffer(2)]]" in text, text
    assert "threadgroup ulong tile[32 * 33];" in text and "threadgroup ulong *first = &stage[0];" in text, text
    assert "ulong v = first[i];" in text, text


@pytest.mark.parametrize("body", [
    "b[i] = a[i] * 2.0;",                      # arithmetic
    "b[i] = a[i] + a[i + 1];",
    "if (a[i] > 0) b[i] = a[i];",              # a comparison
    "b[i] += a[i];",                           # a compound assignment
    "f[i] = a[i];",                            # a conversion to float
    "b[i] = f[i];",                            # a conversion from float
    "b[i] = (double) i;",                      # a cast
    "b[i] = fabs(a[i]);",                      # a call
    "b[i] = a[i] = 0;",                        # an assignment's value used
])
def test_a_double_read_as_a_number_stays_refused(tmp_path: Path, body: str):
    _write(tmp_path, {"k.cu": "__global__ void k(const double *a, double *b, float *f)\n{\n"
                              f"    int i = threadIdx.x;\n    {body}\n}}\n"})
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    assert any(d.code == "KP214" for d in port.diagnostics), body


COMPUTES = """
__global__ void scale(double s, double *x) { x[threadIdx.x] = s; }
__global__ void twice(double *x) { x[threadIdx.x] = 2.0 * x[threadIdx.x]; }
"""


def _kp214_lines(tmp_path: Path, text: str) -> list[int]:
    _write(tmp_path, {"k.cu": text})
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    return sorted({d.location.line for d in port.diagnostics if d.code == "KP214"})


def test_a_by_value_double_and_arithmetic_stay_refused(tmp_path: Path):
    """Look-alike (as on main): a double passed by value is a number, and so is one multiplied."""
    assert _kp214_lines(tmp_path, COMPUTES) == [1, 2]


def test_only_the_computing_functions_are_refused_beside_a_moving_one(tmp_path: Path):
    """The moving kernels beside computing ones are ported as ulong; the file is refused at the computing
    ones' doubles alone (main: at every double of the file)."""
    lines = MOVES.strip("\n").count("\n") + 1
    assert _kp214_lines(tmp_path, MOVES.strip("\n") + "\n" + COMPUTES.strip("\n") + "\n") == [lines + 1, lines + 2]
