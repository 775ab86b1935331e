"""Constant memory the host fills (`__constant__ float3 c[2];` + cudaMemcpyToSymbol) on the
emulator: vector-typed file-scope variables are rows of scalars; the oracle gives host-filled
float constants seeded data and every port the original's contents (as its own variable or as a
Metal buffer parameter), so a port is compared on the values the original saw."""
from __future__ import annotations

import json

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.model import build
from kernelport.source import SourceFile
from kernelport.verify_oracle import host_filled
from trust_support import kp_inproc

SRC = """
__constant__ float3 c3[2];
__constant__ float w[4];
__constant__ int table[4] = {1, 2, 3, 4};
__global__ void k(float* out) { int i = threadIdx.x; out[i] = w[i] + c3[1].y + table[i]; }
"""


def _run(**kw):
    return run_kernel(SRC, "k", args={"out": np.zeros(4, np.float32)}, grid=(1, 1, 1), block=(4, 1, 1), **kw)


def test_a_vector_typed_constant_is_a_row_of_scalars_zero_until_filled():
    r = _run()
    assert r.outputs["out"].tolist() == [1, 2, 3, 4] and r.globals["c3"].shape == (6,)


def test_generated_constants_are_seeded_data_and_a_port_given_them_sees_the_same():
    r = _run(generate={"c3", "w", "table"}, seed=3)
    w, c3 = r.globals["w"], r.globals["c3"]
    assert np.all(np.abs(w) <= 1) and np.any(w != 0) and r.globals["table"].tolist() == [1, 2, 3, 4]  # ints stay
    assert np.allclose(r.outputs["out"], w + c3[4] + np.arange(1, 5), atol=1e-6)
    again = _run(file_scope=r.globals)  # another run (a port) with the original's contents
    assert again.outputs["out"].tolist() == r.outputs["out"].tolist()
    other = _run(generate={"w"}, seed=4)  # another seed, other data
    assert other.globals["w"].tolist() != w.tolist()


def test_only_uninitialised_constant_memory_is_host_filled():
    m = build(SourceFile.from_text(SRC + "__device__ float scratch[4];\nstatic const float k2 = 2;\n", "k.cu"))
    assert host_filled(m) == {"c3", "w"}


HOST = """
__constant__ float2 coef[2];
__global__ void scale(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * coef[i % 2].x + coef[i % 2].y;
}
int main() {
    int n = 256;
    float2 h[2] = {{1, 2}, {3, 4}};
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMemcpyToSymbol(coef, h, sizeof(h));
    scale<<<n / 64, 64>>>(b, a, n);
    return 0;
}
"""


def test_every_port_sees_the_constants_the_original_saw(tmp_path):
    f = tmp_path / "scale.cu"
    f.write_text(HOST)
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--format", "json", "--no-cache")
    checks = json.loads(out)[0]["checks"]
    numeric = [c for c in checks if c["kind"] == "numeric"]
    assert numeric and all(c["status"] == "pass" for c in numeric), checks
    assert len({c["backend"] for c in numeric}) >= 2  # HIP's own variable and Metal's buffer parameter
