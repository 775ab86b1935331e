"""An xor exchange ladder from 16 that is not a reduction (kernelport/xorexchange.py): the LC framework's
32-lane bit transpose (burtscher/FPcompress and PFPL's d_BIT_4.h, heldout22) swaps halves of a word with
partner `lane ^ 16`, `^ 8`, ... `^ 1`, each lane picking its half by its own lane bit.  An xor below 32
stays in its aligned 32 lanes, so at wave 64 each 32-lane half runs the same transpose: the port keeps
the steps as written (main refused it, KP205, as a ladder with no step at 32).  A reduction ladder from
16 keeps its step at 32, and a look-alike whose partner value escapes the lane-bit test (or whose test is of
another bit, or of a uniform flag's bit 16, or whose result reaches a widened shuffle or a leader test)
stays a ladder."""
from __future__ import annotations

import textwrap

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

# d_BIT_4's transpose, in a kernel that also votes over the whole wave (not a logical 32-lane group).
TRANSPOSE = r"""
__global__ void bit4(const unsigned int* in, unsigned int* out, int* nonzero)
{
  const int SWS = 32;
  const int tid = threadIdx.x;
  const int sublane = tid % SWS;
  const int i = blockIdx.x * blockDim.x + tid;
  unsigned int a = in[i];
  unsigned int q = __shfl_xor_sync(~0, a, 16);
  unsigned int mask = 0x0000FFFF;
  if ((sublane & 16) == 0) {
    a = (a & ~mask) | ((q >> 16) & mask);
  } else {
    a = ((q << 16) & ~mask) | (a & mask);
  }
  q = __shfl_xor_sync(~0, a, 8);
  mask = 0x00FF00FF;
  a = ((sublane & 8) == 0) ? ((a & ~mask) | ((q >> 8) & mask)) : (((q << 8) & ~mask) | (a & mask));
  q = __shfl_xor_sync(~0, a, 4);
  mask = 0x0F0F0F0F;
  if ((sublane & 4) == 0) a = (a & ~mask) | ((q >> 4) & mask); else a = ((q << 4) & ~mask) | (a & mask);
  q = __shfl_xor_sync(~0, a, 2);
  mask = 0x33333333;
  if ((sublane & 2) == 0) a = (a & ~mask) | ((q >> 2) & mask); else a = ((q << 2) & ~mask) | (a & mask);
  q = __shfl_xor_sync(~0, a, 1);
  mask = 0x55555555;
  if ((sublane & 1) == 0) a = (a & ~mask) | ((q >> 1) & mask); else a = ((q << 1) & ~mask) | (a & mask);
  out[i] = a;
  unsigned int b = __ballot_sync(0xffffffff, a != 0);
  if (threadIdx.x % warpSize == 0) atomicAdd(nonzero, __popc(b));
}
"""
# PFPL's d_BIT_8 form: the shuffle stored in a variable declared before it.
TRANSPOSE_SPLIT = TRANSPOSE.replace("  unsigned int q = __shfl_xor_sync(~0, a, 16);\n",
                                    "  unsigned int q = a;\n  q = __shfl_xor_sync(~0, a, 16);\n")
# The same first step as a sum: every lane folds its partner in, whatever its lane bit.
REDUCTION = TRANSPOSE.replace("  unsigned int q = __shfl_xor_sync(~0, a, 16);\n",
                              "  a += __shfl_xor_sync(~0, a, 16);\n  unsigned int q = a;\n")
# Look-alikes: the partner's value also read outside the lane-bit test; a test of another bit.
ESCAPES = TRANSPOSE.replace("  unsigned int mask = 0x0000FFFF;\n", "  unsigned int mask = 0x0000FFFF;\n  a ^= q;\n")
OTHER_BIT = TRANSPOSE.replace("if ((sublane & 16) == 0) {", "if ((sublane & 8) == 0) {")
# ... and a test of bit 16 of a uniform flag, not of the lane: `if (mode & 16) v += q` would be a sum step.
UNIFORM_BIT = TRANSPOSE.replace("int* nonzero)", "int* nonzero, int mode)").replace(
    "if ((sublane & 16) == 0) {", "if ((mode & 16) == 0) {")
# ... and an exchange whose result another lane reads by a shuffle the port widens (lane 31 -> the wave's last).
LANE_READ = TRANSPOSE.replace("  out[i] = a;\n", "  out[i] = __shfl_sync(0xffffffff, a, 31);\n")
# ... or reads under a leader test of the wave (at 64 lane 0 holds only its half's word).
LEADER = TRANSPOSE.replace("  out[i] = a;\n", "  if (threadIdx.x % warpSize == 0) out[blockIdx.x] = a;\n")


def port(src: str, target: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(src), "k.cu"), target)


def _run(src: str, wave: int, backend=None):
    x = np.random.default_rng(7).integers(0, 2 ** 32, 256, dtype=np.uint64).astype(np.uint32)
    out, nz = np.zeros(256, np.uint32), np.zeros(1, np.int32)
    r = run_kernel(src, "bit4", args=dict(**{"in": x}, out=out, nonzero=nz), grid=(2,), block=(128,), wave=wave,
                   backend=backend)
    return r.outputs["out"].tolist(), r.outputs["nonzero"].tolist()


def test_transpose_ports_as_written_and_computes_at_64_what_it_computes_at_32():
    for src in (TRANSPOSE, TRANSPOSE_SPLIT):
        p, text = port(src)
        assert p.ok, [d.format() for d in p.diagnostics]
        assert "q = __shfl_xor(a, 16);" in p.body and "warpSize / 2" not in p.body, p.body
        assert _run(text, 64, backend="hip") == _run(src, 32)


def test_transpose_port_compiles_for_gfx90a_and_gfx1030(tmp_path):
    p, text = port(TRANSPOSE)
    assert p.ok, [d.format() for d in p.diagnostics]
    require_tool("hipcc")
    f = tmp_path / "bit4.hip"
    f.write_text(text)
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"], extra_args=("-std=c++17",))


def test_reduction_step_from_16_whose_fold_every_lane_stores_keeps_32_lanes():
    """Re-pinned (h/heldout36): the sum step's fold reaches `out[i] = a` in every lane, so the port keeps
    CUDA's 32-lane groups (kernelport/butterfly_lanes.py: every shuffle width 32).  The port pinned before
    (a step at 32 added first) summed 4 lanes where CUDA sums 2: the emulator at wave 64 gave 256 of 256
    outputs different from CUDA's at 32; this one gives CUDA's."""
    p, text = port(REDUCTION)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "  a += __shfl_xor(a, 16, 32);\n" in p.body and "warpSize / 2" not in p.body, p.body
    assert _run(text, 64, backend="hip") == _run(REDUCTION, 32)


def test_look_alikes_stay_ladders_and_are_refused_where_no_step_fits():
    for src in (ESCAPES, OTHER_BIT, UNIFORM_BIT, LANE_READ, LEADER):
        p, _ = port(src)
        assert [d.code for d in p.diagnostics if d.severity == "error"] == ["KP205"], \
            [d.format() for d in p.diagnostics]


def _ladder_findings(src: str) -> list[tuple[str, int]]:
    """Where lint takes the shuffle's 16 for a ladder's: WS004 (folds only 32 lanes), WS016 (a hardcoded
    wave width beside `warpSize`)."""
    return [(f.code, f.line) for f in lint_text(textwrap.dedent(src), "k.cu") if f.code in ("WS004", "WS016")]


def test_lint_is_quiet_on_the_transpose_and_still_reports_the_reduction():
    assert _ladder_findings(TRANSPOSE) == []
    for src in (REDUCTION, ESCAPES, UNIFORM_BIT):
        assert _ladder_findings(src) == [("WS004", 9), ("WS016", 9)]
