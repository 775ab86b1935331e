"""A header's function-like macro whose shuffles name no width (dgSPARSE-Lib's `SEG_SHFL_SCAN` and
`SHFL_DOWN_REDUCE` in util/cuda_util.cuh), expanded by kernels of other files whose lanes are 32-based
(`lane_id = threadIdx.x & (32 - 1)`): the header's port gives each such shuffle CUDA's width, 32, where
every expansion the run shows keeps 32-lane groups (kernelport.macro_run_widths), and the emulator shows
the port computes what CUDA computes at wave 32 and 64 (the same port without the width does not: lane
16's sum reads lane 32 at wave 64).  Look-alikes: an expansion with warpSize lanes keeps the wave port; an
expansion in a function whose port makes its warp the wave is refused at the use (KP219)."""
from __future__ import annotations

from pathlib import Path

from trust_support import kp_inproc

SCAN = '#pragma once\n#define FULLMASK 0xffffffff\n#define SEG_SCAN(v, tmpv, segid, tmps)                                         \\\n  tmpv = __shfl_down_sync(FULLMASK, v, 1);                                     \\\n  tmps = __shfl_down_sync(FULLMASK, segid, 1);                                 \\\n  if (tmps == segid && lane_id < 31)                                           \\\n    v += tmpv;                                                                 \\\n  tmpv = __shfl_down_sync(FULLMASK, v, 2);                                     \\\n  tmps = __shfl_down_sync(FULLMASK, segid, 2);                                 \\\n  if (tmps == segid && lane_id < 30)                                           \\\n    v += tmpv;                                                                 \\\n  tmpv = __shfl_down_sync(FULLMASK, v, 4);                                     \\\n  tmps = __shfl_down_sync(FULLMASK, segid, 4);                                 \\\n  if (tmps == segid && lane_id < 28)                                           \\\n    v += tmpv;                                                                 \\\n  tmpv = __shfl_down_sync(FULLMASK, v, 8);                                     \\\n  tmps = __shfl_down_sync(FULLMASK, segid, 8);                                 \\\n  if (tmps == segid && lane_id < 24)                                           \\\n    v += tmpv;                                                                 \\\n  tmpv = __shfl_down_sync(FULLMASK, v, 16);                                    \\\n  tmps = __shfl_down_sync(FULLMASK, segid, 16);                                \\\n  if (tmps == segid && lane_id < 16)                                           \\\n    v += tmpv;\n\n#define WARP_SUM(v)                                                            \\\n  v += __shfl_down_sync(FULLMASK, v, 16);                                      \\\n  v += __shfl_down_sync(FULLMASK, v, 8);                                       \\\n  v += __shfl_down_sync(FULLMASK, v, 4);                                       \\\n  v += __shfl_down_sync(FULLMASK, v, 2);                                       \\\n  v += __shfl_down_sync(FULLMASK, v, 1);\n'

SEGSUM = '#include "scan.cuh"\n\n// @kp kernel     segsum\n// @kp grid       2\n// @kp block      128\n// @kp arg        x    in   float[256]  uniform(-1, 1)\n// @kp arg        seg  in   int[256]    uniform(0, 64)\n// @kp arg        y    out  float[256]\n// @kp arg        z    out  float[256]\n// @kp tolerance  auto\n// @kp targets    hip\n// @kp warp-width 32\n__global__ void segsum(const float *x, const int *seg, float *y, float *z) {\n  int tid = blockIdx.x * blockDim.x + threadIdx.x;\n  int lane_id = threadIdx.x & (32 - 1);\n  float v = x[tid];\n  int s = seg[tid] >> 3;\n  float tmpv;\n  int tmps;\n  SEG_SCAN(v, tmpv, s, tmps);\n  y[tid] = v;\n  float w = x[tid];\n  WARP_SUM(w);\n  z[tid] = w;\n}\n'

WAVE = '#include "scan.cuh"\n\n__global__ void k(const float *x, float *y) {\n  int lane = threadIdx.x % warpSize;\n  float w = x[threadIdx.x];\n  WARP_SUM(w);\n  if (lane == 0)\n    y[threadIdx.x / warpSize] = w;\n}\n'

WIDE = '#include "scan.cuh"\n\n__global__ void k(const float *x, float *y) {\n  int lane_id = threadIdx.x & (32 - 1);\n  float w = x[threadIdx.x];\n  float last = __shfl_sync(FULLMASK, w, (32 - 1));\n  WARP_SUM(w);\n  if (lane_id == 0)\n    y[threadIdx.x] = w + last;\n}\n'


def _write(d: Path, name: str, text: str) -> Path:
    (d / "scan.cuh").write_text(SCAN)
    (d / name).write_text(text)
    return d / name


def test_every_expansion_in_32_lane_groups_gives_the_shuffles_width_32_and_verifies(tmp_path):
    cu = _write(tmp_path, "segsum.cu", SEGSUM)
    rc, out, err = kp_inproc("translate", cu, "--to", "hip", "-o", tmp_path, "--explain")
    assert rc == 0, err
    header = (tmp_path / "scan.hip.h").read_text()
    assert header.count(", 32)") == 15 and "__shfl_down(v, 16, 32)" in header, header
    assert "take CUDA's width, 32 (expanded at segsum.cu:20)" in out + err, out + err
    rc, out, err = kp_inproc("verify", cu)
    assert rc == 0, out + err
    assert "1 file, 20 checks, 0 failed, 0 skipped" in out, out


def test_the_port_without_the_width_is_wrong_at_wave_64(tmp_path):
    """The test above can fail: the header's port with its widths removed computes something else."""
    cu = _write(tmp_path, "segsum.cu", SEGSUM)
    assert kp_inproc("translate", cu, "--to", "hip", "-o", tmp_path)[0] == 0
    h = tmp_path / "scan.hip.h"
    h.write_text(h.read_text().replace(", 32)", ")"))
    rc, out, err = kp_inproc("verify", cu)
    numeric = [line for line in out.splitlines() if line.startswith("FAIL") and "numeric" in line]
    assert rc == 1 and numeric and all("hip wave 64" in line and ": z[" in line for line in numeric), out


def test_an_expansion_with_warpsize_lanes_keeps_the_wave_port(tmp_path):
    cu = _write(tmp_path, "wave.cu", WAVE)
    rc, out, err = kp_inproc("translate", cu, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0, err
    header = (tmp_path / "out" / "scan.hip.h").read_text()
    assert "__shfl_down(v, 16);" in header and ", 32)" not in header, header


def test_an_expansion_whose_port_widens_its_function_is_refused_at_the_use(tmp_path):
    cu = _write(tmp_path, "wide.cu", WIDE)
    rc, out, err = kp_inproc("translate", cu, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 1 and "wide.cu:7:3: error: KP219" in err, err
    assert "the header's port gives `WARP_SUM`'s shuffles CUDA's width, 32" in err and \
        "(`32` at line 6 is ported as the wave's)" in err and "// @kp warp-width 32" in err, err


def test_widened_names_only_shuffles():
    from kernelport.macro_run_widths import widened
    assert widened("v += __shfl_down_sync(M, v, 16);") == "v += __shfl_down_sync(M, v, 16, 32);"
    assert widened("v += __shfl_down_sync(M, v, 16, 16);") is None  # a width given: nothing to do
    assert widened("b = __ballot_sync(M, p); v += __shfl_down_sync(M, v, 1);") is None  # a vote has no width
