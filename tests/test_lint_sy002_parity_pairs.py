"""SY002 on an odd-even exchange whose pairs one residue class keeps disjoint (kernelport/lint/parityslots.py).

Each phase of an odd-even transposition sort touches slots k and k + 1 for the k with `k % 2 == i % 2` (i the
phase, one value between two barriers): pairs two apart never meet, so no thread reads a slot another writes.
Look-alikes that stay flagged: no parity test, a span as wide as the modulus (`s[k + 2]` under `k % 2 == 0`), a
residue the thread picks, a stride other than the block, a test under `||`, a mask that is no residue (`& 2`), and
the phase counter advanced inside the barrier-free loop.
"""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text

WALK = """\
__global__ void oe(float* x, int n) {
    __shared__ float s[1024];
    for (int k = threadIdx.x; k < n; k += blockDim.x) s[k] = x[k];
    __syncthreads();
    for (int i = 0; i < n; ++i) {
        for (int k = threadIdx.x; k < n; k += STRIDE) {
            if (TEST && k + 1 < n) {
                float a = s[k];
                if (a > s[k + SPAN]) { s[k] = s[k + SPAN]; s[k + SPAN] = a; }
            }
        }
        __syncthreads();
    }
    for (int k = threadIdx.x; k < n; k += blockDim.x) x[k] = s[k];
}
"""

SWAP = """\
__global__ void pairswap(float* x, int n) {
    __shared__ float s[256];
    int tid = threadIdx.x;
    s[tid] = x[tid];
    __syncthreads();
    for (int i = 0; i < n; ++i) {
        if (TEST && tid + 1 < blockDim.x) {
            s[tid] = s[tid] + s[tid + 1];
            s[tid + 1] = s[tid] - s[tid + 1];
            s[tid] = s[tid] - s[LAST];
        }
        BARRIER
    }
    x[tid] = s[tid];
}
"""


def _sy002(src: str) -> list[int]:
    return [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"]


def _walk(test="(k % 2) == (i % 2)", stride="blockDim.x", span="1") -> str:
    return WALK.replace("TEST", test).replace("STRIDE", stride).replace("SPAN", span)


def _swap(test="(tid % 2) == (i % 2)", last="tid + 1", barrier="__syncthreads();") -> str:
    return SWAP.replace("TEST", test).replace("LAST", last).replace("BARRIER", barrier)


@pytest.mark.parametrize("test", ["(k % 2) == (i % 2)", "(i % 2) == (k % 2)", "(k & 1) == (i & 1)",
                                  "k % 2 == 0", "(k % 3) == (i % 3)"])
def test_block_stride_exchange_of_one_residue_class_is_quiet(test):
    assert _sy002(_walk(test)) == []


@pytest.mark.parametrize("test", ["(tid % 2) == (i % 2)", "(tid & 1) == (i & 1)", "tid % 2 == 1",
                                  "(tid % 4) == (i % 4)", "(tid % 2) == (n % 2)"])
def test_straight_exchange_of_one_residue_class_is_quiet(test):
    assert _sy002(_swap(test)) == []


@pytest.mark.parametrize("test,stride,span", [
    ("k + 1 < n", "blockDim.x", "1"),                       # no parity test: neighbours' pairs overlap
    ("k % 2 == 0", "blockDim.x", "2"),                      # pairs {k, k + 2} of even k meet
    ("(k % 2) == (threadIdx.x % 2)", "blockDim.x", "1"),    # a residue the thread picks
    ("(k % 2) == (i % 2)", "32", "1"),                      # two threads may run one k
    ("(k % 2) == (i % 2) || k > 4", "blockDim.x", "1"),     # not a conjunct
    ("(k & 2) == (i & 2)", "blockDim.x", "1"),              # a mask that is no residue class
])
def test_walk_look_alikes_stay_flagged(test, stride, span):
    assert _sy002(_walk(test, stride, span)) == [9]


@pytest.mark.parametrize("test,last,barrier", [
    ("(tid % 2) == (i % 2)", "tid + 1", ""),                # the phase advances inside the barrier-free loop
    ("(tid % 2) == (i % 2)", "tid - 1", "__syncthreads();"),  # s[tid - 1]: a span of 3 under a modulus of 2
    ("(tid % 2) == s[0]", "tid + 1", "__syncthreads();"),   # a residue loaded from memory
    ("tid + 1 < n", "tid + 1", "__syncthreads();"),         # no parity test
    ("(tid % 2) == ((tid / 2) % 2)", "tid + 1", "__syncthreads();"),  # a residue each thread computes
])
def test_swap_look_alikes_stay_flagged(test, last, barrier):
    assert _sy002(_swap(test, last, barrier)) == [8]
