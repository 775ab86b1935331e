"""WS002/WS003's advice in a 32-lane group translate keeps with each vote over its CUDA warp
(kernelport/lint/halfvoteports.py): the message names that port instead of `warpSize`, the verdict
stays.  Lint and translate agree: each claim is checked against what translate writes.

The shapes are tests/test_lint_row_splits_reach.py's block reduction (ADEPT's, tests/labelled15),
which bench/halfvote_lane_shapes46.txt ran in the emulator: with the built-in `warpSize` in the
helper's ladder (sums_builtin) or its ballot read as data too (sums_popc), the original as written
differs at wave 64 (an error) and translate's HIP port, which keeps the 32-lane groups, passes at 32
and 64; with the row result read by every lane (sums_every) the group is the wave's and translate
refuses it (KP225), so the advice stays `warpSize`."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate
from test_lint_row_splits_reach import SUMS

BUILTIN = SUMS.replace("    int warpSize = 32;\n", "    int unused = 32;\n")
POPC = SUMS.replace("    return v;\n}\n__device__ float block_sum", "    return v + __popc(mask);\n}\n__device__ float block_sum")
EVERY = SUMS.replace("if (lane == 0) rows[blockIdx.x * 8 + warp] = first;",
                     "rows[blockIdx.x * 256 + threadIdx.x] = first + warp;")
KEPT = "`kernelport translate` keeps this group at 32 lanes instead"
# the lane and warp indices of the helper and the kernel: (line, code, the text translate keeps)
SITES = ((8, "WS002", "const int lane = threadIdx.x % 32;"), (9, "WS003", "const int warp = threadIdx.x / 32;"),
         (20, "WS002", "const int lane = threadIdx.x % 32;"))


def _found(src: str) -> dict[tuple[int, str], tuple[str, str]]:
    return {(f.line, f.code): (f.severity, f.message) for f in lint_text(src, "t.cu") if f.code in ("WS002", "WS003")}


@pytest.mark.parametrize("src", [BUILTIN, POPC], ids=["sums_builtin", "sums_popc"])
def test_the_advice_names_the_32_lane_port_and_translate_writes_it(src):
    found = _found(src)
    for line, code, _ in SITES:
        severity, message = found[(line, code)]
        assert severity == "error", (line, message)  # the verdict: the code as written is wrong at 64
        assert KEPT in message and "use `warpSize`" not in message and "divide by `warpSize`" not in message, message
        assert "`((unsigned int)((unsigned int)(__ballot(p) >> (__lane_id() & 32)) & (0xffffffff)))`" in message
        assert "in its HIP and Portable ports" in message and "Metal" not in message.split("instead:")[1]
    for backend, vote, shuffle in (("hip", "__ballot(threadIdx.x < 256) >> (__lane_id() & 32)", "__shfl_down(v, o, 32)"),
                                   ("portable", "kp_lane_id() & 32", ", 32)")):
        port, _ = translate(SourceFile.from_text(src, "t.cu"), backend)
        assert not [d for d in port.diagnostics if d.severity == "error"], port.diagnostics
        lines = port.body.splitlines()
        assert vote in port.body and shuffle in port.body, port.body
        for line, _, text in SITES:  # the 32 lint no longer tells to change is the port's, as written
            assert lines[line - 1].strip() == text, (backend, line, lines[line - 1])


def test_a_group_at_the_wave_keeps_the_warp_size_advice_and_translate_refuses_it():
    found = _found(EVERY)
    for line, code, _ in SITES[:2]:
        severity, message = found[(line, code)]
        assert severity == "error" and KEPT not in message, message
        assert "use `warpSize`" in message or "divide by `warpSize` instead" in message, message
    port, _ = translate(SourceFile.from_text(EVERY, "t.cu"), "hip")
    assert {d.code for d in port.diagnostics if d.severity == "error"} == {"KP225"}


def test_a_lane_index_without_votes_keeps_the_warp_size_advice():
    src = """\
__global__ void k(float* x) {
    int lane = threadIdx.x % 32;
    float v = x[threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) x[threadIdx.x] = v;
}
"""
    severity, message = _found(src)[(2, "WS002")]
    assert KEPT not in message and "use `warpSize` (`% warpSize`, `& (warpSize - 1)`)" in message, message
