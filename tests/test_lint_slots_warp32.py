"""A per-warp shared array of 32 slots indexed by a 32-lane warp index of the block (`threadIdx.x >> 5`)
and read at a lane bounded through its thread index holds at 64 (issue 11, stop 49: tests/labelled26).

Apache Mahout's block reductions (amplitude.cu before 33b316715d) keep `__shared__ double shared[32]`,
store at `warp_id = threadIdx.x >> 5` and read `(threadIdx.x < (blockDim.x + warpSize - 1) / warpSize)
? shared[lane] : 0.0` with `lane = threadIdx.x & (warpSize - 1)`.  The wave-64 fix changed the `>> 5`
(WS003) and kept the 32 slots: `>> 5` of a thread index is at most 1024 / 32 = 32 on any wave, and a lane
is never above the thread index it is taken from, so `threadIdx.x < nwarps` bounds it as `lane < nwarps`
does.  WS011 flagged the 32 and WS016 named it as the function's hardcoded wave width; both now stay
silent on it while the `>> 5` keeps WS003 and becomes WS016's site.  Each look-alike has a near case
that must still flag: the read unbounded, a bound on another index, a global warp index."""
from __future__ import annotations

from kernelport.lint import engine

BLOCK_SUM = """\
__device__ double warp_sum(double v) {
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffffffffffull, v, o);
    return v;
}
__device__ double block_sum(double val) {
    __shared__ double shared[32];
    int lane = threadIdx.x & (warpSize - 1);
    int warp_id = WARP;
    val = warp_sum(val);
    if (lane == 0) shared[warp_id] = val;
    __syncthreads();
    val = READ;
    if (warp_id == 0) val = warp_sum(val);
    return val;
}
__global__ void k(const double* x, double* out) {
    double s = block_sum(x[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}
void run(const double* x, double* out, int n) { k<<<n / 256, 256>>>(x, out); }
"""
BOUNDED = "(threadIdx.x < (blockDim.x + warpSize - 1) / warpSize) ? shared[lane] : 0.0"


def _codes(text: str) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for f in engine.lint_text(text, "k.cu"):
        out.setdefault(f.line, set()).add(f.code)
    return out


def _src(warp: str = "threadIdx.x >> 5", read: str = BOUNDED) -> str:
    return BLOCK_SUM.replace("WARP", warp).replace("READ", read)


def test_32_slots_at_a_32_lane_warp_index_read_under_a_thread_index_bound_hold_at_64():
    got = _codes(_src())
    assert "WS011" not in got.get(6, set()) and "WS016" not in got.get(6, set()), got
    assert {"WS003", "WS016"} <= got.get(8, set()), got  # the `>> 5` itself: the wave-64 hazard the fix changed


def test_the_same_slots_read_at_an_unbounded_lane_flag():
    got = _codes(_src(read="shared[lane]"))
    assert "WS011" in got.get(6, set()), got


def test_a_bound_on_another_index_does_not_bound_the_lane():
    got = _codes(_src(read="(threadIdx.y < (blockDim.x + warpSize - 1) / warpSize) ? shared[lane] : 0.0"))
    assert "WS011" in got.get(6, set()), got


def test_a_portable_warp_index_keeps_the_function_silent():
    got = _codes(_src(warp="threadIdx.x / warpSize"))
    assert not any(c.startswith("WS0") and c != "WS007" for cs in got.values() for c in cs), got


def test_a_warp_index_past_the_block_is_not_bounded_by_32():
    got = _codes(_src(warp="(blockIdx.x * blockDim.x + threadIdx.x) >> 5"))
    assert "WS011" in got.get(6, set()) or "WS016" in got.get(6, set()), got
