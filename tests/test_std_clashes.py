"""A file-scope enumerator named as a std algorithm (`count`), with `using namespace std;`: nvcc finds only
the enumerator, hipcc also std::count (hip_runtime.h includes <algorithm>): the HIP port qualifies the uses
as `::count` (RAPIDS-Hash-based-Groupby's hashkernel.cu and main.cu, held-out set 66: "reference to 'count'
is ambiguous" on main)."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text

from kernelport.source import SourceFile
from kernelport.translate import translate

GROUPBY = """
#include <iostream>
using namespace std;
enum reduction_op {max_op, min_op, sum, count};

__global__ void reduce(const reduction_op* ops, const int* v, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (ops[i] == count) atomicAdd(&out[0], 1);
    else if (ops[i] == sum) atomicAdd(&out[1], v[i]);
}

struct Bucket { int count; __device__ int seen() const { return count; } };

__global__ void tally(Bucket* b, int* out) {
    int count = b[threadIdx.x].count;   // a local of that name: the local is meant
    out[threadIdx.x] = count + b[threadIdx.x].seen();
}

void host_ops(reduction_op* ops) { reduction_op all[4] = {max_op, min_op, sum, count}; ops[0] = all[3]; }
"""


def test_enumerator_named_as_a_std_algorithm_is_qualified(tmp_path):
    text = port_text(GROUPBY)
    assert "if (ops[i] == ::count) atomicAdd(&out[0], 1);" in text
    assert "reduction_op all[4] = {max_op, min_op, sum, ::count};" in text
    # look-alikes, as written: the declaration, a member, a member function's use, a local of that name
    assert "enum reduction_op {max_op, min_op, sum, count};" in text
    assert "struct Bucket { int count; __device__ int seen() const { return count; } };" in text
    assert "    int count = b[threadIdx.x].count;" in text and "out[threadIdx.x] = count + b" in text
    hip_compiles(tmp_path, text)


def test_without_using_namespace_std_nothing_changes():
    plain = GROUPBY.replace("using namespace std;\n", "")
    assert "::count" not in port_text(plain)


def test_the_enum_and_the_directive_from_a_project_header(tmp_path):
    header = tmp_path / "ops.cuh"
    header.write_text("#include <iostream>\nusing namespace std;\nenum reduction_op {max_op, min_op, sum, count};\n")
    code = ('#include "ops.cuh"\n__global__ void k(const reduction_op* ops, int* out) {\n'
            "    out[threadIdx.x] = ops[threadIdx.x] == count;\n}\n")
    f = tmp_path / "k.cu"
    f.write_text(code)
    port, text = translate(SourceFile.from_text(code, str(f)), "hip")
    assert port.ok and "ops[threadIdx.x] == ::count;" in text, text
    # Metal's port has no namespace std: left as written
    port, text = translate(SourceFile.from_text(code, str(f)), "metal")
    assert "::count" not in text
