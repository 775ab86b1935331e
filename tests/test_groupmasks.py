"""Masks of a logical group inside the warp (kernelport.groupmasks, issue 11: NVlabs/CGBN's thread
groups of TPI lanes): a shuffle whose mask is the caller's own aligned group of G lanes, with width
G, reached by no thread-dependent control flow, is ported with the mask dropped, and a vote over
such a group as the wave's ballot restricted to it (exact at wave 32 and 64: tests/realcode/
cgbn_group_popcount.cu and cgbn_group_votes.cu verify them in the emulator); every look-alike that
misses one condition is still refused at the mask (KP203), naming the condition."""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

_FILE = """__device__ bool odd(unsigned v) {{ return v & 1; }}
template <int TPI>
__device__ unsigned f(unsigned v, unsigned k) {{
    unsigned group_thread = threadIdx.x & TPI - 1, warp_thread = threadIdx.x & 31;
    const unsigned ONES = (1ull << TPI) - 1;
    unsigned sync;
    sync = {mask};
    {stmt}
    return v;
}}
__global__ void kern(const unsigned* x, unsigned* out) {{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = f<8>(x[t], t);
}}
"""
_CGBN = "ONES << (group_thread ^ warp_thread)"  # CGBN's instance_sync_mask


def _port(mask: str, stmt: str, backend: str = "hip"):
    port, _ = translate(SourceFile.from_text(_FILE.format(mask=mask, stmt=stmt), "g.cu"), backend)
    return port


@pytest.mark.parametrize("mask, stmt, want", [
    (_CGBN, "v += __shfl_xor_sync(sync, v, 1, TPI);", "v += __shfl_xor(v, 1, TPI);"),
    (_CGBN, "v = __shfl_sync(sync, v, 0, TPI);", "v = __shfl(v, 0, TPI);"),
    # (1u << TPI) is undefined in C at TPI 32: no port owes that G; 4 lanes are the group at every other
    ("((1u << TPI) - 1) << (warp_thread / TPI * TPI)", "v = __shfl_down_sync(sync, v, 1, TPI);",
     "v = __shfl_down(v, 1, TPI);"),
    ("0xfu << (threadIdx.x & 28)", "v = __shfl_up_sync(sync, v, 1, 4);", "v = __shfl_up(v, 1, 4);"),
])
def test_a_group_mask_with_the_group_width_in_uniform_code_is_dropped(mask, stmt, want):
    port = _port(mask, stmt)
    assert port.ok and want in port.body, (port.diagnostics, port.body)
    assert any("own aligned group" in n.why for n in port.notes)
    for backend in ("metal", "portable"):  # each as its table spells a shuffle with a width
        assert _port(mask, stmt, backend).ok, _port(mask, stmt, backend).diagnostics


@pytest.mark.parametrize("stmt, want", [
    ("v += __ballot_sync(sync, v > 3);", "v += ((unsigned int)((unsigned int)(__ballot(v > 3) >> (__lane_id() & 32)) & "
                                         "(sync)));"),
    ("v += __any_sync(sync, v > 3);", "v += ((int)(((unsigned int)(__ballot(v > 3) >> (__lane_id() & 32)) & (sync)) "
                                      "!= 0));"),
    ("v += __all_sync(sync, v > 3);", "v += ((int)(((unsigned int)(__ballot(!(v > 3)) >> (__lane_id() & 32)) & "
                                      "(sync)) == 0));"),
])
def test_a_vote_over_the_group_in_uniform_code_is_the_waves_ballot_restricted_to_the_group(stmt, want):
    """The 32 bits of the wave that hold the caller's CUDA warp, ANDed with the group's mask: CUDA's
    result at wave 32 and 64 (tests/realcode/cgbn_group_votes.cu verifies it in the emulator)."""
    port = _port(_CGBN, stmt)
    assert port.ok and want in port.body, (port.diagnostics, port.body)
    assert any("vote over the caller's own aligned group" in n.why for n in port.notes)
    metal = _port(_CGBN, stmt, "metal")  # a SIMD-group of 32: no half to pick
    assert metal.ok and "simd_ballot(" in metal.body and ">>" not in metal.body.split("sync =")[1], metal.diagnostics
    portable = _port(_CGBN, stmt, "portable")  # CUDA's own vote on nvcc, the wave's on hipcc
    assert portable.ok and "kp_ballot_sync(sync, " in portable.body and "kp_lane_id() & 32" in portable.body


def test_a_group_ballot_is_a_32_lane_word_for_the_dataflow():
    """Its bits stay at their CUDA lanes in the port: the lane that reads them keeps its `& 31`, the word
    its 32 bits, and storing it to 32-bit memory loses no lane (no KP207), where a warp's ballot would."""
    stmt = "unsigned b = __ballot_sync(sync, v > 3);\n    out[0] = b;\n    v += (b >> warp_thread) & 1u;"
    src = _FILE.format(mask=_CGBN, stmt=stmt).replace("unsigned k)", "unsigned k, unsigned* out)").replace(
        "f<8>(x[t], t)", "f<8>(x[t], t, out)")
    port, _ = translate(SourceFile.from_text(src, "g.cu"), "hip")
    assert port.ok and "warp_thread = threadIdx.x & 31;" in port.body and "unsigned b =" in port.body, \
        (port.diagnostics, port.body)
    port, _ = translate(SourceFile.from_text(src.replace("__ballot_sync(sync,", "__ballot_sync(0xffffffffu,"), "g.cu"),
                        "hip")
    assert "KP207" in [d.code for d in port.diagnostics if d.severity == "error"], port.diagnostics


@pytest.mark.parametrize("mask, stmt, why", [
    (_CGBN, "if (odd(v)) v += __shfl_xor_sync(sync, v, 1, TPI);", "thread-dependent control flow"),
    ("ONES", "v += __shfl_xor_sync(sync, v, 1, TPI);", "not the caller's own aligned group"),  # lanes 0..G-1 only
    ("ONES << warp_thread", "v += __shfl_xor_sync(sync, v, 1, TPI);", "not the caller's own aligned group"),
    ("0xfffu << (warp_thread / 12 * 12)", "v += __shfl_sync(sync, v, 3, 12);", "not the caller's own aligned group"),
    (_CGBN, "v += __shfl_xor_sync(sync, v, 1);", "gives no width"),  # the lane read may leave the group
    (_CGBN, "v += __shfl_sync(sync, v, 9, 2 * TPI);", "width is not the group's"),
    ("k", "v += __shfl_xor_sync(sync, v, 1, TPI);", "callers decide"),
    (_CGBN + " + k", "v += __shfl_xor_sync(sync, v, 1, TPI);", "callers decide"),
    ("ONES << (threadIdx.y & 24)", "v += __shfl_xor_sync(sync, v, 1, TPI);", "not the lane id"),
    ("ONES", "v += __any_sync(sync, v > 3);", "not the caller's own aligned group"),
    # votes over a group: the same conditions but the width
    ("0xfu << (warp_thread / 4 * 4 + 1)", "v += __ballot_sync(sync, v > 3);", "not the caller's own aligned group"),
    (_CGBN, "if (odd(v)) v += __all_sync(sync, v > 3);", "thread-dependent control flow"),
    ("k", "v += __any_sync(sync, v > 3);", "callers decide"),
    # CGBN's own `threadIdx.x & warpSize - 1`: the port computes the mask at the wave's width
    ("ONES << (group_thread ^ (threadIdx.x & warpSize - 1))", "v += __ballot_sync(sync, v > 3);", "warp size"),
])
def test_a_look_alike_is_still_refused_at_the_mask_naming_why(mask, stmt, why):
    port = _port(mask, stmt)
    got = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error" and d.code == "KP203"]
    assert got == [("KP203", 8)], port.diagnostics
    assert why in port.diagnostics[0].message, port.diagnostics[0].message


@pytest.mark.parametrize("after", ["if (odd(k)) sync = 3", "sync |= 1", "sync++", "widen(sync)", "set(&sync)",
                                   "unknown_helper(sync)"])
def test_a_mask_that_may_take_another_value_is_not_read_as_one(after):
    """Reassigned, updated, or passed where a callee may store to it (a reference parameter, its
    address, a function this file does not define)."""
    helpers = "__device__ void widen(unsigned& m) { m = 3; }\n__device__ void set(unsigned* m) { *m = 1; }\n"
    src = helpers + _FILE.format(mask=_CGBN + ";\n    " + after, stmt="v += __shfl_xor_sync(sync, v, 1, TPI);")
    port, _ = translate(SourceFile.from_text(src, "g.cu"), "hip")
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["KP203"], port.diagnostics
    assert "more than one value" in errors[0].message, errors[0].message


def test_a_mask_passed_by_value_to_a_helper_is_still_one_value():
    src = "__device__ unsigned keep(unsigned m) { return m; }\n" + _FILE.format(
        mask=_CGBN + ";\n    keep(sync)", stmt="v += __shfl_xor_sync(sync, v, 1, TPI);")
    port, _ = translate(SourceFile.from_text(src, "g.cu"), "hip")
    assert port.ok and "v += __shfl_xor(v, 1, TPI);" in port.body, port.diagnostics


def test_a_helper_called_under_thread_dependent_control_keeps_its_refusal():
    src = _FILE.format(mask=_CGBN, stmt="v += __shfl_xor_sync(sync, v, 1, TPI);").replace(
        "out[t] = f<8>(x[t], t);", "if (x[t] > 3) out[t] = f<8>(x[t], t);")
    port, _ = translate(SourceFile.from_text(src, "g.cu"), "hip")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP203"]
    assert "thread-dependent control flow" in port.diagnostics[0].message


def test_a_thread_dependent_return_before_the_shuffle_keeps_its_refusal():
    port = _port(_CGBN, "if (odd(v)) return v;\n    v += __shfl_xor_sync(sync, v, 1, TPI);")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP203", 9)]
    assert "thread-dependent control flow" in port.diagnostics[0].message


@pytest.mark.parametrize("define, ok", [("#define GROUP_MASK 0xffu", False), ("#define GROUP_MASK (0xffu << 8)", False),
                                        ("#define GROUP_MASK LANES", False)])
def test_a_macro_mask_is_read_when_it_is_one_literal_value(define, ok):
    """A literal macro is evaluated (0xff: lanes 0-7 only, not every caller's group: refused as such);
    one that names other macros is refused naming the macro."""
    src = define + "\n" + _FILE.format(mask="GROUP_MASK", stmt="v += __shfl_xor_sync(sync, v, 1, TPI);")
    port, _ = translate(SourceFile.from_text(src, "g.cu"), "hip")
    msg = next(d.message for d in port.diagnostics if d.code == "KP203")
    assert ("not one literal value" in msg) == ("LANES" in define), msg
    assert ("not the caller's own aligned group" in msg) == ("LANES" not in define), msg



_CLASS = """template <class env>
class core_t {{
  public:
    static const unsigned TPI = env::TPI;
    {decl} TPI_ONES = (1ull << TPI) - 1;
    __device__ static unsigned sync_mask() {{
        unsigned group_thread = threadIdx.x & TPI - 1, warp_thread = threadIdx.x & warpSize - 1;
        return TPI_ONES << (group_thread ^ warp_thread);
    }}
    __device__ static unsigned pop(unsigned v);
}};
template <class env>
__device__ unsigned core_t<env>::pop(unsigned v) {{
    unsigned sync = sync_mask();
    for (int i = TPI / 2; i > 0; i >>= 1)
        v += __shfl_xor_sync(sync, v, i, TPI);
    return v;
}}
"""


def test_a_classs_constant_members_are_read_like_file_constants():
    # CGBN's core_t: TPI and TPI_ONES are `static const` members, TPI the environment's (unknown: every G)
    port, _ = translate(SourceFile.from_text(_CLASS.format(decl="static const unsigned"), "c.cu"), "hip")
    assert port.ok and "v += __shfl_xor(v, i, TPI);" in port.body, port.diagnostics
    # a member that is not constant may hold anything by the time of the call
    port, _ = translate(SourceFile.from_text(_CLASS.format(decl="unsigned"), "c.cu"), "hip")
    assert not port.ok and any(d.code == "KP203" for d in port.diagnostics)


_GROUP_VOTES = """
__global__ void k(const int* x, unsigned* out) {
    unsigned lane = threadIdx.x & 31;
    unsigned sync = ((1u << G) - 1) << (lane & ~(G - 1));
    int p = x[blockIdx.x * blockDim.x + threadIdx.x] > 0;
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
    out[t] = __ballot_sync(sync, p);
    out[n + t] = __any_sync(sync, p);
    out[2 * n + t] = __all_sync(sync, p);
}
"""


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
@pytest.mark.parametrize("g", [2, 4, 8, 16])
def test_the_emulator_votes_over_each_lanes_own_group(g, schedule):
    """CUDA's __ballot/__any/__all_sync with the mask of the caller's group: each lane gets its group's
    bits (at their lanes) and its group's any and all, checked against a per-lane model (where the lanes'
    masks differ; one mask per warp was read from its first lane before)."""
    import numpy as np
    from kernelport.emulator import run_kernel
    rng = np.random.default_rng(g)
    x = np.where(rng.random(128) < 0.8, 1, -1).astype(np.int32)
    x[:g] = 1  # one group all yes, one all no
    x[g:2 * g] = -1
    r = run_kernel(_GROUP_VOTES.replace("G", str(g)), "k", args=dict(x=x, out=np.zeros(3 * 128, np.uint32)),
                   grid=(2,), block=(64,), wave=32, schedule=schedule)
    out = r.outputs["out"].reshape(3, 128)
    for t in range(128):
        first = t & ~(g - 1)
        group = [x[first + j] > 0 for j in range(g)]
        ballot = sum(1 << ((first + j) % 32) for j in range(g) if group[j])
        assert (out[0, t], out[1, t], out[2, t]) == (ballot, int(any(group)), int(all(group))), t
    assert not any("does not name" in d.message for d in r.diagnostics), r.diagnostics


def test_the_emulator_warns_where_a_lane_s_mask_leaves_it_out_or_its_group_disagrees():
    import numpy as np
    from kernelport.emulator import run_kernel
    src = _GROUP_VOTES.replace("((1u << G) - 1) << (lane & ~(G - 1))", "3u << (lane & 30 ^ 2)")  # the next pair
    r = run_kernel(src, "k", args=dict(x=np.ones(32, np.int32), out=np.zeros(96, np.uint32)), grid=(1,),
                   block=(32,), wave=32)
    assert any("does not name active lanes 0-31" in d.message for d in r.diagnostics), r.diagnostics


@pytest.mark.parametrize("word, hazard", [
    ("(unsigned)(__ballot(x[threadIdx.x] > 0) >> (__lane_id() & 32))", False),  # the caller's warp's 32 bits
    ("(unsigned int)(__ballot(x[threadIdx.x] > 0) >> (threadIdx.x & 32))", False),
    ("(unsigned)__ballot(x[threadIdx.x] > 0)", True),  # lanes 32-63 cut
    ("(unsigned)(__ballot(x[threadIdx.x] > 0) >> (__lane_id() & 16))", True),  # not a half of the wave
    ("(unsigned short)(__ballot(x[threadIdx.x] > 0) >> (__lane_id() & 32))", True),  # not a 32-bit word
])
def test_lint_reads_the_waves_ballot_shifted_to_the_callers_warp_as_a_32_lane_word(word, hazard):
    """How a port votes over a group (dialect.group_votes): `(unsigned)(ballot >> (lane & 32))` holds
    the 32 lanes of the caller's warp, in a 32-bit word as CUDA's ballot: no lane mask cut to 32 bits."""
    from kernelport.lint.engine import lint_text
    src = ("__global__ void k(const int* x, unsigned* out) {\n    unsigned lane = threadIdx.x & 31;\n"
           f"    unsigned w = {word};\n    out[threadIdx.x] = (w >> lane) & 1u;\n}}\n")
    found = [f.code for f in lint_text(src, "k.hip", "hip", targets=["hip-cdna"], select=["WS"]) if f.severity == "error"]
    assert bool(found) == hazard, found


_TRAITS = """template <int N>
struct Traits {{
    static constexpr int threads = N;
    static constexpr unsigned int shfl_mask = {mask};
}};
"""
_TRAITS_KERNEL = """template <typename KernelTraits>
__global__ void k(float* x) {
    constexpr unsigned int shfl_mask = KernelTraits::shfl_mask;
    float v = x[threadIdx.x];
    for (int i = 16; i >= 1; i /= 2) v += __shfl_xor_sync(shfl_mask, v, i);
    x[threadIdx.x] = __shfl_sync(KernelTraits::shfl_mask, v, 0);
}
template __global__ void k<Traits<128>>(float*);
"""


def test_a_traits_classs_full_mask_member_is_cudas_full_mask():
    """decoding_attention's `constexpr unsigned shfl_mask = KernelTraits::shfl_mask;` (the traits
    class a template argument, its member `static constexpr unsigned shfl_mask = 0xffffffff`): every
    class's member of that name is the full mask, so the mask is dropped as a literal one would be."""
    port, _ = translate(SourceFile.from_text(_TRAITS.format(mask="0xffffffff") + _TRAITS_KERNEL, "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    # Re-pinned (h/heldout36): every lane stores the fold (lane 0's), so the port keeps CUDA's 32-lane groups
    # (kernelport/butterfly_lanes.py); the full mask is still dropped, which is what this test is about.
    assert "v += __shfl_xor(v, i, 32);" in port.body and "x[threadIdx.x] = __shfl(v, 0, 32);" in port.body
    # another class with a member of that name that is not the full mask: it may be the argument
    other = _TRAITS.format(mask="0xffffffff") + _TRAITS.replace("Traits", "Half").format(mask="0xffff")
    port, _ = translate(SourceFile.from_text(other + _TRAITS_KERNEL, "t.cu"), "hip")
    assert not port.ok and any(d.code == "KP203" for d in port.diagnostics)


def test_a_traits_class_in_an_included_header_is_read_too(tmp_path):
    from trust_support import kp_inproc
    (tmp_path / "traits.h").write_text("#pragma once\n" + _TRAITS.format(mask="0xffffffff"))
    (tmp_path / "kernel.cuh").write_text('#pragma once\n#include "traits.h"\n' + _TRAITS_KERNEL)
    (tmp_path / "k.cu").write_text('#include "kernel.cuh"\n')
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0, err
    assert "v += __shfl_xor(v, i, 32);" in (tmp_path / "out" / "kernel.hip.h").read_text()  # (re-pinned as above)
