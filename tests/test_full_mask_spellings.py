"""Every spelling of CUDA's full lane mask is the full mask (kernelport/fullmask.py, the one decision).

heldout30's era-bellman-cuda passes `UINT32_MAX` to `__shfl_sync` (src/memory.cuh); the mask
analysis read only `0xffffffff`, `~0`, `-1` and a few casts as all 32 lanes, so the HIP and portable
ports stopped at KP203 ("may name only some lanes").  Each spelling below is ported as `0xffffffff`
is: HIP drops the mask (`__shfl_down(v, o)`), the portable header passes `KP_FULL_MASK`.  Look-alikes
that are not all 32 lanes (`INT_MAX`, `UINT32_MAX >> 1`, `numeric_limits<int>::max()`, a project's
own `UINT32_MAX` macro of another value) stay partial: KP203.  64-bit all ones (`ULLONG_MAX`) is a
different thing and stays as it was (partial here; `~0ull` was and stays full).
"""
from __future__ import annotations

import pytest

from kernelport import fullmask
from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

KERNEL = """#include <cstdint>
#include <climits>
#include <limits>
{pre}
__device__ float warp_sum(float v) {{
    {local}
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync({mask}, v, o);
    return v;
}}
__global__ void k(float* out, const float* in) {{
    float v = warp_sum(in[threadIdx.x]);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}}
"""
# (each warp's leader adds its fold to one total, which the wave port keeps right.  Until stop 48 every lane stored
#  `out[threadIdx.x] = warp_sum(..)`, whose lanes 1-31 hold partial folds of another span at 64: fold_levels now keeps
#  32-lane groups there, with the shuffle's width written, so that shape no longer shows the mask's port.)

FULL = {
    "hex": ("", "0xffffffff", ""),
    "hex_ul": ("", "0xFFFFFFFFUL", ""),
    "decimal": ("", "4294967295u", ""),
    "octal": ("", "037777777777", ""),
    "binary": ("", "0b11111111111111111111111111111111", ""),
    "digit_separators": ("", "0xffff'ffff", ""),
    "minus_one": ("", "-1", ""),
    "c_cast_minus_one": ("", "(unsigned int)(-1)", ""),
    "functional_cast": ("", "uint32_t(-1)", ""),
    "static_cast_minus_one": ("", "static_cast<unsigned>(-1)", ""),
    "static_cast_std_uint32": ("", "static_cast<std::uint32_t>(-1)", ""),
    "tilde_zero": ("", "~0", ""),
    "tilde_zero_u": ("", "(~0U)", ""),
    "static_cast_tilde": ("", "static_cast<unsigned int>(~0)", ""),
    "uint32_max": ("", "UINT32_MAX", ""),
    "uint_max": ("", "UINT_MAX", ""),
    "macro_of_uint32_max": ("#define FULLM UINT32_MAX", "FULLM", ""),
    "macro_literal": ("#define FULLM (0xffffffffU)", "FULLM", ""),
    "constexpr_of_uint32_max": ("constexpr uint32_t FULLM = UINT32_MAX;", "FULLM", ""),
    "static_const": ("static const unsigned int FULLM = 0xffffffffU;", "FULLM", ""),
    "namespace_constant": ("namespace cfg { constexpr unsigned kFull = UINT32_MAX; }", "cfg::kFull", ""),
    "numeric_limits_uint32": ("", "std::numeric_limits<uint32_t>::max()", ""),
    "numeric_limits_unsigned": ("", "std::numeric_limits<unsigned>::max()", ""),
    "local_of_uint32_max": ("", "m", "const unsigned m = UINT32_MAX;"),
    "local_of_numeric_limits": ("", "m", "constexpr unsigned m = std::numeric_limits<unsigned int>::max();"),
    "tilde_zero_ull": ("", "~0ull", ""),  # all ones at any width: full before this change too
}

PARTIAL = {
    "int_max": ("", "INT_MAX", ""),
    "shifted": ("", "(UINT32_MAX >> 1)", ""),
    "numeric_limits_int": ("", "std::numeric_limits<int>::max()", ""),
    "uint16_max": ("", "UINT16_MAX", ""),
    "own_macro_of_that_name": ("#undef UINT32_MAX\n#define UINT32_MAX 0xffffu", "UINT32_MAX", ""),
    "ullong_max": ("", "ULLONG_MAX", ""),  # 64-bit: left as before (not read as CUDA's full mask)
}


def _ports(case):
    pre, mask, local = case
    src = KERNEL.format(pre=pre, mask=mask, local=local)
    return {be: translate(SourceFile.from_text(src, "t.cu"), be) for be in ("hip", "portable")}


@pytest.mark.parametrize("name", sorted(FULL))
def test_full_mask_spelling_is_ported_as_the_full_mask(name):
    ports = _ports(FULL[name])
    hip, hip_text = ports["hip"]
    assert hip.ok, [d.message for d in hip.diagnostics]
    assert "v += __shfl_down(v, o);" in hip_text and "_sync" not in hip_text
    portable, portable_text = ports["portable"]
    assert portable.ok, [d.message for d in portable.diagnostics]
    assert "kp_shfl_down_sync(KP_FULL_MASK, v, o)" in portable_text


@pytest.mark.parametrize("name", sorted(PARTIAL))
def test_look_alike_stays_partial(name):
    for be, (port, _) in _ports(PARTIAL[name]).items():
        assert not port.ok, be
        assert {d.code for d in port.diagnostics if d.severity == "error"} == {"KP203"}, be


@pytest.mark.parametrize("text", ["0xffffffff", "0xFFFFFFFFu", "4294967295U", "037777777777", "0xffff'ffff",
                                  "-1", "~0", "~0u", "(unsigned)-1", "uint32_t(~0u)", "static_cast<uint32_t>(-1)",
                                  "UINT32_MAX", "UINT_MAX", "(UINT_MAX)", "std::numeric_limits<uint32_t>::max()",
                                  "::std::numeric_limits<unsigned int>::max()", "~0ull"])
def test_is_full(text):
    assert fullmask.is_full(text)


@pytest.mark.parametrize("text", ["0x7fffffff", "INT_MAX", "UINT16_MAX", "UINT32_MAX >> 1", "ULLONG_MAX",
                                  "0xFFFFFFFFFFFFFFFFull", "std::numeric_limits<uint64_t>::max()",
                                  "std::numeric_limits<int>::max()", "std::numeric_limits<float>::max()",
                                  "mask", "0xffff"])
def test_is_not_full(text):
    assert not fullmask.is_full(text)


def test_names_are_read_as_the_code_defines_them():
    defs = {"FULL": "UINT32_MAX", "UINT32_MAX": "0xffffu", "A": "B", "B": "(unsigned)~0"}.get
    assert fullmask.is_full("FULL", lambda n: "UINT32_MAX" if n == "FULL" else None)
    assert not fullmask.is_full("UINT32_MAX", defs)  # the project's own macro of that name
    assert fullmask.is_full("A", defs)


def test_narrow_full_is_the_32_bit_one():
    """lint's WS007 reports a mask of exactly 32 bits of ones: not `~0`/`-1` (HIP widens them to every
    lane) nor an `l`-suffixed literal (as before); `UINT32_MAX` now is one."""
    for text in ("0xffffffff", "~0u", "(unsigned)-1", "UINT32_MAX", "std::numeric_limits<unsigned>::max()"):
        assert fullmask.narrow_full(text), text
    for text in ("~0", "-1", "~0ull", "0xffffffffULL", "ULLONG_MAX", "INT_MAX"):
        assert not fullmask.narrow_full(text), text


@pytest.mark.parametrize("mask,flagged", [("UINT32_MAX", True), ("std::numeric_limits<uint32_t>::max()", True),
                                          ("INT_MAX", False), ("ULLONG_MAX", False)])
def test_ws007_reads_the_same_spellings(mask, flagged):
    """WS007 (a 32-bit full mask passed to a `_sync` intrinsic) in code and in a macro's replacement list."""
    code = ("#include <cstdint>\n#include <climits>\n#include <limits>\n"
            f"__device__ float s(float v) {{ for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync({mask}, v, o); "
            "return v; }\n"
            f"#define STEP(v) v += __shfl_xor_sync({mask}, v, 1)\n"
            "__device__ float t(float v) { STEP(v); return v; }\n")
    lines = sorted(f.line for f in lint_text(code, "t.cu") if f.code == "WS007")
    assert lines == ([4, 5] if flagged else [])
