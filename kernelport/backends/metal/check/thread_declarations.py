"""Pointer and reference parameters of function declarations that name no address space: `thread` (stop 64).

thread_params.py writes `thread` on definitions' parameters only.  A declaration of the same function kept
C++ for OpenCL's generic parameter: a prototype (`float f(const float &x);`, which the port writes before
its callers) declared a second overload that took device memory, so `f(buf[i])` passed the checker and
Metal rejects it; a member declared in its class and defined out of it (`float get(const float &s) const;`)
did not match its threaded definition.  Each declaration outside a function body (at file, namespace or
class scope: inside a body `V v(a * b);` is a variable) gets `thread` as a definition does, by the same
rules (template type parameters and named spaces left alone; a `const` reference's default wrapped).
"""
from __future__ import annotations

import re

from .thread_params import _head_start, _template_types, function_heads, thread_list

AFTER_DECLARATION = re.compile(r"\s*(const\s*)?((device|threadgroup|constant|thread)\s*)?(const\s*)?(noexcept\s*)?"
                               r"(override\s*)?(final\s*)?(=\s*0\s*)?;")
_SCOPE = re.compile(r"\b(?:struct|class|union|namespace)\b|\bextern\s*\"C")


def thread_declarations(masked: str, chars: list[str], kernel_spans: list[tuple[int, int]]) -> list[int]:
    """Write `thread` before each pointer or reference parameter with no address space of the function
    declarations outside function bodies in `masked`; returns the offsets written at."""
    blocks = _blocks(masked)
    out: list[int] = []
    for m, open_idx, close, types in function_heads(masked, kernel_spans, AFTER_DECLARATION):
        inner = max((b for b in blocks if b[0] < m.start() < b[1]), key=lambda b: b[0], default=None)
        if inner is None or inner[2]:  # file scope, or a class's or namespace's body
            out += thread_list(masked, chars, open_idx, close, types | _class_template_types(masked, blocks, m.start()))
    return out


def _class_template_types(masked: str, blocks: list[tuple[int, int, bool]], at: int) -> frozenset[str]:
    """The type parameters of the class templates whose bodies hold `at` (`template <class T> struct S { T
    get(const T &s) const; };`): left as the out-of-class definition `T S<T>::get(const T &s)` leaves them."""
    out: frozenset[str] = frozenset()
    for b in blocks:
        if b[2] and b[0] < at < b[1]:
            out |= _template_types(masked[_head_start(masked, b[0]):b[0]]) or frozenset()
    return out


def _blocks(masked: str) -> list[tuple[int, int, bool]]:
    """(`{`, its `}`, whether it opens a class, namespace or extern "C" body) of every brace pair (one pass)."""
    out, stack = [], []
    for i, c in enumerate(masked):
        if c == "{":
            k = i
            while k > 0 and masked[k - 1] not in ";{}":
                k -= 1
            head = masked[k:i]
            stack.append((i, bool(_SCOPE.search(head)) and "(" not in head))
        elif c == "}" and stack:
            start, scope = stack.pop()
            out.append((start, i, scope))
    return out + [(start, len(masked), scope) for start, scope in stack]
