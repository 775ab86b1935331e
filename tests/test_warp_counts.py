"""A two-level block reduction whose per-warp slots are read back under a fixed count of 32-lane warps
(`lane < 256 / 32`, `tid < NW`, `i < 8`, `part[7]`) keeps CUDA's 32-lane groups in a port
(kernelport/warpcounts.py); lint still reads the code as written.

Stop 46 (bench/halfvote_lane_shapes46.txt) found translate porting tests/test_lint_row_splits_reach.py's
AFTER_IF and LOOP_TURN shapes to the whole wave: `tid / warpSize` writes slots 0-3 of a 256-thread block
at wave 64 while `lane < 256 / 32` reads 0-7 (`kernelport verify --oracle original`: an unwritten shared
read at 64, and 240 / 1024 elements of y wrong where every lane reads the sum).  Each port here is run on
the emulator at wave 64 against the original at wave 32."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.lint.engine import lint_text
from kernelport.lint.rowsplits import KEPT_ROWS, REFUSED_ROWS, WHOLE_WAVE
from kernelport.source import SourceFile
from kernelport.translate import translate
from test_lint_row_splits_reach import AFTER_IF

# tests/test_lint_row_splits_reach.py's AFTER_IF with its second level as READ and every lane reading the sum
BLOCK_SUM = AFTER_IF.replace("    v = lane < 256 / 32 ? part[lane] : 0.0f;\n    if (warp < 8) {\n        v = warp_sum(v);\n"
                             "    }\n", "    READ\n").replace("y[blockIdx.x * 256 + tid] = a;", "y[blockIdx.x * 256 + tid] = a * v;")
assert "READ" in BLOCK_SUM
FIXED = {  # reads of the slots bounded by a count the port would keep at 32
    "ternary": "v = lane < 256 / 32 ? part[lane] : 0.0f; v = warp_sum(v);",
    "macro": "#define NW 8\n    v = 0.0f; if (tid < NW) v = part[tid]; v = warp_sum(v);",
    "loop": "if (tid == 0) { v = 0.0f; for (int i = 0; i < 8; ++i) v += part[i]; }",
    "const_local": "const int nwarps = 256 / 32; v = lane < nwarps ? part[lane] : 0.0f; v = warp_sum(v);",
    "and_chain": "v = (warp == 0 && lane < 8) ? part[lane] : 0.0f; v = warp_sum(v);",
    "slots": "if (tid == 0) v = part[0] + part[1] + part[2] + part[3] + part[4] + part[5] + part[6] + part[7];",
}


def _port(text: str, backend: str = "hip"):
    return translate(SourceFile.from_text(text, "t.cu"), backend)


def _run(text: str, wave: int, backend: str | None = None):
    rng = np.random.default_rng(7)
    args = {"x": rng.integers(-3, 4, 1024).astype(np.float32), "y": np.zeros(1024, np.float32),
            "out": np.zeros(4, np.float32)}
    r = run_kernel(text, "block_sum", args=args, grid=(4, 1, 1), block=(256, 1, 1), wave=wave, backend=backend)
    return r.outputs, r.races


@pytest.mark.parametrize("name", sorted(FIXED))
def test_a_fixed_count_of_warps_reading_the_slots_keeps_32_lane_groups(name):
    port, _ = _port(BLOCK_SUM.replace("READ", FIXED[name]))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__shfl_down(v, o, 32)" in port.body and "tid & 31" in port.body and "tid >> 5" in port.body, port.body


@pytest.mark.parametrize("name", ["ternary", "macro", "slots"])
def test_the_kept_port_computes_the_original_at_wave_64(name):
    original = BLOCK_SUM.replace("READ", FIXED[name])
    port, text = _port(original)
    assert port.ok
    want, _ = _run(original, 32)
    got, races = _run(text, 64, "hip")
    assert not races, races  # no slot read that no wave wrote
    for k in ("y", "out"):
        assert np.array_equal(got[k], want[k]), k  # integer-valued inputs: exact sums


READS_UNFIXED = [
    "v = lane < blockDim.x / 32 ? part[lane] : 0.0f; if (warp == 0) v = warp_sum(v);",  # the port divides by the wave
    "v = lane < (blockDim.x >> 5) ? part[lane] : 0.0f; if (warp == 0) v = warp_sum(v);",
    "if (tid == 0) v = part[0];",  # the first slot: no count
    "v = lane < n ? part[lane] : 0.0f; if (warp == 0) v = warp_sum(v);",  # no constant decides it
]


def _unfixed(read: str) -> str:
    return BLOCK_SUM.replace("READ", read).replace("float* out)", "float* out, int n)") \
        .replace("block_sum<<<n, 256>>>(x, y, out)", "block_sum<<<n, 256>>>(x, y, out, n)")


@pytest.mark.parametrize("read", [r for r in READS_UNFIXED if "part[0]" not in r])
def test_a_count_the_port_rewrites_or_no_constant_decides_stays_wave_wide(read):
    """(Re-pinned, stop 47: y stores `a`, the sums reach `out` through lane 0 only.  With every lane storing
    `a * v`, lanes 1-31 store the down ladder's partial folds, and the wave-wide port pinned here computed
    another y at 64: test_every_lane_reading_a_first_level_fold_keeps_32_lanes_whatever_the_count.
    Re-pinned, stop 48: `if (tid == 0) v = part[0];` left this list: out = part[0] is warp 0's fold alone, a
    64-lane wave's in the wave port: `verify --oracle original` failed it at 64 (numeric, hip and portable);
    test_one_slot_stored_by_the_block_leader_keeps_32_lanes.)"""
    port, _ = _port(_unfixed(read).replace("a * v;", "a;"))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "warpSize / 2" in port.body and "tid & (warpSize - 1)" in port.body, port.body


def test_one_slot_stored_by_the_block_leader_keeps_32_lanes():
    """Thread 0 stores slot 0 (warp 0's fold) as the block's result: one warp's fold, not recombined, so the port
    keeps 32-lane groups (kernelport/fold_levels.py) and computes the original's out at wave 64."""
    original = _unfixed("if (tid == 0) v = part[0];").replace("a * v;", "a;")
    port, text = _port(original)
    assert port.ok and "__shfl_down(v, o, 32)" in port.body, port.body
    rng = np.random.default_rng(7)
    args = {"x": rng.integers(-3, 4, 1024).astype(np.float32), "y": np.zeros(1024, np.float32),
            "out": np.zeros(4, np.float32), "n": 8}
    want = run_kernel(original, "block_sum", args=args, grid=(4, 1, 1), block=(256, 1, 1), wave=32).outputs
    got = run_kernel(text, "block_sum", args=args, grid=(4, 1, 1), block=(256, 1, 1), wave=64, backend="hip")
    assert not got.races and all(np.array_equal(got.outputs[k], want[k]) for k in ("y", "out")), got.outputs["out"]


@pytest.mark.parametrize("read", READS_UNFIXED)
def test_every_lane_reading_a_first_level_fold_keeps_32_lanes_whatever_the_count(read):
    """Every lane's `y = a * v` reads the down ladder's fold (partial in lanes 1-31; warps other than 0 keep their
    first level): translate keeps 32-lane groups (kernelport/fold_levels.py), and the port computes the
    original's y and out at wave 64 (on main before it, the wave-wide port gave another y in all four)."""
    original = _unfixed(read)
    port, text = _port(original)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__shfl_down(v, o, 32)" in port.body and "warpSize" not in port.body, port.body
    rng = np.random.default_rng(7)
    args = {"x": rng.integers(-3, 4, 1024).astype(np.float32), "y": np.zeros(1024, np.float32),
            "out": np.zeros(4, np.float32), "n": 8}
    want = run_kernel(original, "block_sum", args=args, grid=(4, 1, 1), block=(256, 1, 1), wave=32).outputs
    got = run_kernel(text, "block_sum", args=args, grid=(4, 1, 1), block=(256, 1, 1), wave=64, backend="hip")
    assert not got.races, got.races
    for k in ("y", "out"):
        assert np.array_equal(got.outputs[k], want[k]), k


def test_a_warp_size_macro_the_port_makes_the_wave_is_no_fixed_count():
    """(Re-pinned, stop 47: one lane per warp reads the sum; where every lane reads it, the group is marked for 32
    lanes (butterfly_lanes) and, its lanes reading the macro, refused KP219 as below.)"""
    text = ("#define WARP_SIZE 32\n" + BLOCK_SUM.replace("READ", "v = lane < 256 / WARP_SIZE ? part[lane] : 0.0f;")
            .replace("tid & 31", "tid % WARP_SIZE").replace("tid >> 5", "tid / WARP_SIZE"))
    port, _ = _port(text.replace("a * v;", "a;"))
    assert port.ok and "warpSize / 2" in port.body, port.body
    port, _ = _port(text)
    assert any(d.code == "KP219" for d in port.diagnostics), port.body


def test_full_mask_votes_are_kept_per_cuda_warp_and_other_votes_refused_at_the_count():
    ballot = BLOCK_SUM.replace("READ", "unsigned m = __ballot_sync(0xffffffffu, lane < 8);\n"
                               "    v = lane < 8 ? part[lane] : 0.0f; v = warp_sum(v) + __popc(m);")
    port, _ = _port(ballot)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__shfl_down(v, o, 32)" in port.body and "__lane_id() & 32" in port.body, port.body
    active = BLOCK_SUM.replace("READ", "unsigned m = __activemask();\n"
                               "    v = lane < 8 ? part[lane] : 0.0f; v = warp_sum(v) + (m != 0);")
    port, _ = _port(active)
    found = [(d.code, d.location.line, d.location.column) for d in port.diagnostics]
    assert ("KP219", 14, 18) in found, found  # at the vote, naming the count
    assert any("`8` (line 15) counts the block's warps of 32" in d.message for d in port.diagnostics)


def test_lint_reads_the_code_as_written_and_says_what_translate_does():
    every = [f for f in lint_text(BLOCK_SUM.replace("READ", FIXED["ternary"]), "t.cu") if f.code == "WS002"]
    assert [f.severity for f in every] == ["error"]  # every lane reads the second level: a hazard as written
    leader = BLOCK_SUM.replace("READ", FIXED["ternary"]).replace("a * v;", "a;")
    advice = [f.message for f in lint_text(leader, "t.cu") if f.code == "WS002"]
    assert len(advice) == 1 and KEPT_ROWS in advice[0], advice
    rewritten = leader.replace("256 / 32 ?", "blockDim.x / 32 ?")
    advice = [f.message for f in lint_text(rewritten, "t.cu") if f.code == "WS002"]
    assert len(advice) == 1 and WHOLE_WAVE in advice[0], advice


def test_lanes_from_a_warp_size_macro_the_port_makes_the_wave_are_refused_at_the_count():
    """`#define WARP_SIZE 32` read by the group's lanes: the port defines it as the wave width for every function,
    so the group cannot keep 32 lanes (its `tid % WARP_SIZE` would be the wave's lane beside width-32 shuffles)."""
    text = ("#define WARP_SIZE 32\n" + BLOCK_SUM.replace("READ", "v = lane < 8 ? part[lane] : 0.0f; v = warp_sum(v);")
            .replace("tid & 31", "tid % WARP_SIZE").replace("tid >> 5", "tid / WARP_SIZE"))
    port, _ = _port(text)
    found = [(d.code, d.location.line, d.location.column) for d in port.diagnostics]
    assert ("KP219", 15, 16) in found, found  # the `8` of `lane < 8`
    assert any("its lanes read `WARP_SIZE`" in d.message for d in port.diagnostics)
    advice = [f.message for f in lint_text(text.replace("a * v;", "a;"), "t.cu") if f.code == "WS004"]
    assert len(advice) == 1 and REFUSED_ROWS in advice[0], advice  # lint's advice says what translate does
