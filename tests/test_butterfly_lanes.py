"""An xor butterfly over 32 lanes whose fold every lane keeps keeps CUDA's 32-lane groups in the port
(kernelport/butterfly_lanes.py, read by warpwidth.py as code evidence).  Found while checking the
splatting-style warp patterns of the thirty-sixth held-out set's domain (the cases are synthetic):
translate widened `for (m = 16; ...) v += __shfl_xor_sync(full, v, m); out[i] = v;` to the wave, and
the emulator gave out[0] = -21.0 at wave 64 where CUDA gives -2.0 (each lane held a 64-lane sum)."""
from __future__ import annotations

from port_support import ported

EVERY = """\
__global__ void row_sum(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  for (int m = 16; m >= 1; m /= 2) v += __shfl_xor_sync(0xffffffff, v, m);
  if (i < n) out[i] = v;
}
"""
NORMALISE = """\
__global__ void normalise(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = i < n ? in[i] : 0.f;
  float s = x * x;
  s += __shfl_xor_sync(0xffffffff, s, 16);
  s += __shfl_xor_sync(0xffffffff, s, 8);
  s += __shfl_xor_sync(0xffffffff, s, 4);
  s += __shfl_xor_sync(0xffffffff, s, 2);
  s += __shfl_xor_sync(0xffffffff, s, 1);
  if (i < n) out[i] = x / sqrtf(s);
}
"""
ATOMIC = """\
__global__ void spread(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
  atomicAdd(out + (i % 7), v);
}
"""
LEADER = """\
__global__ void total(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  for (int m = 16; m >= 1; m /= 2) v += __shfl_xor_sync(0xffffffff, v, m);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
"""


def hip(code: str) -> str:
    return ported(code, dedent=False)[0].body


def test_every_lane_storing_the_fold_keeps_32_lanes():
    body = hip(EVERY)
    assert "for (int m = 16; m >= 1; m /= 2) v += __shfl_xor(v, m, 32);" in body
    assert "warpSize" not in body


def test_an_unrolled_butterfly_read_by_every_lane_keeps_32_lanes():
    body = hip(NORMALISE)
    assert "s += __shfl_xor(s, 16, 32);" in body and "s += __shfl_xor(s, 1, 32);" in body
    assert "__shfl_xor(s, 32" not in body  # no extra step for a 64-lane wave


def test_every_lane_adding_the_fold_atomically_keeps_32_lanes():
    assert "v += __shfl_xor(v, m, 32);" in hip(ATOMIC)


def test_a_leader_handing_the_fold_on_still_takes_the_wave():
    """One lane per warp adds its warp's fold: the total is the same at either width, so the port
    keeps the wave rewrite (ladder from warpSize / 2, the leader test by the wave)."""
    body = hip(LEADER)
    assert "for (int m = warpSize / 2; m >= 1; m /= 2) v += __shfl_xor(v, m);" in body
    assert "(threadIdx.x & (warpSize - 1)) == 0" in body


# A `__shfl_down_sync` ladder leaves partial folds in lanes 1-31 whose spans depend on the width; a
# helper returning its ladder's fold makes its call a fold in the caller (hip47's open shapes, stop 47).
DOWN_EVERY = """\
__global__ void row_partials(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  if (i < n) out[i] = v;
}
"""
HELPER_EVERY = """\
__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__global__ void per_lane(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = warp_sum(x[i]);
}
"""
HELPER_VARIABLE = HELPER_EVERY.replace("  y[i] = warp_sum(x[i]);", "  float s = warp_sum(x[i]);\n  y[i] = x[i] / s;")
HELPER_LEADER = HELPER_EVERY.replace("  y[i] = warp_sum(x[i]);",
                                     "  float s = warp_sum(x[i]);\n  if ((threadIdx.x & 31) == 0) atomicAdd(y, s);")


def test_a_down_ladder_every_lane_stores_keeps_32_lanes():
    body = hip(DOWN_EVERY)
    assert "__shfl_down(v, o, 32)" in body and "warpSize" not in body


def test_a_helper_returning_its_fold_stored_by_every_lane_keeps_32_lanes():
    for code in (HELPER_EVERY, HELPER_VARIABLE):
        body = hip(code)
        assert "__shfl_down(v, o, 32)" in body and "warpSize" not in body, body


def test_a_helper_fold_a_leader_stores_keeps_the_wave_rewrite():
    body = hip(HELPER_LEADER)
    assert "warpSize" in body and ", 32)" not in body, body
