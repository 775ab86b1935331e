"""Write-write races on global memory (emulator.global_races): two threads of one launch that store
different values to one location with nothing ordering them (other blocks; other warps of one block
in one barrier epoch; two lanes of one store) are reported; equal values, barrier-ordered stores, a
warp's own program order and atomics are not.  An original that races so is no oracle: verify says
so, located (cuda-samples simpleD3D11Texture texture_3d on inputs whose pitch is under 4 * width)."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from trust_support import verify_checks

from kernelport.emulator import run_kernel

MODULO = r"""
__global__ void k(int* out, int m, int mul) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i % m] = (i * mul) % 7;
}
"""


def scalar_races(grid: int, block: int, m: int, mul: int, wave: int) -> bool:
    """The reference: some two threads store different values to one index and are unordered
    (other blocks, or other warps of one block: one statement, no barrier between them)."""
    writers = {}
    for i in range(grid * block):
        writers.setdefault(i % m, []).append((i // block, i % block // wave, i * mul % 7))
    return any(v1 != v2 and (b1 != b2 or w1 != w2)
               for ws in writers.values() for (b1, w1, v1), (b2, w2, v2) in itertools.combinations(ws, 2))


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("m,mul", [(256, 1), (100, 1), (64, 0), (64, 7), (96, 3), (1, 0)])
def test_stores_of_unordered_threads_race_as_a_scalar_model_says(wave, m, mul):
    res = run_kernel(MODULO, "k", args=dict(out=np.zeros(256, np.int32), m=m, mul=mul), grid=(4, 1, 1),
                     block=(64, 1, 1), wave=wave, global_races=True)
    assert bool(res.global_races) == scalar_races(4, 64, m, mul, wave), (m, mul, res.global_races)
    for r in res.global_races:
        assert r.buffer == "out" and r.kind == "write-after-write" and r.line == 4 and r.other_line == 4
        assert "global-memory race" in str(r)
    assert res.races == []  # (the shared-memory detector's list is its own)
    plain = run_kernel(MODULO, "k", args=dict(out=np.zeros(256, np.int32), m=m, mul=mul), grid=(4, 1, 1),
                       block=(64, 1, 1), wave=wave)
    assert plain.global_races == []  # (asked for only: a port's runs do not pay for the watch)


ORDERED = r"""
__global__ void k(float* out, unsigned int* count) {
    int t = threadIdx.x;
    if (t == 0) out[0] = 1.0f;
    SYNC
    if (t == 63) out[0] = 2.0f;
    if (t < 32) { out[1] = 3.0f; out[1] = t; }
    out[2] = 5.0f;
    atomicAdd(count, 1u);
    atomicExch((unsigned int*)out + 3, (unsigned int)t);
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_a_barrier_orders_one_blocks_warps_and_a_warp_its_own_statements(schedule):
    args = dict(out=np.zeros(4, np.float32), count=np.zeros(1, np.uint32))
    ok = run_kernel(ORDERED.replace("SYNC", "__syncthreads();"), "k", args=args, grid=(1, 1, 1), block=(64, 1, 1),
                    schedule=schedule, global_races=True)
    # out[1]: lanes 0..31 of one store write 0..31 (one store, lanes unordered): the only race left.
    # The thread schedule runs a warp's store lane by lane, in the warp's own order: not told apart
    one_store = [] if schedule == "thread" else [("out", 1, 7)]
    assert [(r.buffer, r.index, r.line) for r in ok.global_races] == one_store, ok.global_races
    bad = run_kernel(ORDERED.replace("SYNC", ""), "k", args=args, grid=(1, 1, 1), block=(64, 1, 1), schedule=schedule,
                     global_races=True)
    assert {(r.index, r.line, r.other_line) for r in bad.global_races} == \
        {(0, 6, 4)} | {(i, ln, ln) for _, i, ln in one_store}, bad.global_races
    race = next(r for r in bad.global_races if r.index == 0)
    assert (race.thread, race.other_thread) == (63, 0)


PER_BLOCK = r"""
__global__ void k(float* out, const float* x) {
    __shared__ float s[32];
    s[threadIdx.x] = x[blockIdx.x * 32 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[31];
    if (threadIdx.x == 0 && blockIdx.x == 2) out[0] = -1.0f;
}
"""


def test_another_block_storing_another_value_races_and_names_both_blocks():
    x = np.arange(128, dtype=np.float32)
    res = run_kernel(PER_BLOCK, "k", args=dict(out=np.zeros(4, np.float32), x=x), grid=(4, 1, 1), block=(32, 1, 1),
                     global_races=True)
    assert [(r.index, r.block, r.other_block, r.line, r.other_line) for r in res.global_races] == \
        [(0, (2, 0, 0), (0, 0, 0), 7, 6)]
    clean = run_kernel(PER_BLOCK.replace("blockIdx.x == 2", "blockIdx.x == 9"), "k",
                       args=dict(out=np.zeros(4, np.float32), x=x), grid=(4, 1, 1), block=(32, 1, 1), global_races=True)
    assert clean.global_races == []
    assert np.array_equal(clean.outputs["out"], x[0::32] + x[31::32])


PITCHED = """#include <cuda_runtime.h>
__global__ void fill(unsigned char* surface, int width, int height, size_t pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  unsigned char* pixel = surface + y * pitch + 4 * x;
  pixel[0] = (unsigned char)(x + 3 * y);
  pixel[3] = 255;
}
int main() {
  unsigned char* s;
  int width = 32, height = 32;
  size_t pitch = PITCH;
  cudaMalloc(&s, height * pitch + 4 * width);
  fill<<<dim3(2, 2), dim3(16, 16)>>>(s, width, height, pitch);
  cudaDeviceSynchronize();
  return 0;
}
"""


def test_an_original_racing_on_global_memory_is_no_oracle(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(PITCHED.replace("PITCH", "64"))  # under 4 * width: pixels of two rows share bytes
    rc, checks, out = verify_checks(f, compiles=False)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "skip", out
    assert "global-memory race" in oracle[0]["detail"] and "on surface[" in oracle[0]["detail"], out
    assert "blocks) run in" in oracle[0]["detail"], out
    f.write_text(PITCHED.replace("PITCH", "128"))
    rc, checks, out = verify_checks(f, compiles=False)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "pass", out
