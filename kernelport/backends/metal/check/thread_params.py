"""Pointer and reference parameters of ordinary functions that name no address space: `thread`.

In MSL a pointer or reference a (non-kernel) function takes without an address space is a
`thread` one: `void swap(uint &a, uint &b)` cannot bind `s_key[i]` (threadgroup) nor `buf[i]`
(device), and Metal rejects the call.  C++ for OpenCL gives the same parameter the *generic*
address space, which accepts every other space, so clang alone let such a port pass.  The checker
therefore writes `thread` (the header's `__private`) in front of each such parameter of a function
definition before clang reads the file; clang then rejects a call that passes device or threadgroup
memory to it, as Metal does.  The generic space stays on for what it models correctly (a struct's
implicit copy from device memory, `this` in a method).

Left as written: kernels (their parameters are checked in Python), parameters that name a space, and
parameters whose type names a template type parameter (a deduced `T` carries its space: `f(T *p)`
given a `device float*`; `template <uint dir> void cmp(uint &a)` is checked like a function).  A `const`
reference with a default argument gets `thread` too, its default wrapped as a thread temporary (`thread
const float &s = __kpT(1.0f)`: main left such a parameter generic, so `f(w, buf[i])` passed; stop 64),
and so do a member's parameters where it is defined out of its class (`float V::get(const float &s)`:
no type stood right before the name; its declarations too: thread_declarations.py).
Other `const` references get `thread` too (Metal rejects
`sum(in[i])` for `float sum(const S &s)` with `in` a device buffer); they also bind temporaries
(`twice(1.0f)`), which clang materialises in no address space and so binds to no `__private`
reference, where Metal binds them to `thread` ones: thread_temporaries.py lets that error through.
Operators (`V operator+(const V &a, const V &b)`) are functions here too.
The word is inserted, so clang's columns on that line move right; `inserted` returns each
insertion so that run_check moves them back.
"""
from __future__ import annotations

import re

from .signatures import split_params
from .text import matching

_SPACES = frozenset({"device", "constant", "threadgroup", "thread", "threadgroup_imageblock", "ray_data",
                     "object_data", "__global", "__local", "__constant", "__private", "__generic"})
_NOT_A_TYPE = frozenset({"return", "else", "case", "new", "delete", "sizeof", "typeof", "co_return", "throw",
                         "if", "for", "while", "switch", "catch", "operator", "alignof", "decltype", "do"})
_HEAD = re.compile(r"(operator\s*(?:[-+*/%^&|<>=!]=?|<<=?|>>=?|&&|\|\||\[\s*\]|\(\s*\))|[A-Za-z_]\w*)\s*\(")
_WORD = re.compile(r"[A-Za-z_]\w*")
_QUALIFIER = re.compile(r"(?:\b[A-Za-z_]\w*\s*(?:<[^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*>)?\s*::\s*)+$")
INSERT = "thread "
DEFAULT_WRAP = "__kpT("  # with its ")", as long as INSERT (metal_stdlib.h: a default's thread temporary)
# what may stand between a definition's parameters and its body: `const`, a member's address space (a
# `device` twin of a member function: object_spaces.py; its parameters are thread ones all the same)
AFTER_PARAMS = re.compile(r"\s*(const\s*)?((device|threadgroup|constant|thread)\s*)?(const\s*)?(noexcept\s*)?\{")


def _head_start(masked: str, name_start: int) -> int:
    """Where the declaration holding the name at `name_start` begins (after the last ; { } or #line)."""
    k = name_start
    while k > 0 and masked[k - 1] not in ";{}":
        if masked[k - 1] == "\n" and masked[k:k + 1] == "#":
            break
        k -= 1
    return k


def _template_types(head: str) -> frozenset[str] | None:
    """The type parameters of the function template whose head this is (none for a plain function;
    None where the template's parameter list cannot be read)."""
    t = re.search(r"\btemplate\s*<", head)
    if t is None:
        return frozenset()
    close = matching(head, t.end() - 1, "<", ">")
    if close < 0:
        return None
    return frozenset(re.findall(r"\b(?:typename|class)\s*(?:\.\.\.\s*)?([A-Za-z_]\w*)", head[t.end():close]))


def thread_params(masked: str, chars: list[str], kernel_spans: list[tuple[int, int]]) -> list[int]:
    """Write `thread` before each pointer or reference parameter with no address space of the
    function definitions in `masked` (not kernels: `kernel_spans` are their parameter lists);
    returns the offsets written at."""
    out: list[int] = []
    for _, open_idx, close, types in function_heads(masked, kernel_spans, AFTER_PARAMS):
        out += thread_list(masked, chars, open_idx, close, types)
    return out


def function_heads(masked: str, kernel_spans: list[tuple[int, int]], after: re.Pattern):
    """(name match, `(`, `)`, template types) of each function head in `masked` whose parameters `after`
    follows (a body: a definition; `;`: a declaration), with a type before its (qualified) name; not kernels."""
    for m in _HEAD.finditer(masked):
        if m.group(1) in _NOT_A_TYPE:
            continue
        before = masked[:m.start()].rstrip()
        if before.endswith("::") and (q := _QUALIFIER.search(before)) is not None:
            before = before[:q.start()].rstrip()  # `float V::get(...)`, `T W<T>::at(...)`: the type before `V::`
        if not before or not (before[-1].isalnum() or before[-1] in "_*&>"):
            continue  # a call, a cast, a control statement: no type before the name
        prev = _WORD.findall(before[-40:])
        if prev and prev[-1] in _NOT_A_TYPE:
            continue
        open_idx = m.end() - 1
        if any(s <= open_idx <= e for s, e in kernel_spans):
            continue
        close = matching(masked, open_idx, "(", ")")
        if close < 0 or not re.match(after, masked[close + 1:close + 80]):
            continue  # (thread_params: a declaration or a call; definitions only)
        head = masked[_head_start(masked, m.start()):m.start()]
        if re.search(r"\bkernel\b", head):
            continue
        types = _template_types(head)
        if types is None:
            continue
        yield m, open_idx, close, types


def thread_list(masked: str, chars: list[str], open_idx: int, close: int, types: frozenset[str],
                skip: frozenset[int] = frozenset()) -> list[int]:
    """Write `thread` before each pointer or reference parameter with no address space of the parameter
    list masked[open_idx] `(` .. masked[close] `)` (not those naming one of the template's `types`, nor
    those whose index is in `skip`); returns the offsets written at."""
    out: list[int] = []
    for i, (s, e) in enumerate(split_params(masked, open_idx, close)):
        if i in skip:
            continue
        decl = masked[s:e].split("=", 1)[0]
        words = set(_WORD.findall(decl))
        bare = re.sub(r"<[^<>]*>", "", decl)
        if words & (_SPACES | types) or "&&" in bare or not re.search(r"[*&]", bare):
            continue
        at = s + len(masked[s:e]) - len(masked[s:e].lstrip())
        chars[at] = INSERT + chars[at]
        out.append(at)
        eq = _default(masked, s, e)
        if eq is not None and "*" not in bare and "const" in words:  # `const T& d = T()`: the default binds a
            vs, ve = eq  # thread temporary in Metal, none clang binds to `__private` (thread_temporaries.py)
            chars[vs], chars[ve - 1] = DEFAULT_WRAP + chars[vs], chars[ve - 1] + ")"
            out.append(vs)  # (as long as INSERT: run_check moves clang's columns back by it)
    return out


def _default(masked: str, s: int, e: int) -> tuple[int, int] | None:
    """The span of the default argument of the parameter masked[s:e] (after its top-level `=`), if any."""
    depth = 0
    for i in range(s, e):
        c = masked[i]
        depth += c in "(<[{"
        depth -= c in ")>]}"
        if c == "=" and depth == 0 and masked[i + 1:i + 2] != "=" and masked[i - 1:i] not in "=!<>":
            text = masked[i + 1:e]
            vs = i + 1 + len(text) - len(text.lstrip())
            ve = e - (len(text) - len(text.rstrip()))
            return (vs, ve) if ve > vs else None
    return None
