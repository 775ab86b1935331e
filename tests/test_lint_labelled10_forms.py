"""Lint behaviours designed on tests/labelled10 (qiskit-aer's statevector reductions before its ROCm
port), each with a case it must flag and a look-alike it must not:

- a shuffle ladder over width-32 segments whose extent is the wave width (`nw = min(blockDim.x,
  warpSize)`, `nw = warpSize`, `o = warpSize / 2`): WS026 at the `warpSize` that sets it, and at a
  block stage chosen by `blockDim.x > warpSize` in the same function; a ladder bounded by 32 (a
  32-lane logical group) and a `warpSize` ladder shuffling at `warpSize` stay silent;
- a slot count that rounds by the wave and divides by 32 (`(blockDim.x + warpSize - 1) >> 5`):
  WS027; rounding and dividing by one width stays silent;
- a 32-lane group's index broadcast from lane 0 of the whole warp (deepmd-kit's
  `__shfl_sync(0xffffffff, thread_idx / WARP_SIZE, 0)` with `WARP_SIZE` 32): WS028; the same at
  width 32, a group index of the wave, and lane 0's data broadcast stay silent.

The set's own check that needs none of its projects' files (they are not committed: its README) is
here too; tests/local_labelled10.py lints them, run by hand after
`python scripts/labelled_sources.py tests/labelled10`.  Lint's figure before any change made for
the set is bench/lint_recall_labelled10_before.txt."""
from __future__ import annotations

from pathlib import Path

from labelled_support import assert_sourced_without_code, claims_by_line

# qiskit-aer's dev_reduce_sum at d656553c57^, reduced (tests/labelled10 labels its lines).
REDUCE = """\
__global__ void reduce_sum(double* buf, unsigned long n) {
  __shared__ double cache[32];
  double sum;
  unsigned long i, j, nw;
  i = threadIdx.x + blockIdx.x * blockDim.x;
  sum = i < n ? buf[i] : 0.0;
  nw = min(blockDim.x, warpSize);
  for (j = 1; j < nw; j *= 2) {
    sum += __shfl_xor_sync(0xffffffff, sum, j, 32);
  }
  if (blockDim.x > warpSize) {
    if ((threadIdx.x & 31) == 0) {
      cache[(threadIdx.x >> 5)] = sum;
    }
    __syncthreads();
    if (threadIdx.x < 32) {
      if (threadIdx.x < ((blockDim.x + warpSize - 1) >> 5))
        sum = cache[threadIdx.x];
      else
        sum = 0.0;
      nw = warpSize;
      for (j = 1; j < nw; j *= 2) {
        sum += __shfl_xor_sync(0xffffffff, sum, j, 32);
      }
    }
  }
  if (threadIdx.x == 0) buf[blockIdx.x] = sum;
}
"""


def test_a_width_32_ladder_stepped_to_the_wave_width_and_its_block_test_are_flagged():
    got = claims_by_line(REDUCE)
    for line in (7, 11, 21):  # nw = min(blockDim.x, warpSize); blockDim.x > warpSize; nw = warpSize
        assert "WS026" in got.get(line, set()), (line, got)
    assert "WS027" in got.get(17, set()), got  # (blockDim.x + warpSize - 1) >> 5
    for line in (12, 13, 16):  # the 32-lane slots agree with the width-32 shuffles: no new claim
        assert not got.get(line, set()) & {"WS026", "WS027"}, (line, got)


def test_the_same_reduction_at_one_width_is_quiet():
    logical = REDUCE.replace("min(blockDim.x, warpSize)", "min(blockDim.x, 32)").replace(
        "nw = warpSize;", "nw = 32;").replace("blockDim.x > warpSize", "blockDim.x > 32").replace(
        "blockDim.x + warpSize - 1", "blockDim.x + 31")
    got = claims_by_line(logical)
    assert not any(c in ("WS026", "WS027") for cs in got.values() for c in cs), got
    wave = claims_by_line(REDUCE.replace("j, 32);", "j, warpSize);"))  # qiskit-aer's dev_reduce_sum_uint
    assert not any("WS026" in cs for cs in wave.values()), wave
    assert "WS027" in wave.get(17, set()), wave  # its slot count still mixes the widths


def test_a_halving_ladder_from_half_the_wave_over_narrow_shuffles_is_flagged():
    text = """\
__device__ float seg_sum(float v) {
    for (int o = warpSize / 2; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o, 16);
    return v;
}
__device__ float seg_sum16(float v) {
    for (int o = 8; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffff, v, o, 16);
    return v;
}
"""
    got = claims_by_line(text)
    assert "WS026" in got.get(2, set()) and "WS026" not in got.get(7, set()), got


def test_a_ladder_from_the_wave_that_stays_inside_the_segment_at_64_is_quiet():
    text = """\
__device__ float quarter(float v) {
    for (int j = 1; j < warpSize / 4; j *= 2) v += __shfl_xor_sync(0xffffffff, v, j, 32);
    for (int o = warpSize / 8; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, 16);
    for (int j = 1; j < warpSize / 2; j *= 2) v += __shfl_xor_sync(0xffffffff, v, j, 16);
    return v;
}
"""
    got = claims_by_line(text)  # at 64: offsets up to 8 of 32, from 8 of 16; the third reaches 16 of 16
    assert "WS026" not in got.get(2, set()) | got.get(3, set()) and "WS026" in got.get(4, set()), got


def test_a_block_test_against_the_wave_alone_is_no_finding():
    text = """\
__global__ void k(float* x) {
    float v = x[threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, 32);
    if (blockDim.x > warpSize && threadIdx.x == 0) x[blockIdx.x] = v;
}
"""
    assert not any("WS026" in cs for cs in claims_by_line(text).values())


def test_rounding_by_31_and_dividing_by_the_wave_is_flagged_too():
    text = """\
__global__ void k(int* x, int n) {
    if (threadIdx.x < (n + 31) / warpSize) x[threadIdx.x] = 0;
    if (threadIdx.x < (n + warpSize - 1) / warpSize) x[threadIdx.x] = 1;
}
"""
    got = claims_by_line(text)
    assert "WS027" in got.get(2, set()) and "WS027" not in got.get(3, set()), got


def test_every_label_names_a_source_and_quotes_no_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled10")


def test_a_32_lane_group_index_broadcast_from_lane_0_is_flagged():
    text = """\
#define WARP_SIZE 32
#define KTILE 4
__global__ void grad(const float* dy, float* out, int nnei, int last) {
  const int thread_idx = threadIdx.x;
  int warp_idx = __shfl(thread_idx / WARP_SIZE, 0);
  int lane_idx = thread_idx % WARP_SIZE;
  for (int ii = warp_idx; ii < nnei; ii += KTILE) {
    float s = 0.f;
    for (int jj = lane_idx; jj < last; jj += WARP_SIZE) s += dy[ii * last + jj];
    if (lane_idx == 0) out[blockIdx.x * nnei + ii] = s;
  }
}
"""
    assert "WS028" in claims_by_line(text, "t.hip").get(5, set())
    quiet = [text.replace("__shfl(thread_idx / WARP_SIZE, 0)", "__shfl(thread_idx / WARP_SIZE, 0, 32)"),
             text.replace("__shfl(thread_idx / WARP_SIZE, 0)", "__shfl(thread_idx / warpSize, 0)"),
             text.replace("__shfl(thread_idx / WARP_SIZE, 0)", "__shfl(dy[thread_idx] / 32, 0)")]
    for q in quiet:
        assert not any("WS028" in cs for cs in claims_by_line(q, "t.hip").values()), q
