"""heldout83 fast_ml_threshold.cu's compactKernel (`if (flag[i]) list[atomicAdd(cnt, 1)] = i;`): the GPU gave
`list[0] = 7424`, the emulator 0, and verify failed the device row on an exact comparison.  CUDA defines no
order among a launch's atomics: which thread gets which slot is the GPU's.  A buffer written only at slots
claimed by `atomicAdd(counter, 1)` (kernelport/claimed_slots.py) is compared as a multiset over the claimed
range [counter before, counter after) and exactly elsewhere, and the detail says so.  The look-alikes: a GPU
that stores a wrong value in the range still fails, and a kernel whose slots are not only claimed (a store
of the slot's own value, a stride of 2, a read of the buffer) is compared exactly, as before."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.claimed_slots import claimed_buffers
from kernelport.model import build
from kernelport.source import SourceFile
from test_verify_device_oracle import _device_rows

COMPACT = """\
// @kp kernel  compact
// @kp grid    2
// @kp block   64
// @kp arg     flag  in     int[128]  uniform(0, 2)
// @kp arg     list  inout  int[128]  uniform(-1, 1)
// @kp arg     cnt   inout  int[1]    uniform(0, 1)
__global__ void compact(const int* flag, int* list, int* cnt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (flag[i]) list[atomicAdd(cnt, 1)] = i;
}
"""


def _gpu(reverse: bool, wrong: bool = False):
    """A GPU that claims slots in the opposite order of the emulator's (reverse) and keeps the rest."""
    def run(a):
        lst, c = a["list"].copy(), a["cnt"].copy()
        kept = [i for i in range(128) if a["flag"][i]]
        for i in (kept[::-1] if reverse else kept):
            lst[c[0]] = i
            c[0] += 1
        if wrong:
            lst[a["cnt"][0] + 2] = 999
        return {"list": lst, "cnt": c}
    return run


def test_claimed_slots_in_another_order_pass_as_a_multiset(tmp_path, monkeypatch):
    rc, dev, _, text = _device_rows(tmp_path, monkeypatch, COMPACT, _gpu(True))
    assert [c["status"] for c in dev] == ["pass"], text
    assert "compared as a multiset" in dev[0]["detail"] and "atomicAdd(cnt, 1)" in dev[0]["detail"], text


def test_a_wrong_value_in_the_claimed_range_still_fails(tmp_path, monkeypatch):
    rc, dev, _, text = _device_rows(tmp_path, monkeypatch, COMPACT, _gpu(True, wrong=True))
    assert [c["status"] for c in dev] == ["fail"], text


def test_a_store_of_the_slot_itself_is_compared_exactly(tmp_path, monkeypatch):
    """`list[s] = s + i`: the value reads the slot, so its multiset hangs on the order: exact, a failure."""
    src = COMPACT.replace("if (flag[i]) list[atomicAdd(cnt, 1)] = i;",
                          "if (flag[i]) { int s = atomicAdd(cnt, 1); list[s] = s + i; }")

    def gpu(a):
        lst, c = a["list"].copy(), a["cnt"].copy()
        for i in [i for i in range(128) if a["flag"][i]][::-1]:
            lst[c[0]] = c[0] + i
            c[0] += 1
        return {"list": lst, "cnt": c}
    rc, dev, _, text = _device_rows(tmp_path, monkeypatch, src, gpu)
    assert [c["status"] for c in dev] == ["fail"] and "multiset" not in dev[0]["detail"], text


@pytest.mark.parametrize("body, claimed", [
    ("if (f[i]) list[atomicAdd(cnt, 1)] = i;", True),
    ("if (f[i]) { int s = atomicAdd(&cnt[0], 1); list[s] = 2 * i; }", True),
    ("if (f[i]) list[atomicAdd(cnt, 2)] = i;", False),               # a stride: holes at order-moved places
    ("if (f[i]) list[atomicAdd(cnt, 1)] = list[i];", False),         # reads the buffer
    ("int s = atomicAdd(cnt, 1); if (f[i]) list[s] = i;", False),    # a claimed slot may stay unwritten
    ("if (f[i]) list[atomicAdd(cnt, 1)] = i; list[i + 64] = 0;", False),  # another store
    ("if (f[i]) list[atomicAdd(cnt, 1)] = i; if (i == 0) cnt[1] = cnt[0];", False),  # the counter read
    ("if (f[i]) list[atomicAdd(cnt, 1)] = i; if (i == 3) atomicAdd(cnt, 1);", False),  # a slot never stored
])
def test_which_kernels_claim_their_slots(body, claimed):
    m = build(SourceFile.from_text(f"__global__ void k(const int* f, int* list, int* cnt) {{ int i = threadIdx.x; {body} }}"))
    assert bool(claimed_buffers(m.source, m.functions["k"])) == claimed


SCALED = """\
// @kp kernel  compact
// @kp grid    1
// @kp block   2
// @kp arg     x     in     float[2]  uniform(0.5, 1)
// @kp arg     list  inout  float[2]  uniform(0, 1)
// @kp arg     cnt   inout  int[1]    uniform(0, 1)
__global__ void compact(const float* x, float* list, int* cnt) {
    int i = threadIdx.x;
    float v = i == 0 ? x[0] * 1.0e30f + 1.0f : x[1] + 1.0f;
    list[atomicAdd(cnt, 1)] = v;
}
"""


@pytest.mark.parametrize("wrong", [False, True])
def test_each_claimed_value_keeps_its_own_rounding_bound(tmp_path, monkeypatch, wrong):
    """(review63e) Thread 0's value (~1e30, a bound ~1e23) takes slot 0 in the emulator, sorts to slot 1; thread
    1's (~2, a bound ~1e-7) sorts to slot 0.  The bounds were left in slot order: a GPU value 1e20 off at slot 0
    passed under thread 0's bound.  Each bound now moves with its value: the wrong one fails, the right one passes."""
    def gpu(a):
        big = np.float32(a["x"][0]) * np.float32(1.0e30) + np.float32(1.0)
        small = np.float32(a["x"][1]) + np.float32(1.0) + (np.float32(1.0e20) if wrong else np.float32(0))
        return {"list": np.array([small, big], np.float32), "cnt": np.array([2], np.int32)}
    rc, dev, _, text = _device_rows(tmp_path, monkeypatch, SCALED, gpu)
    assert [c["status"] for c in dev] == ["fail" if wrong else "pass"], text
