"""A macro body linted with the declarations its first expansion site has in scope
(kernelport/lint/macroscopes.py, read by kernelport/lint/macrobodies.py's probe).

The body was linted as a function of its own, `auto` parameters and nothing else: the kernel's
`lane = threadIdx.x & 31` and the source lane `src = lane ^ 1` that the body's shuffle reads were
unknown names there, so the 32 that splits a 64-lane wave went unreported, although the same lines
written in the kernel are reported (WS002 at the declaration) and `kernelport translate --to hip`
refuses the macro's use (KP219: the shuffle runs over the wave, the index stays 32-based).  Now it is
reported at the kernel's declaration.  Silent: the shuffle with width 32 (a logical 32-lane group)
and a wave-wide source from `warpSize`; and a body with a vote (a 32-lane group's ballot word, which
translate's halfvotes may keep): nothing at the kernel's declarations."""
from __future__ import annotations

from kernelport.lint import lint_text

HAZARD = """\
#define PAIR(v) v += __shfl_sync(0xffffffffu, v, src)

__global__ void k(float* x) {
    const int lane = threadIdx.x & 31;
    const int src = lane ^ 1;
    float v = x[threadIdx.x];
    PAIR(v);
    x[threadIdx.x] = v;
}
"""

INLINE = HAZARD.replace("    PAIR(v);", "    v += __shfl_sync(0xffffffffu, v, src);")

LOOKALIKE = """\
#define PAIR(v) v += __shfl(v, src, 32)
#define WAVE_PAIR(v) v += __shfl(v, wsrc)

__global__ void k(float* x) {
    const int lane = threadIdx.x & 31;
    const int src = lane ^ 1;
    const int wsrc = (threadIdx.x % warpSize) ^ 1;
    float v = x[threadIdx.x];
    PAIR(v);
    WAVE_PAIR(v);
    x[threadIdx.x] = v;
}
"""

# A 32-lane group's ballot word (labelled21's aihwkit: `laneId = threadIdx.x & 0x1f`, one uint32_t word per
# group): translate's halfvotes keeps such a group, so a body with a vote reports nothing at the kernel's
# declarations (whether lint should agree with translate there is open: tests/test_lint_row_splits_reach.py).
HALF_VOTE = """\
#define STORE(out, p) { unsigned b = __ballot_sync(0xffffffffu, p); if (lane == 0) out[w] = b; }

__global__ void k(float* x, unsigned* o) {
    const int lane = threadIdx.x & 31;
    const int w = threadIdx.x >> 5;
    STORE(o, x[threadIdx.x] > 0);
}
"""


def _ws(text: str) -> list[tuple[str, int, int]]:
    return sorted((f.code, f.line, f.column) for f in lint_text(text, "m.cu") if f.code.startswith("WS"))


def test_the_kernels_lane_read_by_a_macro_body_is_reported_at_its_declaration():
    found = _ws(HAZARD)
    col = HAZARD.splitlines()[3].index("& 31") + 3  # at the 31, as in the kernel
    assert ("WS002", 4, col) in found  # `lane = threadIdx.x & 31`: the body's shuffle source reads it
    assert len(found) == len(set(found))


def test_the_same_lines_in_the_kernel_are_reported_alike():
    col = HAZARD.splitlines()[3].index("& 31") + 3
    assert ("WS002", 4, col) in _ws(INLINE)


def test_a_wave_wide_lane_and_a_width_32_group_stay_silent():
    assert _ws(LOOKALIKE) == []


def test_a_macro_no_function_expands_keeps_the_bare_probe():
    text = HAZARD.split("\n__global__")[0] + "\n__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
    assert not any(line > 1 for _, line, _ in _ws(text))


def test_a_half_vote_body_reports_nothing_at_the_kernels_declarations():
    assert not any(line > 1 for _, line, _ in _ws(HALF_VOTE))
