"""The rest of the emulator's warp module: bit intrinsics (popc/ffs/clz/brev, 32- and 64-bit),
SIMD-group reductions with their error bound, lane masks given as signed or 64-bit values, and
per-warp masks that name inactive lanes — each against a plain-Python model."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

SCHEDULES = ("block", "warp", "thread")

BITS = r"""
__global__ void k(const unsigned* x, const unsigned long long* y, int* o, unsigned* ub) {
    int t = threadIdx.x;
    unsigned v = x[t];
    unsigned long long w = y[t];
    o[8 * t + 0] = __popc(v);
    o[8 * t + 1] = __ffs((int)v);
    o[8 * t + 2] = __clz((int)v);
    o[8 * t + 3] = __popcll(w);
    o[8 * t + 4] = __ffsll((long long)w);
    o[8 * t + 5] = __clzll((long long)w);
    o[8 * t + 6] = __popc((unsigned)w);   // C converts: the high word is gone
    o[8 * t + 7] = 0;
    ub[t] = __brev(v);
}
"""


def _ffs(x, bits):
    return 0 if x == 0 else (x & -x).bit_length()


def _clz(x, bits):
    return bits - x.bit_length()


def _brev(x):
    return int(f"{x:032b}"[::-1], 2)


def test_bit_intrinsics_32_and_64():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 2 ** 32, 64, dtype=np.uint64).astype(np.uint32)
    y = rng.integers(0, 2 ** 63, 64, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, 64).astype(np.uint64)
    x[:6] = [0, 1, 0x80000000, 0xffffffff, 0x00010000, 0x80000001]
    y[:6] = [0, 1, 1 << 63, (1 << 64) - 1, 1 << 40, (1 << 32) | 1]
    r = run_kernel(BITS, "k", args=dict(x=x, y=y, o=np.zeros(512, np.int32), ub=np.zeros(64, np.uint32)),
                   grid=(1,), block=(64,))
    o = r.outputs["o"].reshape(64, 8)
    for t in range(64):
        a, b = int(x[t]), int(y[t])
        want = [bin(a).count("1"), _ffs(a, 32), _clz(a, 32), bin(b).count("1"), _ffs(b, 64), _clz(b, 64),
                bin(b & 0xffffffff).count("1"), 0]
        assert list(o[t]) == want, (t, hex(a), hex(b))
        assert int(r.outputs["ub"][t]) == _brev(a), hex(a)


REDUCE = r"""
#include <metal_stdlib>
using namespace metal;
kernel void k(const device float* x [[buffer(0)]], const device int* xi [[buffer(1)]],
              const device int* act [[buffer(2)]], device float* s [[buffer(3)]], device float* mx [[buffer(4)]],
              device float* mn [[buffer(5)]], device int* imx [[buffer(6)]], device int* imn [[buffer(7)]],
              device int* isum [[buffer(8)]], uint3 tid [[thread_position_in_threadgroup]])
{
    int t = tid.x;
    if (act[t]) {
        float v = x[t];
        s[t] = simd_sum(v);
        mx[t] = simd_max(v);
        mn[t] = simd_min(v);
        imx[t] = simd_max(xi[t]);
        imn[t] = simd_min(xi[t]);
        isum[t] = simd_sum(xi[t]);
    }
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("wave", [32, 64])
def test_simd_reductions_over_active_lanes_with_their_bound(schedule, wave):
    rng = np.random.default_rng(wave)
    n = 128
    x = rng.uniform(-1, 1, n).astype(np.float32)
    xi = rng.integers(-1000, 1000, n).astype(np.int32)
    act = (rng.random(n) < 0.6).astype(np.int32)
    act[:wave] = 1
    z = np.zeros(n, np.float32)
    zi = np.zeros(n, np.int32)
    r = run_kernel(REDUCE, "k", args=dict(x=x, xi=xi, act=act, s=z, mx=z, mn=z, imx=zi, imn=zi, isum=zi),
                   grid=(1,), block=(n,), wave=wave, backend="metal", schedule=schedule)
    out, bounds = r.outputs, r.bounds
    u = 2.0 ** -24
    for w0 in range(0, n, wave):
        lanes = [t for t in range(w0, w0 + wave) if act[t]]
        vals = x[lanes].astype(np.float64)
        k = len(lanes)
        gamma = (k - 1) * u / (1 - (k - 1) * u)
        for t in lanes:
            assert abs(out["s"][t] - vals.sum()) <= bounds["s"][t] + u * abs(vals.sum())
            # the bound is the one a k-term sum in any order earns, plus the final rounding
            assert bounds["s"][t] == pytest.approx(gamma * np.abs(vals).sum(), rel=1e-6)
            assert out["mx"][t] == x[lanes].max() and out["mn"][t] == x[lanes].min()
            assert out["imx"][t] == xi[lanes].max() and out["imn"][t] == xi[lanes].min()
            assert out["isum"][t] == xi[lanes].sum()


MASKS = r"""
__global__ void k(const int* x, unsigned long long* o) {
    int t = threadIdx.x;
    int lane = t % warpSize;
    o[t] = 7;
    if (lane < LIMIT) o[t] = __ballot_sync(MASK, x[t] > 0);
}
"""


def _masks(limit, mask):
    return MASKS.replace("LIMIT", str(limit)).replace("MASK", mask)


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_signed_full_mask_is_32_lanes(schedule):
    # -1 as an int mask is 32 ones (C converts it at its own width), not 64
    x = np.ones(32, np.int32)
    r = run_kernel(_masks(32, "-1"), "k", args=dict(x=x, o=np.zeros(32, np.uint64)), grid=(1,), block=(32,),
                   wave=32, schedule=schedule)
    assert [int(v) for v in r.outputs["o"]] == [0xffffffff] * 32


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_64_bit_mask_naming_the_upper_half(schedule):
    src = MASKS.replace("if (lane < LIMIT)", "if (lane >= 32)").replace("MASK", "0xffffffff00000000ull")
    x = np.ones(64, np.int32)
    x[40] = 0
    r = run_kernel(src, "k", args=dict(x=x, o=np.zeros(64, np.uint64)), grid=(1,), block=(64,), wave=64,
                   schedule=schedule)
    want = 0xffffffff00000000 & ~(1 << 40)
    assert [int(v) for v in r.outputs["o"]] == [7] * 32 + [want] * 32
    assert r.diagnostics == []


def test_mask_beyond_the_wave_in_a_partial_warp():
    with pytest.raises(EmulatorError, match=r"names lanes 32,34 beyond the wave of 32"):
        run_kernel(_masks(16, "0x50000ffffull"), "k", args=dict(x=np.ones(32, np.int32), o=np.zeros(32, np.uint64)),
                   grid=(1,), block=(32,), wave=32)


def test_per_warp_masks_naming_inactive_lanes():
    """A mask that differs from warp to warp (here by warp index) is checked warp by warp."""
    src = MASKS.replace("if (lane < LIMIT)", "if (lane < 8)").replace(
        "MASK", "(t < 32 ? 0xffu : 0xfffu)")
    with pytest.raises(EmulatorError, match=r"names inactive lanes 8-11"):
        run_kernel(src, "k", args=dict(x=np.ones(64, np.int32), o=np.zeros(64, np.uint64)), grid=(1,), block=(64,),
                   wave=32)
    ok = MASKS.replace("if (lane < LIMIT)", "if (lane < (t < 32 ? 8 : 12))").replace(
        "MASK", "(t < 32 ? 0xffu : 0xfffu)")
    r = run_kernel(ok, "k", args=dict(x=np.ones(64, np.int32), o=np.zeros(64, np.uint64)), grid=(1,), block=(64,),
                   wave=32)
    assert [int(v) for v in r.outputs["o"]] == [0xff] * 8 + [7] * 24 + [0xfff] * 12 + [7] * 20


def test_a_mask_naming_lanes_beyond_the_wave_reports_those_lanes():
    from kernelport.emulator.warp import check_mask

    active = np.ones(64, bool)
    bad, beyond, unnamed = check_mask(np.uint64((1 << 40) | (1 << 33) | 0xffffffff), active, 32)
    assert list(beyond) == [33, 40] and bad.size == 0 and unnamed.size == 0
    bad, beyond, unnamed = check_mask(np.uint64(0xffff), active, 32)   # half the lanes, none beyond
    assert list(beyond) == [] and list(unnamed) == list(range(16, 32))



def test_a_mask_leaving_out_active_lanes_of_a_partial_warp_names_those_lanes():
    """Two warps of 32, lane 5 of the first inactive: a mask of lanes 0-15 leaves out the active
    lanes 16-31 (of either warp: lanes, not warps, are named) and names the inactive lane 5."""
    from kernelport.emulator.warp import check_mask

    active = np.ones(64, bool)
    active[5] = False
    bad, beyond, unnamed = check_mask(np.uint64(0xffff), active, 32)
    assert list(unnamed) == list(range(16, 32)) and list(bad) == [5] and beyond == []


@pytest.mark.parametrize("all_active", [True, False])
def test_a_mask_naming_the_last_lane_of_64_beyond_a_wave_of_32_reports_it(all_active):
    """Bit 63, the top of a 64-bit mask, is lane 63: beyond a wave of 32 whether every lane is
    active (the common path) or some are not."""
    from kernelport.emulator.warp import check_mask

    active = np.ones(64, bool)
    active[5] = all_active
    bad, beyond, _ = check_mask(np.uint64((1 << 63) | (1 << 32) | 0xffffffff), active, 32)
    assert list(beyond) == [32, 63]
    assert list(bad) == ([] if all_active else [5])


@pytest.mark.parametrize("lanemask", [32, 48, 63])
def test_a_shuffle_xor_partner_beyond_the_wave_reads_its_own_lane(lanemask):
    """__shfl_xor_sync with a lane mask of 32 or more on a 32-wide warp: the partner lane does not
    exist, and each lane gets its own value (the CUDA Guide's out-of-range rule)."""
    from kernelport.emulator.warp import shuffle

    v = np.arange(64, dtype=np.float32)
    partial = np.ones(64, bool)
    partial[5] = False   # the gather path as well as the all-active one
    for active in (np.ones(64, bool), partial):
        out, _ = shuffle("xor", v, lanemask, None, active, 32)
        assert np.array_equal(out[active], v[active])


@pytest.mark.parametrize("k", [1, 2, 5, 6, 32])
@pytest.mark.parametrize("dtype, u", [(np.float32, 2.0 ** -24), (np.float64, 2.0 ** -53)])
def test_simd_sum_bound_is_gamma_of_k_minus_1_to_the_last_bit(k, dtype, u):
    """Higham's gamma(k-1) = (k-1)u / (1 - (k-1)u) for k active lanes, as the float64 value the
    formula gives (a denominator off by 2u, (k+1) for (k-1), is a different bound); one active
    lane adds nothing, so its sum is exact (bound 0)."""
    from kernelport.emulator import warp

    W = 32
    x = np.linspace(-3, 5, W).astype(dtype)
    active = np.zeros(W, bool)
    active[:k] = True
    _, err = warp.reduce("sum", (x, None), active, W)
    g = (k - 1) * u / (1 - (k - 1) * u)
    want = g * np.abs(x[:k].astype(np.float64)).sum()
    assert err.shape == (W,) and np.all(err == err[0])
    assert err[0] == pytest.approx(want, rel=1e-14, abs=0)


@pytest.mark.parametrize("op", ["sum", "max", "min"])
def test_simd_reduction_bound_carries_the_active_operands_bounds(op):
    """Operands that carry an error bound (earlier rounded results): a sum's bound adds theirs over
    the active lanes to its own rounding; max / min return one operand, so the largest of theirs.
    An inactive lane's bound is no part of either."""
    from kernelport.emulator import warp

    W, k, u = 32, 6, 2.0 ** -24
    x = np.linspace(-3, 5, W).astype(np.float32)
    e = np.linspace(1e-6, 32e-6, W)  # the largest bounds are the inactive lanes'
    active = np.zeros(W, bool)
    active[:k] = True
    _, err = warp.reduce(op, (x, e), active, W)
    own = (k - 1) * u / (1 - (k - 1) * u) * np.abs(x[:k].astype(np.float64)).sum() if op == "sum" else 0.0
    want = own + (e[:k].sum() if op == "sum" else e[:k].max())
    assert err.shape == (W,) and err[0] == pytest.approx(want, rel=1e-12) and np.all(err == err[0])


SHFL_WIDTH = """__global__ void k(const float* x, const int* wd, float* out) {
    out[threadIdx.x] = __shfl_sync(0xffffffff, x[threadIdx.x], 40, WIDTH);
}
"""


@pytest.mark.parametrize("given", [64, 24, 10, 0])  # (10: no two adjacent bits set)
def test_a_shuffle_width_that_is_no_segment_is_the_wave_whether_uniform_or_per_lane(given):
    """A width beyond the wave, not a power of two, or 0 is read as the whole wave: lane 40 % 32 = 8.
    The same width read per lane from memory (one value each lane) gives the same lane (it read the
    wave's last lane, 31, once)."""
    x = np.arange(32, dtype=np.float32)
    args = dict(x=x, wd=np.full(32, given, np.int32), out=np.zeros(32, np.float32))
    for width in (str(given), "wd[threadIdx.x]"):
        r = run_kernel(SHFL_WIDTH.replace("WIDTH", width), "k", args=args, grid=(1,), block=(32,), wave=32)
        assert np.all(r.outputs["out"] == 8.0), (width, r.outputs["out"])


def test_simd_reduction_of_a_bool_value_is_refused():
    from kernelport.emulator import warp

    with pytest.raises(ValueError, match="simd_sum of bool"):
        warp.reduce("sum", (np.ones(32, bool), None), np.ones(32, bool), 32)


@pytest.mark.parametrize("dtype, a, b", [(np.uint32, 2, 9), (np.int32, -9, -2), (np.int64, -9, -2)])
@pytest.mark.parametrize("op", ["max", "min", "sum"])
def test_simd_reduction_of_integer_lanes_reads_only_the_active_ones(op, dtype, a, b):
    """Inactive lanes hold 0 and the type's extremes, all beyond the two active lanes' values a < b
    (both negative for a signed type): none takes part (max starts from the type's least value,
    min from its largest)."""
    from kernelport.emulator import warp

    info = np.iinfo(dtype)
    x = np.zeros(32, dtype)
    x[1], x[2] = info.max, info.min
    x[3], x[4] = a, b
    active = np.zeros(32, bool)
    active[3:5] = True
    out, bound = warp.reduce(op, (x, None), active, 32)
    want = {"max": b, "min": a, "sum": a + b}[op]
    assert out.dtype == dtype and np.all(out == want) and bound is None


def test_simd_max_of_floats_without_operand_bounds_has_none():
    from kernelport.emulator import warp

    x = np.linspace(-1, 1, 64).astype(np.float32)
    out, bound = warp.reduce("max", (x, None), np.ones(64, bool), 32)
    assert bound is None and out[0] == x[31] and out[32] == x[63]


def test_bit_reverse_of_a_uniform_value_is_one_scalar():
    from kernelport.emulator import warp

    r = warp.brev(np.uint32(1))
    assert isinstance(r, np.uint32) and int(r) == 0x80000000
    assert list(warp.brev(np.array([1, 0x80000000, 6], np.uint32))) == [0x80000000, 1, 0x60000000]


BALLOT_WIDTH = r"""
__global__ void k(const int* x, int* all_yes, unsigned long long* inverted) {
    int t = threadIdx.x;
    all_yes[t] = ~__ballot_sync(0xffffffff, x[t] > 0) == 0;
    inverted[t] = ~__ballot_sync(0xffffffff, x[t] > 0);
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_a_ballot_mask_at_wave_32_is_an_unsigned_int(schedule):
    """CUDA's __ballot_sync returns unsigned int: at wave 32 with every lane voting yes, ~ballot is 0
    (a 64-bit result would keep 32 upper ones); the one lane voting no is its only bit."""
    x = np.ones(32, np.int32)
    x[7] = 0
    r = run_kernel(BALLOT_WIDTH, "k", args=dict(x=np.ones(32, np.int32), all_yes=np.zeros(32, np.int32),
                                                inverted=np.zeros(32, np.uint64)), grid=(1,), block=(32,), wave=32,
                   schedule=schedule)
    assert list(r.outputs["all_yes"]) == [1] * 32 and not r.outputs["inverted"].any()
    r = run_kernel(BALLOT_WIDTH, "k", args=dict(x=x, all_yes=np.zeros(32, np.int32), inverted=np.zeros(32, np.uint64)),
                   grid=(1,), block=(32,), wave=32, schedule=schedule)
    assert list(r.outputs["all_yes"]) == [0] * 32 and [int(v) for v in r.outputs["inverted"]] == [1 << 7] * 32


@pytest.mark.parametrize("value", [7.0, np.float32(7), np.array(7.0, np.float32)])
def test_a_shuffle_of_a_uniform_value_returns_it_as_it_is(value):
    """A Python number, a numpy scalar or a 0-d array is the same in every lane: any shuffle of
    it is that value, and no lane reads an inactive one."""
    from kernelport.emulator import warp

    active = np.ones(64, bool)
    active[3] = False
    for kind in ("idx", "up", "down", "xor"):
        out, reads_inactive = warp.shuffle(kind, value, 1, None, active, 32)
        assert out is value and reads_inactive is None
