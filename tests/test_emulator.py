"""SIMT emulator: correctness, wave-width hazards, schedules, errors with original lines."""
from __future__ import annotations

import re

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

RNG = np.random.default_rng(1234)


def line_of(src: str, needle: str) -> int:
    for k, ln in enumerate(src.split("\n"), 1):
        if needle in ln:
            return k
    raise AssertionError(needle)


# ---------------------------------------------------------------------------------------------
VADD = r"""
#include <cuda_runtime.h>
// y = a + b
__global__ void vadd(const float* __restrict__ a, const float* __restrict__ b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_vector_add(schedule):
    n = 1000
    a = RNG.standard_normal(n).astype(np.float32)
    b = RNG.standard_normal(n).astype(np.float32)
    r = run_kernel(VADD, "vadd", args=dict(a=a, b=b, c=np.zeros(n, np.float32), n=n), grid=(4, 1, 1),
                   block=(256, 1, 1), schedule=schedule)
    assert r.outputs["c"].dtype == np.float32
    assert np.array_equal(r.outputs["c"], a + b)  # float32 arithmetic, bit for bit
    # running error bound: one rounding per element, u * |a + b|; none where the sum is exact (emulator/exact_ops.py)
    exact = (a + b).astype(np.float64) == a.astype(np.float64) + b.astype(np.float64)
    assert exact.any() and not exact.all()
    want = np.where(exact, 0.0, np.abs(a + b) * 2.0 ** -24)
    assert np.all(r.bounds["c"] <= want * 1.0001)
    assert np.all(r.bounds["c"] >= want * 0.9999)


def test_inputs_not_modified_and_outputs_are_copies():
    n = 64
    a = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    r = run_kernel(VADD, "vadd", args=dict(a=a, b=a, c=c, n=n), grid=(1, 1, 1), block=(64, 1, 1))
    assert np.all(c == 0) and np.all(r.outputs["c"] == 2)


# ---------------------------------------------------------------------------------------------
BLOCK_SUM = r"""
#define BLOCK 256
template <int N>
__global__ void __launch_bounds__(N) block_sum(const float* x, float* out, int n) {
    __shared__ float s[N];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    s[tid] = (i < n) ? x[i] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = N / 2; k > 0; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}

void block_sum_ref(const float* x, float* out, int n) {
    for (int i = 0; i < n; ++i) out[i / BLOCK] += x[i];
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
@pytest.mark.parametrize("wave", [32, 64])
def test_block_tree_reduction(schedule, wave):
    n = 256 * 6 + 17
    x = RNG.integers(-50, 50, n).astype(np.float32)
    g = -(-n // 256)
    r = run_kernel(BLOCK_SUM, "block_sum", args=dict(x=x, out=np.zeros(g, np.float32), n=n), grid=(g, 1, 1),
                   block=(256, 1, 1), schedule=schedule, wave=wave, template_args=["BLOCK"])
    expect = np.zeros(g, np.float32)
    np.add.at(expect, np.arange(n) // 256, x)
    assert np.array_equal(r.outputs["out"], expect)
    assert r.races == []


def test_error_bound_covers_float_rounding():
    n = 256 * 4
    x = RNG.uniform(-1, 1, n).astype(np.float32)
    r = run_kernel(BLOCK_SUM, "block_sum", args=dict(x=x, out=np.zeros(4, np.float32), n=n), grid=(4, 1, 1),
                   block=(256, 1, 1), template_args=["256"])
    exact = x.astype(np.float64).reshape(4, -1).sum(1)
    err = np.abs(r.outputs["out"].astype(np.float64) - exact)
    assert np.all(err <= r.bounds["out"])
    assert np.all(r.bounds["out"] < 1e-4)


# ---------------------------------------------------------------------------------------------
WARP = r"""
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__device__ __forceinline__ float warp_sum_ladder16(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);   // assumes 32 lanes
    return v;
}
__global__ void warp_reduce(const float* x, float* out, int n, int ladder16) {
    __shared__ float partial[64];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    float v = (i < n) ? x[i] : 0.0f;
    if (ladder16) v = warp_sum_ladder16(v); else v = warp_sum(v);
    int lane = tid % warpSize, wid = tid / warpSize;
    if (lane == 0) partial[wid] = v;
    __syncthreads();
    if (tid == 0) {
        float s = 0.0f;
        for (int w = 0; w < blockDim.x / warpSize; ++w) s += partial[w];
        out[blockIdx.x] = s;
    }
}
"""


def _warp_run(wave, ladder16, schedule="block"):
    n = 256 * 4
    x = RNG.integers(-9, 9, n).astype(np.float32)
    r = run_kernel(WARP, "warp_reduce", args=dict(x=x, out=np.zeros(4, np.float32), n=n, ladder16=ladder16),
                   grid=(4, 1, 1), block=(256, 1, 1), wave=wave, schedule=schedule)
    return r, x.reshape(4, -1).sum(1)


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
@pytest.mark.parametrize("wave", [32, 64])
def test_warp_shuffle_reduction_with_warpsize(wave, schedule):
    r, expect = _warp_run(wave, 0, schedule)
    assert np.array_equal(r.outputs["out"], expect)


@pytest.mark.parametrize("schedule", ["block", "thread"])
def test_ladder_from_16_right_at_32_wrong_at_64(schedule):
    r32, expect = _warp_run(32, 1, schedule)
    assert np.array_equal(r32.outputs["out"], expect)
    r64, expect = _warp_run(64, 1, schedule)
    assert not np.array_equal(r64.outputs["out"], expect)
    # the 32-bit mask at wave 64 is also reported
    assert any("0xffffffff" in d.message and "32-63" in d.message for d in r64.diagnostics)


BALLOT = r"""
__global__ void count_positive(const float* x, unsigned int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int m = __ballot_sync(0xffffffff, i < n && x[i] > 0.0f);   // 32-bit on purpose
    if ((threadIdx.x % warpSize) == 0) atomicAdd(count, __popc(m));
}
__global__ void count_positive64(const float* x, unsigned int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long m = __ballot(i < n && x[i] > 0.0f);
    if ((threadIdx.x % warpSize) == 0) atomicAdd(count, (unsigned)__popcll(m));
}
"""


def test_32bit_ballot_wrong_at_64():
    n = 512
    x = RNG.standard_normal(n).astype(np.float32)
    expect = int((x > 0).sum())
    kw = dict(args=dict(x=x, count=np.zeros(1, np.uint32), n=n), grid=(2, 1, 1), block=(256, 1, 1))
    assert run_kernel(BALLOT, "count_positive", wave=32, **kw).outputs["count"][0] == expect
    wrong = run_kernel(BALLOT, "count_positive", wave=64, **kw).outputs["count"][0]
    assert wrong != expect and wrong == int((x.reshape(-1, 64)[:, :32] > 0).sum())
    for wave in (32, 64):
        assert run_kernel(BALLOT, "count_positive64", wave=wave, **kw).outputs["count"][0] == expect


def test_ballot_width_is_wave():
    src = r"""
    __global__ void b(unsigned long long* out) {
        out[threadIdx.x] = __ballot(threadIdx.x % 3 == 0);
    }"""
    r = run_kernel(src, "b", args=dict(out=np.zeros(64, np.uint64)), grid=(1, 1, 1), block=(64, 1, 1), wave=64)
    expect = sum(1 << k for k in range(64) if k % 3 == 0)
    assert int(r.outputs["out"][0]) == expect


# ---------------------------------------------------------------------------------------------
VOLATILE = r"""
__global__ void vsum(const float* x, float* out) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = x[blockIdx.x * 64 + tid];
    __syncthreads();
    if (tid < 32) {
        volatile float* vs = s;
        vs[tid] += vs[tid + 32];
        vs[tid] += vs[tid + 16];
        vs[tid] += vs[tid + 8];
        vs[tid] += vs[tid + 4];
        vs[tid] += vs[tid + 2];
        vs[tid] += vs[tid + 1];
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
__global__ void vsum_synced(const float* x, float* out) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = x[blockIdx.x * 64 + tid];
    __syncthreads();
    if (tid < 32) {
        for (int k = 32; k > 0; k >>= 1) {
            float v = s[tid] + s[tid + k];
            __syncwarp();
            s[tid] = v;
            __syncwarp();
        }
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
"""


def test_volatile_lockstep_reduction_needs_lockstep():
    x = RNG.integers(1, 9, 64 * 8).astype(np.float32)
    expect = x.reshape(8, -1).sum(1)
    kw = dict(args=dict(x=x, out=np.zeros(8, np.float32)), grid=(8, 1, 1), block=(64, 1, 1), wave=32)
    for schedule in ("block", "warp"):
        r = run_kernel(VOLATILE, "vsum", schedule=schedule, **kw)
        assert np.array_equal(r.outputs["out"], expect)
        assert r.races, "implicit warp lockstep is a race (no __syncwarp)"
    r = run_kernel(VOLATILE, "vsum", schedule="thread", seed=3, **kw)
    assert not np.array_equal(r.outputs["out"], expect)
    assert r.races
    race = r.races[0]
    assert race.line in range(line_of(VOLATILE, "vs[tid + 32]"), line_of(VOLATILE, "vs[tid + 1]") + 1)
    # with __syncwarp the same reduction is right in every schedule and race-free
    for schedule in ("block", "warp", "thread"):
        r = run_kernel(VOLATILE, "vsum_synced", schedule=schedule, **kw)
        assert np.array_equal(r.outputs["out"], expect), schedule
        assert r.races == [], (schedule, r.races)


# ---------------------------------------------------------------------------------------------
DIVERGENT = r"""
__global__ void bad(float* x, int n) {
    int tid = threadIdx.x;
    if (tid < 100) {
        x[tid] *= 2.0f;
        __syncthreads();
    }
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_barrier_in_divergent_branch(schedule):
    with pytest.raises(EmulatorError) as ei:
        run_kernel(DIVERGENT, "bad", args=dict(x=np.ones(256, np.float32), n=256), grid=(1, 1, 1),
                   block=(256, 1, 1), schedule=schedule, path="div.cu")
    e = ei.value
    assert e.line == line_of(DIVERGENT, "__syncthreads")
    assert e.path == "div.cu"
    assert "barrier divergence" in e.message and "100 of 256" in e.message
    assert "100-255" in e.message or "100" in e.message


def test_block_uniform_barrier_is_fine():
    src = r"""
    __global__ void k(float* x) {
        __shared__ float s[64];
        if (blockIdx.x % 2 == 0) {
            s[threadIdx.x] = x[blockIdx.x * 64 + threadIdx.x];
            __syncthreads();
            x[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
        }
    }"""
    x = np.arange(256, dtype=np.float32)
    for schedule in ("block", "warp", "thread"):
        r = run_kernel(src, "k", args=dict(x=x), grid=(4, 1, 1), block=(64, 1, 1), schedule=schedule)
        y = x.reshape(4, 64).copy()
        y[0::2] = y[0::2, ::-1]
        assert np.array_equal(r.outputs["x"], y.reshape(-1))


OOB = r"""
__global__ void copy(const float* a, float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) b[i] = a[i];
}
"""


def test_out_of_bounds_reports_index_and_bounds():
    n = 100
    with pytest.raises(EmulatorError) as ei:
        run_kernel(OOB, "copy", args=dict(a=np.ones(n, np.float32), b=np.zeros(n, np.float32), n=n),
                   grid=(1, 1, 1), block=(128, 1, 1), path="oob.cu")
    e = ei.value
    assert e.line == line_of(OOB, "b[i] = a[i]")
    assert "a[100]" in e.message and "0..99" in e.message and "thread (100, 0, 0)" in e.message


RAMP = r"""
__global__ void k(const float* a, float* b, int shift) {
    int i = threadIdx.x + shift;
    b[i] = a[i];
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_an_unguarded_contiguous_index_past_the_end_is_out_of_bounds(schedule):
    """Every lane active and consecutive indices (the emulator checks only the ends of such a
    ramp, remembered from the read of a[i]): the last lane's index decides."""
    a = np.ones(256, np.float32)
    for shift, n in ((0, 128), (28, 128)):   # the block's last index is n - 1: in bounds
        r = run_kernel(RAMP, "k", args=dict(a=a, b=np.zeros(n, np.float32), shift=shift), grid=(1, 1, 1),
                       block=(100 if shift else 128, 1, 1), schedule=schedule)
        assert r.outputs["b"][shift:].sum() == n - shift
    for shift, block, n in ((0, 128, 100), (29, 100, 128)):   # one index past the end, or 28 more
        with pytest.raises(EmulatorError) as ei:
            run_kernel(RAMP, "k", args=dict(a=a, b=np.zeros(n, np.float32), shift=shift), grid=(1, 1, 1),
                       block=(block, 1, 1), schedule=schedule)
        m = re.search(r"write of global memory b\[(\d+)\]: valid indices are 0\.\.(\d+) ", ei.value.message)
        assert m and n <= int(m[1]) < block + shift and int(m[2]) == n - 1, ei.value.message


TWO_RAMPS = r"""
__global__ void k(const float* x, const float* y, float* out) {
    int t = threadIdx.x;
    out[t] = x[t] + y[t + SHIFT];
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_a_contiguous_index_is_checked_by_its_own_ends_not_the_ramp_read_before_it(schedule):
    """x[t] is a ramp in bounds; y[t + 1], another ramp right after it, runs one past the end and is
    out of bounds (its own ends decide, not those remembered from x[t]); y[t + 0] is in bounds."""
    n = 128
    args = dict(x=np.ones(n, np.float32), y=np.ones(n, np.float32), out=np.zeros(n, np.float32))
    r = run_kernel(TWO_RAMPS.replace("SHIFT", "0"), "k", args=args, grid=(1,), block=(n,), schedule=schedule)
    assert np.all(r.outputs["out"] == 2.0)
    with pytest.raises(EmulatorError, match=r"read of global memory y\[128\]: valid indices are 0\.\.127"):
        run_kernel(TWO_RAMPS.replace("SHIFT", "1"), "k", args=args, grid=(1,), block=(n,), schedule=schedule)


def test_a_uniform_index_past_the_end_is_out_of_bounds():
    src = r"""
    __global__ void k(const float* a, float* b, int n) {
        b[threadIdx.x] = a[n + 3];
    }"""
    with pytest.raises(EmulatorError) as ei:
        run_kernel(src, "k", args=dict(a=np.ones(8, np.float32), b=np.zeros(32, np.float32), n=8), grid=(1, 1, 1),
                   block=(32, 1, 1))
    assert "a[11]" in ei.value.message and "0..7" in ei.value.message
    r = run_kernel(src, "k", args=dict(a=np.ones(12, np.float32), b=np.zeros(32, np.float32), n=8), grid=(1, 1, 1),
                   block=(32, 1, 1))
    assert r.outputs["b"].sum() == 32


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_a_three_dimensional_array_indexed_per_thread(schedule):
    src = r"""
    __global__ void k(float* out) {
        __shared__ float t[2][4][8];
        t[threadIdx.z][threadIdx.y][threadIdx.x] = threadIdx.z * 100 + threadIdx.y * 10 + threadIdx.x;
        __syncthreads();
        int i = (threadIdx.z * 4 + threadIdx.y) * 8 + threadIdx.x;
        out[i] = t[1 - threadIdx.z][3 - threadIdx.y][7 - threadIdx.x];
    }"""
    r = run_kernel(src, "k", args=dict(out=np.zeros(64, np.float32)), grid=(1, 1, 1), block=(8, 4, 2),
                   schedule=schedule)
    z, y, x = np.meshgrid(np.arange(2), np.arange(4), np.arange(8), indexing="ij")
    assert np.array_equal(r.outputs["out"], ((1 - z) * 100 + (3 - y) * 10 + (7 - x)).ravel().astype(np.float32))


def test_shared_out_of_bounds():
    src = r"""
    __global__ void k(float* x) {
        __shared__ float s[32];
        s[threadIdx.x] = 1.0f;
    }"""
    with pytest.raises(EmulatorError) as ei:
        run_kernel(src, "k", args=dict(x=np.zeros(1, np.float32)), grid=(1, 1, 1), block=(64, 1, 1))
    assert "shared memory s[32]" in ei.value.message and ei.value.line == 4


def test_step_budget():
    src = r"""
    __global__ void spin(int* flag) {
        while (flag[0] == 0) { }
    }"""
    with pytest.raises(EmulatorError) as ei:
        run_kernel(src, "spin", args=dict(flag=np.zeros(1, np.int32)), grid=(1, 1, 1), block=(32, 1, 1),
                   max_steps=1000)
    assert "step budget" in ei.value.message and ei.value.line == 3


def test_bad_shuffle_mask():
    src = r"""
    __global__ void k(float* x) {
        float v = x[threadIdx.x];
        if (threadIdx.x < 16) v += __shfl_down_sync(0xffffffff, v, 1);
        x[threadIdx.x] = v;
    }"""
    with pytest.raises(EmulatorError) as ei:
        run_kernel(src, "k", args=dict(x=np.ones(32, np.float32)), grid=(1, 1, 1), block=(32, 1, 1))
    assert "inactive lanes 16-31" in ei.value.message and ei.value.line == 4
    with pytest.raises(EmulatorError) as ei:
        run_kernel(src.replace("0xffffffff", "0xffffffffffffffffull").replace("< 16", "< 64"), "k",
                   args=dict(x=np.ones(32, np.float32)), grid=(1, 1, 1), block=(32, 1, 1))
    assert "beyond the wave" in ei.value.message


# ---------------------------------------------------------------------------------------------
def test_c_integer_semantics():
    src = r"""
    __global__ void k(const int* a, const int* b, int* q, int* r, unsigned* u, int* w, int* f) {
        int i = threadIdx.x;
        q[i] = a[i] / b[i];
        r[i] = a[i] % b[i];
        unsigned x = (unsigned)a[i];
        u[i] = x / 3u + (x >> 28);
        w[i] = a[i] * 1000000;          // wraps around in 32 bits
        f[i] = (int)(a[i] * 0.7f);      // float -> int truncates toward zero
    }"""
    a = np.array([7, -7, 7, -7, 2147483647, -2147483647, 123456, -5], np.int32)
    b = np.array([2, 2, -2, -2, 10, 10, -7, 3], np.int32)
    z = lambda dt=np.int32: np.zeros(8, dt)  # noqa: E731
    r = run_kernel(src, "k", args=dict(a=a, b=b, q=z(), r=z(), u=z(np.uint32), w=z(), f=z()), grid=(1, 1, 1),
                   block=(8, 1, 1))
    ia, ib = a.astype(np.int64), b.astype(np.int64)
    q = np.array([int(x / y) for x, y in zip(ia, ib)])
    assert np.array_equal(r.outputs["q"], q)
    assert np.array_equal(r.outputs["r"], ia - q * ib)
    ux = a.view(np.uint32).astype(np.int64)
    assert np.array_equal(r.outputs["u"], (ux // 3 + (ux >> 28)).astype(np.uint32))
    assert np.array_equal(r.outputs["w"], ((ia * 1000000 + 2**31) % 2**32 - 2**31).astype(np.int32))
    assert np.array_equal(r.outputs["f"], np.trunc(a.astype(np.float32) * np.float32(0.7)).astype(np.int32))


def test_mixed_signed_unsigned_comparison():
    src = r"""
    __global__ void k(int* out) {
        int m = -1;
        unsigned n = 1u;
        out[0] = m < n;          /* -1 converts to 0xffffffff: false */
        out[1] = m < (int)n;
        long long big = 1ll << 40;
        out[2] = (int)(big >> 38);
        out[3] = sizeof(float) + sizeof(double);
    }"""
    r = run_kernel(src, "k", args=dict(out=np.zeros(4, np.int32)), grid=(1, 1, 1), block=(1, 1, 1))
    assert list(r.outputs["out"]) == [0, 1, 4, 12]


def test_float32_stays_float32_and_fma():
    src = r"""
    __global__ void k(const float* a, const float* b, const float* c, float* d, float* e) {
        int i = threadIdx.x;
        d[i] = fmaf(a[i], b[i], c[i]);
        float t = a[i] * b[i];
        e[i] = t + c[i];
    }"""
    a = RNG.standard_normal(64).astype(np.float32)
    b = RNG.standard_normal(64).astype(np.float32)
    c = RNG.standard_normal(64).astype(np.float32)
    r = run_kernel(src, "k", args=dict(a=a, b=b, c=c, d=np.zeros(64, np.float32), e=np.zeros(64, np.float32)),
                   grid=(1, 1, 1), block=(64, 1, 1))
    fused = (a.astype(np.float64) * b + c).astype(np.float32)
    assert np.array_equal(r.outputs["d"], fused)
    assert np.array_equal(r.outputs["e"], (a * b) + c)  # separate statements: two roundings


def test_atomics_deterministic_and_ordered():
    src = r"""
    __global__ void k(const float* x, float* sum, int* cnt, int* mx, unsigned* bits, int* slot, int* order) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        atomicAdd(sum, x[i]);
        atomicAdd(&cnt[i % 4], 1);
        atomicMax(mx, i * 7 % 101);
        atomicOr(bits, 1u << (i % 32));
        int pos = atomicAdd(&slot[0], 1);
        order[pos] = i;
        atomicSub(&cnt[4], 2);
        atomicExch(&cnt[5], i);
        atomicCAS(&cnt[6], 0, i + 1);
        atomicInc((unsigned*)&cnt[7], 9u);
        atomicMin(&cnt[8], -i);
    }"""
    n = 512
    x = RNG.uniform(-1, 1, n).astype(np.float32)
    args = dict(x=x, sum=np.zeros(1, np.float32), cnt=np.zeros(9, np.int32), mx=np.zeros(1, np.int32),
                bits=np.zeros(1, np.uint32), slot=np.zeros(1, np.int32), order=np.full(n, -1, np.int32))
    outs = [run_kernel(src, "k", args=args, grid=(4, 1, 1), block=(128, 1, 1), schedule=s, seed=s0)
            for s, s0 in (("block", 0), ("block", 0), ("warp", 1), ("thread", 2))]
    r = outs[0]
    for o in outs[1:2]:
        for k in r.outputs:
            assert r.outputs[k].tobytes() == o.outputs[k].tobytes()
    seq = np.float32(0)
    for v in x:  # lane order
        seq = np.float32(seq + v)
    assert r.outputs["sum"][0] == seq
    assert list(r.outputs["cnt"][:4]) == [128] * 4
    assert r.outputs["cnt"][4] == -2 * n
    assert r.outputs["cnt"][5] == n - 1 and r.outputs["cnt"][6] == 1
    assert r.outputs["cnt"][7] == n % 10 and r.outputs["cnt"][8] == -(n - 1)
    assert r.outputs["mx"][0] == 100
    assert r.outputs["bits"][0] == 0xFFFFFFFF
    assert sorted(r.outputs["order"]) == list(range(n)) and list(r.outputs["order"]) == list(range(n))
    for o in outs:
        assert abs(float(o.outputs["sum"][0]) - float(x.astype(np.float64).sum())) <= float(o.bounds["sum"][0])


# ---------------------------------------------------------------------------------------------
def test_control_flow_loops_break_continue_return():
    src = r"""
    __device__ int collatz(int v) {
        int steps = 0;
        while (v != 1) {
            v = (v % 2) ? 3 * v + 1 : v / 2;
            ++steps;
        }
        return steps;
    }
    __global__ void k(int* out, int n) {
        int i = threadIdx.x;
        if (i >= n) return;
        int acc = 0;
        for (int j = 0; j < 100; j++) {
            if (j % 3 == 0) continue;
            if (j > i) break;
            acc += j;
        }
        int d = 0;
        do { d++; } while (d < i % 5);
        switch (i % 3) {
            case 0: acc += 1000;
            case 1: acc += 100; break;
            default: acc -= 1;
        }
        out[i] = acc * 1000 + collatz(i + 1) * 10 + d;
    }"""
    n = 60
    r = run_kernel(src, "k", args=dict(out=np.full(64, -1, np.int32), n=n), grid=(1, 1, 1), block=(64, 1, 1))

    def collatz(v):
        s = 0
        while v != 1:
            v = 3 * v + 1 if v % 2 else v // 2
            s += 1
        return s

    exp = []
    for i in range(64):
        if i >= n:
            exp.append(-1)
            continue
        acc = sum(j for j in range(0, min(i, 99) + 1) if j % 3 != 0)
        acc += {0: 1100, 1: 100, 2: -1}[i % 3]
        d = max(1, i % 5)
        exp.append(acc * 1000 + collatz(i + 1) * 10 + d)
    assert list(r.outputs["out"]) == exp


def test_pointers_local_arrays_dynamic_shared_math():
    src = r"""
    __device__ float dot3(const float* p, const float* q) { return p[0] * q[0] + p[1] * q[1] + p[2] * q[2]; }
    __global__ void k(const float* x, float* y, int n) {
        extern __shared__ float tile[];
        float reg[3];
        int t = threadIdx.x;
        const float* row = x + 3 * (blockIdx.x * blockDim.x + t);
        for (int j = 0; j < 3; ++j) reg[j] = row[j];
        tile[t] = sqrtf(dot3(reg, reg));
        __syncthreads();
        float* out = &y[blockIdx.x * blockDim.x];
        out[t] = fmaxf(tile[t], tile[blockDim.x - 1 - t]) + expf(0.0f) + static_cast<float>(n % 2);
    }"""
    n = 128
    x = RNG.standard_normal(3 * n).astype(np.float32)
    r = run_kernel(src, "k", args=dict(x=x, y=np.zeros(n, np.float32), n=n), grid=(2, 1, 1), block=(64, 1, 1),
                   shared_bytes=64 * 4)
    v = x.reshape(-1, 3)
    norm = np.sqrt((v[:, 0] * v[:, 0] + v[:, 1] * v[:, 1]) + v[:, 2] * v[:, 2]).reshape(2, 64)
    exp = (np.maximum(norm, norm[:, ::-1]) + 1).reshape(-1)
    np.testing.assert_allclose(r.outputs["y"], exp, rtol=1e-6)


def test_2d_block_and_grid_and_2d_shared_tile():
    src = r"""
    #define TILE 8
    __global__ void transpose(const float* in, float* out, int w, int h) {
        __shared__ float tile[TILE][TILE + 1];
        int x = blockIdx.x * TILE + threadIdx.x;
        int y = blockIdx.y * TILE + threadIdx.y;
        if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
        __syncthreads();
        x = blockIdx.y * TILE + threadIdx.x;
        y = blockIdx.x * TILE + threadIdx.y;
        if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
    }"""
    w, h = 20, 12
    a = np.arange(w * h, dtype=np.float32)
    for schedule in ("block", "warp", "thread"):
        r = run_kernel(src, "transpose", args=dict(**{"in": a}, out=np.zeros(w * h, np.float32), w=w, h=h),
                       grid=(3, 2, 1), block=(8, 8, 1), schedule=schedule)
        assert np.array_equal(r.outputs["out"], a.reshape(h, w).T.reshape(-1)), schedule


def test_hip_spelling_at_wave64_and_gfx9_macro():
    src = r"""
    #include <hip/hip_runtime.h>
    #if defined(__GFX9__)
    #define KP_WAVE 64
    #else
    #define KP_WAVE 32
    #endif
    __global__ void k(const float* x, float* out, int* wave) {
        float v = x[hipThreadIdx_x];
        for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
        if (threadIdx.x == 0) { out[0] = v; wave[0] = KP_WAVE; }
    }"""
    for wave in (32, 64):
        x = np.arange(wave, dtype=np.float32)
        r = run_kernel(src, "k", args=dict(x=x, out=np.zeros(1, np.float32), wave=np.zeros(1, np.int32)),
                       grid=(1, 1, 1), block=(wave, 1, 1), wave=wave, backend="hip")
        assert r.outputs["out"][0] == x.sum() and r.outputs["wave"][0] == wave


def test_template_device_function_and_deduction():
    src = r"""
    template <typename T, int W>
    __device__ T wsum(T v) {
        for (int o = W / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o, W);
        return v;
    }
    template <typename T>
    __device__ T twice(T v) { return v + v; }
    __global__ void k(const int* x, int* out) {
        int v = wsum<int, 8>(x[threadIdx.x]);
        if (threadIdx.x % 8 == 0) out[threadIdx.x / 8] = twice(v);
    }"""
    x = np.arange(32, dtype=np.int32)
    r = run_kernel(src, "k", args=dict(x=x, out=np.zeros(4, np.int32)), grid=(1, 1, 1), block=(32, 1, 1))
    assert list(r.outputs["out"]) == list(2 * x.reshape(4, 8).sum(1))


def test_determinism_byte_for_byte():
    n = 256 * 3
    x = RNG.uniform(-1, 1, n).astype(np.float32)
    outs = [run_kernel(VOLATILE, "vsum", args=dict(x=x[:512], out=np.zeros(8, np.float32)), grid=(8, 1, 1),
                       block=(64, 1, 1), schedule="thread", seed=7).outputs["out"].tobytes() for _ in range(2)]
    assert outs[0] == outs[1]


def test_diagnostic_lines_are_original_lines_after_macros_and_comments():
    src = "/* a\n   multi-line\n   comment */\n#define IDX(i) ((i) + 1)\n" + r"""
    __global__ void k(float* x) {
        // comment
        x[IDX(threadIdx.x)] = 1.0f;
    }"""
    with pytest.raises(EmulatorError) as ei:
        run_kernel(src, "k", args=dict(x=np.zeros(32, np.float32)), grid=(1, 1, 1), block=(32, 1, 1), path="m.cu")
    assert ei.value.line == line_of(src, "x[IDX")


METAL = r"""
#include <metal_stdlib>
using namespace metal;
kernel void block_sum(const device float* x [[buffer(0)]], device float* out [[buffer(1)]],
                      constant int& n [[buffer(2)]],
                      uint3 tid [[thread_position_in_threadgroup]], uint3 bid [[threadgroup_position_in_grid]],
                      uint3 bdim [[threads_per_threadgroup]], uint simd_width [[threads_per_simdgroup]],
                      uint lane [[thread_index_in_simdgroup]])
{
    threadgroup float s[64];
    int i = bid.x * bdim.x + tid.x;
    float v = (i < n) ? x[i] : 0.0f;
    for (uint o = simd_width / 2; o > 0; o >>= 1) v += simd_shuffle_down(v, o);
    if (lane == 0) s[tid.x / simd_width] = v;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (tid.x == 0) {
        float t = 0.0f;
        for (uint w = 0; w < bdim.x / simd_width; ++w) t += s[w];
        out[bid.x] = t * fast::exp(0.0f);
        atomic_fetch_add_explicit((device atomic_float*)(out + gdim_dummy()), 1.0f, memory_order_relaxed);
    }
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_metal_port_runs_from_its_own_text(wave):
    src = METAL.replace("gdim_dummy()", "0")
    x = np.arange(512, dtype=np.float32)
    r = run_kernel(src, "block_sum", args=dict(x=x, out=np.zeros(2, np.float32), n=512), grid=(2, 1, 1),
                   block=(256, 1, 1), backend="metal", wave=wave, schedule="warp")
    expect = x.reshape(2, -1).sum(1)
    expect[0] += 2.0  # the atomic adds 1 from each block's thread 0 into out[0]... after its own store
    assert r.outputs["out"][1] == x[256:].sum()
    assert r.outputs["out"][0] in (x[:256].sum() + 1, x[:256].sum() + 2)


def test_conditional_synchronising_calls_run_only_where_selected():
    src = r"""
    __device__ float red(float v) {
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
        return v;
    }
    __device__ float red_wide(float v) {
        for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffffffffffull, v, o);
        return v;
    }
    __global__ void k(const float* x, float* out, int wide) {
        float v = x[threadIdx.x];
        v = wide ? red_wide(v) : red(v);
        out[threadIdx.x] = v;
    }"""
    x = np.arange(32, dtype=np.float32)
    # at wave 32 the 64-bit mask names lanes beyond the wave: only an error if red_wide is called
    for schedule in ("block", "thread"):
        r = run_kernel(src, "k", args=dict(x=x, out=np.zeros(32, np.float32), wide=0), grid=(1, 1, 1),
                       block=(32, 1, 1), schedule=schedule)
        assert np.all(r.outputs["out"] == x.sum())
        with pytest.raises(EmulatorError):
            run_kernel(src, "k", args=dict(x=x, out=np.zeros(32, np.float32), wide=1), grid=(1, 1, 1),
                       block=(32, 1, 1), schedule=schedule)


STENCIL = r"""
__global__ void k(const float* x, float* y, int shift) {
    int t = threadIdx.x;
    int i = t - shift;            // a ramp that starts below 0: lanes t < shift are guarded off
    if (t >= shift) y[t] = x[i] + x[i + 1];
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
@pytest.mark.parametrize("shift", [1, 5])
def test_a_guarded_left_neighbour_read_whose_ramp_starts_below_zero(schedule, shift):
    """x[t - shift] under `if (t >= shift)`: the first lanes' indices are negative but inactive; every
    active lane reads its own element (a negative start is never a slice of the buffer's end)."""
    n = 128
    x = np.arange(n + 1, dtype=np.float32) * 3 + 1
    r = run_kernel(STENCIL, "k", args=dict(x=x, y=np.zeros(n, np.float32), shift=shift), grid=(1,),
                   block=(n,), schedule=schedule)
    t = np.arange(n)
    want = np.where(t >= shift, x[np.clip(t - shift, 0, n)] + x[np.clip(t - shift + 1, 0, n)], 0)
    assert np.array_equal(r.outputs["y"], want.astype(np.float32))


TAIL = r"""
__global__ void k(const float* x, float* y, int shift, int n) {
    int t = threadIdx.x;
    if (t + shift < n) y[t] = x[t + shift] * (t + 1);
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_a_guarded_read_whose_ramp_runs_past_the_end_reads_each_active_lane_its_own_element(schedule):
    """x[t + 128] under `if (t + 128 < 200)`, 128 threads: the ramp 128..255 starts inside x and runs
    past its end on inactive lanes; it is no slice of x (one would hold 72 lanes, not the block's 128):
    every active lane reads its own element and computes with its own t."""
    x = np.arange(200, dtype=np.float32) + 1
    r = run_kernel(TAIL, "k", args=dict(x=x, y=np.zeros(128, np.float32), shift=128, n=200), grid=(1,),
                   block=(128,), schedule=schedule)
    want = np.zeros(128, np.float32)
    want[:72] = x[128:] * np.arange(1, 73)
    assert np.array_equal(r.outputs["y"], want)


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_an_unguarded_contiguous_index_before_the_start_is_out_of_bounds(schedule):
    """x[t - 1] with every lane active: lane 0 reads x[-1], a fault at that index, never the
    buffer's last element (what a negative index means to numpy)."""
    src = "__global__ void k(const float* x, float* y) {\n    int t = threadIdx.x;\n    y[t] = x[t - 1];\n}\n"
    with pytest.raises(EmulatorError) as ei:
        run_kernel(src, "k", args=dict(x=np.arange(128, dtype=np.float32), y=np.zeros(128, np.float32)),
                   grid=(1,), block=(128,), schedule=schedule)
    assert "out-of-bounds read of global memory x[-1]: valid indices are 0..127" in ei.value.message
    assert ei.value.line == 3


# ---------------------------------------------------------------------------------------------
WARP_HALVES = r"""
__global__ void rowsum(const float* x, float* out) {
    __shared__ float t[4][8];
    int i = threadIdx.x;
    t[i / 8][i % 8] = x[i];
    __syncthreads();
    if (i < 4) {
        float* row = *(t + i);
        float s = 0.0f;
        for (int k = 0; k < 8; k++) s += row[k];
        out[i] = s;
    }
}
__global__ void warpsum(const float* x, float* out, int cross) {
    __shared__ float s[64];
    int tid = threadIdx.x, lane = tid % 32;
    s[tid] = x[tid];
    __syncwarp();
    for (int k = 16; k > 0; k >>= 1) {
        float v = s[tid];
        if (lane < k) v += s[(tid + k + cross) % 64];
        __syncwarp();
        s[tid] = v;
        __syncwarp();
    }
    if (lane == 0) out[tid / 32] = s[tid];
}
"""


def test_pointer_arithmetic_on_a_2d_array_steps_whole_rows():
    # `t + i` on a float[4][8] is row i: i * 8 scalars on, not i scalars
    x = np.arange(32, dtype=np.float32)
    r = run_kernel(WARP_HALVES, "rowsum", args=dict(x=x, out=np.zeros(4, np.float32)), grid=(1, 1, 1),
                   block=(32, 1, 1), wave=32)
    assert np.array_equal(r.outputs["out"], x.reshape(4, 8).sum(1))


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_syncwarp_orders_each_warp_of_a_block_and_no_other(schedule):
    # every warp's own lanes, separated by __syncwarp, do not race (warp 1 as warp 0) ...
    x = np.arange(64, dtype=np.float32)
    kw = dict(grid=(1, 1, 1), block=(64, 1, 1), wave=32, schedule=schedule)
    r = run_kernel(WARP_HALVES, "warpsum", args=dict(x=x, out=np.zeros(2, np.float32), cross=0), **kw)
    assert np.array_equal(r.outputs["out"], x.reshape(2, 32).sum(1))
    assert r.races == []
    # ... but __syncwarp does not order one warp's reads of the other warp's half: a race
    r = run_kernel(WARP_HALVES, "warpsum", args=dict(x=x, out=np.zeros(2, np.float32), cross=32), **kw)
    assert r.races


RACE_AT_3 = r"""
__global__ void k(float* out) {
    __shared__ float s[8];
    if (blockIdx.x == 2 && threadIdx.x < 2) s[3] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x] = s[3];
}
"""


def test_a_race_names_the_element_of_its_own_blocks_shared_array():
    # block 2's race is at s[3]: the index within the block's own array, not the batch's slot
    r = run_kernel(RACE_AT_3, "k", args=dict(out=np.zeros(3, np.float32)), grid=(3, 1, 1), block=(32, 1, 1),
                   wave=32)
    races = [(x.buffer, x.index, x.block) for x in r.races if x.kind != "read-before-write"]
    assert races == [("s", 3, (2, 0, 0))]
    # blocks 0 and 1 read s[3], which none of their threads wrote: reported too, as what it is
    assert [(x.kind, x.block) for x in r.races if x.kind == "read-before-write"] == [("read-before-write", (0, 0, 0))]


RACE_TWO_LINES = """__global__ void k(int* out) {
    __shared__ int s[1];
    if (threadIdx.x == 0) s[0] = 1;
    if (threadIdx.x == 32) s[0] = 2;
    __syncthreads();
    out[threadIdx.x] = s[0];
}
"""


@pytest.mark.parametrize("pad", [0, 2100])
def test_a_race_names_both_of_its_lines_anywhere_in_a_file(pad):
    """Two warps write one shared slot with no barrier between: the race names the later write's line
    and the earlier one's, also past line 2047 (where a line no longer fits a 32-bit record)."""
    src = "\n" * pad + RACE_TWO_LINES
    r = run_kernel(src, "k", args=dict(out=np.zeros(64, np.int32)), grid=(1,), block=(64,), wave=32)
    assert [(x.kind, x.line, x.other_line, x.buffer, x.index) for x in r.races] == \
        [("write-after-write", line_of(src, "== 32"), line_of(src, "== 0"), "s", 0)]


def test_a_race_through_a_byte_view_names_the_element_of_its_buffer():
    """Two warps write byte 13 of a float array through an unsigned char view: the race is on the
    array's element 3 (bytes 12-15), as every race names an element of the buffer it hit."""
    src = """__global__ void k(float* out) {
    __shared__ float s[16];
    unsigned char* b = (unsigned char*)s;
    if (threadIdx.x == 0) b[13] = 1;
    if (threadIdx.x == 32) b[13] = 2;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x % 16];
}
"""
    r = run_kernel(src, "k", args=dict(out=np.zeros(64, np.float32)), grid=(1,), block=(64,), wave=32)
    assert [(x.line, x.other_line, x.buffer, x.index) for x in r.races if x.kind != "read-before-write"] == \
        [(5, 4, "s", 3)]
    assert {x.index for x in r.races if x.kind == "read-before-write"} == {0}  # s[0..15] but s[3]: never written


def test_counting_a_run_counts_every_lane_s_store_and_load():
    """The opt-in counters (kernelport plan reads them): 64 lanes load 4 bytes each and store 4
    bytes each, every lane active and half of them (a branch)."""
    from kernelport.emulator import counting

    src = """__global__ void k(const float* x, float* out, float* half_out) {
    out[threadIdx.x] = x[threadIdx.x];
    if (threadIdx.x < 32) half_out[threadIdx.x] = 1.0f;
}
"""
    z = np.zeros(64, np.float32)
    with counting.Counting() as c:
        run_kernel(src, "k", args=dict(x=z, out=z, half_out=z), grid=(1,), block=(64,))
    got = {name: (b.read_bytes, b.write_bytes) for (_, name), b in c.buffers.items()}
    assert got == {"x": (256, 0), "out": (0, 256), "half_out": (0, 128)}


def test_counting_a_run_counts_each_active_lane_s_atomic_as_a_read_and_a_write():
    """An atomic read-modify-write of every lane (the full group) and of the odd lanes (a branch):
    one operation, 4 bytes read and 4 written per active lane, one distinct element each; the
    plain load beside them is a read only."""
    from kernelport.emulator import counting

    src = """__global__ void k(const int* x, int* total, int* odd) {
    atomicAdd(total, x[threadIdx.x]);
    if (threadIdx.x % 2) atomicAdd(odd, 1);
}
"""
    one = lambda: np.zeros(1, np.int32)  # noqa: E731
    with counting.Counting() as c:
        r = run_kernel(src, "k", args=dict(x=np.arange(64, dtype=np.int32), total=one(), odd=one()),
                       grid=(1,), block=(64,))
    assert (int(r.outputs["total"][0]), int(r.outputs["odd"][0])) == (2016, 32)
    got = {name: (b.read_bytes, b.write_bytes, b.atomic_ops, b.distinct(True)) for (_, name), b in c.buffers.items()}
    assert got == {"x": (256, 0, 0, 0), "total": (256, 256, 64, 1), "odd": (128, 128, 32, 1)}


OVERWRITE = r"""
__global__ void k(const float* x, float* out, const int* perm) {
    int t = threadIdx.x;
    out[t] = x[t] * 3.0f;
    __syncthreads();
    if (COND) out[ADDRESS] = 1.5f;
}
"""


@pytest.mark.parametrize("cond", ["t >= 0", "t % 2 == 0"])
@pytest.mark.parametrize("address", ["t", "perm[t]"])
def test_an_exact_value_stored_over_a_rounded_one_has_bound_zero_where_it_lands(address, cond):
    """out[i] first holds a rounded product (bound u * |3x|); an exact constant stored over it, through
    contiguous or permuted addresses, by every lane or half of them, leaves bound 0 exactly where it
    landed and the product's bound elsewhere."""
    n, u = 128, 2.0 ** -24  # (over 64 lanes: contiguous addresses take the slice path)
    x = np.full(n, 0.1, np.float32)
    perm = np.arange(n, dtype=np.int32)[::-1].copy()
    r = run_kernel(OVERWRITE.replace("COND", cond).replace("ADDRESS", address), "k",
                   args=dict(x=x, out=np.zeros(n, np.float32), perm=perm), grid=(1,), block=(n,))
    t = np.arange(n)
    hit = np.zeros(n, bool)
    lanes = t if cond == "t >= 0" else t[t % 2 == 0]
    hit[lanes if address == "t" else perm[lanes]] = True
    prod = float(np.float32(np.float32(0.1) * np.float32(3.0)))
    assert np.all(r.outputs["out"][hit] == 1.5) and np.all(r.outputs["out"][~hit] == np.float32(prod))
    assert np.all(r.bounds["out"][hit] == 0.0)
    assert r.bounds["out"][~hit] == pytest.approx(np.full((~hit).sum(), u * prod), rel=1e-6)


POINTER_OFFSETS = r"""
__global__ void k(const int* a, const float* x, long long* wide, float* out) {
    int t = threadIdx.x;
    const float* before = x - 1;                  // an offset of -1, then indexed back into x
    out[t] = before[t + 1];
    if (t == 0) wide[0] = *(const long long*)(a + 2);  // a cast of an offset pointer to a wider type
}
"""


def test_an_offset_pointer_indexes_from_its_offset_and_a_cast_rescales_it():
    """x - 1 indexed at t + 1 is x[t]; (long long*)(a + 2) reads the bytes of a[2] and a[3] (the offset
    counted in the new type's units: 2 ints are 1 long long)."""
    a = np.array([1, 2, 3, 4, 5, 6], np.int32)
    x = np.arange(8, dtype=np.float32) * 1.5
    r = run_kernel(POINTER_OFFSETS, "k", args=dict(a=a, x=x, wide=np.zeros(1, np.int64), out=np.zeros(8, np.float32)),
                   grid=(1,), block=(8,))
    assert np.array_equal(r.outputs["out"], x)
    assert int(r.outputs["wide"][0]) == int(a[2:4].view(np.int64)[0])


def test_a_double_buffer_s_rounding_bound_is_kept_in_double_past_float_s_range():
    """The bound of a double result near 1e300 is about 7.8e284 (the sum's rounding and, the
    contracted x*3 + x being fused or not by the compiler, the product's): held in float32 it would
    be infinite, and any port would match within it."""
    src = """__global__ void k(const double* x, double* y) {
    int i = threadIdx.x;
    y[i] = x[i] * 3.0 + x[i];
}"""
    r = run_kernel(src, "k", args={"x": np.full(4, 1e300), "y": np.zeros(4)}, grid=(1, 1, 1), block=(4, 1, 1))
    b = r.bounds["y"]
    assert np.all(np.isfinite(b)) and np.allclose(b, (4e300 + 3e300) * 2.0 ** -53, rtol=0.01), b


@pytest.mark.parametrize("schedule", ["block", "thread"])  # lanes together; one lane at a time (a scalar address)
def test_an_exact_value_every_lane_stores_at_one_address_has_no_rounding_bound(schedule):
    """`y[0] = x[1];` from every lane, over a rounded value: the input's value is exact, its bound 0
    (a negative or leftover bound would fail a port that matches exactly)."""
    src = """__global__ void k(float* y, const float* x) {
    y[1] = x[0] * 3.0f;
    y[0] = x[0] * 3.0f;
    y[0] = x[1];
}"""
    r = run_kernel(src, "k", args={"y": np.full(4, 7.0, np.float32), "x": np.full(4, 0.1, np.float32)},
                   grid=(1, 1, 1), block=(4, 1, 1), schedule=schedule)  # (0.1f * 3.0f rounds: 1.0f * 3.0f is exact)
    assert r.outputs["y"][0] == np.float32(0.1) and r.bounds["y"][0] == 0.0 and 0.0 < r.bounds["y"][1] < 1e-6, r.bounds["y"]


NARROW_VIEW = r"""
__global__ void k(double* d, float* y, float* same) {
    int t = threadIdx.x;
    d[t] = d[t] * 0.1;                   // inexact: d's elements get error bounds
    const float* f = (const float*)d;    // a narrower view: two floats' bits in each double
    y[t] = f[t];
    same[t] = (float)d[t];               // the look-alike: a conversion of d's own elements
}
"""


def test_a_narrower_view_of_a_float_buffer_takes_none_of_its_elements_error_bounds():
    """A float read from a double buffer's bits is no rounded value of any one element: its bound is
    unknown (NaN), and the run says where (re-pinned in stop 48: it was 0, a tight bound on bits that
    carry the double's error; emulator.bitbounds); only a same-size view, a float's bits as uint,
    shares the buffer's scalars one for one."""
    d = np.linspace(1, 2, 64)
    r = run_kernel(NARROW_VIEW, "k", args=dict(d=d, y=np.zeros(64, np.float32), same=np.zeros(64, np.float32)),
                   grid=(1,), block=(64,))
    assert np.all(r.bounds["d"] > 0)
    assert np.all(np.isnan(r.bounds["y"]))
    assert r.bounds_lost and r.bounds_lost[0].startswith("<kernel>:6:"), r.bounds_lost
    assert np.all(r.bounds["same"] >= r.bounds["d"].astype(np.float32))


def test_a_uniform_fmaxf_stored_at_a_uniform_address_keeps_its_error_bound():
    """fmaxf of two uniform values (a 0-d bound) stored by every lane to out[0]: one rounding of a * b."""
    src = "__global__ void k(float* out, float a, float b) {\n    out[0] = fmaxf(a * b, 0.5f);\n}\n"
    r = run_kernel(src, "k", args=dict(out=np.zeros(1, np.float32), a=np.float32(1.1), b=np.float32(0.7)),
                   grid=(1,), block=(32,))
    ab = np.float32(1.1) * np.float32(0.7)
    assert r.outputs["out"][0] == ab
    assert abs(ab) * 2.0 ** -24 * 0.9999 <= r.bounds["out"][0] <= abs(ab) * 2.0 ** -24 * 1.0001
