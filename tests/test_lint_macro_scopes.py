"""A macro body linted with the declarations its first expansion site has in scope
(kernelport/lint/macroscopes.py, read by kernelport/lint/macrobodies.py's probe).

The body was linted as a function of its own, `auto` parameters and nothing else: the kernel's
`lane = threadIdx.x & 31` and the source lane `src` built from it, which the body's broadcast and
its `lane == 0` store read, were unknown names there, so the 32 that splits a 64-lane wave went
unreported although the same lines written in the kernel are reported (WS002 at the declaration).
Now it is reported at the kernel's declaration.  Silent: the same macros where the kernel's lane
comes from `warpSize`, the broadcast is a width-32 group and the ballot is kept in 64 bits."""
from __future__ import annotations

from kernelport.lint import lint_text

MACROS = """\
#define BCAST(v) v = __shfl_sync(0xffffffffu, v, src)
#define STORE(out, p) { unsigned b = __ballot_sync(0xffffffffu, p); if (lane == 0) out[w] = b; }
"""

HAZARD = MACROS + """
__global__ void k(float* x, unsigned* o) {
    const int lane = threadIdx.x & 31;
    const int w = threadIdx.x >> 5;
    const int src = (lane / 8) * 8;
    float v = x[threadIdx.x];
    BCAST(v);
    STORE(o, v > 0);
    x[threadIdx.x] = v;
}
"""

INLINE = """\
__global__ void k(float* x, unsigned* o) {
    const int lane = threadIdx.x & 31;
    const int w = threadIdx.x >> 5;
    const int src = (lane / 8) * 8;
    float v = x[threadIdx.x];
    v = __shfl_sync(0xffffffffu, v, src);
    { unsigned b = __ballot_sync(0xffffffffu, v > 0); if (lane == 0) o[w] = b; }
    x[threadIdx.x] = v;
}
"""

LOOKALIKE = """\
#define BCAST(v) v = __shfl(v, src, 32)
#define STORE(out, p) { unsigned long long b = __ballot(p); if (lane == 0) out[w] = b; }

__global__ void k(float* x, unsigned long long* o) {
    const int lane = threadIdx.x % warpSize;
    const int w = threadIdx.x / warpSize;
    const int src = ((threadIdx.x & 31) / 8) * 8;
    float v = x[threadIdx.x];
    BCAST(v);
    STORE(o, v > 0);
    x[threadIdx.x] = v;
}
"""


def _ws(text: str) -> list[tuple[str, int, int]]:
    return sorted((f.code, f.line, f.column) for f in lint_text(text, "m.cu") if f.code.startswith("WS"))


def test_the_kernels_lane_read_by_a_macro_body_is_reported_at_its_declaration():
    found = _ws(HAZARD)
    col = HAZARD.splitlines()[4].index("& 31") + 3  # at the 31, as in the kernel
    assert ("WS002", 5, col) in found  # `lane = threadIdx.x & 31`: the body's `src` and `lane == 0` read it
    assert len(found) == len(set(found))


def test_the_same_lines_in_the_kernel_are_reported_alike():
    assert any(c == "WS002" and line == 2 for c, line, _ in _ws(INLINE))


def test_a_wave_wide_lane_and_a_width_32_group_stay_silent():
    assert _ws(LOOKALIKE) == []


def test_a_macro_no_function_expands_keeps_the_bare_probe():
    text = MACROS + "__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
    assert not any(line > 2 for _, line, _ in _ws(text))
