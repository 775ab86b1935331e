"""A value whose 32 the port changes, stored by a kernel to global memory (kernelport/laneoutputs.py).
cuda-samples inlinePTX stores `%laneid` as data (its host checks `elemID % 32`); the HIP port wrote
`laneid = __lane_id();`, 0..63 at wave 64, and verify's oracle failed it with no diagnostic from
translate.  A `%laneid` that meets no wave value keeps the original's numbers (the lane within its 32-lane
warp); one that also meets the wave (a warp operation, `warpSize`, a ballot) or a literal the port makes
the wave's, stored, is KP235 at the store.  What is written with `warpSize`, a warp operation's result, a
lane that only selects or is a mask's bit position: as written (laneval43 narrowed laneval42's KP235,
which refused a stored `threadIdx.x / warpSize` and a ballot compaction); a wave of 32 changes nothing."""
from __future__ import annotations

import textwrap

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles
from trust_support import assert_a_lane_hazard_fails_only_at_64, numeric_statuses, verify_checks

# LANE: how it reads the lane; LANE_OF: what it stores in lane_of[i]; OUT: what it stores in out[i]
DATA = """
__global__ void lanes(const float *x, float *out, unsigned int *lane_of, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int lane;
        LANE
        lane_of[i] = LANE_OF;
        out[i] = OUT;
    }
}

int main() {
    int n = 256;
    float *x, *out;
    unsigned int *lane_of;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&lane_of, n * sizeof(unsigned int));
    lanes<<<n / 128, 128>>>(x, out, lane_of, n);
}
"""
PTX = 'asm("mov.u32 %0, %%laneid;" : "=r"(lane));'


def kernel(lane: str, lane_of: str = "lane", out: str = "2.0f * x[i]") -> str:
    return DATA.replace("LANE_OF", lane_of).replace("LANE", lane).replace("OUT", out)


def port(src: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(src), "t.cu"), backend)


def _lanes(src: str, wave: int, backend=None, buffer="lane_of") -> list[int]:
    x = np.ones(256, np.float32)
    out, lane_of = np.zeros(256, np.float32), np.zeros(256, np.uint32)
    r = run_kernel(src, "lanes", args={"x": x, "out": out, "lane_of": lane_of, "n": 256}, grid=(2,), block=(128,),
                   wave=wave, backend=backend)
    return r.outputs[buffer].tolist()


def test_a_ptx_lane_id_stored_as_data_keeps_the_32_lane_warp_s_numbers_at_wave_64(tmp_path):
    src = kernel(PTX)
    want = _lanes(src, 32)
    assert want == [i % 32 for i in range(256)]
    for backend, spelled in (("hip", "lane = (__lane_id() & 31);"), ("portable", "lane = (kp_lane_id() & 31);")):
        p, text = port(src, backend)
        assert p.ok and not p.diagnostics, [d.format() for d in p.diagnostics]
        assert spelled in text, text
        assert _lanes(text, 64, backend=backend) == want and _lanes(text, 32, backend=backend) == want
    hip_compiles(tmp_path, port(src)[1])


def test_values_written_with_warp_size_keep_their_meaning_and_are_not_refused():
    # `warpSize` asks for the device's width: the port keeps it the wave's, and the identity
    # warp * warpSize + lane == tid holds at every width (a lane rewritten to % 32 beside an unchanged
    # warp index would break it)
    for lane in ("lane = threadIdx.x % warpSize;", "lane = threadIdx.x & (warpSize - 1);"):
        src = kernel(lane, "(threadIdx.x / warpSize) * warpSize + lane", "(float)(threadIdx.x / warpSize + warpSize)")
        for backend in ("hip", "portable"):
            p, text = port(src, backend)
            assert p.ok and not p.diagnostics, [d.format() for d in p.diagnostics]
        p, text = port(src)
        assert lane in text, text
        assert _lanes(text, 64, backend="hip") == _lanes(src, 64) == [i % 128 for i in range(256)]


def test_verify_passes_the_ports_at_both_widths_and_still_fails_a_broken_one(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(kernel(PTX, "lane / 32 + 2 * lane", "(i % 32 < 32 ? 2.0f : -3.0f) * x[i]"))  # (the hazard below)
    rc, checks, text = verify_checks(f)
    assert [c["status"] for c in checks if c["kind"] == "oracle"] == ["pass"], text
    assert rc == 0 and numeric_statuses(checks) == {32: "pass", 64: "pass"}, text
    assert numeric_statuses(checks, "portable") == {32: "pass", 64: "pass"}, text
    assert_a_lane_hazard_fails_only_at_64(f)


def _refusals(src: str, backend: str = "hip") -> list[str]:
    p, _ = port(src, backend)
    return [d.format() for d in p.diagnostics if d.code == "KP235"]


def test_a_lane_that_also_feeds_a_warp_operation_is_refused_at_the_store():
    src = kernel(PTX + "\n        float y = __shfl_sync(0xffffffff, x[i], (lane + 1) % 32);",
                 "lane + (y > 0.0f)")
    got = _refusals(src)
    assert len(got) == 1 and "t.cu:8:9" in got[0] and "__shfl_sync" in got[0] and "line 6" in got[0], got


def test_a_lane_combined_with_a_warp_operation_s_result_is_refused_and_one_that_selects_is_not():
    # the leader of each 32-lane warp stores the warp's sum: at 64 the port's sum is the wave's, and the
    # lane within 32 would make lanes 0 and 32 both store it; the shuffle's result alone stays quiet
    reduce = "\n".join([PTX + " float s = x[i];",
                         "        for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffff, s, d);"])
    got = _refusals(kernel(reduce, "(unsigned)s * (lane == 0) + lane"))
    assert len(got) == 1 and "t.cu:8:9" in got[0] and "combined with a warp operation's result" in got[0], got
    assert not _refusals(kernel(reduce, "(unsigned)s"))
    # the lane only selects (a `?:`'s condition, an index): the stored value is the sum's or memory's.  The
    # 32-lane ladder keeps the group logical (its shuffles width 32), so the lane is the 32-lane warp's
    # (kernelport/logical_lanes.py): h/heldout60 re-pinned `lane = __lane_id();`, which stored at wave 64 lane
    # 32's sum as 0 (and read x[32..35]) where CUDA stores the second warp's sum
    for select in ("lane == 0 ? (unsigned)s : 0u", "(unsigned)(s + (lane < 4 ? x[lane] : 0.0f))"):
        src = kernel(reduce, select)
        p, text = port(src)
        assert p.ok and not p.diagnostics and "lane = (__lane_id() & 31);" in text, [d.format() for d in p.diagnostics]
        assert _lanes(text, 64, backend="hip") == _lanes(textwrap.dedent(src), 32)


BALLOT = """
__global__ void k(const int *x, int *before, unsigned *lanes, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    unsigned m = __ballot_sync(0xffffffff, x[i] > 0);
    before[i] = __popc(m & ((1u << lane) - 1)) + __popc(m);
    lanes[i] = LANE;
}
void run(const int *x, int *out, unsigned *l, int n) { k<<<n / 256, 256>>>(x, out, l, n); }
"""


def test_a_literal_lane_the_port_makes_the_wave_s_is_refused_where_it_is_stored():
    # `& 31` reaches the ballot's lane mask, so the port spells it the wave's: stored, it would count 0..63
    got = _refusals(BALLOT.replace("LANE", "lane"))
    assert len(got) == 1 and "t.cu:7:5" in got[0] and "the port makes `threadIdx.x & 31` (line 4) the wave's lane id" \
        in got[0], got
    # the compaction's count alone (the lane a bit position in a mask of the ballot's, the popc the ballot's:
    # the port's widening) and a literal the port keeps (the original's numbers): quiet
    assert not _refusals(BALLOT.replace("LANE", "i % 32")) and not _refusals(BALLOT.replace("LANE", "i"))


def test_a_ptx_lane_that_meets_the_wave_is_refused_where_it_is_stored():
    # a per-warp table sized by the width: the lane in its index is the wave's, stored as data it is not
    table = kernel(PTX + "\n        lane_of[n + (i / warpSize) * warpSize + lane] = warpSize;", "lane")
    got = _refusals(table)
    assert len(got) == 1 and "t.cu:8:9" in got[0] and "combined with the warp width (`warpSize`" in got[0], got
    # a lane mask ANDed with a ballot: the lane's bit must be the wave's
    masked = kernel(PTX + "\n        unsigned m = __ballot_sync(0xffffffff, x[i] > 0.0f) & (1u << lane);",
                    "lane + (m != 0u)")
    got = _refusals(masked)
    assert len(got) == 1 and "t.cu:8:9" in got[0] and "`__ballot_sync`" in got[0], got
    # look-alikes: a lane mask of its own (no ballot), a literal warp table: the lane within 32 everywhere
    for quiet in (kernel(PTX, "lane + (1u << lane)"), kernel(PTX + "\n        out[(i / 32) * 32 + lane] = x[i];")):
        p, text = port(quiet)
        assert p.ok and not p.diagnostics and "lane = (__lane_id() & 31);" in text, [d.format() for d in p.diagnostics]
        assert _lanes(text, 64, backend="hip") == _lanes(quiet, 32), text


def test_a_ptx_lane_in_the_index_stored_at_counts_32_lanes_unless_the_index_is_built_from_the_wave():
    # `out[(i / 32) * 32 + lane]`: at 64 the wave's lane would write out[64] where CUDA writes out[32]
    literal = kernel(PTX + "\n        out[(i / 32) * 32 + lane] = 2.0f * x[i];", "7u", "out[i] + 1.0f")
    p, text = port(literal)
    assert p.ok and not p.diagnostics and "lane = (__lane_id() & 31);" in text, [d.format() for d in p.diagnostics]
    assert _lanes(text, 64, "hip", "out") == _lanes(literal, 32, buffer="out") == [3.0] * 256
    # the index built from `warpSize` and the lane is the wave's table: its meaning kept, quiet
    table = kernel(PTX + "\n        lane_of[(i / warpSize) * warpSize + lane] = 3u;", "lane_of[i] + 1u")
    p, text = port(table)
    assert p.ok and not p.diagnostics and "lane = __lane_id();" in text, [d.format() for d in p.diagnostics]
    assert _lanes(text, 64, "hip") == _lanes(table, 64) == [4] * 256
    # the lane also feeds a shuffle (the wave's there), and an index of its own: refused
    shuffled = kernel(PTX + "\n        lane_of[lane] = (unsigned)__shfl_sync(0xffffffff, x[i], lane ^ 1);", "7u")
    got = _refusals(shuffled)
    assert len(got) == 1 and "t.cu:7:9" in got[0] and "the index stored at" in got[0] and "__shfl_sync" in got[0], got


def test_look_alikes_port_as_before():
    # a lane id only as a shuffle's source lane: the result stored is the shuffle's value
    shuffled = kernel(PTX, "(unsigned)__shfl_sync(0xffffffff, x[i], lane ^ 1)")
    p, text = port(shuffled)
    assert p.ok and not p.diagnostics and "lane = __lane_id();" in text, text
    # a lane written to shared memory, a literal 32 the port keeps: untouched
    p, text = port(kernel("lane = threadIdx.x % 32;"))
    assert p.ok and not p.diagnostics and "lane = threadIdx.x % 32;" in text, text


def test_a_backend_of_32_wide_waves_keeps_the_code_as_written():
    p, text = port(kernel(PTX), "metal")
    assert p.ok and "lane = simd_lane;" in text and "& 31" not in text, text
    table = kernel(PTX + "\n        lane_of[n + (i / warpSize) * warpSize + lane] = warpSize;", "lane")
    assert not _refusals(table, "metal") and _refusals(table, "hip")
