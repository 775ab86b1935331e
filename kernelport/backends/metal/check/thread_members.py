"""A member function with no address space after its parameters: a `thread` `this` in MSL.

MSL gives an unqualified member function a `thread` object: `in[i].norm()` with `in` a device buffer
calls nothing unless the class has a `device` overload (`float norm() const device`, which the port
writes for each member called on a device object: object_spaces.py), and Metal rejects the call.  C++
for OpenCL gives the same function a generic `this`, which accepts device and threadgroup objects, so
clang alone let a missing twin pass.  The checker therefore writes `thread` (the header's `__private`)
after the parameters of each member function that names no space there: its declarations and
definitions in the class body and its definitions out of it (`float V::norm() const {`), which must
agree (`template <class T> T W<T>::get() const {` too; before a trailing return type, `auto get() const
-> float`).  Static members, constructors, destructors and friends are left as written (they have no
object).  A temporary's member call (`(a + b).norm()`) is valid Metal (the temporary is a thread
object) and clang, which materialises it in no space, refuses it: thread_temporaries.py lets that
error through and thread_arguments.py wraps the object to check the call's arguments.
"""
from __future__ import annotations

import re

from .text import matching

_CLASS = re.compile(r"\b(?:struct|class|union)\s+(?:alignas\s*\([^()]*\)\s*)?([A-Za-z_]\w*)\b(?!\s*[,>=])[^;{}()]*\{")
# (not a template's type parameter: `template <class T> struct W {` is W's body, not T's)
_NAME = re.compile(r"(?:\b([A-Za-z_]\w*)\s*(?:<[^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*>\s*)?::\s*)?(~?\s*[A-Za-z_]\w*|operator\s*(?:[-+*/%^&|<>=!]=?|<<=?|>>=?|&&|\|\||"
                   r"\[\s*\]|\(\s*\)))\s*\(")
_AFTER = re.compile(r"\s*(const\s*)?(volatile\s*)?(noexcept\s*)?(?P<arrow>->\s*[\w:<>,\s*&]+?)?(?:override\s*|final\s*)*"
                    r"(?P<end>[{;]|=\s*(?:0|default|delete)\s*;)")
_SPACE_AFTER = re.compile(r"^\s*(const\s*)?(device|threadgroup|constant|thread)\b")


def _declaration_head(head: str) -> bool:
    """Whether `head` (the text before `C::f(`) may be an out-of-class definition's: a return type ends it,
    and it is no member access (`d.`, `p->`) nor an expression (`x = 2 * `)."""
    h = head.rstrip()
    return bool(re.search(r"[\w>*&]$", h)) and not h.endswith("->") and "=" not in h


_NO_OBJECT = re.compile(r"\b(?:static|friend|typedef|using|return|new|delete|sizeof|template\s*<\s*>)\b|[=(,?:]\s*$")


def _bodies(masked: str) -> list[tuple[int, int, str]]:
    out = []
    for m in _CLASS.finditer(masked):
        close = matching(masked, m.end() - 1, "{", "}")
        if close > 0:
            out.append((m.end() - 1, close, m.group(1)))
    return out


def _head(masked: str, at: int) -> str:
    k = at
    while k > 0 and masked[k - 1] not in ";{}":
        k -= 1
    return masked[k:at]


def thread_members(masked: str, chars: list[str]) -> list[int]:
    """Write ` thread` after the parameters (and `const`) of each member function of the classes in
    `masked` that names no space; returns the offsets written at (each insertion is len(' thread'))."""
    bodies = _bodies(masked)
    if not bodies:
        return []
    names = {c for _, _, c in bodies}
    static: set[tuple[str, str]] = set()
    sites: list[tuple[int, str, str, bool]] = []  # (offset after `)` and const, class, name, in the body)
    for m in _NAME.finditer(masked):
        cls, name = m.group(1), re.sub(r"\s+", "", m.group(2))
        inner = [b for b in bodies if b[0] < m.start() < b[1]]
        own = max(inner, key=lambda b: b[0]) if inner else None
        if own is not None and cls is None:
            part = masked[own[0] + 1:m.start()]
            if part.count("{") != part.count("}") or part.count("(") != part.count(")"):
                continue  # inside a member's body or a parameter list
            cls = own[2]
        elif cls is None or cls not in names or own is not None:
            continue  # a free function, a call (`ns::f(x)`), a qualified call inside a class
        close = matching(masked, m.end() - 1, "(", ")")
        if close < 0:
            continue
        a = _AFTER.match(masked, close + 1)
        head = _head(masked, m.start())
        if a is None or _SPACE_AFTER.match(masked[close + 1:close + 40]) or name.startswith("~") or name == cls:
            continue
        if cls is not None and m.group(1) is None and (not head.strip() or not re.search(r"[\w>*&]\s*$", head)):
            continue  # no return type before it: a call or an initialiser, not a declaration
        if m.group(1) is not None and not _declaration_head(head):
            continue  # `B::put(q);` in a body, `d.B::put(q)`, `x = 2 * Cfg::scale(q)`: a qualified call
        if _NO_OBJECT.search(head):
            if re.search(r"\bstatic\b", head):
                static.add((cls, name))
            continue
        sites.append((a.start("arrow") if a.group("arrow") else a.start("end"), cls, name, m.group(1) is None))
    out = []
    for at, cls, name, in_body in sites:
        if not in_body and (cls, name) in static:
            continue  # an out-of-class definition of a member some in-class declaration makes static
        k = at - 1  # written after the character before `{` / `;` / `= 0`
        chars[k] += " thread" if not chars[k].endswith(" ") else "thread "
        out.append(at)
    return out
