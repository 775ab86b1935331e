"""An unrolled shuffle ladder's steps keep their own literals: the test that guards a step
(`if (n >= 32) v += __shfl_down_sync(m, v, 16)`, a scan's `if (lane >= 16) v += y`) compares with
the step's delta or twice it, not with the wave width.  The HIP port keeps those steps as written
and gains one at 32 whose thresholds double (`n >= 64`); a step split over statements is copied
whole.  Each kernel's port, run at wave 64, must compute what the original computes at wave 32
(HeCBench gemv's warpReduceSum over a thread count was wrong at 16 warps of 64 lanes)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

# HeCBench gemv's helper: a ladder over a COUNT of threads (blockDim.x, then blockDim.x / 32 warps).
COUNT_LADDER = r"""
#define WARP_SIZE 32
__device__ __forceinline__ int warpReduceSum(int sum, unsigned int threadNum) {
  if (threadNum >= 32)
    sum += __shfl_down_sync(0xffffffff, sum, 16);
  if (threadNum >= 16)
    sum += __shfl_down_sync(0xffffffff, sum, 8);
  if (threadNum >= 8)
    sum += __shfl_down_sync(0xffffffff, sum, 4);
  if (threadNum >= 4)
    sum += __shfl_down_sync(0xffffffff, sum, 2);
  if (threadNum >= 2)
    sum += __shfl_down_sync(0xffffffff, sum, 1);
  return sum;
}
__global__ void rowsum(const int* x, int* res) {
  int sum = x[blockIdx.x * blockDim.x + threadIdx.x];
  sum = warpReduceSum(sum, blockDim.x);
  if (blockDim.x <= WARP_SIZE) {
    if (threadIdx.x == 0) res[blockIdx.x] = sum;
    return;
  }
  __shared__ int warpLevelSums[WARP_SIZE];
  const int laneId = threadIdx.x % WARP_SIZE;
  const int warpId = threadIdx.x / WARP_SIZE;
  if (laneId == 0) warpLevelSums[warpId] = sum;
  __syncthreads();
  sum = (threadIdx.x < blockDim.x / WARP_SIZE) ? warpLevelSums[laneId] : 0;
  if (warpId == 0) sum = warpReduceSum(sum, blockDim.x / WARP_SIZE);
  if (threadIdx.x == 0) res[blockIdx.x] = sum;
}
"""

# A block scan whose warp steps are split: the shuffle, then the lane test that guards its use.
SPLIT_SCAN = r"""
__global__ void scan(const int* x, int* res) {
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  int y;
  y = __shfl_up_sync(0xffffffff, v, 1);
  if (lane >= 1) v += y;
  y = __shfl_up_sync(0xffffffff, v, 2);
  if (lane >= 2) v += y;
  y = __shfl_up_sync(0xffffffff, v, 4);
  if (lane >= 4) v += y;
  y = __shfl_up_sync(0xffffffff, v, 8);
  if (lane >= 8) v += y;
  y = __shfl_up_sync(0xffffffff, v, 16);
  if (lane >= 16) v += y;
  __shared__ int tot[32];
  if (lane == 31) tot[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int w = 0; w < blockDim.x / 32; w++) { int t = tot[w]; tot[w] = s; s += t; }
  }
  __syncthreads();
  res[blockIdx.x * blockDim.x + threadIdx.x] = v + tot[warp];
}
"""

# A split reduction step with no guard: the copy of its shuffle alone would be a dead store.
SPLIT_SUM = r"""
__global__ void total(const int* x, int* res) {
  int v = x[blockIdx.x * blockDim.x + threadIdx.x];
  int y;
  y = __shfl_down_sync(0xffffffff, v, 16);
  v += y;
  y = __shfl_down_sync(0xffffffff, v, 8);
  v += y;
  y = __shfl_down_sync(0xffffffff, v, 4);
  v += y;
  y = __shfl_down_sync(0xffffffff, v, 2);
  v += y;
  y = __shfl_down_sync(0xffffffff, v, 1);
  v += y;
  if (threadIdx.x % 32 == 0) atomicAdd(&res[blockIdx.x], v);
}
"""


def port(src: str):
    return translate(SourceFile.from_text(src, "k.cu"), "hip")[0]


def _run(src: str, kernel: str, block: int, wave: int, backend=None, per_thread=False):
    x = np.random.default_rng(block).integers(-100, 100, 2 * block).astype(np.int32)
    res = np.zeros(2 * block if per_thread else 2, np.int32)
    r = run_kernel(src, kernel, args=dict(x=x, res=res), grid=(2,), block=(block,), wave=wave, backend=backend)
    return r.outputs["res"]


@pytest.mark.parametrize("src,kernel,per_thread,blocks", [
    (COUNT_LADDER, "rowsum", False, (32, 64, 256, 1024)),  # (the count guards: kernelport/count_guards.py)
    (SPLIT_SCAN, "scan", True, (64, 1024)),
    (SPLIT_SUM, "total", False, (64, 256)),
], ids=["count_ladder", "split_scan", "split_sum"])
def test_port_at_64_computes_the_original_at_32(src, kernel, per_thread, blocks):
    p, text = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert p.ok, p.diagnostics
    for block in blocks:
        want = _run(src, kernel, block, 32, per_thread=per_thread)
        got = _run(text, kernel, block, 64, backend="hip", per_thread=per_thread)
        assert got.tolist() == want.tolist(), (block, p.body)


def test_count_ladder_keeps_its_thresholds_and_doubles_the_wide_steps():
    body = port(COUNT_LADDER).body
    for t in (32, 16, 8, 4, 2):
        assert f"if (threadNum >= {t})" in body, body
    assert "if (warpSize > 32 && (threadNum >= 64)) sum += __shfl_down(sum, warpSize / 2);" in body, body
    assert "threadNum >= warpSize" not in body and "threadNum >= (warpSize / 2)" not in body, body


def test_split_step_is_copied_whole_with_its_lane_test_doubled():
    body = port(SPLIT_SCAN).body
    assert "if (warpSize > 32) { y = __shfl_up(v, warpSize / 2);\n    if (lane >= 32) v += y; }" in body, body
    assert "if (lane >= 16) v += y;" in body and "int lane = threadIdx.x % warpSize;" in body, body


def test_lane_test_not_tied_to_its_step_is_still_a_half_warp():
    """Look-alike: `lane >= 16` over the use of a step at 2 is a half-warp test (not 2 or 4): it is
    rewritten as before."""
    src = SPLIT_SCAN.replace("if (lane >= 2) v += y;", "if (lane >= 16) v += y;")
    body = port(src).body
    assert "y = __shfl_up(v, 2);\n  if (lane >= (warpSize / 2)) v += y;" in body, body


def test_split_step_whose_use_is_not_next_is_refused_at_its_line():
    src = SPLIT_SUM.replace("  y = __shfl_down_sync(0xffffffff, v, 16);\n  v += y;",
                            "  y = __shfl_down_sync(0xffffffff, v, 16);\n  res[2] = 0;\n  v += y;")
    p = port(src)
    assert not p.ok
    d = [d for d in p.diagnostics if d.code == "KP205"]
    assert len(d) == 1 and d[0].location.line == 5 and "stores its shuffle in 'y'" in d[0].message, p.diagnostics


TEMPLATE_LADDER = r"""
template <unsigned int blockSize>
__device__ float warpReduceSum(float sum) {
    if (blockSize >= 32) sum += __shfl_down_sync(0xffffffff, sum, 16);
    if (blockSize >= 16) sum += __shfl_down_sync(0xffffffff, sum, 8);
    if (blockSize >= 8) sum += __shfl_down_sync(0xffffffff, sum, 4);
    if (blockSize >= 4) sum += __shfl_down_sync(0xffffffff, sum, 2);
    if (blockSize >= 2) sum += __shfl_down_sync(0xffffffff, sum, 1);
    return sum;
}
template <unsigned int blockSize>
__global__ void reduce(const float* x, float* out) {
    float s = warpReduceSum<blockSize>(x[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % 32 == 0) atomicAdd(out + blockIdx.x, s);
}
"""
# (each warp's leader adds its fold to the block's total, which the wave port keeps right.  Until stop 48 thread 0
#  alone stored its warp's fold, `if (threadIdx.x == 0) out[blockIdx.x] = s;`: one 32-lane warp's sum in CUDA, a
#  64-lane wave's in the wave port: fold_levels now keeps 32 lanes there, so the shape moved to a total.)


def test_wide_step_under_a_template_count_is_taken_from_64_values():
    """optimize-in-gpu's reduce_v7: the count is a template parameter (no dataflow fact at all);
    the step at 32 still needs blockSize >= 64, else a 32-thread block reads lanes it does not have.
    Re-pinned in stop 49 (h/hip49): the kernel is annotated `// @kp warp-width native`.  Unannotated, a fold
    whose count is not shown to be the block's thread count now keeps 32-lane groups where each warp's leader
    hands it on (kernelport/count_guards.py: with blockSize 16 in a block of 256 the wave port drops lanes
    32-47's fold, which has no leader at 64; tests/test_count_guards.py)."""
    body = port(TEMPLATE_LADDER.replace("template <unsigned int blockSize>\n__global__",
                                        "// @kp warp-width native\ntemplate <unsigned int blockSize>\n__global__")).body
    assert "{ if (warpSize > 32 && (blockSize >= 64)) sum += __shfl_down(sum, warpSize / 2);" in body, body


def test_guard_that_is_not_the_steps_threshold_is_not_doubled():
    """Look-alike: `n > 100` guards the step at 16 but is not its threshold (16 or 32): the wide
    step gets only the wave test, under the same guard."""
    body = port(TEMPLATE_LADDER.replace("blockSize >= 32", "blockSize > 100")).body
    assert "if (blockSize > 100) { if (warpSize > 32) sum += __shfl_down(sum, warpSize / 2);" in body, body
