"""CUDA's full lane mask, in every spelling real code gives it: the one decision of "all 32 lanes".

A `_sync` warp intrinsic's mask is an `unsigned int`, 32 bits on every CUDA target, so these all
name every lane of the warp: the literal in any base or suffix (`0xffffffff`, `4294967295U`,
`037777777777`, `0xffff'ffff`), `~0`, `~0u`, `-1` and their casts (`(unsigned)-1`,
`static_cast<uint32_t>(~0)`, `uint32_t(-1)`), `UINT32_MAX` and `UINT_MAX` (<cstdint>, <climits>),
`std::numeric_limits<uint32_t>::max()` (or `<unsigned>`), and a macro or a `const`/`constexpr`
constant whose value is one of these (era-bellman-cuda's `__shfl_sync(UINT32_MAX, ...)`).

A 64-bit all-ones value (`ULLONG_MAX`, `0xffffffffffffffffull`) is a different thing (a wave-64
mask, lint's masksources.wide_full): not one here.  `~0ull` and `-1ll` are all ones at any width, as
`~0` is, and stay full (what kernelport read them as before).  A name the file or its headers define
(a macro, a constant) is read as they define it, before the standard library's meaning: a project's
own `#define UINT32_MAX 0xffffu` is its value, not the library's.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from . import cexpr, lazy_re
from .source import uncomment

FULL32 = 0xFFFFFFFF

# The standard library's integer limits (<climits>, <cstdint>) as CUDA's device compiler sizes them.
_LIMIT_MACROS = {
    "UINT32_MAX": "0xFFFFFFFFu", "UINT_MAX": "0xFFFFFFFFu", "INT32_MAX": "0x7FFFFFFF", "INT_MAX": "0x7FFFFFFF",
    "UINT16_MAX": "0xFFFF", "USHRT_MAX": "0xFFFF", "UINT8_MAX": "0xFF", "UCHAR_MAX": "0xFF",
    "UINT64_MAX": "0xFFFFFFFFFFFFFFFFull", "ULLONG_MAX": "0xFFFFFFFFFFFFFFFFull",
    "ULONG_MAX": "0xFFFFFFFFFFFFFFFFull", "SIZE_MAX": "0xFFFFFFFFFFFFFFFFull",
}
LIMIT_NAMES = frozenset(_LIMIT_MACROS)
# Integer types a cast or `numeric_limits<T>` may name (`std::` dropped), spelled as cexpr reads them.
_INT_TYPES = {
    "unsigned": "unsigned", "unsigned int": "unsigned", "uint": "unsigned", "uint32_t": "unsigned",
    "int": "int", "signed": "int", "signed int": "int", "int32_t": "int",
    "unsigned short": "unsigned short", "uint16_t": "unsigned short", "unsigned char": "unsigned char",
    "uint8_t": "unsigned char", "unsigned long long": "unsigned long long", "uint64_t": "unsigned long long",
    "unsigned long": "unsigned long long", "size_t": "unsigned long long", "long long": "long long",
    "int64_t": "long long",
}
_MAXIMA = {"unsigned": "0xFFFFFFFFu", "int": "0x7FFFFFFF", "unsigned short": "0xFFFF", "unsigned char": "0xFF",
           "unsigned long long": "0xFFFFFFFFFFFFFFFFull", "long long": "0x7FFFFFFFFFFFFFFFll"}
_TYPE = r"(?:(?:::)?std::)?(?:unsigned\s+(?:int|short|char|long\s+long|long)|signed\s+int|long\s+long|unsigned|signed|" \
        r"u?int(?:8|16|32|64)_t|uint|int|size_t)"
_LIMITS = lazy_re.compile(rf"(?:(?:::)?std::)?numeric_limits\s*<\s*(?:const\s+)?({_TYPE})\s*>\s*::\s*max\s*\(\s*\)")
_STATIC_CAST = lazy_re.compile(rf"static_cast\s*<\s*(?:const\s+)?({_TYPE})\s*>\s*\(")
_FUNCTIONAL = lazy_re.compile(rf"(?<![\w:)])({_TYPE})\s*\(")  # `uint32_t(-1)`: a functional cast
_C_CAST = lazy_re.compile(rf"\(\s*(?:const\s+)?({_TYPE})\s*\)")
_DIGIT_SEP = lazy_re.compile(r"(?<=[0-9a-fA-F])'(?=[0-9a-fA-F])")
_ALL_ONES_ANY_WIDTH = lazy_re.compile(r"\(*\s*(?:~\s*0|-\s*1)[uUlL]*\s*\)*")
_LONG_SUFFIX = lazy_re.compile(r"(?<![\w.])(?:0[xX][0-9a-fA-F']+|\d[\d']*)[uU]?[lL]")
_NAME = lazy_re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)")

Resolve = Callable[[str], "str | None"]
_TYPE_WORDS = {"unsigned", "int", "short", "char", "long", "signed"}


def _type(t: str) -> str:
    return _INT_TYPES.get(" ".join(t.replace("::", " ").replace("std ", "").split()), "")


def _normalised(text: str) -> str:
    """`text` as a C expression cexpr reads: comments, digit separators and `std::` types gone, the
    C++ casts and `numeric_limits<T>::max()` written as C."""
    t = _DIGIT_SEP.sub("", uncomment(text)).strip()
    t = _LIMITS.sub(lambda m: _MAXIMA.get(_type(m.group(1)), m.group(0)), t)
    t = _STATIC_CAST.sub(lambda m: f"({_type(m.group(1))})(", t)
    t = _FUNCTIONAL.sub(lambda m: f"({_type(m.group(1))})(" if _type(m.group(1)) else m.group(0), t)
    return _C_CAST.sub(lambda m: f"({_type(m.group(1))})", t)


def mask_value(text: str, resolve: Resolve | None = None) -> int | None:
    """The value of the mask expression `text` with C's types (None where it cannot be known):
    its names through `resolve` (a macro's or constant's text, or None), then the standard limits."""
    got = _typed(text, resolve, 0)
    return got.v if got is not None and isinstance(got.v, int) else None


def _typed(text: str, resolve: Resolve | None, depth: int):
    if depth > 8:
        return None
    t = _normalised(text)
    names: dict[str, object] = {}
    for name in sorted({m.group(1) for m in _NAME.finditer(t)} - _TYPE_WORDS, key=len, reverse=True):
        defined = resolve(name) if resolve is not None else None
        value = defined if defined is not None else _LIMIT_MACROS.get(name)
        v = _typed(value, resolve, depth + 1) if value is not None else None
        if v is None:
            return None
        key = f"__kp_n{len(names)}"
        names[key] = v
        t = re.sub(rf"(?<![\w:]){re.escape(name)}(?![\w:])", key, t)
    try:
        return cexpr.evaluate_typed(t, names)
    except (cexpr.CExprError, ZeroDivisionError, TypeError, RecursionError, ValueError):
        return None


def limit_text(name: str) -> str:
    """The value of the standard library's limit `name` (one of LIMIT_NAMES) as a C literal."""
    return _LIMIT_MACROS[name]


def is_full(text: str, resolve: Resolve | None = None) -> bool:
    """Whether the mask `text` names every lane of CUDA's 32-lane warp: its value is 0xFFFFFFFF, or
    all ones at any width written as `~0` or `-1` (`~0ull`, `(int)-1`, `(unsigned)~0`)."""
    if _ALL_ONES_ANY_WIDTH.fullmatch(uncomment(text).strip()):
        return True
    return mask_value(text, resolve) in (FULL32, -1)


def narrow_full(text: str, resolve: Resolve | None = None) -> bool:
    """is_full, held in 32 bits: the value is 0xFFFFFFFF with no `l` suffix written, not `~0` or `-1`
    (all ones at any width: HIP's 64-bit mask parameter widens them to every lane of the wave).  The
    32-bit full mask lint's WS007 reports: on a 64-wide wave it names lanes 0-31 only."""
    return not _LONG_SUFFIX.search(uncomment(text)) and mask_value(text, resolve) == FULL32


def resolver(module) -> Resolve:
    """The texts `module` gives its names: a macro of the file or of a header it reads, a header's
    constant, or the file's (or the run's other files') constants, where every definition agrees."""
    from .masksources import _constants  # (masksources reads this module)
    got = module.__dict__.get("_kp_fullmask_resolve")
    if got is not None:
        return got
    vis = module.visible

    def resolve(name: str) -> str | None:
        short = name.rsplit("::", 1)[-1].strip()
        mac = module.macros.get(short)
        if mac is None and vis is not None:
            mac = vis.macros.get(short) or vis.constants.get(short)
        if mac is not None:
            return mac.value or None
        others = vis.elsewhere.modules() if vis is not None and vis.elsewhere is not None else ()
        values = {v for m in (module, *others) for v in _constants(m).get(short, ())}
        return values.pop() if len(values) == 1 else None
    module.__dict__["_kp_fullmask_resolve"] = resolve
    return resolve


def full_in(module, text: str) -> bool:
    """is_full with `module`'s names (memoised per module: warpflow asks on every pass)."""
    memo = module.__dict__.setdefault("_kp_fullmask_memo", {})
    key = " ".join(text.split())
    if key not in memo:
        memo[key] = is_full(text, resolver(module))
    return memo[key]


def full_name(module, name: str) -> bool:
    """A name of the standard library's limits (`UINT32_MAX`, `UINT_MAX`) that is all 32 lanes where
    `module` reads it (a name the code defines itself is read where it is defined)."""
    return name in LIMIT_NAMES and full_in(module, name)


def full_call(module, src, call) -> bool:
    """A call that is all 32 lanes: `std::numeric_limits<uint32_t>::max()`, `static_cast<unsigned>(-1)`
    (a qualified or template function; a plain function's value is the dataflow's to follow)."""
    fn = call.child_by_field_name("function")
    return fn is not None and fn.type in ("qualified_identifier", "template_function") and \
        full_in(module, src.text_of(call))


def low_32_full(module, text: str, names) -> bool:
    """A vote's mask whose low 32 bits are all set: spelled full (`full_in`) or so with the file's known
    values (`names`): CUDA's full mask as halfvotes and confined_votes require it."""
    if full_in(module, text):
        return True
    try:
        v = cexpr.evaluate(text, names)
    except (cexpr.CExprError, ZeroDivisionError, TypeError, RecursionError):
        return False
    return isinstance(v, int) and v & 0xFFFFFFFF == 0xFFFFFFFF
