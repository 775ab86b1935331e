"""A header's constant that is CUDA's full lane mask is the full mask in the files that include it
(kernelport/header_full_masks.py), found on heldout86's StreamLZ-style code (a common header's
`static constexpr uint32_t FULL_WARP_MASK = 0xFFFFFFFFu;` passed to every shuffle): translate did not read a
header's constants, so the mask was unknown, KP203 ("may name only some lanes"), and the file refused.  The
snippets are written here; no held-out file is read.  Look-alikes stay KP203: a header constant that is a
partial mask, and one defined under `#if` (another build's value may be the one compiled)."""
from __future__ import annotations

import os
import subprocess
import sys

HEADER = """#pragma once
#include <cstdint>
static constexpr uint32_t FULL_LANES = 0xFFFFFFFFu;
static constexpr uint32_t LOW_HALF = 0x0000FFFFu;
#ifdef WIDE_BUILD
static constexpr uint32_t MAYBE_FULL = 0xFFFFFFFFu;
#else
static constexpr uint32_t MAYBE_FULL = 0x0000FFFFu;
#endif
"""
KERNEL = """#include "lanes.cuh"
__global__ void warp_min(unsigned* p) {
    unsigned k = p[threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) {
        unsigned v = __shfl_xor_sync(MASK, k, off);
        k = v < k ? v : k;
    }
    p[threadIdx.x] = k;
}
"""


def _hip(tmp_path, mask: str) -> subprocess.CompletedProcess:
    (tmp_path / "lanes.cuh").write_text(HEADER)
    (tmp_path / "k.cu").write_text(KERNEL.replace("MASK", mask))
    return subprocess.run([sys.executable, "-P", "-m", "kernelport", "translate", "k.cu", "--stdout"], cwd=tmp_path,
                          capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})


def test_header_full_mask_constant_is_the_full_mask(tmp_path):
    r = _hip(tmp_path, "FULL_LANES")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "KP203" not in r.stdout + r.stderr
    assert "__shfl_xor(k, off, 32)" in r.stdout, r.stdout  # as `0xffffffff` is ported: the mask dropped


def test_the_same_literal_in_the_file_ports_alike(tmp_path):
    r = _hip(tmp_path, "0xFFFFFFFFu")
    assert r.returncode == 0 and "__shfl_xor(k, off, 32)" in r.stdout, r.stdout + r.stderr


def test_partial_header_constant_stays_partial(tmp_path):
    r = _hip(tmp_path, "LOW_HALF")
    assert r.returncode != 0 and "KP203" in r.stdout + r.stderr, r.stdout + r.stderr


def test_conditional_header_constant_is_not_read(tmp_path):
    r = _hip(tmp_path, "MAYBE_FULL")
    assert r.returncode != 0 and "KP203" in r.stdout + r.stderr, r.stdout + r.stderr
