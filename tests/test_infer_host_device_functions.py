"""A launch's size computed by a `__host__ __device__` function whose body is one `return` (oracle41):
rodinia dwt2d's `template <typename T> __device__ __host__ inline T divRndUp(const T &n, const T &d)` in
common.h, read as host code reads it.  Before, only a host-only function was read ("'divRndUp(sx, WIN_SX)'
is computed when the program runs"); a device-only function still is not (host code cannot call it)."""
from __future__ import annotations

from kernelport.infer_inputs import Inferred, NotRun, infer
from kernelport.model import build
from kernelport.source import SourceFile
from trust_support import assert_the_oracle_passes_and_catches_a_lane_hazard

SOURCE = """
template <typename T>
__device__ __host__ inline T divRndUp(const T &n, const T &d) { return (n / d) + ((n % d) ? 1 : 0); }

__global__ void lanes(const float *x, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (i % 32 < 32 ? 2.0f : -3.0f) * x[i];
}

int main() {
    int n = 1000;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    lanes<<<divRndUp(n, 128), 128>>>(x, out, n);
}
"""


def _infer(text: str):
    return infer(build(SourceFile.from_text(text, "k.cu")), "lanes")


def test_a_host_device_one_return_function_gives_the_grid():
    got = _infer(SOURCE)
    assert isinstance(got, Inferred), got
    assert got.spec.dims("grid") == (8, 1, 1), got.inferred


def test_a_device_only_function_is_not_read_by_host_code():
    got = _infer(SOURCE.replace("__device__ __host__ inline", "__device__ inline"))
    assert isinstance(got, NotRun) and "'divRndUp(n, 128)' is computed when the program runs" in got.reason, got



def test_the_oracle_runs_and_a_port_with_a_wave_64_hazard_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(SOURCE)
    assert_the_oracle_passes_and_catches_a_lane_hazard(f)
