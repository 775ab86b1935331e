"""Warp-size hazards written in a function-like macro's replacement list (kernelport/lint/macrobodies.py).

A use (`WARP_REDUCE(v)`) is a call to the rules, not the macro's expansion, so lint read only the
32-bit masks of a `#define` (WS007, macromasks.py): a shuffle ladder starting at 16, a ballot kept
in `unsigned` and a `__popc` of it, each written once in a macro that two kernels expand, went
unreported (all three are reported when the same lines are written in the kernel).  Each must be
reported at the body's line, once however many kernels expand it.  Silent: the same ladder with
width 32 (a logical 32-lane group), a wave-wide ladder from `warpSize / 2`, a 64-bit ballot counted
with `__popcll`, and a shim defined only for the AMD build (`#ifdef __HIP_PLATFORM_AMD__`)."""
from __future__ import annotations

from kernelport.lint import lint_text

HAZARDS = """\
#define WARP_REDUCE(v)                          \\
    for (int o = 16; o > 0; o >>= 1)            \\
        v += __shfl_down_sync(0xffffffff, v, o);

#define VOTE_STORE(out, p)                      \\
    do {                                        \\
        unsigned b = __ballot_sync(0xffffffff, p); \\
        if (__lane_id() == 0) out[blockIdx.x] = __popc(b); \\
    } while (0)

__global__ void k1(float* x, unsigned* cnt) {
    float v = x[threadIdx.x];
    WARP_REDUCE(v)
    x[threadIdx.x] = v;
    VOTE_STORE(cnt, v > 0);
}
__global__ void k2(float* x, unsigned* cnt) {
    float v = x[threadIdx.x] * 2;
    WARP_REDUCE(v)
    x[threadIdx.x] = v;
    VOTE_STORE(cnt, v > 1);
}
"""

LOOKALIKES = """\
#define GROUP_SUM(v)                                \\
    for (int o = 16; o > 0; o >>= 1)                \\
        v += __shfl_down(v, o, 32);

#define WAVE_SUM(v)                                 \\
    for (int o = warpSize / 2; o > 0; o >>= 1)      \\
        v += __shfl_down(v, o);

#define VOTE_COUNT(out, p)                          \\
    do {                                            \\
        unsigned long long b = __ballot(p);         \\
        if (__lane_id() == 0) out[blockIdx.x] = __popcll(b); \\
    } while (0)

#ifdef __HIP_PLATFORM_AMD__
#define MY_BALLOT(m, p) ((unsigned)__ballot(p))
#else
#define MY_BALLOT(m, p) __ballot_sync(m, p)
#endif

__global__ void k(float* x, unsigned long long* c) {
    float v = x[threadIdx.x];
    GROUP_SUM(v)
    WAVE_SUM(v)
    VOTE_COUNT(c, v > 0);
    x[threadIdx.x] = v;
}
"""


def _ws(text: str) -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in lint_text(text, "m.cu") if f.code.startswith("WS"))


def test_hazards_in_macro_bodies_are_reported_at_the_body_once():
    found = _ws(HAZARDS)
    assert ("WS004", 2) in found  # the ladder from 16, on the `for` line of the `#define`
    assert ("WS008", 7) in found  # the ballot kept in `unsigned`
    assert ("WS009", 8) in found  # `__popc` of it
    assert len(found) == len(set(found))  # once, though k1 and k2 both expand both macros
    assert all(line <= 9 for _, line in found)  # nothing at the uses


def test_the_same_lines_in_a_kernel_are_what_the_macro_now_matches():
    inline = ("__global__ void k(float* x, unsigned* cnt) {\n    float v = x[threadIdx.x];\n"
              "    for (int o = 16; o > 0; o >>= 1)\n        v += __shfl_down_sync(0xffffffff, v, o);\n"
              "    unsigned b = __ballot_sync(0xffffffff, v > 0);\n"
              "    if (__lane_id() == 0) cnt[blockIdx.x] = __popc(b);\n    x[threadIdx.x] = v;\n}\n")
    codes = {c for c, _ in _ws(inline)}
    assert {"WS004", "WS008", "WS009"} <= codes
    assert {"WS004", "WS008", "WS009"} <= {c for c, _ in _ws(HAZARDS)}


def test_lookalikes_in_macro_bodies_are_silent():
    assert _ws(LOOKALIKES) == []


def test_columns_on_a_body_that_starts_on_the_define_line():
    text = ("#define BAD_SUM(v) for (int o = 16; o > 0; o >>= 1) v += __shfl_down(v, o);\n"
            "__global__ void k(float* x) { float v = x[threadIdx.x]; BAD_SUM(v) x[threadIdx.x] = v; }\n")
    found = [f for f in lint_text(text, "m.cu") if f.code == "WS004"]
    assert [(f.line, text.splitlines()[0][f.column - 1:f.column + 1]) for f in found] in (
        [(1, "o ")], [(1, "16")])
