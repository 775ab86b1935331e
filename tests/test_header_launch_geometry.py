"""A kernel a header defines and only its includers launch takes its block from their launches
(kernelport/unit_launches.py) for its warp-width plan, in translate's plan and in the port's self-check:
main's self-check linted the header's port alone (no launch: full blocks assumed) against the original's lint
with the includers' launches, and refused a right port KP220.  Where the includers disagree and the group
votes, KP219 names both launches."""
from __future__ import annotations

import numpy as np

from port_support import assert_port_at_64_is_original_at_32
from trust_support import kp_inproc

HEADER = """\
#pragma once
__global__ void bcast(float *x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    unsigned m = __ballot_sync(0xffffffff, v > 0.0f);
    x[i] = __shfl_sync(0xffffffff, v, 0) + (float)__popc(m);
}
"""


def _includer(name: str, block: int) -> str:
    return f'#include "bc.cuh"\nvoid {name}(float *x, int n) {{\n    bcast<<<n / {block}, {block}>>>(x);\n}}\n'


def _run(tmp_path, *blocks: int):
    d = tmp_path / "p"
    d.mkdir()
    (d / "bc.cuh").write_text(HEADER)
    for k, b in enumerate(blocks):
        (d / f"u{k}.cu").write_text(_includer(f"run{k}", b))
    rc, _, err = kp_inproc("translate", d, "--to", "hip", "-o", tmp_path / "out")
    port = tmp_path / "out" / "bc.hip.h"
    return rc, err, port.read_text() if port.is_file() else ""


def test_a_header_kernel_launched_in_32_thread_blocks_is_ported_as_its_includers_launch_says(tmp_path):
    rc, err, text = _run(tmp_path, 32)
    assert rc == 0 and "KP220" not in err, err
    assert "x[i] = __shfl(v, 0, 32) + (float)__popc(m);" in text, text
    x = np.random.default_rng(5).uniform(-1, 1, 128).astype(np.float32)
    assert_port_at_64_is_original_at_32(HEADER, text, "bcast", {"x": x}, (4,), (32,), outputs=("x",))


def test_look_alike_whole_waves_keep_the_native_port(tmp_path):
    rc, err, text = _run(tmp_path, 256)
    assert rc == 0, err
    assert "unsigned long long m = __ballot(v > 0.0f);" in text and "__shfl(v, 0) + (float)__popcll(m)" in text, text


def test_includers_that_disagree_are_both_named(tmp_path):
    rc, err, _ = _run(tmp_path, 32, 256)
    assert rc == 1 and "bc.cuh:5:18: error: KP219" in err, err
    assert "the launch block `32` in u0.cu:3" in err and "the launch block `256` in u1.cu:3" in err, err
