"""A directive test that already tells the compilers apart keeps CUDA's compiler macro as written.

HIP's table spells `__CUDACC__` as `__HIPCC__` ("built by a GPU compiler": hipcc never defines
`__CUDACC__`, so a test kept as written would drop what it guards from the HIP build).  A test that
also names HIP's own compiler macro is the project's choice between the compilers:
`#if defined(__CUDACC__) && !defined(__HIPCC__)` ("nvcc only", SPH-EXA-style wave-size headers, whose
`#else` defines `WARP_SIZE 64` for hipcc) respelled read `defined(__HIPCC__) && !defined(__HIPCC__)`:
the same value on hipcc's passes, but a test no compiler takes, whose `32` branch lint of the port then
read as code every build might compile (WS001) while the project's `#else` lost its WS014: the
self-check's "kernelport bug" (KP220) where the honest outcome is the project's 64 for every AMD build
reported (KP225).  Such a test is kept as the project wrote it where the respelling changes nothing on
hipcc's passes (its value there known, the same either way; `!defined(__CUDACC__) && !defined(__HIPCC__)`,
"a plain host compiler", is false on both either way: kept); `#ifndef __CUDACC__` or `!defined(__CUDACC__) ||
defined(HOST_ONLY)` is true on hipcc as written and not respelled: it is respelled, as before (hipcc's passes
define `__HIPCC__`, never `__CUDACC__`: `hipcc -dM -E -x hip`, ROCm 5.2, with and without `--cuda-host-only`).
"""
from __future__ import annotations

from . import guards

_TESTS = ("preproc_if", "preproc_elif", "preproc_ifdef", "preproc_elifdef")
_INSIDE = ("preproc_defined", "binary_expression", "unary_expression", "parenthesized_expression")


def _test_of(node):
    """The conditional whose test holds identifier `node`, or None."""
    p, child = node.parent, node
    while p is not None:
        if p.type in _TESTS:
            return p if child in (p.child_by_field_name("condition"), p.child_by_field_name("name")) else None
        if p.type not in _INSIDE:
            return None
        p, child = p.parent, p
    return None


def in_test(node) -> bool:
    """Identifier `node` is (in) the test of an `#if`, `#elif`, `#ifdef`, `#ifndef`."""
    return _test_of(node) is not None


def kept(src, node, name: str, new: str, respelled, memo: dict | None = None) -> bool:
    """Whether the use `node` of compiler macro `name` (the port's spelling `new`) is kept as written: its test
    has the same known value on both of hipcc's passes whether `name` is read as written or as `new`, every
    other name as the port spells it (`respelled(name, node)`: the port's name, None where kept)."""
    if node is None or new == name:
        return False
    cond = _test_of(node)
    if cond is None:
        return False
    key = (cond.id, name, new)
    if memo is not None and key in memo:
        return memo[key]

    def others(n: str, at=None) -> str:
        return n if n == name else (respelled(n, at) or n)

    def spelled(n: str, at=None) -> str:
        return new if n == name else (respelled(n, at) or n)
    out = True
    for p in sorted(guards.AMD):
        a, b = guards.holds(cond, src, p, others), guards.holds(cond, src, p, spelled)
        if a is None or b is None or bool(a) != bool(b):
            out = False
            break
    if memo is not None:
        memo[key] = out
    return out
