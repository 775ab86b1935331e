"""WS001 on a header's warp-size definition that its own file never uses, judged in a tree run with its
includers (kernelport/lint/headeruses.py; limitz-cuda-audio's gpu.h in heldout56, `#define warpSize 32` that
no includer names; gpu-hdbscan's `const int WARP_SIZE = 32;` in nndescent.cuh, used nowhere; bitonic's
config.cuh, whose uses are quiet where they are).  Look-alikes that keep it: a header linted alone, one no file
of the run includes, and one an includer uses where a finding is (a lane index in a shuffle kernel, directly or
through a macro defined from it)."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_paths

QUIET_USER = """\
#include "defs.cuh"
__global__ void scale(float* x, float a) { x[blockIdx.x * blockDim.x + threadIdx.x] *= a; }
"""
LOUD_USER = """\
#include "defs.cuh"
__global__ void k(float* x) {
    int lane = threadIdx.x % WARP_SIZE;
    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + lane;
}
"""
THROUGH_MACRO = """\
#include "defs.cuh"
#define LANE (threadIdx.x % WARP_SIZE)
__global__ void k2(float* x) {
    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + LANE;
}
"""


def _header_ws001(tmp_path, define: str, users: dict[str, str], paths=None) -> list[int]:
    (tmp_path / "defs.cuh").write_text(f"#pragma once\n{define}\n")
    for name, text in users.items():
        (tmp_path / name).write_text(text)
    return [f.line for r in lint_paths(paths or [tmp_path], jobs=1) for f in r.findings
            if f.code == "WS001" and r.path.endswith("defs.cuh")]


@pytest.mark.parametrize("define", ["#define WARP_SIZE 32", "const int WARP_SIZE = 32;"])
def test_unused_by_its_includers_is_quiet(tmp_path, define):
    assert _header_ws001(tmp_path, define, {"k.cu": QUIET_USER}) == []


@pytest.mark.parametrize("define", ["#define WARP_SIZE 32", "const int WARP_SIZE = 32;"])
def test_alone_it_keeps_the_finding(tmp_path, define):
    assert _header_ws001(tmp_path, define, {"k.cu": QUIET_USER}, paths=[tmp_path / "defs.cuh"]) == [2]


def test_no_includer_in_the_run_keeps_it(tmp_path):
    (tmp_path / "other.cu").write_text(QUIET_USER.replace('#include "defs.cuh"\n', ""))
    assert _header_ws001(tmp_path, "#define WARP_SIZE 32", {}) == [2]


@pytest.mark.parametrize("user", [LOUD_USER, THROUGH_MACRO], ids=["direct", "through-a-macro"])
def test_a_loud_use_in_an_includer_keeps_it(tmp_path, user):
    assert _header_ws001(tmp_path, "#define WARP_SIZE 32", {"k.cu": user}) == [2]


def test_two_includers_one_loud(tmp_path):
    assert _header_ws001(tmp_path, "#define WARP_SIZE 32", {"a.cu": QUIET_USER, "b.cu": LOUD_USER}) == [2]


# A header's `#define LANE_MASK 31` as a default-width shuffle's source lane (GPUPrefixSums, heldout60:
# `prev = __shfl_sync(0xffffffff, tScan[k], LANE_MASK)`, Utils.cuh's macro): lane 31 taken as the warp's last
# at the use, as the literal is (WS006; kernelport/warpsites.py last_lane).  Look-alikes: an explicit width of 32
# (a logical row), and the name inside arithmetic (`(lane + LANE_MASK) & LANE_MASK`, not lane 31 itself).
LANE_HEADER = "#pragma once\n#define LANE_COUNT 32\n#define LANE_MASK 31\n"
LAST_LANE = """\
#include "lanes.cuh"
__global__ void k(unsigned* x) {
    unsigned v = x[threadIdx.x];
    unsigned total = SHUFFLE;
    x[threadIdx.x] = v + total;
}
"""


@pytest.mark.parametrize("shuffle, codes", [
    ("__shfl_sync(0xffffffff, v, LANE_MASK)", ["WS006"]),
    ("__shfl_sync(0xffffffff, v, LANE_MASK, LANE_COUNT)", []),
    ("__shfl_sync(0xffffffff, v, (threadIdx.x + LANE_MASK) & LANE_MASK, LANE_COUNT)", []),
], ids=["default-width", "width-32", "arithmetic-width-32"])
def test_header_name_for_lane_31(tmp_path, shuffle, codes):
    (tmp_path / "lanes.cuh").write_text(LANE_HEADER)
    (tmp_path / "k.cu").write_text(LAST_LANE.replace("SHUFFLE", shuffle))
    found = [f.code for r in lint_paths([tmp_path / "k.cu"], jobs=1) for f in r.findings
             if r.path.endswith("k.cu") and f.line == 4 and f.code != "WS007"]
    assert found == codes
