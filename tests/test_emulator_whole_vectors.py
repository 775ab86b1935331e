"""A file's own operators on whole vector values (hecbench sobel's `float4 operator*(float4, float4)`,
radixsort Scan.h's `uint4 operator+` and `void operator+=(uint4 &a, uint4 b)` beside its own
`make_uint4(uint s)`) run on the emulator: the original as the oracle, each port (whose HIP and Metal
texts drop the definitions: their vector types have the operators built in, the backend's
`vector_operators`) component by component.  Before, `+` on whole vector values was a located
'not run' (the parser read no `operator+`), and the oracle did not run these kernels.  An operator
the table does not read (`==`) stays a located refusal."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from kernelport.verify import Verifier
from trust_support import assert_a_broken_hip_port_fails, assert_the_oracle_runs_and_ports_match

KERNEL = """#include <cuda_runtime.h>
__device__ float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
__device__ float4 operator*(float4 a, float4 b) { return make_float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w); }
__device__ float4 operator*(float s, float4 b) { return make_float4(s * b.x, s * b.y, s * b.z, s * b.w); }

__global__ void k(const float4* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float4 two = make_float4(2.f, 2.f, 2.f, 2.f);
        float4 g = two * in[i] + in[i];
        float4 h = 0.5f * g + two;
        out[i] = h.x + h.y + h.z + h.w;
    }
}

int main() {
    const int n = 256;
    float4* in; float* out;
    cudaMalloc(&in, n * sizeof(float4));
    cudaMalloc(&out, n * sizeof(float));
    k<<<n / 64, 64>>>(in, out, n);
    return 0;
}
"""

SCAN = """
inline __device__ uint4 make_uint4(unsigned int s) { return make_uint4(s, s, s, s); }
inline __device__ uint4 operator+(uint4 a, uint4 b) { return make_uint4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
inline __device__ void operator+=(uint4 &a, uint4 b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; }
__device__ float4 operator-(float4 a, float4 b) { return make_float4(a.x - b.x, 0.0f, a.z - b.z, a.w * b.w); }
__global__ void k(const unsigned int* u, unsigned int* uo, const float4* x, float4* y) {
  int i = threadIdx.x;
  uint4 d = reinterpret_cast<const uint4*>(u)[i];
  d += make_uint4(3u);
  reinterpret_cast<uint4*>(uo)[i] = d + make_uint4(1u);
  float4 a = x[i], b = x[(i + 1) % 64];
  y[i] = a - b;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_the_file_s_operators_and_its_make_uint4_overload_run(wave):
    u = np.arange(256, dtype=np.uint32)
    x = np.random.default_rng(0).uniform(-1, 1, 256).astype(np.float32)
    r = run_kernel(SCAN, "k", args={"u": u, "uo": np.zeros(256, np.uint32), "x": x, "y": np.zeros(256, np.float32)},
                   grid=(1, 1, 1), block=(64, 1, 1), wave=wave)
    assert (r.outputs["uo"] == u + 4).all()
    a = x.reshape(64, 4)
    b = np.roll(a, -1, axis=0)
    # the file's operator- is not component-wise (y: 0, w: a product): its own meaning runs
    want = np.stack([a[:, 0] - b[:, 0], 0 * a[:, 1], a[:, 2] - b[:, 2], a[:, 3] * b[:, 3]], axis=1)
    np.testing.assert_array_equal(r.outputs["y"].reshape(64, 4), want)


def test_an_operator_the_table_does_not_read_stays_a_located_refusal():
    src = SCAN.replace("y[i] = a - b;", "y[i].x = a == b;") + \
        "__device__ bool operator==(float4 a, float4 b) { return a.x == b.x; }\n"
    src = src.replace("__global__", "__device__ bool operator==(float4 a, float4 b);\n__global__")
    with pytest.raises(EmulatorError) as e:
        run_kernel(src, "k", args={"u": np.zeros(256, np.uint32), "uo": np.zeros(256, np.uint32),
                                   "x": np.zeros(256, np.float32), "y": np.zeros(256, np.float32)},
                   grid=(1, 1, 1), block=(64, 1, 1), wave=32)
    assert e.value.line == src.split("y[i].x = a == b;")[0].count("\n") + 1, e.value


def test_the_oracle_runs_and_the_ports_built_in_operators_match(tmp_path):
    f = tmp_path / "vec.cu"
    f.write_text(KERNEL)
    rep = Verifier(schedules=("block",), cache=False, timeout=60).verify(f)
    oracle = [c for c in rep.checks if c.kind == "oracle"]
    assert oracle and oracle[0].status == "pass", [c.detail for c in rep.checks]
    assert_the_oracle_runs_and_ports_match(f, backend=None)  # HIP at 32 and 64, Metal: no definitions in them


def test_a_port_that_drops_the_lanes_past_32_fails(tmp_path):
    f = tmp_path / "vec.cu"
    f.write_text(KERNEL)
    assert_a_broken_hip_port_fails(f, "out[i] = h.x + h.y + h.z + h.w;",
                                   "if (threadIdx.x % 64 < 32) out[i] = h.x + h.y + h.z + h.w;")


def test_the_file_s_overloads_of_make_float4_beside_the_built_in_one():
    # helper_math.h's make_float4(float s) and make_float4(float3 a, float w): a call with 4 scalars is
    # the built-in constructor (before: "no definition of make_float4 takes 4 arguments")
    src = """
__device__ float4 make_float4(float s) { return make_float4(s, s, s, s); }
__device__ float4 make_float4(float3 a, float w) { return make_float4(a.x, a.y, a.z, w); }
__global__ void k(const float* x, float4* y) {
  int i = threadIdx.x;
  float4 a = make_float4(x[i]);
  float4 b = make_float4(make_float3(1.0f, 2.0f, 3.0f), x[i]);
  y[i] = make_float4(a.x + b.x, a.y * b.y, b.z, b.w);
}
"""
    x = np.random.default_rng(3).uniform(-1, 1, 64).astype(np.float32)
    r = run_kernel(src, "k", args={"x": x, "y": np.zeros(256, np.float32)}, grid=(1, 1, 1), block=(64, 1, 1), wave=64)
    want = np.stack([x + 1, x * 2, np.full(64, 3, np.float32), x], axis=1)
    np.testing.assert_array_equal(r.outputs["y"].reshape(64, 4), want)
