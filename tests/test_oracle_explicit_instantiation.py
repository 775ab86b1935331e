"""verify's oracle for a kernel launched inside a host function template that no call in the project
instantiates, only an explicit instantiation (`template void launch<float>(...);`, cuda-gemm-
optimization's launch_gemm_kernel_v00..v07): the template argument is read from the first, said in
the notes, the same for the original and every port; and the
emulator reads C++11's list-initialisation (`size_t const i{...};`) those kernels are written in."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.infer_inputs import Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile
from trust_support import assert_a_broken_hip_port_fails, verify_checks

FILE = """#include <cuda_fp16.h>
template <typename T>
__global__ void axpby(size_t n, T alpha, T const* x, T beta, T* y)
{
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = alpha * x[i] + beta * y[i];
}

template <typename T>
void launch_axpby(size_t n, T const* alpha, T const* x, T const* beta, T* y, cudaStream_t stream)
{
    dim3 const block_dim(128U);
    dim3 const grid_dim((static_cast<unsigned int>(n) + block_dim.x - 1U) / block_dim.x);
    axpby<T><<<grid_dim, block_dim, 0U, stream>>>(n, *alpha, x, *beta, y);
}

{instantiations}
"""
HALF = "template void launch_axpby<__half>(size_t n, __half const* alpha, __half const* x, __half const* beta, __half* y, cudaStream_t stream);\n"
FLOAT = "template void launch_axpby<float>(size_t n, float const* alpha, float const* x, float const* beta, float* y, cudaStream_t stream);\n"
DEDUCED = "template void launch_axpby(size_t n, double const* alpha, double const* x, double const* beta, double* y, cudaStream_t stream);\n"


def _infer(text):
    return infer(build(SourceFile.from_text(text, "k.cu")), "axpby")


def test_the_template_argument_of_an_explicit_instantiation():
    got = _infer(FILE.replace("{instantiations}", FLOAT + HALF))
    assert isinstance(got, Inferred), got
    assert [t.text for t in got.spec.instantiate] == ["<float>"]
    assert any("explicitly instantiated at k.cu:17" in line for line in got.inferred), got.inferred
    assert got.spec.args["x"].type == "float" and got.spec.args["y"].role == "inout"


def test_an_instantiation_whose_arguments_are_deduced():
    got = _infer(FILE.replace("{instantiations}", DEDUCED))
    assert isinstance(got, Inferred) and [t.text for t in got.spec.instantiate] == ["<double>"], got


def test_look_alikes_give_no_template_argument():
    # another function's instantiation, a declaration that is not one: still left to deduction
    other = "template void launch_other<float>(float* y);\ntemplate <typename T> void launch_axpby(int);\n"
    got = _infer(FILE.replace("{instantiations}", other))
    assert not isinstance(got, Inferred) and "T" in got.reason, got


def test_the_oracle_runs_and_a_wrong_port_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(FILE.replace("{instantiations}", FLOAT))
    rc, checks, text = verify_checks(f)
    assert rc == 0, text
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "pass" and "explicitly instantiated" in oracle[0]["detail"], text
    ports = [c for c in checks if c["kind"] == "numeric"]
    assert ports and all(c["status"] == "pass" for c in ports) and {c["wave"] for c in ports} == {32, 64}
    assert_a_broken_hip_port_fails(f, "if (i < n) y[i]", "if (i < n && i % 64 < 32) y[i]")


BRACED = """struct Pair { float a; float b; };
__global__ void k(float* y, int n) {
    size_t const i{blockIdx.x * blockDim.x + threadIdx.x};
    float sum{0.5f};
    Pair p{};
    for (int j{0}; j < n; ++j) { sum += 1.0f; }
    if (i < 4) { y[i] = sum + p.a + p.b; }
}
"""


def test_the_emulator_reads_list_initialisation():
    r = run_kernel(BRACED, "k", args=dict(y=np.zeros(4, np.float32), n=np.int32(3)), grid=(1,), block=(4,))
    assert list(r.outputs["y"]) == [3.5] * 4  # the struct's definition is a body, not an initialiser
