"""verify runs a port whose by-value parameter the body changes (hecbench mriQ's `kGlobalIndex++`): Metal binds it
as `constant int& kp_kGlobalIndex [[buffer(1)]]` and copies it to the `int kGlobalIndex` the body changes; the
emulator bound the port's parameters by name and failed the port ("no value for kernel argument
`kp_kGlobalIndex`", where the port also passes a file-scope `__constant__` array as an argument) although
the port computes what the original does.  The parameter is now the original's at
its place, as the port's host binds it by index.  Look-alike: a port whose parameter is only read keeps its name
(no copy), and a wrong value at that place still fails the comparison (test_emulator's binding by name)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.verify import Verifier

KERNEL = """\
__constant__ float w[4];
__global__ void q(const float* x, float* out, int base, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    base++;
    out[i] = x[i] * (float)base + w[i % 4];
}
int main() {
    int n = 256;
    float *x, *out, h[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpyToSymbol(w, h, 4 * sizeof(float));
    q<<<2, 128>>>(x, out, 3, n);
    return 0;
}
"""

PORT = """\
#include <metal_stdlib>
using namespace metal;
kernel void q(device const float* x [[buffer(0)]], device float* out [[buffer(1)]],
              constant int& kp_base [[buffer(2)]], constant int& n [[buffer(3)]],
              uint3 tid [[thread_position_in_threadgroup]], uint3 bid [[threadgroup_position_in_grid]],
              uint3 bdim [[threads_per_threadgroup]]) {
    int base = kp_base;
    int i = bid.x * bdim.x + tid.x;
    if (i >= n) return;
    base++;
    out[i] = x[i] * (float)base;
}
"""


def test_a_copied_argument_of_a_port_is_the_original_s_at_its_place(tmp_path):
    f = tmp_path / "q.cu"
    f.write_text(KERNEL)
    rep = Verifier(cache=False, oracle="original").verify(Path(f))
    metal = [c for c in rep.checks if c.kind == "numeric" and c.backend == "metal"]
    assert metal and all(c.status == "pass" for c in metal), [(c.status, c.detail) for c in metal]


def test_binding_by_place_gives_the_original_s_value_and_only_where_the_name_is_missing():
    x = np.arange(8, dtype=np.float32)
    args = {"x": x, "out": np.zeros(8, np.float32), "base": 3, "n": 8}
    got = run_kernel(PORT, "q", args=args, grid=(1, 1, 1), block=(8, 1, 1), backend="metal",
                     arg_order=("x", "out", "base", "n")).outputs["out"]
    np.testing.assert_array_equal(got, x * 4)
    named = run_kernel(PORT, "q", args={**args, "kp_base": 9}, grid=(1, 1, 1), block=(8, 1, 1), backend="metal",
                       arg_order=("x", "out", "base", "n")).outputs["out"]
    np.testing.assert_array_equal(named, x * 10)  # a value given by the port's own name is that value
