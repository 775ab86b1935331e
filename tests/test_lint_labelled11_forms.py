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


# gc-hip at 77e3b1d0f6^, reduced: `WS` is both the warp and the bits of a colour word.  WS001 is
# reported at the constant (its 32 reaches `who == lane`); the lines where it becomes the hazard are
# the lane derivations `threadIdx.x % WS` that test reads, named as related locations, while its uses
# as bits per word (`MSB`, `wbeg / WS`, `% WS` of a colour) are not.
GC = """\
static const int WS = 32;  // warp size and bits per int
static const int MSB = 1 << (WS - 1);

__global__ void init(const int* nidx, int* posscol, int* wl, int nodes)
{
  const int lane = threadIdx.x % WS;
  const int v = threadIdx.x + blockIdx.x * blockDim.x;
  bool cond = v < nodes && nidx[v + 1] - nidx[v] >= WS;
  int pos = 0, beg = v < nodes ? nidx[v] : 0;
  unsigned long long bal = __ballot(cond);
  while (bal != 0) {
    const int who = __ffsll(bal) - 1;
    bal &= bal - 1;
    const int wbeg = __shfl(beg, who);
    if (who == lane) pos = wbeg;
  }
  if (v < nodes) posscol[v] = (pos >= WS) ? -1 : (MSB >> (pos % WS));
  posscol[nodes + v / WS] = pos;
}
"""


def _found(text: str, code: str):
    from kernelport.lint import lint_text
    return [f for f in lint_text(text, "gc.cu") if f.code == code]


def test_a_constant_that_is_the_warp_and_a_word_width_names_its_lane_derivations():
    found = _found(GC, "WS001")
    assert [f.line for f in found] == [1]
    assert "`WS`" in found[0].message  # named, where it said `this constant`
    assert [r.line for r in found[0].related] == [6]  # lane = threadIdx.x % WS, read by `who == lane`


def test_a_lane_derivation_no_warp_level_use_reads_is_not_named():
    # the same lane computed but never compared with a wave position: the constant still reaches a
    # warp-level use elsewhere (the shuffle width), and no derivation is named
    quiet = GC.replace("if (who == lane) pos = wbeg;", "pos = wbeg + __shfl(beg, 1, WS);")
    found = _found(quiet, "WS001")
    assert found and not found[0].related
    # a bit index of a 32-bit word taken from a thread index (`tid % WS` into `1u << bit`): not named
    bits = GC.replace("if (v < nodes) posscol[v]", "const int bit = threadIdx.x % WS;\n  posscol[v] |= 1u << bit;\n  if (v < nodes) posscol[v]")
    assert [r.line for r in _found(bits, "WS001")[0].related] == [6]


# vadd-hip at 5d70c5f333^, reduced: the block's tile is 256 columns = 32 lanes x 8, the lane is the
# hardware wave's (a per-architecture WarpSize, 64 on GFX9).
VADD = """\
static constexpr int TILE_M = 16;
static constexpr int TILE_N = 256;  // = 32 lanes x 8 values
static constexpr int VALS_M = 4;
static constexpr int VALS_N = 8;

__global__ void tv_add(const float* a, float* c, int N)
{
#if defined(__GFX8__) || defined(__GFX9__)
  #define WarpSize 64
#else
  #define WarpSize 32
#endif
  int blk_row = blockIdx.y * TILE_M;
  int blk_col = blockIdx.x * TILE_N;
  int warp_id = threadIdx.x / WarpSize;
  int lane_id = threadIdx.x % WarpSize;
  int row_start = blk_row + warp_id * VALS_M;
  int col_start = blk_col + lane_id * VALS_N;
  for (int vm = 0; vm < VALS_M; ++vm)
    for (int i = 0; i < VALS_N; ++i)
      c[(row_start + vm) * N + col_start + i] = a[(row_start + vm) * N + col_start + i];
}
"""


def test_a_block_tile_of_32_lanes_indexed_by_the_wave_lane_is_flagged_at_its_width():
    found = _found(VADD, "WS029")
    assert [f.line for f in found] == [2]  # TILE_N, not TILE_M (rows of warps)
    assert [r.line for r in found[0].related] == [18, 14]  # the index, the block's stride
    assert found[0].severity == "error"


def test_a_tile_of_a_32_lane_group_or_of_64_lanes_stays_quiet():
    assert not _found(VADD.replace("lane_id = threadIdx.x % WarpSize", "lane_id = threadIdx.x % 32"), "WS029")
    assert not _found(VADD.replace("TILE_N = 256", "TILE_N = 512"), "WS029")
    assert not _found(VADD.replace("lane_id * VALS_N", "warp_id * VALS_N"), "WS029")
    # the lane is a local read once: a second assignment makes its value unknown
    assert not _found(VADD.replace("  int row_start", "  blk_col = 0;\n  int row_start"), "WS029")
