"""A ballot followed through C types beyond a declared variable (kernelport/masktypes.py): a wrapper
template that returns the mask as its template parameter, deduced (AstroAccelerate's
`template <typename T, typename U> T aa_ballot(const U& mask, const T& XX)` called as
`aa_ballot(AA_ASSUME_MASK, 1)`: T = int) or explicit (`vote<unsigned>(...)`).  The HIP port
compiled and cut the 64-lane ballot to 32 bits.  Each case has look-alikes that must stay as written.
tests/fixtures/ballot_widths holds the same cases as annotated kernels (`kernelport verify` runs them)."""
from __future__ import annotations

import textwrap

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

WRAPPER = """
template <typename T, typename U>
__device__ __inline__ T vote(const U& mask, const T& p) {
    return __ballot_sync(mask, p);
}
"""
KERNEL = """
__global__ void count(const float* x, int* out) {
    int keep = x[threadIdx.x] > 0.0f;
    auto m = CALL;
    if (keep && (threadIdx.x & 31) == __ffs(m) - 1) atomicAdd(out, __popc(m));
}
"""


def hip(code: str):
    src = SourceFile.from_text(textwrap.dedent(code), "t.cu")
    port, _ = translate(src, "hip")
    return port


def ws008(code: str) -> set[int]:
    return {f.line for f in lint_text(textwrap.dedent(code), "t.cu") if f.code == "WS008"}


def test_deduced_template_return_is_widened_and_reported():
    code = WRAPPER + KERNEL.replace("CALL", "vote(0xffffffffu, keep)")  # T = int, from keep
    port = hip(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__device__ __inline__ unsigned long long vote(const U& mask, const T& p)" in port.body
    assert "__popcll(m)" in port.body
    assert ws008(code) == {3}
    msg = next(f.message for f in lint_text(textwrap.dedent(code), "t.cu") if f.code == "WS008")
    assert "template parameter `T` of 'vote', `int` where `vote(0xffffffffu, keep)` is called at line 9" in msg


def test_explicit_template_return_is_widened():
    code = """
template <typename T>
__device__ T vote_as(unsigned mask, int p) { return __ballot_sync(mask, p); }
""" + KERNEL.replace("CALL", "vote_as<unsigned>(0xffffffffu, keep)")
    port = hip(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__device__ unsigned long long vote_as(unsigned mask, int p)" in port.body
    assert ws008(code) == {3}


def test_a_header_wrapper_no_call_decides_is_widened():
    """The header alone (ported on its own in a project run): T is whatever a caller's predicate is."""
    port = hip(WRAPPER)
    assert "__device__ __inline__ unsigned long long vote(" in port.body
    assert ws008(WRAPPER) == {3}


def test_template_returning_other_values_stays():
    code = """
template <typename T>
__device__ T twice(const T& x) { return x + x; }
__global__ void k(int* out) { out[threadIdx.x] = twice(out[threadIdx.x]) + __popc(__ballot_sync(0xffffffff, 1)); }
"""
    port = hip(code)
    assert port.ok and "__device__ T twice(const T& x)" in port.body
    assert ws008(code) == set()


def test_every_call_making_t_64_bits_stays():
    for call in ("vote(0xffffffffu, 1ull)", "vote<unsigned long long>(0xffffffffu, keep)"):
        code = WRAPPER + KERNEL.replace("CALL", call).replace("__popc(m)", "__popcll(m)").replace("__ffs(", "__ffsll(")
        port = hip(code)
        assert port.ok and "__device__ __inline__ T vote(const U& mask, const T& p)" in port.body, call
        assert ws008(code) == set(), call


def test_logical_32_lane_group_keeps_its_32_bit_word():
    """A block of 32 threads: one group per wave, CUDA's 32 bits are the group's mask (warpwidth)."""
    code = WRAPPER + """
__global__ void __launch_bounds__(32) count(const float* x, int* out) {
    int keep = x[threadIdx.x] > 0.0f;
    auto m = vote(0xffffffffu, keep);
    if (threadIdx.x == 0) *out = __popc(m);
}
"""
    port = hip(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__device__ __inline__ T vote(const U& mask, const T& p)" in port.body
    assert ws008(code) == set()


def test_template_returning_a_mask_and_other_values_is_refused():
    code = """
template <typename T>
__device__ T vote_or(T p, bool any) {
    if (any) return __ballot_sync(0xffffffff, p);
    return p;
}
""" + KERNEL.replace("CALL", "vote_or(keep, true)")
    port = hip(code)
    assert not port.ok
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line) for d in errors] == [("KP232", 3)], [d.format() for d in errors]
    assert "'vote_or' returns a lane mask as its template parameter `T`" in errors[0].message
    lint = [f for f in lint_text(textwrap.dedent(code), "t.cu") if f.code == "WS008"]
    assert any("KP232" not in f.message and "and other values as well" in f.message for f in lint)


VOTES_H = """\
#ifndef VOTES_CUH
#define VOTES_CUH
template <typename T, typename U>
__device__ __inline__ T my_ballot(const U &mask, const T &x) {
    return __ballot_sync(mask, x);
}
#endif
"""
NATIVE_CALLER = """\
#include "votes.cuh"
__global__ void k(const float* x, int* pos) {
    int mask = 0;
    if (x[threadIdx.x] > 0.0f) mask = 1;
    mask = my_ballot(0xFFFFFFFF, mask);
    if ((threadIdx.x & 31) == __ffs(mask) - 1) atomicAdd(pos, __popc(mask));
}
"""
# AstroAccelerate's THR_GPU_WARP: a warp index from a hardcoded 32 lays out global data (rows of 32
# lanes), and the header's ballot wrapper votes over the 64-lane wave, two such rows
ROWS_CALLER = """\
#include "votes.cuh"
__global__ void rows(const float* x, int* pos, int n) {
    int lane = threadIdx.x & 31;
    int warp = threadIdx.x >> 5;
    int p = (blockIdx.x * 4 + warp) * n + lane;
    int keep = x[p] > 0.0f;
    int mask = my_ballot(0xFFFFFFFF, keep);
    if (keep && lane == __ffs(mask) - 1) atomicAdd(pos, __popc(mask));
}
"""


def _project(tmp_path, files: dict[str, str]):
    from trust_support import kp_inproc
    for name, text in {"votes.cuh": VOTES_H, **files}.items():
        (tmp_path / name).write_text(text)
    return kp_inproc("translate", *[tmp_path / n for n in files], "--to", "hip", "-o", tmp_path / "out")


def test_a_header_ballot_wrapper_is_widened_for_its_callers(tmp_path):
    rc, out, err = _project(tmp_path, {"a.cu": NATIVE_CALLER})
    assert rc == 0, err
    assert "__device__ __inline__ unsigned long long my_ballot(" in (tmp_path / "out" / "votes.hip.h").read_text()
    port = (tmp_path / "out" / "a.hip").read_text()
    assert "unsigned long long mask = 0;" in port and "__popcll(mask)" in port, port


def test_a_header_ballot_wrapper_called_by_32_lane_rows_is_a_vote_that_decides_nothing(tmp_path):
    """Its direct form (`__ballot_sync` in the kernel) is refused KP219: the wrapper's call is too."""
    rc, out, err = _project(tmp_path, {"r.cu": ROWS_CALLER})
    assert rc == 1 and "r.cu:7:16: error: KP219" in err, err
    assert "votes that may see two 32-lane groups of one 64-lane wave" in err


FIELD = """
struct Vote {
    unsigned mask;
    int leader;
};
__global__ void count(const float* x, int* out) {
    int keep = x[threadIdx.x] > 0.0f;
    Vote v;
    v.mask = __ballot_sync(0xffffffff, keep);
    v.leader = __ffs(v.mask) - 1;
    if (keep && (threadIdx.x & 31) == v.leader) atomicAdd(out, __popc(v.mask));
}
"""


def test_a_ballot_in_a_32_bit_field_of_the_files_own_struct_is_widened():
    port = hip(FIELD)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "    unsigned long long mask;\n    int leader;" in port.body
    assert "__ffsll(v.mask)" in port.body and "__popcll(v.mask)" in port.body
    assert ws008(FIELD) == {3}


def test_a_32_bit_field_holding_other_values_stays():
    code = FIELD.replace("v.mask = __ballot_sync(0xffffffff, keep);", "v.mask = keep;")
    port = hip(code)
    assert port.ok and "    unsigned mask;\n" in port.body and "__popc(v.mask)" in port.body
    assert ws008(code) == set()


def test_a_field_whose_layout_is_shared_with_the_host_is_refused():
    code = FIELD.replace("Vote v;", "").replace("const float* x, int* out)", "const float* x, int* out, Vote v)")
    port = hip(code)
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line) for d in errors] == [("KP232", 9)], [d.format() for d in errors]
    assert "kernel 'count' takes it as a parameter" in errors[0].message


def test_a_field_of_a_headers_struct_is_refused(tmp_path):
    from trust_support import kp_inproc
    (tmp_path / "vote.h").write_text("struct Vote {\n    unsigned mask;\n    int leader;\n};\n")
    (tmp_path / "a.cu").write_text('#include "vote.h"\n' + FIELD.split("};", 1)[1])
    rc, out, err = kp_inproc("translate", tmp_path / "a.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 1 and "a.cu:6:5: error: KP232" in err and "declared `unsigned` at vote.h:2" in err, err


HELPER_LEADER = """
__device__ void add_count(int* c, unsigned m, int lane) {
    int leader = __ffs(m) - 1;
    if (lane == leader) atomicAdd(c, __popc(m));
}
__global__ void count(const float* x, int* out) {
    int lane = threadIdx.x & 31;
    add_count(out, ARG, lane);
}
"""


def test_a_lane_compared_with_a_voting_lane_in_a_helper_is_the_waves_lane():
    """`lane == __ffs(mask) - 1` in a helper given both: at wave 64 `threadIdx.x & 31` made lanes L and
    L + 32 leaders and the count was added twice (the port compiled; verify: 280 for 140)."""
    code = HELPER_LEADER.replace("ARG", "__ballot_sync(0xffffffff, x[threadIdx.x] > 0.0f)")
    port = hip(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "int lane = threadIdx.x & (warpSize - 1);" in port.body
    assert 7 in {f.line for f in lint_text(textwrap.dedent(code), "t.cu") if f.code == "WS002"}


def test_a_lane_compared_with_a_bit_of_a_data_word_stays():
    code = HELPER_LEADER.replace("ARG", "__float_as_uint(x[threadIdx.x])")
    port = hip(code)
    assert port.ok and "int lane = threadIdx.x & 31;" in port.body
    assert not [f for f in lint_text(textwrap.dedent(code), "t.cu") if f.code.startswith("WS")]


def test_an_auto_variable_follows_the_ballot_and_stays_auto():
    code = KERNEL.replace("CALL", "__ballot_sync(0xffffffffu, keep)")
    port = hip(code)
    assert port.ok and "auto m = __ballot(keep);" in port.body and "__popcll(m)" in port.body
    assert ws008(code) == set()
