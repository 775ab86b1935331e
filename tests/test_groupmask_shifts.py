"""A lane mask built by shifting a signed literal into bit 31 (daschr/cuda-classifier's ls_cl2.cu:
`0xf << ((threadIdx.x & 31) - (threadIdx.x & 3))`, int at lanes 28-31).  C calls that overflow, C++14
defines it ([expr.shift]: a non-negative value whose shift fits the unsigned type is that value
converted), and a .cu file is C++: groupmasks evaluates CUDA's masks with C++'s rule (cexpr's
`cxx`), annotations keep C's.  The vote's port is verified at wave 32 and 64 in the emulator by
tests/realcode/classifier_group_all.cu; a shift past the unsigned type, or a mask that is not the
caller's group, is still refused at the mask."""
from __future__ import annotations

import pytest

from kernelport import cexpr
from kernelport.source import SourceFile
from kernelport.translate import translate


def test_cxx_defines_a_signed_shift_that_fits_the_unsigned_type():
    v = cexpr.evaluator("0xf << 28", cxx=True)({})
    assert (v.type.name, v.v) == ("int", -268435456)
    assert cexpr.evaluator("(unsigned)(0xf << 28)", cxx=True)({}).v == 0xF0000000
    assert cexpr.evaluator("3 << 4", cxx=True)({}).v == 48  # in range: the same value either way


@pytest.mark.parametrize("expr, why", [
    ("0xf << 28", "overflows int"),  # an annotation is C: still an error
])
def test_c_keeps_the_overflow_an_error(expr, why):
    with pytest.raises(cexpr.CExprError, match=why):
        cexpr.evaluator(expr)({})


@pytest.mark.parametrize("expr, why", [
    ("0x1f << 28", "overflows int"),  # past the unsigned type too: undefined in C++14 as well
    ("-1 << 3", "negative value"),
])
def test_cxx_keeps_what_cxx14_leaves_undefined_an_error(expr, why):
    with pytest.raises(cexpr.CExprError, match=why):
        cexpr.evaluator(expr, cxx=True)({})


_KERNEL = """__global__ void ls(const unsigned* lower, const unsigned* header, unsigned* pos) {{
    unsigned t = threadIdx.x & 3;
    unsigned mask = {mask};
    int r = lower[threadIdx.x] <= header[t];
    if ((!t) & {vote}(mask, r)) atomicMin(pos, threadIdx.x >> 2);
}}
"""


def _port(mask: str, vote: str = "__all_sync", backend: str = "hip"):
    src = _KERNEL.format(mask=mask, vote=vote)
    port, _ = translate(SourceFile.from_text(src, "ls.cu"), backend)
    return port


@pytest.mark.parametrize("vote, want", [
    ("__all_sync", "((int)(((unsigned int)(__ballot(!(r)) >> (__lane_id() & 32)) & (mask)) == 0))"),
    ("__any_sync", "((int)(((unsigned int)(__ballot(r) >> (__lane_id() & 32)) & (mask)) != 0))"),
])
def test_the_classifiers_group_vote_is_ported(vote, want):
    port = _port("0xf << ((threadIdx.x & 31) - t)", vote)
    assert port.ok and want in port.body, (port.diagnostics, port.body)
    assert _port("0xf << ((threadIdx.x & 31) - t)", vote, "metal").ok


@pytest.mark.parametrize("mask, why", [
    ("0xb << ((threadIdx.x & 31) - t)", "not the caller's own aligned group"),  # ls_cl.cu: three of the four lanes
    ("0x1f << ((threadIdx.x & 31) - t)", "overflows int"),  # five lanes: past 32 bits at lane 28
    ("0xf << ((threadIdx.x & 15) - t)", "not the caller's own aligned group"),  # lanes 16-31 name 0-15
])
def test_a_look_alike_is_still_refused_at_the_mask(mask, why):
    port = _port(mask)
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["KP203"] and why in errors[0].message, port.diagnostics
