"""Lint behaviours designed on tests/labelled11 (four HeCBench programs before their 2026 wave-64
fixes), each with a case it must flag and a look-alike it must not:

- a warp size kept as a header's constant (rsmt's utils.h: `static const int WS = 32;  // warp
  size`, every lane and warp index in main.cu): the includer's analysis reads it like a header
  macro (kernelport.headerconsts), so WS001 is reported at its first warp-level use and names the
  definition in the header; a header constant of 32 that is a tile's side, and one in the branch of
  `#if defined(__GFX9__)` ... `#else`, stay silent.

The set's own check that needs none of its projects' files (they are not committed: its README) is
here too; tests/local_labelled11.py lints them, run by hand after
`python scripts/labelled_sources.py tests/labelled11`.  Lint's figure before any change made for
the set is bench/lint_recall_labelled11_before.txt."""
from __future__ import annotations

import json
from pathlib import Path

from labelled_support import assert_sourced_without_code
from trust_support import kp_inproc

# rsmt-hip at a806cb3d62^, reduced: the warp size in utils.h, the net kernel in main.cu.
UTILS = """\
#pragma once
static const int MaxPins = 256;
static const int WS = 32;  // warp size
"""

MAIN = """\
#include "utils.h"
__device__ int next;
__global__ void nets(int* out, int n) {
  const int lane = threadIdx.x % WS;
  do {
    int i;
    if (lane == 0) i = atomicAdd(&next, 1);
    i = __shfl(i, 0);
    if (i >= n) break;
    out[i * WS + lane] = __any(lane < 3);
  } while (true);
}
"""

TILE = """\
#pragma once
static const int TileDim = 32;  // a tile's side
"""

TILE_MAIN = """\
#include "tile.h"
__global__ void transpose(float* o, const float* i) {
  __shared__ float t[TileDim][TileDim + 1];
  t[threadIdx.y][threadIdx.x] = i[threadIdx.y * TileDim + threadIdx.x];
  __syncthreads();
  o[threadIdx.x * TileDim + threadIdx.y] = t[threadIdx.x][threadIdx.y];
}
"""

BRANCHED = """\
#pragma once
#if !defined(__GFX8__) && !defined(__GFX9__)
static const int WS = 32;
#else
static const int WS = 64;
#endif
"""


def _ws001(tmp_path: Path, header: str, header_text: str, text: str) -> list[dict]:
    (tmp_path / header).write_text(header_text)
    k = tmp_path / "main.cu"
    k.write_text(text)
    rc, out, err = kp_inproc("lint", "--format", "json", "-I", str(tmp_path), str(k))
    assert rc in (0, 1), err
    return [f for f in json.loads(out) if f["code"] == "WS001"]


def test_a_warp_size_kept_as_a_header_constant_is_flagged_at_its_use_naming_the_header(tmp_path: Path):
    got = _ws001(tmp_path, "utils.h", UTILS, MAIN)
    assert len(got) == 1 and got[0]["line"] == 4, got
    assert ("utils.h", 3) in {(Path(r["path"]).name, r["line"]) for r in got[0]["related"]}, got
    assert "header's constant" in got[0]["message"], got  # translate does not rewrite it (headerconsts)


def test_a_header_constant_of_32_that_is_a_tile_side_stays_silent(tmp_path: Path):
    assert _ws001(tmp_path, "tile.h", TILE, TILE_MAIN) == []


def test_a_header_constant_in_a_platform_branch_stays_silent(tmp_path: Path):
    assert _ws001(tmp_path, "utils.h", BRANCHED, MAIN) == []


def test_every_label_names_a_source_and_quotes_no_code():
    assert_sourced_without_code(Path(__file__).resolve().parent / "labelled11")
