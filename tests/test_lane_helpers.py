"""A lane id returned by a device helper and stored by the kernel (kernelport/laneoutputs.py, helper_returns).
cub's `LaneId()` pattern (`asm("mov.u32 %0, %%laneid;" ...); return r;`) ported as the wave's lane: a
kernel storing `LaneId()` wrote 0..63 at wave 64 where CUDA writes 0..31, with no diagnostic (verify's
oracle failed hip and portable at 64).  A helper's return is a lane source at each call, judged at the
call's store with laneoutputs' rules: a kept call is the 32-lane warp's lane (`(LaneId() & 31)`), the
helper stays the wave's; a call that also feeds a shuffle is KP235; one that only selects is untouched.
A helper returning a literal the port makes the wave's (`threadIdx.x & 31` reaching a ballot's mask) is
that literal at its calls: KP235 where stored (main ported it silently as `& (warpSize - 1)`)."""
from __future__ import annotations

from conftest import hip_compiles
from test_lane_outputs import _lanes, _refusals, kernel as stored_kernel, port
from trust_support import numeric_statuses, verify_checks

HELPERS = """
namespace util {
__device__ __forceinline__ unsigned int LaneId() {
    unsigned int ret;
    asm("mov.u32 %0, %%laneid;" : "=r"(ret));
    return ret;
}
}
__device__ __forceinline__ unsigned int LaneId() { unsigned int ret; asm("mov.u32 %0, %%laneid;" : "=r"(ret)); return ret; }
__device__ __forceinline__ unsigned int my_lane() { return LaneId(); }
"""


def kernel(lane: str = "LaneId()", lane_of: str = "lane", out: str = "2.0f * x[i]", body: str = "") -> str:
    """test_lane_outputs' kernel (`lane_of[i] = LANE_OF; out[i] = OUT;`) with `lane = <lane>;` from a helper."""
    return HELPERS + stored_kernel(f"lane = {lane};\n        {body}", lane_of, out)


def test_a_helper_lane_stored_as_data_keeps_the_32_lane_warp_s_numbers_at_wave_64(tmp_path):
    for lane in ("LaneId()", "my_lane()"):  # the helper itself, and a helper returning its lane
        src = kernel(lane)
        want = _lanes(src, 32)
        assert want == [i % 32 for i in range(256)]
        for backend, spelled in (("hip", "__lane_id()"), ("portable", "kp_lane_id()")):
            p, text = port(src, backend)
            assert p.ok and not p.diagnostics, [d.format() for d in p.diagnostics]
            # the call is the 32-lane warp's lane; the helper stays the wave's (its other calls may be shuffles)
            assert f"lane = ({lane} & 31);" in text and f"ret = {spelled};" in text, text
            assert _lanes(text, 64, backend=backend) == want and _lanes(text, 32, backend=backend) == want
            # the port as main wrote it (no `& 31`) counts 0..63: what the test would catch
            assert _lanes(text.replace(f"({lane} & 31)", lane), 64, backend=backend) == [i % 64 for i in range(256)]
        hip_compiles(tmp_path, port(src)[1])
    # in the index stored at: `out[(i / 32) * 32 + lane]` writes out[32] where CUDA does, not out[64]
    at = kernel(body="out[(i / 32) * 32 + LaneId()] = 2.0f * x[i];", out="out[i] + 1.0f", lane_of="7u")
    p, text = port(at)
    assert p.ok and not p.diagnostics and "out[(i / 32) * 32 + (LaneId() & 31)]" in text, text


def test_verify_passes_the_helper_lane_s_ports_at_both_widths(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(kernel(lane_of="lane / 32 + 2 * lane"))
    rc, checks, text = verify_checks(f)
    assert [c["status"] for c in checks if c["kind"] == "oracle"] == ["pass"], text
    assert rc == 0 and numeric_statuses(checks) == {32: "pass", 64: "pass"}, text
    assert numeric_statuses(checks, "portable") == {32: "pass", 64: "pass"}, text


def test_a_helper_lane_that_also_feeds_a_shuffle_is_refused_at_the_store():
    shfl = "float y = __shfl_sync(0xffffffff, x[i], (lane + 1) % 32);"
    got = _refusals(kernel("util::LaneId()", body=shfl, lane_of="lane + (y > 0.0f)"))
    assert len(got) == 1 and "t.cu:18:9" in got[0] and "__shfl_sync" in got[0] and "`util::LaneId()`, line 16" in \
        got[0], got
    # through the helper that returns the helper's lane: the same
    got = _refusals(kernel("my_lane()", body=shfl, lane_of="lane + (y > 0.0f)"))
    assert len(got) == 1 and "t.cu:18:9" in got[0] and "__shfl_sync" in got[0], got
    # a helper whose return combines the lane with the width: the wave's there, so stored it is refused
    mixed = kernel("my_lane()").replace("return LaneId(); }", "return LaneId() + warpSize; }")
    got = _refusals(mixed)
    assert len(got) == 1 and "t.cu:18:9" in got[0] and "`my_lane()` (line 16) returns the lane id combined" in got[0], got
    # two calls, each its own source: the stored one keeps 0..31, the shuffle's stays the wave's
    two = kernel(body="float y = __shfl_sync(0xffffffff, x[i], LaneId() ^ 1);", out="y")
    p, text = port(two)
    assert p.ok and not p.diagnostics, [d.format() for d in p.diagnostics]
    assert "lane = (LaneId() & 31);" in text and "x[i], LaneId() ^ 1, 32)" in text, text  # h/abslane43: a lane no fact marks as the lane id (an asm helper's) keeps the 32-lane warp: the same lanes
    assert _lanes(text, 64, backend="hip") == _lanes(two, 32)


def test_look_alikes_a_helper_lane_that_only_selects_or_is_not_stored_stays_the_wave_s():
    reduce = "float s = x[i]; for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffff, s, d);"
    for select in ("lane == 0 ? (unsigned)s : 0u", "(unsigned)(s + (lane < 4 ? x[lane] : 0.0f))", "7u"):
        p, text = port(kernel("util::LaneId()", body=reduce, lane_of=select))
        assert p.ok and not p.diagnostics, [d.format() for d in p.diagnostics]
        assert "lane = util::LaneId();" in text, text  # the call is left as written
        if select == "7u":  # nothing 32-lane stored: the ladder becomes the wave's, the lane stays the wave's
            assert "& 31" not in text, text
            continue
        # the ladder's fold is stored, so the group stays logical (width-32 shuffles) and its helper's lane is the
        # 32-lane warp's (kernelport/logical_lanes.py; h/heldout60 re-pinned "& 31" not in text: wrong at 64)
        assert "ret = (__lane_id() & 31);" in text, text
        plain = HELPERS[HELPERS.index("}\n}\n") + 4:] + stored_kernel(f"lane = LaneId();\n        {reduce}", select,
                                                                        "2.0f * x[i]")
        assert _lanes(port(plain)[1], 64, backend="hip") == _lanes(plain, 32)  # (the emulator calls no `util::`)
    # a wave of 32 (Metal) keeps the code as written
    p, text = port(kernel(), "metal")
    assert p.ok and "& 31" not in text, text


LITERAL = """
__device__ __forceinline__ int lane_of_thread() { return threadIdx.x & 31; }
__global__ void k(const int *x, int *before, unsigned *lanes, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = lane_of_thread();
    BALLOT
    lanes[i] = LANE;
}
void run(const int *x, int *out, unsigned *l, int n) { k<<<n / 256, 256>>>(x, out, l, n); }
"""
BALLOT = "unsigned m = __ballot_sync(0xffffffff, x[i] > 0); before[i] = __popc(m & ((1u << lane) - 1));"


def test_a_helper_returning_a_literal_the_port_makes_the_wave_s_is_judged_as_the_literal():
    # `& 31` reaches the ballot's mask through the call: the port spells it the wave's, so stored it is KP235
    src = LITERAL.replace("BALLOT", BALLOT).replace("LANE", "lane")
    got = _refusals(src)
    assert len(got) == 1 and "t.cu:7:5" in got[0] and "the port makes `threadIdx.x & 31` (line 2) the wave's lane id" \
        in got[0], got
    # the ballot's count alone, a literal the port keeps (no warp operation): quiet, as written
    assert not _refusals(LITERAL.replace("BALLOT", BALLOT).replace("LANE", "i % 32"))
    p, text = port(LITERAL.replace("BALLOT", "").replace("LANE", "lane"))
    assert p.ok and not p.diagnostics and "return threadIdx.x & 31;" in text, [d.format() for d in p.diagnostics]
