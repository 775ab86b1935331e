"""Read-write races and order-dependent atomics on global memory (emulator.global_reads,
emulator.atomic_order), each against a scalar model of the emulator's order: a read of a value an
unordered thread's store changed, a store that changes a value an unordered thread read, exchanges
of different values, CAS claims lost and never retried are reported; a thread's own accesses, a
barrier between one block's threads, stores that change nothing, integer atomicAdd and protocols
the emulator runs in one order (a spin lock, a threadfence reduction's ticket, CAS loops) are not."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel

SHIFTED = r"""
__global__ void k(int* buf, int shift) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = buf[(i + shift) % 256];
    buf[i] = v + 1;
}
"""


def scalar_war(grid: int, block: int, shift: int, wave: int, init: np.ndarray) -> bool:
    """Every read runs before every store (one statement each, lockstep): thread i reads location
    x = (i + shift) % 256, which thread x stores to once; a race where x is another block's or
    another warp's and its store changes the value there."""
    n = grid * block
    for i in range(n):
        x = (i + shift) % 256
        if x < n and x != i and (x // block != i // block or x % block // wave != i % block // wave):
            if init[x] != init[(x + shift) % 256] + 1:
                return True
    return False


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("shift", [0, 1, 17, 32, 64, 200, 255])
def test_a_store_over_a_value_another_warp_read_races_as_a_scalar_model_says(wave, shift):
    init = np.arange(256, dtype=np.int32)  # shift 255: thread i stores buf[i-1] + 1 == i over i: no change
    res = run_kernel(SHIFTED, "k", args=dict(buf=init.copy(), shift=shift), grid=(4, 1, 1), block=(64, 1, 1),
                     wave=wave, global_races=True)
    want = scalar_war(4, 64, shift, wave, init)
    assert bool(res.global_races) == want, (shift, res.global_races)
    for r in res.global_races:
        assert (r.kind, r.buffer, r.line, r.other_line) == ("write-after-read", "buf", 5, 4), r
        assert "a store that changes a value an unordered thread read" in str(r)
    assert bool(want) == (shift not in (0, 255))  # (the model's own check: both answers occur)


BROADCAST = r"""
__global__ void k(float* u, float* out) {
    if (blockIdx.x == WRITER && threadIdx.x == 0) u[0] = 7.0f;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = u[0];
}
"""


@pytest.mark.parametrize("writer", [0, 2])
@pytest.mark.parametrize("grid,u0", [(1, 0.0), (3, 0.0), (3, 7.0)])
def test_a_read_of_a_value_another_block_stored_races_as_a_scalar_model_says(grid, u0, writer):
    """particlefilter's normalize_weights_kernel: block 0 stores u[0], every block reads it after a
    barrier (which orders block 0's threads only)."""
    if writer >= grid:
        writer = 0
    src = BROADCAST.replace("WRITER", str(writer))
    res = run_kernel(src, "k", args=dict(u=np.full(1, u0, np.float32), out=np.zeros(3 * 64, np.float32)),
                     grid=(grid, 1, 1), block=(64, 1, 1), global_races=True)
    want = grid > 1 and u0 != 7.0  # readers in another block, and the store changed the value
    assert bool(res.global_races) == want, res.global_races
    if want:
        (r,) = res.global_races
        assert (r.kind, r.buffer, r.index, r.line, r.other_line) == ("read-after-write", "u", 0, 5, 3)
        assert r.other_block == (writer, 0, 0) and r.block != r.other_block and r.other_thread == 0


LCG = r"""
__device__ unsigned int lcg(unsigned int* seed) {
    *seed = (26757677u * (*seed) + 1u) % 2147483648u;
    return *seed;
}
__global__ void k(unsigned int* state, int state_size, float* out) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    out[tid] = lcg(state + tid % state_size) * 1e-9f;
}
"""


@pytest.mark.parametrize("state_size", [32, 64, 128])
def test_threads_sharing_an_lcg_state_race_unless_each_has_its_own(state_size):
    """mf-sgd's random_init: `state[tid % state_size]` read, advanced and stored back with no atomic;
    both threads store the same value (the write-write watch calls it benign), but each read the
    state the other may already have advanced."""
    res = run_kernel(LCG, "k", args=dict(state=np.arange(1, 129, dtype=np.uint32), state_size=state_size,
                                         out=np.zeros(128, np.float32)),
                     grid=(2, 1, 1), block=(64, 1, 1), global_races=True)
    assert bool(res.global_races) == (state_size < 128), res.global_races  # 128 threads: shared below 128
    assert all(r.buffer == "state" and r.line in (3, 4) for r in res.global_races), res.global_races
    assert bool(res.global_races) == any(r.kind == "write-after-read" and r.line == 3 for r in res.global_races)


LOCKED = r"""
__global__ void k(int* lock, float* total, const float* x, unsigned int* count, float* out) {
    if (threadIdx.x == 0) {
        bool done = false;
        while (!done) {
            if (atomicCAS(lock, 0, 1) == 0) {
                float v = *total;
                *total = v + x[blockIdx.x];
                __threadfence();
                atomicExch(lock, 0);
                done = true;
            }
        }
    }
}
"""
UNLOCKED = r"""
__global__ void k(int* lock, float* total, const float* x, unsigned int* count, float* out) {
    if (threadIdx.x == 0) {
        float v = *total;
        *total = v + x[blockIdx.x];
    }
}
"""
TICKET = r"""
__global__ void k(int* lock, float* total, const float* x, unsigned int* count, float* out) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        out[blockIdx.x] = x[blockIdx.x] * 2.0f;
        FENCE
        last = TICKET == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x < gridDim.x) total[threadIdx.x] = out[threadIdx.x];
}
"""


def _protocol(src):
    x = np.arange(1, 5, dtype=np.float32)
    return run_kernel(src, "k", args=dict(lock=np.zeros(1, np.int32), total=np.zeros(4, np.float32), x=x,
                                          count=np.zeros(1, np.uint32), out=np.zeros(4, np.float32)),
                      grid=(4, 1, 1), block=(64, 1, 1), global_races=True)


def test_a_lock_protected_read_modify_write_is_not_a_race_and_the_same_without_the_lock_is():
    ok = _protocol(LOCKED)
    assert ok.global_races == [] and ok.outputs["total"][0] == 10.0
    bad = _protocol(UNLOCKED)
    assert {r.kind for r in bad.global_races} == {"write-after-read", "write-after-write"}, bad.global_races


def test_a_threadfence_reductions_ticket_orders_the_last_blocks_reads_and_a_guess_does_not():
    ok = _protocol(TICKET.replace("FENCE", "__threadfence();").replace("TICKET", "atomicInc(count, gridDim.x)"))
    assert ok.global_races == [] and list(ok.outputs["total"]) == [2.0, 4.0, 6.0, 8.0]
    guess = _protocol(TICKET.replace("FENCE", "").replace("TICKET", "blockIdx.x"))  # the highest block, unordered
    assert [(r.kind, r.buffer, r.line, r.other_line) for r in guess.global_races] == \
        [("read-after-write", "out", 10, 5)], guess.global_races


ATOMICS = r"""
__global__ void k(int* a, int d) {
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = 0; i < 2; i++) {
        atomicAdd(&a[0], 10);
        atomicMax(&a[1], (int)tid);
        atomicExch(&a[2], (int)(tid % d));
        atomicCAS(&a[3], -1, (int)(tid % d));
        int old = a[4], assumed;
        do { assumed = old; old = atomicCAS(&a[4], assumed, assumed + (int)tid); } while (assumed != old);
    }
}
"""


@pytest.mark.parametrize("d", [1, 2, 64, 1000])
def test_exchanges_and_claims_of_different_values_depend_on_the_order_and_sums_do_not(d):
    """systemWideAtomics: atomicExch's last value is whichever thread ran last; a claim
    `atomicCAS(&x, -1, v)` goes to whichever ran first; atomicAdd/Max and a CAS loop's sum do not
    depend on the order.  The model: some two threads' values tid % d differ (128 threads)."""
    a = np.array([0, 0, 0, -1, 0], np.int32)
    res = run_kernel(ATOMICS, "k", args=dict(a=a, d=d), grid=(2, 1, 1), block=(64, 1, 1), global_races=True)
    assert res.outputs["a"][0] == 2 * 10 * 128 and res.outputs["a"][4] == 2 * sum(range(128))
    differ = len({t % d for t in range(128)}) > 1
    assert {(r.kind, r.line) for r in res.global_races} == ({("exchange", 7), ("lost-claim", 8)} if differ else set()), \
        res.global_races
    for r in res.global_races:
        assert r.buffer == "a" and r.index == {"exchange": 2, "lost-claim": 3}[r.kind]
