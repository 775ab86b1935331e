"""sm_70's `__match_all_sync(mask, v, &pred)` on the emulator: its result (the mask where every active
lane of the warp holds v's bits, else 0) and `pred` written through its pointer, a local's address
(the local assigned) or an element of a buffer.  The HIP port's prologue `kp_match_all(v, &pred, w)`
runs too (a local's address passed to a helper: emulator/addressed.py) and matches the original at
wave 32.  Checked against CUDA's definition computed here."""
from __future__ import annotations

import textwrap

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

SOURCE = """
__global__ void same(const int* keys, unsigned long long* res, int* flags, int* direct) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pred = -1;
    res[i] = __match_all_sync(0xffffffff, keys[i], &pred);
    flags[i] = pred;
    __match_all_sync(0xffffffff, keys[i] + 1, &direct[i]);
}
"""


def _keys():
    keys = np.random.default_rng(7).integers(0, 3, 128, dtype=np.int32)
    keys[32:64] = 5  # warp 1: every lane the same key
    keys[96:128] = -2  # warp 3 too
    return keys


def _run(src, wave=32, backend=None):
    keys = _keys()
    r = run_kernel(src, "same", args={"keys": keys, "res": np.zeros(128, np.uint64), "flags": np.zeros(128, np.int32),
                                      "direct": np.zeros(128, np.int32)}, grid=(1,), block=(128,), wave=wave,
                   backend=backend)
    return r.outputs


def _reference(width=32):
    keys = _keys().reshape(-1, width)
    every = np.all(keys == keys[:, :1], axis=1)
    flags = np.repeat(every, width).astype(np.int32)
    res = np.where(flags == 1, 0xFFFFFFFF, 0).astype(np.uint64)
    return res, flags


def test_match_all_gives_its_mask_and_writes_its_predicate():
    out = _run(SOURCE)
    res, flags = _reference()
    assert flags.any() and not flags.all()  # both answers occur
    np.testing.assert_array_equal(out["res"], res)
    np.testing.assert_array_equal(out["flags"], flags)
    np.testing.assert_array_equal(out["direct"], flags)  # through a buffer element's address


def test_the_hip_port_matches_the_original_at_wave_32():
    p, text = translate(SourceFile.from_text(textwrap.dedent(SOURCE), "t.cu"), "hip")
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "kp_match_all(" in p.body, p.body
    want = _run(SOURCE)
    got = _run(text, 32, "hip")
    for k in ("res", "flags", "direct"):
        np.testing.assert_array_equal(got[k], want[k])
