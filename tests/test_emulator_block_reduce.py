"""cub's BlockReduce over the whole block on the emulator (hecbench's all-pairs-distance k3 and gd's
update: `typedef cub::BlockReduce<int, THREADS> BR; __shared__ typename BR::TempStorage t;
BR(t).Sum(v)`), the HIP port's hipcub:: spelling the same: before, "Missing type in declaration" and
verify's oracle did not run the original.  Look-alikes: a reduction with an operator object of the
file's own, and BlockScan, are left as written and refused at their lines."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from trust_support import assert_a_broken_hip_port_fails, assert_the_oracle_runs_and_ports_match

KERNEL = """#include <cub/cub.cuh>
#define THREADS 128
template <typename T>
__device__ void BlockReduce(T &input) {
  typedef cub::BlockReduce<T, THREADS> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  input = BlockReduce(temp_storage).Sum(input);
}
__global__ void k(const float* x, float* out, int* cnt) {
  typedef cub::BlockReduce<float, THREADS> BR;
  __shared__ typename BR::TempStorage t;
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  float s = BR(t).Sum(v);
  __syncthreads();
  float m = BR(t).Reduce(v, cub::Max());
  __syncthreads();
  float p = BR(t).Reduce(v, cub::Min(), 10);
  int c = v > 0.0f;
  BlockReduce(c);
  if (threadIdx.x == 0) { out[3 * blockIdx.x] = s; out[3 * blockIdx.x + 1] = m; out[3 * blockIdx.x + 2] = p; cnt[blockIdx.x] = c; }
}
"""


def _run(src=KERNEL, wave=32, backend=None):
    x = np.random.default_rng(0).uniform(-1, 1, 256).astype(np.float32)
    res = run_kernel(src, "k", args={"x": x, "out": np.zeros(6, np.float32), "cnt": np.zeros(2, np.int32)},
                     grid=(2, 1, 1), block=(128, 1, 1), wave=wave, backend=backend)
    return x.reshape(2, 128), res.outputs["out"].reshape(2, 3), res.outputs["cnt"]


@pytest.mark.parametrize("wave", [32, 64])
def test_sum_max_and_a_partial_min_over_the_block(wave):
    x, out, cnt = _run(wave=wave)
    np.testing.assert_allclose(out[:, 0], x.sum(axis=1), rtol=1e-5)
    np.testing.assert_array_equal(out[:, 1], x.max(axis=1))
    np.testing.assert_array_equal(out[:, 2], x[:, :10].min(axis=1))
    assert cnt.tolist() == (x > 0).sum(axis=1).tolist()


def test_a_hip_port_spells_it_hipcub():
    src = KERNEL.replace("cub::", "hipcub::").replace("cub/cub.cuh", "hipcub/hipcub.hpp")
    assert np.array_equal(_run(src, backend="hip")[1], _run()[1])


def test_an_operator_object_of_the_file_is_refused_at_its_line():
    src = "struct MyMax { int n; };\n" + KERNEL.replace("cub::Max()", "MyMax()")
    with pytest.raises(EmulatorError) as e:
        _run(src)
    assert e.value.line == src.split("MyMax()")[0].count("\n") + 1, e.value


def test_block_scan_is_refused_at_its_line():
    scan = "typedef cub::BlockScan<float, THREADS> BS;"
    src = KERNEL.replace("typedef cub::BlockReduce<float, THREADS> BR;", scan)
    with pytest.raises(EmulatorError) as e:
        _run(src)
    assert e.value.line == src.split(scan)[0].count("\n") + 1, e.value


FILE = """#include <cub/cub.cuh>
#include <cuda_runtime.h>

__global__ void row_sums(const float* x, float* sums, int n) {
  typedef cub::BlockReduce<float, 256> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  float v = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) v += x[blockIdx.x * n + i];
  float s = BlockReduce(temp).Sum(v);
  if (threadIdx.x == 0) sums[blockIdx.x] = s;
}

int main() {
  int rows = 32, n = 1000;
  float *x, *sums;
  cudaMalloc(&x, rows * n * sizeof(float));
  cudaMalloc(&sums, rows * sizeof(float));
  row_sums<<<rows, 256>>>(x, sums, n);
  cudaDeviceSynchronize();
  return 0;
}
"""


def test_the_oracle_runs_and_a_wrong_port_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(FILE)
    assert_the_oracle_runs_and_ports_match(f)
    # the port's lanes past 32 of a 64-lane wave leave their partial sums out
    assert_a_broken_hip_port_fails(f, "float s = BlockReduce(temp).Sum(v);",
                                   "float s = BlockReduce(temp).Sum(threadIdx.x % 64 < 32 ? v : 0.0f);")


EVERY_THREAD = """#include <cub/cub.cuh>
__global__ void k(const float* x, float* out, int* cnt) {
  typedef cub::BlockReduce<float, 64> BR;
  typedef cub::BlockReduce<int, 64> BI;
  __shared__ typename BR::TempStorage t;
  __shared__ typename BI::TempStorage ti;
  float s = BR(t).Sum(x[threadIdx.x]);
  int c = BI(ti).Sum(1);
  out[threadIdx.x] = s;
  cnt[threadIdx.x] = c;
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_only_thread_0_holds_the_aggregate_the_others_a_poison(wave):
    # cub defines the aggregate in thread 0 only: before, every thread had it, so a port reading it
    # elsewhere matched the original.  A NaN for a floating T, 0xDEADBEEF's bits for an integer one.
    x = np.random.default_rng(1).uniform(-1, 1, 64).astype(np.float32)
    res = run_kernel(EVERY_THREAD, "k", args={"x": x, "out": np.zeros(64, np.float32), "cnt": np.zeros(64, np.int32)},
                     grid=(1, 1, 1), block=(64, 1, 1), wave=wave)
    out, cnt = res.outputs["out"], res.outputs["cnt"]
    np.testing.assert_allclose(out[0], x.sum(), rtol=1e-5)
    assert cnt[0] == 64
    assert np.isnan(out[1:]).all()
    assert (cnt[1:] == np.int32(-559038737)).all() and np.uint32(cnt[1]) == 0xDEADBEEF


def test_a_port_reading_the_aggregate_in_the_wave_s_last_lane_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(FILE)
    # the original stores thread 0's aggregate; the port moves the store to the wave's last lane (31 or 63),
    # where cub leaves the aggregate undefined: before, the emulator gave it the total and verify passed it
    assert_a_broken_hip_port_fails(f, "if (threadIdx.x == 0) sums[blockIdx.x] = s;",
                                   "if (threadIdx.x == warpSize - 1) sums[blockIdx.x] = s;")
