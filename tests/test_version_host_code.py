"""A test of the CUDA toolkit's version in code one of nvcc's passes compiles alone (cuda-samples'
threadFenceReduction.cu: `main()` keeps `#if CUDART_VERSION >= 2020 / runTest / #else / "CUDA 2.2 is required",
exit / #endif`).  nvcc defines CUDART_VERSION on both passes; hipcc on neither, so a HIP port that kept the test
took the `#else` in host code (the sample printed that the compiler is not supported and exited) and in a
kernel's body (kernelport/version_branches.py evaluated it only where both passes compile the code).  Now it is
evaluated with the CUDA backend's toolkit_versions wherever it stands.  Look-alikes: a version the build gives
(-D) or that the unit defines itself, a test that also reads a name the unit does not decide, and a host-only
`#if __CUDA_ARCH__` keep their reading."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles
from port_support import ported

HOST = """\
#include <cstdio>
#include <cstdlib>
bool runTest() { return true; }
int main(int argc, char **argv)
{
    bool ok = false;
#if CUDART_VERSION >= 2020
    ok = runTest();
#else
    printf("CUDA 2.2 is required\\n");
    exit(EXIT_SUCCESS);
#endif
    return ok ? 0 : 1;
}
"""

KERNEL = """\
__global__ void k(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
#if CUDART_VERSION >= 11000
    out[i] = x[i] * 3.0f;
#elif CUDART_VERSION >= 9000
    out[i] = x[i] * 2.0f;
#else
    out[i] = x[i];
#endif
}
"""


def test_a_host_only_functions_version_test_takes_the_toolkits_branch(tmp_path):
    port, out = ported(HOST, dedent=False)
    assert "    ok = runTest();\n    return ok ? 0 : 1;" in port.body, port.body
    assert "CUDART_VERSION" not in port.body and "2.2 is required" not in port.body
    hip_compiles(tmp_path, out)


def test_the_threadfencereduction_sample_runs_its_test_on_hip():
    from pathlib import Path
    path = Path(__file__).parent / "realcorpus/cuda-samples/Samples/2_Concepts_and_Techniques/threadFenceReduction"
    port, _ = translate(SourceFile.read(str(path / "threadFenceReduction.cu")), "hip")
    assert "    bTestResult = runTest(argc, argv);\n" in port.body
    assert "#if CUDART_VERSION >= 2020" not in port.body and "print_NVCC_min_spec" not in port.body


@pytest.mark.parametrize("wave", [32, 64])
def test_a_kernels_version_test_computes_what_the_original_computes(wave):
    port, out = ported(KERNEL, dedent=False)
    assert "out[i] = x[i] * 3.0f;" in port.body and "CUDART_VERSION" not in port.body
    x = np.random.default_rng(54).uniform(-1, 1, 300).astype(np.float32)
    args = {"x": x, "out": np.zeros(300, np.float32), "n": 300}
    want = run_kernel(KERNEL, "k", args=dict(args), grid=(2, 1, 1), block=(256, 1, 1), wave=32).outputs["out"]
    got = run_kernel(out, "k", args=dict(args), grid=(2, 1, 1), block=(256, 1, 1), wave=wave, backend="hip").outputs["out"]
    assert np.allclose(want, x * 3.0) and np.array_equal(got, want)


@pytest.mark.parametrize("text, options, kept", [
    (HOST, {"defines": [("CUDART_VERSION", "1000")]}, "#if CUDART_VERSION >= 2020"),  # the build gives the version
    (HOST.replace("CUDART_VERSION >= 2020", "CUDART_VERSION >= 2020 && defined(USE_TEST)"), {},
     "#if CUDART_VERSION >= 2020 && defined(USE_TEST)"),  # a name the unit does not decide
    (HOST.replace("CUDART_VERSION >= 2020", "__CUDA_ARCH__ >= 700"), {}, "#if __CUDA_ARCH__ >= 700"),  # host pass only
])
def test_look_alikes_keep_their_conditional(text, options, kept):
    port, _ = ported(text, dedent=False, **options)
    assert kept in port.body and "#else" in port.body and "2.2 is required" in port.body, port.body


def test_a_version_the_unit_defines_itself_keeps_the_conditional():
    """`#define CUDART_VERSION 1000` in the user's own code: nvcc reads it after the toolkit's, hipcc reads it
    too, so the test keeps its text (on main the toolkit's value took the branch nvcc does not)."""
    port, _ = ported("#define CUDART_VERSION 1000\n" + HOST, dedent=False)
    assert "#if CUDART_VERSION >= 2020" in port.body and "2.2 is required" in port.body
    scale = ("#define CUDART_VERSION 9500\n#if CUDART_VERSION >= 11000\n#define SCALE 3.0f\n#else\n#define SCALE 2.0f\n"
             "#endif\n__global__ void k(float *out) { out[threadIdx.x] *= SCALE; }\n")
    port, _ = ported(scale, dedent=False)  # file scope, both passes: on main CUDA 13's value took SCALE 3.0f, nvcc reads 2.0f
    assert "#if CUDART_VERSION >= 11000" in port.body and "#define SCALE 2.0f" in port.body


def test_a_fallback_definition_no_nvcc_pass_compiles_leaves_the_toolkits_value():
    """`#ifndef CUDART_VERSION / #define CUDART_VERSION 1000 / #endif` (a header's fallback for a compiler that
    defines none): nvcc's toolkit defines the name, so it reads CUDA's value; hipcc would read 1000."""
    port, _ = ported("#ifndef CUDART_VERSION\n#define CUDART_VERSION 1000\n#endif\n" + HOST, dedent=False)
    assert "ok = runTest();" in port.body and "2.2 is required" not in port.body
