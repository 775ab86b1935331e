"""A ladder whose every step the thread count guards (kernelport/count_guards.py), read under a test that bounds
that count by CUDA's warp, folds exactly the block's lanes in lane 0 at either width: translate keeps the wave
(HeCBench gemv's `blockDim.x <= WARP_SIZE` path, tests/test_warpflow_ladder_steps.py count_ladder).  Look-alikes
keep fold_levels' first-level fold (a KP219 here: the WARP_SIZE macro forces the wave): a bound that lets the count
pass 32, a bound on another name, a count that is not the block's, an unguarded ladder or step."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate
from test_warpflow_ladder_steps import COUNT_LADDER, TEMPLATE_LADDER

GUARDS = ("if (threadNum >= 32)\n    ", "if (threadNum >= 16)\n    ", "if (threadNum >= 8)\n    ",
          "if (threadNum >= 4)\n    ", "if (threadNum >= 2)\n    ")
BOUND = "if (blockDim.x <= WARP_SIZE) {"
EARLY = COUNT_LADDER.split("__global__")[0] + """__global__ void rowsum(const int* x, int* res) {
  int sum = warpReduceSum(x[blockIdx.x * blockDim.x + threadIdx.x], blockDim.x);
  if (blockDim.x > 32) return;  // (what follows runs in blocks of at most 32 threads)
  if (threadIdx.x == 0) res[blockIdx.x] = sum;
}
"""
LOOP = """\
__device__ float fold(float v, int n) {
  for (int o = 16; o > 0; o >>= 1)
    if (n > o) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__global__ void rowsum(const float* x, float* res) {
  float v = fold(x[blockIdx.x * blockDim.x + threadIdx.x], blockDim.x);
  if (blockDim.x < 33) res[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
"""
WAVE = {  # the port stays the wave's and computes at 64 what CUDA computes at 32
    "count_ladder": COUNT_LADDER,
    "early_return": EARLY,
    "literal_bound": COUNT_LADDER.replace(BOUND, "if (32 >= blockDim.x) {"),
    "xor_loop_every_lane": LOOP,  # an xor butterfly of the block's lanes: every lane holds the block's fold
}
REFUSED = {  # fold_levels' first-level fold stays: KP219
    "bound_past_32": COUNT_LADDER.replace(BOUND, "if (blockDim.x <= 2 * WARP_SIZE) {"),
    "bound_on_another_name": COUNT_LADDER.replace(BOUND, "if (gridDim.x <= WARP_SIZE) {"),
    "greater_than_bound": COUNT_LADDER.replace(BOUND, "if (blockDim.x >= WARP_SIZE) {"),
    "count_not_the_blocks": COUNT_LADDER.replace("warpReduceSum(sum, blockDim.x);", "warpReduceSum(sum, n);")
    .replace("int* res)", "int* res, unsigned n)").replace(BOUND, "if (n <= WARP_SIZE) {"),
    "unguarded_ladder": COUNT_LADDER.replace(GUARDS[0], "").replace(GUARDS[1], "").replace(GUARDS[2], "")
    .replace(GUARDS[3], "").replace(GUARDS[4], ""),
    "one_step_unguarded": COUNT_LADDER.replace(GUARDS[3], ""),
    "step_guarded_by_another_name": COUNT_LADDER.replace("if (threadNum >= 8)", "if (gridDim.x >= 8)"),
    "threshold_not_the_steps": COUNT_LADDER.replace("if (threadNum >= 16)", "if (threadNum >= 4)"),
}


def _port(src: str):
    return translate(SourceFile.from_text(src, "k.cu"), "hip")


def _res(src: str, block: int, wave: int, backend=None) -> list:
    ints = "int*" in src
    x = np.random.default_rng(block).integers(-9, 9, 2 * block).astype(np.int32 if ints else np.float32)
    res = np.zeros(2 * block, x.dtype)
    return run_kernel(src, "rowsum", args=dict(x=x, res=res), grid=(2,), block=(block,), wave=wave,
                      backend=backend).outputs["res"].tolist()


@pytest.mark.parametrize("name", sorted(WAVE))
def test_a_count_guarded_fold_under_a_bound_stays_wave_wide_and_computes_the_original(name):
    p, text = _port(WAVE[name])
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "warpSize / 2" in p.body and ", 32)" not in p.body, p.body
    for block in (32, 64, 128):
        assert _res(text, block, 64, "hip") == _res(WAVE[name], block, 32), block


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_fold_the_guards_do_not_bound_stays_a_first_level_fold(name):
    assert REFUSED[name] != COUNT_LADDER
    p, _ = _port(REFUSED[name])
    assert not p.ok and [d.code for d in p.diagnostics] == ["KP219"], [d.format() for d in p.diagnostics]
    assert "ladder's fold" in p.diagnostics[0].message, p.diagnostics[0].message


# a count that is not the block's (a parameter; a constant of the file): each warp's leader adds its warp's fold of
# the first n lanes; the wave port's leaders are one per 64 lanes and lanes 32..32+n have none (main: wrong at 64)
PER_WARP = COUNT_LADDER.split("__global__")[0] + """__global__ void rowsum(const int* x, int* res, unsigned n) {
  int sum = warpReduceSum(x[blockIdx.x * blockDim.x + threadIdx.x], n);
  if (threadIdx.x % 32 == 0) atomicAdd(&res[blockIdx.x], sum);
}
"""
CONST_COUNT = TEMPLATE_LADDER.replace("template <unsigned int blockSize>\n", "").replace(
    "warpReduceSum<blockSize>", "warpReduceSum").replace("__device__ float", "constexpr unsigned blockSize = 16;\n"
                                                       "__device__ float", 1).replace("reduce(", "rowsum(").replace(
    "float* out", "float* res").replace("out + blockIdx.x", "res + blockIdx.x")


@pytest.mark.parametrize("src,args", [(PER_WARP, {"n": 16}), (PER_WARP, {"n": 32}), (CONST_COUNT, {})],
                         ids=["param_16", "param_32", "file_constant"])
def test_each_warps_leader_handing_on_a_fold_of_another_count_keeps_32_lanes(src, args):
    p, text = _port(src)
    assert p.ok and "warpSize" not in p.body and ", 32)" in p.body, p.body
    dtype = np.int32 if "int*" in src else np.float32
    x = np.random.default_rng(3).integers(-9, 9, 512).astype(dtype)
    want, got = (run_kernel(s, "rowsum", args=dict(x=x, res=np.zeros(2, dtype), **args), grid=(2,), block=(256,),
                            wave=w, backend=b).outputs["res"].tolist() for s, w, b in ((src, 32, None),
                                                                                    (text, 64, "hip")))
    assert got == want


def test_a_template_count_is_not_shown_to_be_the_blocks():
    p, _ = _port(TEMPLATE_LADDER)
    assert p.ok and "__shfl_down(sum, 16, 32)" in p.body and "warpSize" not in p.body, p.body
