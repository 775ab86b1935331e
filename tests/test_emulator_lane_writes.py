"""Lanes of one store on one location (emulator.lane_writes): lanes of ONE warp of the run's wave
storing EQUAL values are one write (CUDA's SIMT rule: one lands), not a race; DIFFERENT values are a
"lane-choice" race with its own wording; lanes of different warps, or one store's value met by another
warp's store with no barrier between, stay a write-after-write race.  llm.c global_norm's norm_kernel1
(`block_result[warp.meta_group_rank()] = warp_result`) failed the race check in every port before."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel

SLOTS = r"""
__global__ void k(float* out, const float* x) {
    __shared__ float part[8];
    if (threadIdx.x < 8) part[threadIdx.x] = 0.0f;
    __syncthreads();
    float v = VALUE;
    part[SLOT] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int w = 0; w < blockDim.x / 32; ++w) s += part[w];
        out[blockIdx.x] = s;
    }
}
"""
STORE_LINE = 7


def _run(value: str, slot: str, wave: int, schedule: str, block: int = 128):
    src = SLOTS.replace("VALUE", value).replace("SLOT", slot)
    x = np.arange(2 * block, dtype=np.float32) + 1
    return run_kernel(src, "k", args=dict(out=np.zeros(2, np.float32), x=x), grid=(2, 1, 1), block=(block, 1, 1),
                      wave=wave, schedule=schedule)


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
@pytest.mark.parametrize("wave", [32, 64])
def test_one_warp_storing_one_value_to_its_slot_is_no_race(wave, schedule):
    """Every lane of a 32-lane group stores the block's value to the group's slot (at wave 64 one wave
    holds two groups, two slots): one write lands per slot, and the sum is the four slots'."""
    r = _run("x[blockIdx.x]", "threadIdx.x / 32", wave, schedule)
    assert r.races == []
    assert np.array_equal(r.outputs["out"], np.array([4.0, 8.0], np.float32))


@pytest.mark.parametrize("schedule", ["block", "warp"])
@pytest.mark.parametrize("wave", [32, 64])
def test_one_warp_storing_different_values_is_a_lane_choice_with_its_own_wording(wave, schedule):
    r = _run("x[blockIdx.x * blockDim.x + threadIdx.x]", "threadIdx.x / 32", wave, schedule)
    kinds = {x.kind for x in r.races}
    assert kinds == {"lane-choice"}, r.races
    race = r.races[0]
    assert race.buffer == "part" and race.line == race.other_line == STORE_LINE
    assert race.thread // wave == race.other_thread // wave and race.thread != race.other_thread
    assert "lane-choice" in str(race) and "which lane's lands" in str(race), str(race)


def test_the_thread_schedule_still_flags_different_values_of_one_warp():
    """Lane by lane the schedule cannot tell one store from a loop's two: a write-write race, as before."""
    r = _run("x[blockIdx.x * blockDim.x + threadIdx.x]", "threadIdx.x / 32", 32, "thread")
    assert r.races and {x.kind for x in r.races} == {"write-after-write"}


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_warps_storing_one_value_to_one_location_without_a_barrier_still_race(schedule):
    """Four warps store the same value to part[0] in one statement: four unordered writes."""
    r = _run("x[blockIdx.x]", "0", 32, schedule)
    assert r.races and {x.kind for x in r.races} == {"write-after-write"}, r.races
    assert {x.line for x in r.races} == {STORE_LINE}
    assert all(x.thread // 32 != x.other_thread // 32 for x in r.races)


@pytest.mark.parametrize("wave, racy", [(32, True), (64, False)])
def test_the_warp_is_the_wave_the_run_models(wave, racy):
    """64 threads store one value to part[0]: two warps at wave 32 (a race), one wave at 64 (one write)."""
    r = _run("x[blockIdx.x]", "0", wave, "block", block=64)
    assert bool(r.races) == racy, r.races


TWO_STORES = r"""
__global__ void k(float* out, const float* x) {
    __shared__ float s[4];
    if (threadIdx.x < 32) s[0] = x[0];
    if (threadIdx.x >= 32) s[0] = x[0];
    __syncthreads();
    out[threadIdx.x] = s[0];
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_two_warps_storing_one_value_in_two_statements_race(schedule):
    r = run_kernel(TWO_STORES, "k", args=dict(out=np.zeros(64, np.float32), x=np.ones(1, np.float32)),
                   grid=(1, 1, 1), block=(64, 1, 1), wave=32, schedule=schedule)
    assert {x.kind for x in r.races} == {"write-after-write"}, r.races
    assert {(x.line, x.other_line) for x in r.races} & {(5, 4), (4, 5)}, r.races  # (the thread schedule: both orders)


GLOBAL = r"""
__global__ void k(float* out, const float* x) {
    out[ADDRESS] = VALUE;
}
"""


@pytest.mark.parametrize("address, value, kinds", [
    ("threadIdx.x / 32", "x[blockIdx.x]", set()),  # one warp, one value: one write
    ("threadIdx.x / 32", "x[threadIdx.x]", {"lane-choice"}),  # one warp, values of its lanes
    ("0", "x[threadIdx.x / 32]", {"write-after-write"}),  # two warps, a value each
    ("0", "x[0]", set()),  # equal values across warps: global memory's rule (global_races)
])
def test_global_stores_follow_the_same_policy(address, value, kinds):
    src = GLOBAL.replace("ADDRESS", address).replace("VALUE", value)
    r = run_kernel(src, "k", args=dict(out=np.zeros(2, np.float32), x=np.arange(64, dtype=np.float32) + 1),
                   grid=(1, 1, 1), block=(64, 1, 1), wave=32, global_races=True)
    assert {x.kind for x in r.global_races} == kinds, r.global_races
    for x in r.global_races:
        assert ("lane-choice" in str(x)) == (x.kind == "lane-choice")
