"""A class's static wave-size member that no file of the translate run reads (heldout95: a tiling-config
struct's `static constexpr int WARP_SIZE = 32;` beside its block sizes, declared in two configs of a header
and read nowhere).  Translate refuses a class member's 32 (KP225 on lint's WS001: its dataflow does not
read a member's value, so a read such as `threadIdx.x & (Cfg::WARP_SIZE - 1)` stays 32-based beside code
the port widens), and so it refused every unit that included the header, for a value nothing computes
with.  Now a member that no file of the run names beyond its declarations (the unit, its headers, the
run's other files; code, macro bodies and comments alike) is not a kept hazard: the run is written.  A
member the run reads (qualified in a kernel, unqualified in a member function, through a macro, in another
file of the run) is refused as before (where the run is unknown, `unread_member` reads every member as
read).  The snippets are written here; no held-out file is read."""
from __future__ import annotations

from trust_support import translate_run

HEADER = """#pragma once
struct TileCfg {
    static constexpr int BLOCK_M = 64;
    static constexpr int NUM_THREADS = 128;
    static constexpr int WARP_SIZE = 32;
};
struct BwdCfg {
    static constexpr int BLOCK_M = 16;
    static constexpr int WARP_SIZE = 32;
};
"""
UNIT = """#include "cfg.cuh"
__global__ void scale(float* x, int n) {
    int i = blockIdx.x * TileCfg::BLOCK_M + threadIdx.x;
    if (i < n) { BODY }
}
void run(float* x, int n) { scale<<<(n + 63) / 64, TileCfg::NUM_THREADS>>>(x, n); }
"""
PLAIN = "x[i] *= 2.0f;"
# reads of the member: each makes a 32-lane index the port keeps beside the wave
READ_QUALIFIED = "int lane = threadIdx.x & (TileCfg::WARP_SIZE - 1); x[i] = __shfl_sync(0xffffffffu, x[i], lane ^ 1);"


def run(tmp_path, unit: str, header: str = HEADER, *extra: str):
    return translate_run(tmp_path, {"cfg.cuh": header}, unit, *extra)


def test_a_member_no_file_of_the_run_reads_is_written(tmp_path):
    rc, _, err = run(tmp_path, UNIT.replace("BODY", PLAIN))
    assert rc == 0, err
    assert rc == 0 and "KP225" not in err, err
    port = (tmp_path / "out" / "a.hip").read_text()
    assert 'cfg.cuh"' in port  # the header, kept as written: nothing reads its 32


def test_a_member_the_unit_reads_is_refused(tmp_path):
    rc, _, err = run(tmp_path, UNIT.replace("BODY", READ_QUALIFIED))
    assert rc != 0 and "KP225" in err and "cfg.cuh:5:" in err, err


def test_a_member_read_in_a_member_function_or_a_macro_is_refused(tmp_path):
    method = HEADER.replace("    static constexpr int WARP_SIZE = 32;\n};\nstruct BwdCfg",
                            "    static constexpr int WARP_SIZE = 32;\n"
                            "    __device__ static int lane() { return threadIdx.x % WARP_SIZE; }\n};\nstruct BwdCfg")
    rc, _, err = run(tmp_path, UNIT.replace("BODY", PLAIN), method)
    assert rc != 0 and "KP225" in err, err
    macro = HEADER + "#define CFG_LANES (BwdCfg::WARP_SIZE)\n"
    rc, _, err = run(tmp_path, UNIT.replace("BODY", PLAIN), macro)
    assert rc != 0 and "KP225" in err, err


def test_a_member_another_file_of_the_run_reads_is_refused(tmp_path):
    other = '#include "cfg.cuh"\nint lanes() { return BwdCfg::WARP_SIZE; }\n'
    rc, _, err = run(tmp_path, UNIT.replace("BODY", PLAIN), HEADER, other)
    assert rc != 0 and "KP225" in err, err



# a read the word search misses: a macro pastes the member's name (`TileCfg::name##_SIZE` given `WARP`); the port
# kept `t % 32` beside `t / warpSize` (64 at wave 64), so `part[warp * 32 + lane]` left half the tile unwritten
PASTED = """#include "cfg.cuh"
DEFINE
__global__ void k(const float* p, float* out) {
    __shared__ float part[128];
    int t = threadIdx.x;
    int lane = t % @R;
    int warp = t / warpSize;
    part[warp * @R + lane] = p[t];
    __syncthreads();
    out[t] = part[t];
}
void run(const float* p, float* out) { k<<<1, TileCfg::NUM_THREADS>>>(p, out); }
"""


def test_a_member_read_through_a_token_paste_is_refused(tmp_path):
    for k, (define, read) in enumerate((("#define CFG(name) (TileCfg::name##_SIZE)", "CFG(WARP)"),
                                        ("#define CAT(a, b) a ## b", "TileCfg::CAT(WARP_, SIZE)"))):
        (tmp_path / str(k)).mkdir()
        rc, _, err = run(tmp_path / str(k), PASTED.replace("DEFINE", define).replace("@R", read))
        assert rc != 0 and "KP225" in err and "cfg.cuh:5:" in err, (define, err)


def test_a_paste_that_cannot_spell_the_member_is_no_read(tmp_path):
    unit = PASTED.replace("DEFINE", "#define CFG(name) (TileCfg::name##_M)").replace("@R", "CFG(BLOCK)")
    unit = unit.replace("t / warpSize", "t / CFG(BLOCK)")  # (BLOCK_M, 64: a block extent, no wave)
    rc, _, err = run(tmp_path, unit)
    assert rc == 0 and "KP225" not in err, err
