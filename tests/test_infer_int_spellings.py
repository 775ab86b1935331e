"""C's integer specifiers in any order (`long unsigned *Va`, `sizeof(long unsigned int)`: heldout59 fast-dbscan's
gdbscan kernels) are the types DTYPES and SIZEOF name (`unsigned long`, 8 bytes).  Before, "buffer 'Va' holds
'long unsigned', not numbers the emulator can generate" and "unknown type in sizeof: long unsigned int".
Look-alikes: text that is no integer type (a repeated `int`, `signed` with `unsigned`, a struct) stays as written."""
from __future__ import annotations

import pytest

from kernelport import cexpr
from kernelport.cexpr import int_spelling
from kernelport.infer_inputs import Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile

HOST = """
__global__ void fill(int n, long unsigned *deg, long unsigned int *start) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) start[i] = deg[i] * 2 + 1;
}
int main() {
    int n = 1000;
    long unsigned *deg; long unsigned int *start;
    cudaMalloc((void **)&deg, sizeof(long unsigned int) * n);
    cudaMalloc((void **)&start, sizeof(unsigned long) * n);
    fill<<<(n + 127) / 128, 128>>>(n, deg, start);
}
"""


@pytest.mark.parametrize("text, want", [("long unsigned", "unsigned long"), ("long unsigned int", "unsigned long"),
                                        ("int long long unsigned", "unsigned long long"), ("short unsigned", "unsigned short"),
                                        ("signed", "int"), ("unsigned", "unsigned int"), ("signed char", "char"),
                                        ("int int", "int int"), ("unsigned signed", "unsigned signed"),
                                        ("long long long", "long long long"), ("struct node", "struct node"),
                                        ("short long", "short long"), ("char int", "char int"),
                                        ("long char", "long char"), ("short int unsigned", "unsigned short")])
def test_int_spelling(text, want):
    assert int_spelling(text) == want


def test_sizeof_reads_any_order():
    assert cexpr.evaluate_typed("sizeof(long unsigned int) * 3", {}).v == 24
    assert cexpr.evaluate_typed("sizeof(short unsigned)", {}).v == 2


def test_buffers_of_long_unsigned_are_inferred():
    got = infer(build(SourceFile.from_text(HOST, "k.cu")), "fill")
    assert isinstance(got, Inferred), got
    assert got.spec.length("deg") == 1000 and got.spec.length("start") == 1000
    assert got.spec.args["deg"].type == got.spec.args["start"].type == "unsigned long"
