"""Which launch of a kernel inference reads, and dim3 sizes passed through functions (issue 18):
a launch under an `if` host code's known values rule out is skipped; a dim3 parameter is the
caller's argument; a dim3 component only the run gives is chosen (its declared value first)."""
from __future__ import annotations

from kernelport.infer_inputs import CommandLine, Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile

MATMUL = """
template <int BLOCK> __global__ void mm(float* C, const float* A, const float* B, int wA, int wB) {
    __shared__ float As[BLOCK][BLOCK];
    int tx = threadIdx.x, ty = threadIdx.y;
    As[ty][tx] = A[ty * wA + tx];
    __syncthreads();
    C[(blockIdx.y * BLOCK + ty) * wB + blockIdx.x * BLOCK + tx] = As[tx][ty] + B[tx];
}
int run(int block_size, const dim3 &dimsA, const dim3 &dimsB) {
    unsigned int size_A = dimsA.x * dimsA.y, size_B = dimsB.x * dimsB.y;
    float *d_A, *d_B, *d_C;
    cudaMalloc(reinterpret_cast<void **>(&d_A), size_A * sizeof(float));
    cudaMalloc(reinterpret_cast<void **>(&d_B), size_B * sizeof(float));
    cudaMalloc(reinterpret_cast<void **>(&d_C), dimsB.x * dimsA.y * sizeof(float));
    cudaMemcpyAsync(d_A, 0, size_A * sizeof(float), cudaMemcpyHostToDevice, 0);
    cudaMemsetAsync(d_C, 0, dimsB.x * dimsA.y * sizeof(float), 0);
    dim3 threads(block_size, block_size);
    dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
    if (block_size == 16) {
        mm<16><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
    } else {
        mm<32><<<grid, threads>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);
    }
    return 0;
}
int main(int argc, char **argv) {
    int block_size = 32;
    dim3 dimsA(5 * 2 * block_size, 5 * 2 * block_size, 1);
    dim3 dimsB(5 * 4 * block_size, 5 * 2 * block_size, 1);
    if (argc > 2) dimsA.x = atoi(argv[2]);
    return run(block_size, dimsA, dimsB);
}
"""


def _infer(text: str, given: CommandLine | None = None):
    return infer(build(SourceFile.from_text(text, "k.cu")), "mm", given=given)


def test_a_launch_host_code_rules_out_is_skipped_and_dim3_parameters_are_the_callers():
    got = _infer(MATMUL)
    assert isinstance(got, Inferred), got
    s = got.spec
    assert s.instantiate[0].text == "<32>" and s.dims("block") == (32, 32, 1)  # block_size is 32: not <16>
    wA, wB = s.scalar_values()["wA"], s.scalar_values()["wB"]
    assert s.dims("grid")[:2] == (wB // 32, 320 // 32) and wB == 640  # dimsB through `const dim3 &`
    # dimsA.x is argv's when argc > 2: chosen, as its declared value; one value for the scalar and A.
    assert list(got.chosen) == ["dimsA.x"] and wA == 320 and s.length("A") == wA * 320
    assert any(line.startswith("dimsA.x = 320 chosen (") and "its value before" in line for line in got.inferred)
    # reinterpret_cast<void **>(&d_C) allocates d_C; cudaMemsetAsync fills it: C is read and written.
    assert s.args["C"].role == "inout" and s.args["C"].generator.kind == "constant"
    assert s.length("C") == wB * 320


def test_a_launch_an_unknown_condition_guards_is_kept_and_a_component_can_be_given():
    got = _infer(MATMUL.replace("if (block_size == 16)", "if (argc == 16)"))
    assert isinstance(got, Inferred) and got.spec.instantiate[0].text == "<16>", got  # nothing rules it out
    got = _infer(MATMUL, CommandLine.parse(["dimsA.x=64"]))
    assert isinstance(got, Inferred) and got.spec.scalar_values()["wA"] == 64 and not got.chosen, got


def test_every_launch_ruled_out_reads_the_first():
    got = _infer(MATMUL.replace("int block_size = 32;", "int block_size = 8;").replace("} else {", "} if (0) {"))
    assert isinstance(got, Inferred) and got.spec.instantiate[0].text == "<16>", got


def test_a_field_only_the_run_sets_is_chosen_as_its_declared_integer_type(tmp_path):
    from kernelport.project import Project
    # The struct lives in a header; a call the run makes (a file reader) fills A.
    (tmp_path / "data.h").write_text("struct Data {\n  long nz;\n  int m;\n  float scale;\n};\n")
    (tmp_path / "main.cu").write_text("""
#include "data.h"
__global__ void twice(float* x, int n, float s) { int i = blockIdx.x * 256 + threadIdx.x; if (i < n) x[i] *= s; }
int main(int argc, char** argv) {
    Data A;
    load(A, argv[1]);
    const int m = A.m;
    float* d;
    cudaMalloc(&d, m * sizeof(float));
    twice<<<(m + 255) / 256, 256>>>(d, m, A.scale);
}
""")
    m = Project().module(tmp_path / "main.cu")
    got = infer(m, "twice")
    assert isinstance(got, Inferred), got
    assert list(got.chosen) == ["A.m"] and got.spec.scalar_values()["n"] == got.spec.length("x") == 1024
    assert any(line.startswith("A.m = 1024 chosen ('A.m' has no value") and "--arg A.m=VALUE" in line
               for line in got.inferred), got.inferred
    got = infer(m, "twice", given=CommandLine.parse(["A.m=96"]))
    assert isinstance(got, Inferred) and got.spec.length("x") == 96 and not got.chosen, got
    # A float field is data, never a size to choose: a size read from it stays not run.
    (tmp_path / "main.cu").write_text((tmp_path / "main.cu").read_text().replace("const int m = A.m;",
                                                                                "const int m = A.scale;"))
    got = infer(Project().module(tmp_path / "main.cu"), "twice")
    assert not isinstance(got, Inferred) and "'A.scale'" in got.reason and not got.chosen, got
