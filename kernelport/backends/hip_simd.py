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

CUDA 12's DPX intrinsics (`__viaddmax_s16x2`, `__vimax3_s32_relu`, ...: DPX_FORMS) the same way, lane by
lane (16-bit halves or the whole 32-bit word) as CUDA's reference host code in crt/device_functions.hpp
computes them; tests/test_hip_dpx.py checks them against its own model.  `__vibmax/__vibmin` (predicates
written through pointers) stay refused (KP210, the source backend's api_pattern).
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


# CUDA's __half and __half2 max/min (cuda_fp16.h), which ROCm 5.2's amd_hip_fp16.h lacks (`__hmax`/`__hmin` came
# in ROCm 5.5, the pairs later): op -> (max, NaN-propagating).
# CUDA: max(a, b) = a > b ? a : b with +0 > -0; a NaN operand yields the other operand (the `_nan`
# forms: NaN), two NaNs the canonical NaN 0x7fff.  Written on the halves' bit patterns
# (kp_hminmax_bits, plain C: tests/test_hip_simd.py compiles it with g++).
HALF_OPS = {"hmax2": (1, 0), "hmin2": (0, 0), "hmax2_nan": (1, 1), "hmin2_nan": (0, 1),
            "hmax": (1, 0), "hmin": (0, 0), "hmax_nan": (1, 1), "hmin_nan": (0, 1)}


# CUDA 12's DPX intrinsics (crt/device_functions.hpp, whose host code is the reference followed here):
# form -> (operands, lane steps). `add`: x + y wrapped to the lane (add.s16x2/add.s32 wrap, CUDA's
# `__vadd2`); `max`/`min` with the next operand; `_relu` (signed forms only) then clamps below at 0.
# Left refused (KP210): __vibmax/__vibmin (a result plus predicates through pointers: another shape).
DPX_FORMS: dict[str, tuple[int, tuple[str, ...]]] = {
    "max": (2, ("max",)), "min": (2, ("min",)),
    "max3": (3, ("max", "max")), "min3": (3, ("min", "min")),
    "addmax": (3, ("add", "max")), "addmin": (3, ("add", "min")),
}
DPX_LANES = {"16x2": 16, "32": 32}


def _dpx_names() -> list[str]:
    out = []
    for form in DPX_FORMS:
        for sign in "su":
            for lanes in DPX_LANES:
                for relu in ("", "_relu"):
                    # CUDA has __vimax_s32_relu but no plain __vimax_s32 (that is max()), and no unsigned relu
                    if (sign == "u" and relu) or (form in ("max", "min") and not relu):
                        continue
                    out.append(f"__vi{form}_{sign}{lanes}{relu}")
    return out


def names() -> list[str]:
    """Every CUDA intrinsic this module defines (`__vadd2`, `__hmax2`, `__viaddmax_s16x2`, ...)."""
    return [f"__v{op}{n}" for op in OPS for n in WIDTHS] + [f"__{op}" for op in HALF_OPS] + _dpx_names()


def call(cuda: str) -> str:
    """The API table's call template for the CUDA intrinsic `cuda` (`__vabs2` -> `kp_vabs2({0})`)."""
    dpx = _DPX_NAME.fullmatch(cuda)
    args = (DPX_FORMS[dpx[1]][0] if dpx else OPS[cuda[3:-1]][0] if cuda[2:] not in HALF_OPS else 2)
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


def _dpx_function(form: str, sign: str, lanes: str, relu: str) -> str:
    args, steps = DPX_FORMS[form]
    bits = DPX_LANES[lanes]
    mask, top = (1 << bits) - 1, 1 << (bits - 1)
    signed = sign == "s"
    word = "int" if lanes == "32" and signed else "unsigned int"
    ops = "abc"[:args]
    lane = []
    for o in ops:  # each operand's lane as a 64-bit value: no overflow, no implementation-defined cast
        lane.append(f"        long long {o} = (long long)(((unsigned int){o}_ >> s) & {mask:#x}u);")
        if signed:
            lane.append(f"        {o} -= ({o} & {top:#x}LL) << 1;")
    lane.append("        long long v = a;")
    for step, o in zip(steps, ops[1:]):
        if step == "add":
            lane.append(f"        v = (v + {o}) & {mask:#x}LL;")
            if signed:
                lane.append(f"        v -= (v & {top:#x}LL) << 1;")
        else:
            lane.append(f"        v = v {'>' if step == 'max' else '<'} {o} ? v : {o};")
    if relu:
        lane.append("        v = v > 0 ? v : 0;")
    lane.append(f"        r |= ((unsigned int)v & {mask:#x}u) << s;")
    name = f"vi{form}_{sign}{lanes}{relu}"
    guard = f"KP_HAVE_{name.upper()}"
    return "\n".join([
        f"#ifndef {guard}  // CUDA 12's DPX __{name} (ROCm 5.2 has none)",
        f"#define {guard}",
        f"__device__ __host__ inline {word} kp_{name}(" + ", ".join(f"{word} {o}_" for o in ops) + ")",
        "{",
        "    unsigned int r = 0u;",
        f"    for (int s = 0; s < 32; s += {bits}) {{",
        *lane,
        "    }",
        f"    return ({word})r;",
        "}",
        "#endif",
    ])


_DPX_NAME = lazy_re.compile(r"__vi(max3?|min3?|addmax|addmin)_([su])(16x2|32)(_relu)?")
_DPX_CALL = lazy_re.compile(r"\bkp_vi(max3?|min3?|addmax|addmin)_([su])(16x2|32)(_relu)?\s*\(")
_CALL = lazy_re.compile(r"\bkp_v(\w+?)([24])\s*\(")
_HALF_CALL = lazy_re.compile(r"\bkp_(hm(?:ax|in)2?(?:_nan)?)\s*\(")

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
    head = [f"#ifndef KP_HAVE_{op.upper()}  // CUDA's __{op} (ROCm 5.2 has none)", f"#define KP_HAVE_{op.upper()}"]
    if "2" not in op:  # one __half
        return "\n".join([*head, f"__device__ inline __half kp_{op}(__half a, __half b)", "{",
                           f"    return {part.replace('{f}(a)', 'a').replace('{f}(b)', 'b')};", "}", "#endif"])
    return "\n".join([
        *head,
        f"__device__ inline __half2 kp_{op}(__half2 a, __half2 b)",
        "{",
        f"    return __halves2half2({part.format(f='__low2half')},",
        f"                          {part.format(f='__high2half')});",
        "}",
        "#endif",
    ])


def definitions(body: str) -> str:
    """The definitions of the `kp_v...` functions `body` calls, in name order ("" where none)."""
    if "kp_" not in body:  # every name below starts so: one scan of the port, not three patterns' (most have none)
        return ""
    used = sorted({(op, int(n)) for op, n in _CALL.findall(body) if op in OPS})
    half = sorted(set(_HALF_CALL.findall(body)))
    dpx = sorted(set(_DPX_CALL.findall(body)) & {_DPX_NAME.fullmatch(n).groups("") for n in _dpx_names()})
    if not used and not half and not dpx:
        return ""
    head = "\n// CUDA's SIMD-within-a-word intrinsics this file uses, lane by lane (kernelport/backends/hip_simd.py)\n"
    return head + "\n".join([*(_function(op, n) for op, n in used), *([_HALF_INCLUDE, HALF_BITS] if half else []),
                              *(_half_function(op) for op in half), *(_dpx_function(*d) for d in dpx)]) + "\n"
