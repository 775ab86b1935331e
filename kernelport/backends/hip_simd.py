"""CUDA's SIMD-within-a-word intrinsics (`__vadd2`, `__vmaxs4`, ..., `__hmax2` on __half2) as the HIP
port's own functions.

ROCm 5.2 (the HIP backend's `api_checked_with`) declares none of them (HIPIFY marks them
unsupported), so the API table spells each as a call of `kp_<name>` (scripts/gen_hip_api.py,
SIMD_OVERRIDES) and the prologue defines the ones a port calls (`definitions`).  Each is written
lane by lane from CUDA's documented meaning (crt/device_functions.h's SIMD section): the word is two
16-bit halfwords (`...2`) or four bytes (`...4`), each lane read as signed or unsigned, the lane
results packed back (or summed, for the sums of absolute differences).  Plain C on 32-bit unsigned
words: tests/test_hip_simd.py compiles the same text with g++ and compares every function with an
independent model over edge and random operands.

Left refused (KP210): `__vavgs2/4` (CUDA documents "signed rounded average" without the rounding
of a negative odd sum) and `__vset*` (documented as "returns 1 if both parts compare", which does
not say whether the result is one flag or a flag per lane): a guess could compile and compute wrong.
"""
from __future__ import annotations

from .. import lazy_re

# op -> (operands, lanes are signed, lane expression over x (and y), how lane results combine):
# `wrap` keeps the lane's low bits, `sat` clamps to the lane type's range first, `sum` adds the
# lane values into the 32-bit result.
OPS: dict[str, tuple[int, bool, str, str]] = {
    "abs": (1, True, "x < 0 ? -x : x", "wrap"),
    "absss": (1, True, "x < 0 ? -x : x", "sat"),
    "neg": (1, True, "-x", "wrap"),
    "negss": (1, True, "-x", "sat"),
    "add": (2, False, "x + y", "wrap"),
    "addss": (2, True, "x + y", "sat"),
    "addus": (2, False, "x + y", "sat"),
    "sub": (2, False, "x - y", "wrap"),
    "subss": (2, True, "x - y", "sat"),
    "subus": (2, False, "x - y", "sat"),
    "avgu": (2, False, "(x + y + 1) >> 1", "wrap"),
    "haddu": (2, False, "(x + y) >> 1", "wrap"),
    "absdiffs": (2, True, "x < y ? y - x : x - y", "wrap"),
    "absdiffu": (2, False, "x < y ? y - x : x - y", "wrap"),
    "sads": (2, True, "x < y ? y - x : x - y", "sum"),
    "sadu": (2, False, "x < y ? y - x : x - y", "sum"),
    "maxs": (2, True, "x > y ? x : y", "wrap"),
    "maxu": (2, False, "x > y ? x : y", "wrap"),
    "mins": (2, True, "x < y ? x : y", "wrap"),
    "minu": (2, False, "x < y ? x : y", "wrap"),
    "cmpeq": (2, False, "-(x == y)", "wrap"),
    "cmpne": (2, False, "-(x != y)", "wrap"),
    **{f"cmp{name}{s}": (2, s == "s", f"-(x {op} y)", "wrap")
       for name, op in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")) for s in ("s", "u")},
}
WIDTHS = {2: 16, 4: 8}  # the name's suffix -> lane bits


# CUDA's __half2 max/min (cuda_fp16.h), which ROCm 5.2's amd_hip_fp16.h lacks: op -> (max, NaN-propagating).
# CUDA: max(a, b) = a > b ? a : b with +0 > -0; a NaN operand yields the other operand (the `_nan`
# forms: NaN), two NaNs the canonical NaN 0x7fff.  Written on the halves' bit patterns
# (kp_hminmax_bits, plain C: tests/test_hip_simd.py compiles it with g++).
HALF_OPS = {"hmax2": (1, 0), "hmin2": (0, 0), "hmax2_nan": (1, 1), "hmin2_nan": (0, 1)}


def names() -> list[str]:
    """Every CUDA intrinsic this module defines (`__vadd2`, `__hmax2`, ...)."""
    return [f"__v{op}{n}" for op in OPS for n in WIDTHS] + [f"__{op}" for op in HALF_OPS]


def call(cuda: str) -> str:
    """The API table's call template for the CUDA intrinsic `cuda` (`__vabs2` -> `kp_vabs2({0})`)."""
    args = OPS[cuda[3:-1]][0] if cuda[2:] not in HALF_OPS else 2
    return f"kp{cuda[1:]}(" + ", ".join(f"{{{i}}}" for i in range(args)) + ")"


def _function(op: str, n: int) -> str:
    args, signed, expr, combine = OPS[op]
    bits = WIDTHS[n]
    mask, sign = (1 << bits) - 1, 1 << (bits - 1)
    lo, hi = (-sign, sign - 1) if signed else (0, mask)
    name = f"kp_v{op}{n}"
    params = "unsigned int a" + (", unsigned int b" if args == 2 else "")
    lane = [f"        int x = (int)((a >> s) & {mask:#x}u);"]
    if args == 2:
        lane.append(f"        int y = (int)((b >> s) & {mask:#x}u);")
    if signed:  # two's complement lane value, without an implementation-defined narrowing cast
        lane.append(f"        x -= (x & {sign:#x}) << 1;")
        if args == 2:
            lane.append(f"        y -= (y & {sign:#x}) << 1;")
    lane.append(f"        int v = {expr};")
    if combine == "sat":
        lane.append(f"        v = v < {lo} ? {lo} : v > {hi} ? {hi} : v;")
    lane.append("        r += (unsigned int)v;" if combine == "sum" else
                f"        r |= ((unsigned int)v & {mask:#x}u) << s;")
    guard = f"KP_HAVE_V{op.upper()}{n}"
    return "\n".join([
        f"#ifndef {guard}  // CUDA's __v{op}{n} (ROCm 5.2 has none)",
        f"#define {guard}",
        f"__device__ __host__ inline unsigned int {name}({params})",
        "{",
        "    unsigned int r = 0u;",
        f"    for (int s = 0; s < 32; s += {bits}) {{",
        *lane,
        "    }",
        "    return r;",
        "}",
        "#endif",
    ])


_CALL = lazy_re.compile(r"\bkp_v(\w+?)([24])\s*\(")
_HALF_CALL = lazy_re.compile(r"\bkp_(hm(?:ax|in)2(?:_nan)?)\s*\(")

HALF_BITS = """#ifndef KP_HAVE_HMINMAX_BITS
#define KP_HAVE_HMINMAX_BITS
// CUDA's __hmax/__hmin on two halves' bits: +0 > -0; one NaN yields the other operand, or NaN where
// `nan` (the _nan forms); two NaNs the canonical NaN
__device__ __host__ inline unsigned short kp_hminmax_bits(unsigned short a, unsigned short b, int max, int nan)
{
    int a_nan = (a & 0x7fff) > 0x7c00, b_nan = (b & 0x7fff) > 0x7c00;
    if (a_nan || b_nan)
        return (unsigned short)((a_nan && b_nan) || nan ? 0x7fff : a_nan ? b : a);
    int ka = (a & 0x8000) ? -(int)(a & 0x7fff) - 1 : (int)a;  // ordered: -0 just below +0
    int kb = (b & 0x8000) ? -(int)(b & 0x7fff) - 1 : (int)b;
    return (max ? ka > kb : ka < kb) ? a : b;
}
#endif"""


_HALF_INCLUDE = "#include <hip/hip_fp16.h>  // __half2 (the file's own include of it comes after the prologue)"


def _half_function(op: str) -> str:
    mx, nan = HALF_OPS[op]
    part = "__ushort_as_half(kp_hminmax_bits(__half_as_ushort({f}(a)), __half_as_ushort({f}(b)), %d, %d))" % (mx, nan)
    return "\n".join([
        f"#ifndef KP_HAVE_{op.upper()}  // CUDA's __{op} (ROCm 5.2 has none)",
        f"#define KP_HAVE_{op.upper()}",
        f"__device__ inline __half2 kp_{op}(__half2 a, __half2 b)",
        "{",
        f"    return __halves2half2({part.format(f='__low2half')},",
        f"                          {part.format(f='__high2half')});",
        "}",
        "#endif",
    ])


def definitions(body: str) -> str:
    """The definitions of the `kp_v...` functions `body` calls, in name order ("" where none)."""
    used = sorted({(op, int(n)) for op, n in _CALL.findall(body) if op in OPS})
    half = sorted(set(_HALF_CALL.findall(body)))
    if not used and not half:
        return ""
    head = "\n// CUDA's SIMD-within-a-word intrinsics this file uses, lane by lane (kernelport/backends/hip_simd.py)\n"
    return head + "\n".join([*(_function(op, n) for op, n in used), *([_HALF_INCLUDE, HALF_BITS] if half else []),
                              *(_half_function(op) for op in half)]) + "\n"
