"""Pointer type aliases that name no address space: `thread` (stop 65).

`typedef float* fptr;` and `using iptr = int*;` name a `thread` pointer in MSL, as an unqualified pointer
declared in a function does (thread_locals.py): `fptr p = buf;` of a `device float* buf` is rejected by Metal.
C++ for OpenCL makes the alias's pointee generic, which takes every space, so the checker passed it.  This
module writes `thread` before the pointee of each such alias (any scope), where the pointee is a type clang
and the port agree on (thread_locals' scalars, vectors and the file's own types; a template parameter's
`T*` is left: a deduced type carries its space; a use of an alias template of `T*` with a scalar, vector or
own type of no space, `ptr<float>`, is `float*`: `thread` before the argument).  An alias that names a space, a reference alias, a
pointer to a function or an array (`typedef float (*F)(float)`) is left as written.
"""
from __future__ import annotations

import re

from .thread_locals import _DECLARED, _SCALARS, _VECTORS
from .thread_params import INSERT

_SPACES = re.compile(r"\b(?:device|threadgroup|constant|thread)\b")


def thread_aliases(masked: str, chars: list[str]) -> list[int]:
    """Write `thread` before the pointee type of each pointer alias with no address space; the offsets."""
    if "typedef" not in masked and "using" not in masked:
        return []
    names = {n for m in _DECLARED.finditer(masked) for n in m.groups() if n}
    types = "|".join(sorted((re.escape(t) for t in {*_SCALARS, *_VECTORS, *names}), key=len, reverse=True))
    pointee = (r"((?:const\s+|volatile\s+)*(?:unsigned\s+|signed\s+)?(?:struct\s+|class\s+|union\s+|enum\s+)?"
               r"(?:" + types + r")\b(?:\s+const|\s+volatile|\s+int|\s+long|\s+short|\s+char)*\s*\*[\s*]*(?:const\s*)?)")
    alias = re.compile(r"\btypedef\s+" + pointee + r"[A-Za-z_]\w*\s*;|\busing\s+[A-Za-z_]\w*\s*=\s*" + pointee + r";")
    out: list[int] = []
    for m in alias.finditer(masked):
        g = 1 if m.group(1) is not None else 2
        if _SPACES.search(m.group(g)):
            continue
        at = m.start(g)
        chars[at] = INSERT + chars[at]
        out.append(at)
    for m in _ALIAS_TEMPLATE.finditer(masked):  # `template<class T> using ptr = T*;`: `ptr<float>` is `float*`
        use = re.compile(r"(?<![\w:])" + re.escape(m.group(2)) + r"\s*<\s*(" + types + r")\b(?=[\s\w]*>)")
        for u in use.finditer(masked, m.end()):
            at = u.start(1)
            if not _SPACES.search(masked[max(0, at - 12):at]):  # (`ptr<device float>` names its space)
                chars[at] = INSERT + chars[at]
                out.append(at)
    return out


# an alias template of a pointer to its one type parameter (no space): each use's argument takes the alias's
# place, so a scalar, vector or own type given without a space is a `thread` pointee there
_ALIAS_TEMPLATE = re.compile(r"\btemplate\s*<\s*(?:class|typename)\s+([A-Za-z_]\w*)\s*>\s*using\s+([A-Za-z_]\w*)"
                             r"\s*=\s*(?:const\s+)?\1\s*(?:const\s*)?\*\s*;")
