"""A function-like macro whose body has no safe rewrite, which no file of the translate run expands
(dgSPARSE-Lib's `SEG_SHFL_SCAN`: a 32-lane segmented scan in util/cuda_util.cuh, which every unit
includes and most never use).  Each including unit was refused for it (KP205 at the header), though
nothing of the run runs it.  Now its body is replaced by a `static_assert` that stops any expansion
at compile time (never a 32-lane body compiled into a wave-64 port), each problem is a warning, and
the run is written.  A macro the run expands (directly, or through another macro's body) is refused
as before; the Python API, which knows no run, refuses as before."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate
from trust_support import translate_run

SCAN = """#pragma once
#define FULLMASK 0xffffffff
#define SEG_SHFL_SCAN(v, tmpv, segid, tmps)                                    \\
  tmpv = __shfl_down_sync(FULLMASK, v, 1);                                     \\
  tmps = __shfl_down_sync(FULLMASK, segid, 1);                                 \\
  if (tmps == segid && lane_id < 31)                                           \\
    v += tmpv;                                                                 \\
  tmpv = __shfl_down_sync(FULLMASK, v, 16);                                    \\
  tmps = __shfl_down_sync(FULLMASK, segid, 16);                                \\
  if (tmps == segid && lane_id < 16)                                           \\
    v += tmpv;
"""
UNIT = """#include "scan.h"
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { BODY }
}
void run(float *x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }
"""
PLAIN = "x[i] *= 2.0f;"
# an expansion whose lanes are the wave's (`% warpSize`): the body is ported at the wave, where its scan's step at
# 16 has no safe copy (KP205).  With 32-based lanes (`& 31`, SCANNED_32) every expansion keeps 32-lane groups and
# the header's port gives the shuffles CUDA's width, 32 (kernelport/macro_run_widths.py): written, not refused.
SCANNED = "float v = x[i], t; int s = i / 4, ts, lane_id = threadIdx.x % warpSize; SEG_SHFL_SCAN(v, t, s, ts); x[i] = v;"
SCANNED_32 = SCANNED.replace("threadIdx.x % warpSize", "threadIdx.x & 31")


def run(tmp_path, unit: str, *extra: str):
    return translate_run(tmp_path, {"scan.h": SCAN}, unit, *extra)


def test_a_header_macro_no_unit_expands_is_written_as_a_stop(tmp_path):
    rc, _, err = run(tmp_path, UNIT.replace("BODY", PLAIN))
    assert rc == 0, err
    assert "scan.h:8:40: warning: KP205 in `SEG_SHFL_SCAN`, which no file of the run expands" in err, err
    header = (tmp_path / "out" / "scan.hip.h").read_text()
    assert 'static_assert(false, "kernelport: SEG_SHFL_SCAN is not ported (KP205)' in header
    assert "__shfl_down" not in header and "lane_id < 31" not in header
    # the port keeps the original's lines (the body's continuations stay)
    assert header.count("\\\n") == SCAN.count("\\\n")
    if shutil.which("hipcc"):  # the unit compiles: nothing expands the stop
        r = subprocess.run(["hipcc", "-c", "--offload-arch=gfx90a", "-o", str(tmp_path / "a.o"),
                            str(tmp_path / "out" / "a.hip")], capture_output=True, text=True,
                           env={**__import__("os").environ, "HIP_PLATFORM": "amd"})
        assert r.returncode == 0, r.stderr


def test_a_header_macro_a_unit_expands_is_refused(tmp_path):
    rc, _, err = run(tmp_path, UNIT.replace("BODY", SCANNED))
    assert rc == 1 and "scan.h:8:40: error: KP205" in err, err
    assert not (tmp_path / "out").exists()


def test_a_header_macro_units_expand_in_32_lane_groups_takes_width_32(tmp_path):
    """Re-pinned (stop 44): this expansion (`lane_id = threadIdx.x & 31`) was refused with KP205; every
    expansion of the run keeps 32-lane groups, so the header's shuffles take width 32 and the run is written."""
    rc, _, err = run(tmp_path, UNIT.replace("BODY", PLAIN), UNIT.replace("BODY", SCANNED_32))
    assert rc == 0, err
    header = (tmp_path / "out" / "scan.hip.h").read_text()
    assert "__shfl_down(v, 16, 32)" in header and "static_assert" not in header, header


def test_a_header_macro_another_unit_of_the_run_expands_is_refused(tmp_path):
    rc, _, err = run(tmp_path, UNIT.replace("BODY", PLAIN), UNIT.replace("BODY", SCANNED))
    assert rc == 1 and "scan.h:8:40: error: KP205" in err, err


def test_a_macro_named_in_another_macros_body_is_refused(tmp_path):
    unit = UNIT.replace("BODY", PLAIN).replace('#include "scan.h"\n',
                                               '#include "scan.h"\n#define SCAN4(v, t, s, ts) SEG_SHFL_SCAN(v, t, s, ts)\n')
    rc, _, err = run(tmp_path, unit)
    assert rc == 1 and "scan.h:8:40: error: KP205" in err, err


def test_the_api_without_a_run_refuses_as_before():
    port, _ = translate(SourceFile.from_text(SCAN.replace("#pragma once\n", "") + UNIT.split("\n", 1)[1].replace(
        "BODY", PLAIN), "t.cu"), "hip")
    assert not port.ok and [d.code for d in port.diagnostics if d.severity == "error"] == ["KP205"]
