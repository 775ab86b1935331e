"""A header's macro read at every includer of the run (heldout22: FPcompress/PFPL headers use `WS`,
each `.cu` defines it; kernelport/lint/includervalues.py) and shift counts below 32 by construction
(kernelport/lint/lanebits.py).  Each look-alike that goes quiet has a near case that must still flag:
an includer with WS 16 (warp == 0 is not a whole warp), an includer with WS 64 (the lane reaches 63),
the header linted alone."""
from __future__ import annotations

from pathlib import Path

from kernelport.lint import engine

HEADER = """\
#pragma once
static __device__ inline int block_rank(const int flag, int* const temp_w)
{
  const int tid = threadIdx.x;
  const int warp = tid / WS;
  const int lane = tid % WS;
  const int bm = __ballot_sync(~0, flag);
  if (lane == 0) temp_w[warp] = __popc(bm);
  __syncthreads();
  if (warp == 0) {
    int sum = temp_w[lane];
    const int tmp = __shfl_up_sync(~0, sum, 1);
    if (lane >= 1) sum += tmp;
    temp_w[lane] = sum;
  }
  __syncthreads();
  return __popc(bm & ((1 << lane) - 1));
}
"""

INCLUDER = """\
#define WS {ws}
static const int TPB = 512;
#include "rank.h"
__global__ void k{i}(int* t) {{ t[threadIdx.x] = block_rank(t[threadIdx.x] > 0, t); }}
"""

PER_WAVE = """\
#if defined(__AMDGCN_WAVEFRONT_SIZE) && (__AMDGCN_WAVEFRONT_SIZE == 64)
#define WS 64
#else
#define WS 32
#endif
static const int TPB = 512;
#include "rank.h"
__global__ void kw(int* t) { t[threadIdx.x] = block_rank(t[threadIdx.x] > 0, t); }
"""

SHUFFLE_LINE, BIT_LINE = 12, 17


def _codes(tmp_path: Path, files: dict[str, str]) -> dict[int, set[str]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out: dict[int, set[str]] = {}
    for r in engine.lint_paths([tmp_path / n for n in files], jobs=1):
        for f in r.findings:
            if Path(f.path).name == "rank.h":
                out.setdefault(f.line, set()).add(f.code)
    return out


def _includer(ws: int, i: int = 0) -> str:
    return INCLUDER.format(ws=ws, i=i)


def test_every_includer_32_warp_uniform(tmp_path):
    got = _codes(tmp_path, {"rank.h": HEADER, "a.cu": _includer(32), "b.cu": _includer(32, 1)})
    assert "WS012" not in got.get(SHUFFLE_LINE, set())
    # outside a wave branch `tid % WS` with WS 32 is the includers' WS001: fixed to the wave, lane reaches 63
    assert "WS010" in got.get(BIT_LINE, set())


def test_per_wave_and_32_includers_warp_uniform(tmp_path):
    got = _codes(tmp_path, {"rank.h": HEADER, "a.cu": _includer(32), "w.cu": PER_WAVE})
    assert "WS012" not in got.get(SHUFFLE_LINE, set())
    assert "WS010" in got.get(BIT_LINE, set())  # lane = tid % 64 on a 64-wide wave: the bit shifts past 31


def test_includer_with_ws16_keeps_ws012(tmp_path):
    got = _codes(tmp_path, {"rank.h": HEADER, "a.cu": _includer(32), "b.cu": _includer(16, 1)})
    assert "WS012" in got.get(SHUFFLE_LINE, set())  # warp == 0 is 16 lanes there


def test_includer_with_ws64_keeps_ws010(tmp_path):
    got = _codes(tmp_path, {"rank.h": HEADER, "a.cu": _includer(32), "b.cu": _includer(64, 1)})
    assert "WS010" in got.get(BIT_LINE, set())


def test_header_alone_keeps_both(tmp_path):
    got = _codes(tmp_path, {"rank.h": HEADER})
    assert "WS012" in got.get(SHUFFLE_LINE, set())
    assert "WS010" in got.get(BIT_LINE, set())


BRANCHED = """\
#pragma once
static __device__ inline int lane_rank(const int flag)
{
  const int lane = threadIdx.x % WS;
#if defined(WS) && (WS == 64)
  const unsigned long long tmp = __ballot_sync(~0, flag);
  const int bm = (lane < 32) ? (int)tmp : (int)(tmp >> 32);
  const int sublane = lane & 31;
#else
  const int bm = __ballot_sync(~0, flag);
  const int sublane = lane;
#endif
  return __popc(bm & ((1 << sublane) - 1));
}
"""


def test_wave_branch_sublane_fits_at_every_includer(tmp_path):
    files = {"rank.h": BRANCHED, "w.cu": PER_WAVE.replace("block_rank(t[threadIdx.x] > 0, t)", "lane_rank(t[threadIdx.x] > 0)")}
    got = _codes(tmp_path, files)
    assert "WS010" not in got.get(13, set())


def test_wave_branch_sublane_fits_at_32_includers(tmp_path):
    call = "block_rank(t[threadIdx.x] > 0, t)"
    files = {"rank.h": BRANCHED, "a.cu": _includer(32).replace(call, "lane_rank(t[threadIdx.x] > 0)"),
             "w.cu": PER_WAVE.replace(call, "lane_rank(t[threadIdx.x] > 0)")}
    assert "WS010" not in _codes(tmp_path, files).get(13, set())


def test_wave_branch_sublane_header_alone_flags(tmp_path):
    got = _codes(tmp_path, {"rank.h": BRANCHED})
    assert "WS010" in got.get(13, set())


def test_wave_branch_sublane_unknown_includer_flags(tmp_path):
    call = "block_rank(t[threadIdx.x] > 0, t)"
    files = {"rank.h": BRANCHED, "a.cu": _includer(32).replace(call, "lane_rank(t[threadIdx.x] > 0)"),
             "b.cu": "#include \"rank.h\"\n__global__ void kb(int* t) { t[0] = lane_rank(t[1] > 0); }\n"}
    assert "WS010" in _codes(tmp_path, files).get(13, set())
