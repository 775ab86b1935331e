"""Votes of a logical 32-lane group that shares a 64-lane wave, each over its own CUDA warp
(kernelport/halfvotes.py): the port keeps the group's 32 lanes and spells `__ballot_sync(~0, p)` as the
wave's ballot shifted to the caller's half (`__lane_id() & 32`) and cut to 32 bits, `__any_sync`/`__all_sync`
as tests of those bits.  It was KP219 ("votes that may see two 32-lane groups of one 64-lane wave")."""
from __future__ import annotations

import textwrap

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

# a width-32 shuffle says 32-lane groups; the block of 256 puts two of them in each 64-lane wave
VOTES = """
__global__ void above_first(const int* in, int* out) {
    const int lane = threadIdx.x % 32;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int first = __shfl_sync(0xffffffff, in[i], 0, 32);
    const unsigned above = __ballot_sync(0xffffffff, in[i] > first);
    const int some = __any_sync(0xffffffff, in[i] < 0);
    const int every = __all_sync(~0u, in[i] > -4);
    if (lane == 0) out[i / 32] = __popc(above) + 100 * some + 1000 * every + 10000 * (__ffs(above) - 1);
}
void run(const int* in, int* out, int n) { above_first<<<n / 256, 256>>>(in, out); }
"""


def port(src: str):
    return translate(SourceFile.from_text(textwrap.dedent(src), "t.cu"), "hip")


def _run(src: str, wave: int, backend=None) -> list[int]:
    x = np.random.default_rng(5).integers(-4, 6, 512, dtype=np.int32)
    x[64:96] = np.abs(x[64:96])  # a warp with no negative value (any 0), beside one with (the same wave)
    x[96:128] = 5                # a warp above -4 everywhere (all 1) and none above its first
    out = np.zeros(16, np.int32)
    r = run_kernel(src, "above_first", args={"in": x, "out": out}, grid=(2,), block=(256,), wave=wave,
                   backend=backend)
    return r.outputs["out"].tolist()


def test_votes_of_32_lane_groups_in_a_64_lane_wave_are_each_over_its_own_warp(tmp_path):
    p, text = port(VOTES)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__ballot(in[i] > first) >> (__lane_id() & 32)" in p.body and "__shfl(in[i], 0, 32)" in p.body, p.body
    assert "threadIdx.x % 32" in p.body and "const unsigned above" in p.body, p.body
    want = _run(VOTES, 32)
    assert len(set(want)) > 4, want  # the warps differ: a vote over the wrong half would show
    assert _run(text, 64, backend="hip") == want
    assert _run(text, 32, backend="hip") == want
    hip_compiles(tmp_path, text, extra_args=("-std=c++17",))


def test_lint_still_reports_the_plain_ports_hazards_of_the_original():
    # lint judges what a plain port (a 64-bit ballot in `unsigned`, `% 32` beside a wave-wide vote) gets wrong
    codes = {f.code for f in lint_text(textwrap.dedent(VOTES), "t.cu")}
    assert {"WS002", "WS008"} <= codes, codes


def test_look_alikes_stay_refused():
    for src in (VOTES.replace("__ballot_sync(0xffffffff,", "__ballot_sync(__activemask(),"),  # not a full mask
                VOTES.replace("__any_sync(0xffffffff, in[i] < 0)", "__activemask() != 0"),    # the wave's lanes
                VOTES.replace("above_first<<<n / 256, 256>>>", "above_first<<<n / 96, 96>>>")):  # partial wave
        p, _ = port(src)
        assert "KP219" in {d.code for d in p.diagnostics if d.severity == "error"}, [d.format() for d in p.diagnostics]


def test_the_metal_port_spells_the_votes_over_its_simd_group_and_passes_the_checker():
    from conftest import metal_checked
    text = metal_checked(VOTES)  # every SIMD-group is 32 wide: the group's ballot is the SIMD-group's
    assert "((uint)((uint)(static_cast<ulong>(simd_ballot(in[i] > first))) & (0xffffffff)))" in text, text
