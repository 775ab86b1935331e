"""Masks of a logical group inside the warp (kernelport.groupmasks, issue 11: NVlabs/CGBN's thread
groups of TPI lanes): a shuffle whose mask is the caller's own aligned group of G lanes, with width
G, reached by no thread-dependent control flow, is ported with the mask dropped (exact at wave 32
and 64: tests/realcode/cgbn_group_popcount.cu verifies it in the emulator); every look-alike that
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
    (_CGBN, "v += __ballot_sync(sync, v > 3);", "a vote over the caller's group of 1/2/4/8/16/32 lanes"),
    ("ONES", "v += __any_sync(sync, v > 3);", "not the caller's own aligned group"),
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
