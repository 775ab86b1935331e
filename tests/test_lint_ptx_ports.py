"""Lint's PT002 says what `kernelport translate` does with the asm statement it reports, per
backend, as kernelport.inline_asm decides it: a known idiom (the lane id) is written in each
port's spelling; a carry-flag statement (era-bellman-cuda's one-instruction `ptx::add_cc` wrapper)
is ported for the backends that spell the flag's variable (HIP; Metal refuses it, KP201), which
lint said the HIP port could not compile (stale since kernelport/carry_calls.py); anything else
is refused by every port (`bfind.shiftamt`: h/heldout35 ports `bfind.u32` for HIP, so the example that
no port takes is its shift-amount form). Lint and translate agree: each claim is checked against translate."""
from __future__ import annotations

import textwrap

from kernelport.lint.engine import lint_text

from port_support import refusal

CODE = textwrap.dedent("""\
    __device__ unsigned lane_id() {
        unsigned lane;
        asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
        return lane;
    }
    __device__ __forceinline__ unsigned add_cc(unsigned x, unsigned y) {
        unsigned r;
        asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
        return r;
    }
    __device__ __forceinline__ unsigned addc(unsigned x, unsigned y) {
        unsigned r;
        asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
        return r;
    }
    __device__ unsigned odd(unsigned x) {
        unsigned r;
        asm volatile("brev.b32 %0, %1; bfind.shiftamt.u32 %0, %0;" : "=r"(r) : "r"(x));
        return r;
    }
    __global__ void k(unsigned* out, const unsigned* a) {
        unsigned lo = add_cc(a[0], a[2]);
        unsigned hi = addc(a[1], a[3]);
        out[lane_id()] = lo + hi + odd(a[4]);
    }
    """)


def _pt002() -> dict[int, str]:
    return {f.line: f.message for f in lint_text(CODE, "t.cu") if f.code == "PT002"}


def _kp201_lines(backend: str) -> set[int]:
    return {d.location.line for d in refusal(CODE, to=backend, dedent=False) if d.code == "KP201"}


def test_pt002_says_what_each_port_does_and_translate_agrees():
    said = _pt002()
    assert set(said) == {3, 8, 13, 18}  # every asm outside a guard is still reported (the source is CUDA's)
    assert "writes this idiom in the HIP and Metal ports' own spelling" in said[3]
    for line in (8, 13):
        assert "ports this carry-flag statement for HIP" in said[line], said[line]
        assert "the Metal port refuses it (KP201)" in said[line]
        assert "do not compile" not in said[line]
    assert "the HIP and Metal ports refuse it (KP201)" in said[18]
    # what translate does: HIP refuses only the unknown statement, Metal the carry statements too
    assert _kp201_lines("hip") == {18}
    assert _kp201_lines("metal") == {8, 13, 18}
