"""An original whose shared-memory race crosses warps at wave 32 is no oracle: its outputs depend on
the order its warps run in, so every port would differ from it by chance (hecbench radixsort's
findRadixOffsetsK on unsorted keys: verify failed even its portable sm_80 port).  verify says so,
located, as a fault of the original on those inputs.  A race inside one warp (a warp-synchronous
reduction written for lockstep) stays the oracle."""
from __future__ import annotations

from trust_support import verify_checks

HOST = """
int main() {
  unsigned int *keys, *starts;
  cudaMalloc(&keys, 4 * 128 * sizeof(unsigned int));
  cudaMalloc(&starts, 4 * 16 * sizeof(unsigned int));
  KERNEL<<<4, 128>>>(keys, starts);
  cudaDeviceSynchronize();
  return 0;
}
"""

ACROSS = """#include <cuda_runtime.h>
__global__ void starts_of(const unsigned int* keys, unsigned int* starts) {
  __shared__ unsigned int s[16];
  __shared__ unsigned int radix[128];
  int t = threadIdx.x;
  radix[t] = keys[blockIdx.x * 128 + t] & 15;
  if (t < 16) s[t] = 0;
  __syncthreads();
  if (t > 0 && radix[t] != radix[t - 1]) s[radix[t]] = t;  // sorted keys: one writer per digit
  __syncthreads();
  if (t < 16) starts[blockIdx.x * 16 + t] = s[t];
}
""" + HOST.replace("KERNEL", "starts_of")

WITHIN = """#include <cuda_runtime.h>
__global__ void warp_sums(const unsigned int* keys, unsigned int* sums) {
  __shared__ volatile unsigned int s[128];
  int t = threadIdx.x;
  s[t] = keys[blockIdx.x * 128 + t];
  __syncthreads();
  if (t < 32) { for (int o = 16; o > 0; o >>= 1) s[t] += s[t + o]; }
  if (t == 0) sums[blockIdx.x] = s[0];
}
""" + HOST.replace("KERNEL", "warp_sums")


def _oracle(tmp_path, text):
    f = tmp_path / "k.cu"
    f.write_text(text)
    rc, checks, out = verify_checks(f)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle, out
    return oracle[0], out


def test_a_race_across_warps_is_a_located_not_run(tmp_path):
    oracle, out = _oracle(tmp_path, ACROSS)
    assert oracle["status"] == "skip", out
    assert "faults at wave 32" in oracle["detail"] and "race (write-after-write) on s[" in oracle["detail"], out
    assert f"{tmp_path / 'k.cu'}:9" in oracle["detail"], out
    assert not [line for line in out.splitlines() if line.startswith("FAIL")], out


def test_a_race_inside_one_warp_stays_the_oracle(tmp_path):
    import numpy as np
    from kernelport.emulator import run_kernel
    keys = np.arange(512, dtype=np.uint32)
    res = run_kernel(WITHIN, "warp_sums", args={"keys": keys, "sums": np.zeros(4, np.uint32)}, grid=(4, 1, 1),
                     block=(128, 1, 1), wave=32)
    assert res.races and all(r.thread // 32 == r.other_thread // 32 for r in res.races)  # raced, in one warp
    oracle, out = _oracle(tmp_path, WITHIN)
    assert oracle["status"] == "pass", out
