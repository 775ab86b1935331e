"""A constructor's pointer and reference parameters with no address space: `thread`, as a function's.

MSL makes a constructor's unqualified reference parameter a `thread` one, as any function's (thread_params.py):
`V(const V &a, const float &s)` given `buf[i]` (device) is rejected by Metal, whether the call is written
`V(w, buf[i])`, `V z(w, buf[i])`, `V{w, buf[i]}`, `V z = {w, buf[i]}` or `return {w, buf[i]};`, and a
user-written copy constructor `V(const V &o)` does not copy `buf[i]` (`V z = buf[i];`: no constructor takes a
device V; only the implicit one, which C++ for OpenCL and Metal give every space, does).  thread_params.py
finds definitions by a type before the name, which a constructor has not, so clang's generic parameters let
all of these pass.  This module writes `thread` (the header's `__private`) before each such parameter of the
constructors a class declares or defines in its body and of those defined out of it (`V::V(...)`,
`template <class T> W<T>::W(...)`); temporaries bound to them are let through as for any call
(thread_temporaries.py, thread_arguments.py).

A declaration in the class and its definition out of it must agree: there a parameter naming a type parameter
of the class template or of the constructor is left as written on both sides; one with a default argument
gets `thread` on both, the default a thread temporary (thread_params.py; stop 64: main left it generic); a constructor defined in the class names the class's type parameters like a member
function (thread_members.py: the class's `T` is no deduced type).  `= default` / `= delete` constructors
(special members clang checks against their implicit form) and `&&` parameters are left as written.
"""
from __future__ import annotations

import re

from .signatures import split_params
from .text import matching
from .thread_members import _bodies
from .thread_params import thread_list

_DEFAULTED = re.compile(r"\s*(noexcept\s*)?=\s*(default|delete)\b")
_AFTER = re.compile(r"\s*(noexcept\s*)?(?P<end>[;{:])")
_HEAD_WORDS = re.compile(r"^(?:\s*(?:explicit|constexpr|inline|__attribute__\s*\(\(.*?\)\)|\[\[.*?\]\]|[A-Z_][A-Z0-9_]*)\b)*\s*$")
_TEMPLATE = re.compile(r"\btemplate\s*<")


def _template_types(head: str) -> frozenset[str]:
    """The type parameters every `template <...>` in `head` declares."""
    out: set[str] = set()
    for t in _TEMPLATE.finditer(head):
        close = matching(head, t.end() - 1, "<", ">")
        if close > 0:
            out |= set(re.findall(r"\b(?:typename|class)\s*(?:\.\.\.\s*)?([A-Za-z_]\w*)", head[t.end():close]))
    return frozenset(out)


def _head(masked: str, at: int) -> tuple[int, str]:
    k = at
    while k > 0 and masked[k - 1] not in ";{}":
        k -= 1
    return k, masked[k:at]


def _defaults(masked: str, open_idx: int, close: int) -> tuple[int, frozenset[int]]:
    params = split_params(masked, open_idx, close)
    return len(params), frozenset(i for i, (s, e) in enumerate(params) if "=" in masked[s:e].replace("==", ""))


def _params_end(masked: str, open_idx: int) -> tuple[int, str] | None:
    close = matching(masked, open_idx, "(", ")")
    if close < 0 or _DEFAULTED.match(masked, close + 1):
        return None
    a = _AFTER.match(masked, close + 1)
    return (close, a.group("end")) if a is not None else None


def thread_constructors(masked: str, chars: list[str]) -> list[int]:
    """Write `thread` before each pointer or reference parameter with no address space of the constructors
    in `masked` (see the module); returns the offsets written at."""
    bodies = _bodies(masked)
    if not bodies:
        return []
    out: list[int] = []
    declared: dict[str, list[tuple[int, frozenset[int]]]] = {}  # class -> (parameters, defaults) declared only
    outer_types: dict[str, frozenset[str]] = {}
    for start, end, cls in bodies:
        outer_types[cls] = outer_types.get(cls, frozenset()) | _template_types(_head(masked, masked.rfind(cls, 0, start))[1])
    for start, end, cls in bodies:
        for m in re.finditer(r"(?<![\w:~.>])" + re.escape(cls) + r"\s*\(", masked[start + 1:end]):
            at = start + 1 + m.start()
            inner = [b for b in bodies if b[0] < at < b[1]]
            if max(inner, key=lambda b: b[0])[2] != cls:
                continue  # a nested class's body
            part = masked[start + 1:at]
            if part.count("{") != part.count("}") or part.count("(") != part.count(")"):
                continue  # inside a member's body or a parameter list: a call
            hs, head = _head(masked, at)
            head = re.sub(r"^.*?\b(?:public|private|protected)\s*:", "", head, flags=re.S)
            own = _template_types(head)
            if _TEMPLATE.search(head):
                head = head[matching(head, _TEMPLATE.search(head).end() - 1, "<", ">") + 1:]
            if not _HEAD_WORDS.match(head):
                continue
            open_idx = at + m.end() - m.start() - 1
            got = _params_end(masked, open_idx)
            if got is None:
                continue
            close, ending = got
            if ending == ";":
                declared.setdefault(cls, []).append(_defaults(masked, open_idx, close))
                out += thread_list(masked, chars, open_idx, close, own | outer_types.get(cls, frozenset()))
            else:
                out += thread_list(masked, chars, open_idx, close, own)
    inside = [(s, e) for s, e, _ in bodies]
    for m in re.finditer(r"(?<![\w:])([A-Za-z_]\w*)\s*(?:<[^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*>\s*)?::\s*"
                         r"([A-Za-z_]\w*)\s*\(", masked):
        cls = m.group(1)
        if m.group(2) != cls or cls not in declared or any(s < m.start() < e for s, e in inside):
            continue
        open_idx = m.end() - 1
        got = _params_end(masked, open_idx)
        if got is None or got[1] == ";":
            continue
        types = _template_types(_head(masked, m.start())[1]) | outer_types.get(cls, frozenset())
        out += thread_list(masked, chars, open_idx, got[0], types)  # (a default in the declaration: wrapped there)
    return out
