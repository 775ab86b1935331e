"""A launch that passes the kernel's arguments as an array of their addresses (`void *args[] = {&d_in, &d_out,
&n}; cudaLaunchCooperativeKernel((void *)k, grid, block, args, 0, 0)`, heldout58 sync-ubench's grid_reduction.cu;
cudaLaunchKernel and HIP's alike): the arguments are the variables the array's initialiser takes the addresses
of (launchforms' arg_array).  Before, "the launch passes 0 arguments to 3 parameters".  Look-alikes: an array
whose elements are not `&x` (a pointer held elsewhere), or one declared after the launch, stays not run."""
from __future__ import annotations

import pytest

from kernelport.infer_inputs import Inferred, NotRun, infer
from kernelport.model import build
from kernelport.source import SourceFile

HOST = """
__global__ void scale(const float *in, float *out, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * in[i];
}
int main() {
    unsigned int n = 4096;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    void *kargs[] = {(void **)&d_in, (void *)&d_out, &n};
    LAUNCH((void *)scale, n / 256, 256, kargs, 0, 0);
}
"""


def _infer(text):
    return infer(build(SourceFile.from_text(text, "k.cu")), "scale")


@pytest.mark.parametrize("launch", ["cudaLaunchCooperativeKernel", "cudaLaunchKernel"])
def test_an_array_of_argument_addresses_gives_the_arguments(launch):
    got = _infer(HOST.replace("LAUNCH", launch))
    assert isinstance(got, Inferred), got
    s = got.spec
    assert s.dims("grid") == (16, 1, 1) and s.dims("block") == (256, 1, 1)
    assert s.length("in") == 4096 and s.length("out") == 4096 and s.scalar_values()["n"] == 4096


@pytest.mark.parametrize("change", [("{(void **)&d_in, (void *)&d_out, &n}", "{(void **)&d_in, (void *)d_out, &n}"),
                                    ("    void *kargs[] = {(void **)&d_in, (void *)&d_out, &n};\n", "")])
def test_other_arrays_stay_not_run(change):
    text = HOST.replace("LAUNCH", "cudaLaunchCooperativeKernel").replace(*change)
    if not change[1]:
        text = text.replace("0, 0);\n", "0, 0);\n    void *kargs[] = {(void **)&d_in, (void *)&d_out, &n};\n")
    got = _infer(text)
    assert isinstance(got, NotRun) and "passes 0 arguments to 3 parameters" in got.reason, got
