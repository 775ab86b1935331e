"""Local pointer and reference variables that name no address space: `thread` (stop 64).

In MSL an unqualified pointer or reference declared in a function is a `thread` one (Metal has no generic
address space): `int *q = p;` with `p` a `device int*`, or `int &r = a[0];` in a member called on a device
object (object_spaces.py's twins), is rejected by Metal.  C++ for OpenCL makes such a local generic, which
takes every space, so the checker passed both.  This module writes `thread` before such a declaration in a
function body, where its type is one clang and the port agree on: a scalar or vector type of Metal's, or a
class, struct, union, enum or typedef the file declares (`T *p` of a template parameter is left: a deduced
type carries its space).  Left alone: declarations that name a space or start with another word (`static`,
`constexpr`, `auto`: deduced with its initialiser's space), members of a class body, and parameter lists at
file or class scope (thread_params.py and its siblings write those), and a `const` reference bound to a
temporary (`const float &t = a * 2.0f;`: thread in Metal; clang binds a temporary to no `__private` one).
Also read (stop 65): `float &r(tile[i]);`, `float &r{tile[i]};` and a pointer or reference to an array,
`float (&row)[8] = tile2[i];`, `float (*p)[8] = tile2;` (main's checker passed each bound to threadgroup memory).
"""
from __future__ import annotations

import re

from .thread_declarations import _blocks
from .thread_params import INSERT

_SCALARS = ("bool char uchar short ushort int uint long ulong half float size_t ptrdiff_t int8_t uint8_t "
            "int16_t uint16_t int32_t uint32_t int64_t uint64_t unsigned signed void").split()
_VECTORS = [f"{t}{n}" for t in ("bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half",
                                "float") for n in (2, 3, 4)] + [f"packed_{t}{n}" for t in ("char", "uchar", "short",
                                "ushort", "int", "uint", "half", "float") for n in (2, 3, 4)]
# an initialiser that names an object (not a temporary): `buf[i]`, `*p`, `s.v[2]`, `p->x`
_LVALUE = re.compile(r"\s*\*?\s*[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*|\s*\[[^;\[\]]*\])*\s*[;,)}]")
_DECLARED = re.compile(r"\b(?:struct|class|union|enum)\s+([A-Za-z_]\w*)\s*[:{]|\btypedef\b[^;{}]*?\b([A-Za-z_]\w*)\s*;"
                       r"|\busing\s+([A-Za-z_]\w*)\s*=")


def thread_locals(masked: str, chars: list[str]) -> list[int]:
    """Write `thread` before each unqualified pointer or reference local (see the module); returns the offsets."""
    names = {n for m in _DECLARED.finditer(masked) for n in m.groups() if n}
    types = "|".join(sorted((re.escape(t) for t in {*_SCALARS, *_VECTORS, *names}), key=len, reverse=True))
    decl = re.compile(r"(?<=[;{}(])(\s*)((?:const\s+|volatile\s+)*(?:unsigned\s+|signed\s+)?(?:" + types + r")\b"
                      r"(?:\s+const|\s+volatile|\s+int|\s+long|\s+short|\s+char)*\s*(?:[*&]\s*(?:const\s+)?"
                      r"[A-Za-z_]\w*\s*(?:[=;,)({]|\[)|\(\s*[*&]\s*[A-Za-z_]\w*\s*\)\s*\[))")
    blocks = _blocks(masked)  # (function bodies and the blocks in them; class, namespace bodies)
    out: list[int] = []
    for m in decl.finditer(masked):
        at = m.start(2)
        inner = max((b for b in blocks if b[0] < at < b[1]), key=lambda b: b[0], default=None)
        if inner is None or inner[2] or "&&" in m.group(2):
            continue  # file scope or a class's body: members and parameter lists are not locals
        if "&" in m.group(2) and re.search(r"\bconst\b", m.group(2)) and m.group(2).rstrip()[-1] in "=({" and \
                not _LVALUE.match(masked, m.end(2)):
            continue  # `const float &t = a * 2.0f;`: a temporary, thread in Metal, of no space in clang (left)
        chars[at] = INSERT + chars[at]
        out.append(at)
    return out
