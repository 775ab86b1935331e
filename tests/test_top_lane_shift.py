"""A ballot shifted left by a count made from lane 31 (`__popc(mask << (31 - lane))`: the lanes up to this
one, because CUDA's 32-bit shift drops every bit that passes bit 31) is refused on every backend (KP236,
kernelport/maskmemory.py's top_lane_shift).  The port's mask is 64 bits wide at every wave width (HIP's
`__ballot`, Metal's `ulong`), so the bits above the lane are kept and counted: held-out set 30's atpqc-cuda
(Kyber's rejection sampling, `__popc(warpflag << (31 - threadIdx.x))`) was written, compiled for gfx90a
and gfx1030, and counted wrong at wave 32 and at wave 64."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

PREFIX = """
__global__ void prefix_count(const int* in, int* out) {
    const unsigned shift = 31 - threadIdx.x % 32;
    const bool accept = in[threadIdx.x] > 0;
    const unsigned flags = __ballot_sync(0xffffffff, accept);
    out[threadIdx.x] = __popc(flags << shift) - accept;
}
void run(const int* in, int* out) { prefix_count<<<1, 128>>>(in, out); }
"""
# what main wrote for PREFIX: the ballot and its count widened, the shift's count kept
MAIN_PORT = PREFIX.replace("const unsigned flags = __ballot_sync(0xffffffff, accept)",
                           "const unsigned long long flags = __ballot(accept)").replace("__popc(", "__popcll(")


def port(src: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(src), "t.cu"), backend)


def _run(src: str, wave: int, backend=None) -> list[int]:
    x = np.random.default_rng(5).integers(-4, 6, 128, dtype=np.int32)
    out = np.zeros(128, np.int32)
    r = run_kernel(textwrap.dedent(src), "prefix_count", args={"in": x, "out": out}, grid=(1,), block=(128,),
                   wave=wave, backend=backend)
    return r.outputs["out"].tolist()


def test_the_widened_shift_counts_the_lanes_above_too():
    """Why it is refused: the port main wrote compiles and differs from CUDA at both of HIP's widths."""
    want = _run(PREFIX, 32)
    assert want[:4] != [0, 0, 0, 0] or want[4:8] != [0, 0, 0, 0], want  # some lanes below accept
    assert _run(MAIN_PORT, 64, backend="hip") != want
    assert _run(MAIN_PORT, 32, backend="hip") != want


@pytest.mark.parametrize("backend", ["hip", "metal", "portable"])
def test_a_ballot_shifted_from_lane_31_is_refused_at_the_shift(backend):
    p, _ = port(PREFIX, backend)
    assert not p.ok
    codes = [(d.code, d.location.line, d.location.column) for d in p.diagnostics if d.code == "KP236"]
    assert codes == [("KP236", 6, 31)], [d.format() for d in p.diagnostics]
    msg = next(d.format() for d in p.diagnostics if d.code == "KP236")
    assert "`flags << shift`" in msg and "lane 31" in msg and "__popcll(mask & ((2ull << lane) - 1))" in msg


def test_the_literal_inline_is_refused_too():
    src = PREFIX.replace("__popc(flags << shift)", "__popc(flags << (31 - threadIdx.x % 32))")
    p, _ = port(src)
    assert [d.code for d in p.diagnostics if d.severity == "error"] == ["KP236"], [d.format() for d in p.diagnostics]


LOOK_ALIKES = """
__global__ void k(const int* in, int* out) {
    const unsigned lane = threadIdx.x % 32;
    const unsigned flags = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
    const unsigned bits = in[threadIdx.x + 128];
    out[threadIdx.x] = __popc(flags << 1) + __popc(flags >> (31 - lane)) + __popc(flags & ((2u << lane) - 1))
                     + __popc(bits << (31 - lane));
}
void run(const int* in, int* out) { k<<<1, 128>>>(in, out); }
"""


def test_look_alikes_are_written():
    """A shift by a count with no lane 31 in it, a right shift, a mask of the lanes up to one, and a data
    word (no ballot) shifted from lane 31 are no KP236."""
    p, text = port(LOOK_ALIKES)
    assert "KP236" not in [d.code for d in p.diagnostics], [d.format() for d in p.diagnostics]
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__popcll(flags << 1)" in text, text


def test_packed_ballots_stay_kp226():
    src = """
__global__ void pair(const float* x, unsigned long long* out) {
    unsigned long long lo = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f);
    unsigned long long hi = __ballot_sync(0xffffffff, x[threadIdx.x] > 1.0f);
    out[threadIdx.x] = (hi << 32) | lo;
}
"""
    p, _ = port(src)
    assert [d.code for d in p.diagnostics if d.severity == "error"] == ["KP226"], [d.format() for d in p.diagnostics]


def test_lint_reports_it_at_the_shift():
    found = [(f.code, f.line, f.column) for f in lint_text(textwrap.dedent(PREFIX), "t.cu") if "lane 31" in f.message]
    assert found == [("WS008", 6, 31)], found
