"""A shuffle ladder whose steps are guarded by a template width (`if (WarpSize >= 64) ... 32; if (WarpSize >= 32)
... 16; ...`) folds exactly WarpSize lanes: no WS017 at its step at 32, no WS004 at its step at 16
(kernelport/lint/widthguards.py; heldout101 muxi-spmv's warpReduceSum, stop 66).  Look-alikes keep their findings:
a guard on a run-time value, a threshold below twice the step, a ladder from 16 with no guarded step at 32 before
it, a 32-bit ballot word inside a `WarpSize >= 64` branch."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

LADDER = """\
template <typename T, int WarpSize>
__device__ __forceinline__ T warp_reduce_sum(T val) {
    if (WarpSize >= 64) {
        val += __shfl_down_sync(0xffffffff, val, 32);
    }
    // the 32-lane part
    if (WarpSize >= 32) {
        val += __shfl_down_sync(0xffffffff, val, 16);
    }
    if (WarpSize >= 16) val += __shfl_down_sync(0xffffffff, val, 8);
    if (WarpSize >= 8) val += __shfl_down_sync(0xffffffff, val, 4);
    if (WarpSize >= 4) val += __shfl_down_sync(0xffffffff, val, 2);
    if (WarpSize >= 2) val += __shfl_down_sync(0xffffffff, val, 1);
    return val;
}
"""
# The same guards spelled `W > 32` / `64 <= W`, on an `unsigned` template parameter.
SPELLED = LADDER.replace("int WarpSize", "unsigned WarpSize").replace("WarpSize >= 64", "WarpSize > 32") \
    .replace("WarpSize >= 32", "32 <= WarpSize")
RUNTIME = LADDER.replace("template <typename T, int WarpSize>\n", "template <typename T>\n") \
    .replace("(T val)", "(T val, int WarpSize)")
LOW = LADDER.replace("WarpSize >= 64", "WarpSize >= 32")
NO_WIDE_STEP = LADDER.replace("""    if (WarpSize >= 64) {
        val += __shfl_down_sync(0xffffffff, val, 32);
    }
""", "")
ELSE_BRANCH = LADDER.replace("""        val += __shfl_down_sync(0xffffffff, val, 32);
    }""", """        val += 0;
    } else {
        val += __shfl_down_sync(0xffffffff, val, 32);
    }""")
BALLOT = """\
template <int WarpSize>
__device__ int count(bool p) {
    int n = 0;
    if (WarpSize >= 64) { unsigned int b = __ballot_sync(0xffffffff, p); n = __popc(b); }
    return n;
}
"""


def _codes(src: str) -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in lint_text(src, "t.cu") if f.code in ("WS004", "WS017", "WS008"))


def test_a_ladder_guarded_by_its_template_width_is_silent():
    assert _codes(LADDER) == []
    assert _codes(SPELLED) == []


def test_look_alikes_keep_their_findings():
    assert _codes(RUNTIME) == [("WS004", 8), ("WS017", 4)]
    assert ("WS017", 4) in _codes(LOW)
    assert _codes(NO_WIDE_STEP) == [("WS004", 5)]
    assert ("WS017", 6) in _codes(ELSE_BRANCH) and ("WS004", 10) in _codes(ELSE_BRANCH)
    assert ("WS008", 4) in _codes(BALLOT)
