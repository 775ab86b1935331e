"""Definitions a port carries for a header its target's checked toolchain lacks.

CUDA's <math_constants.h> maps to HIP's <hip/hip_math_constants.h> (CUDART_PI_F -> HIP_PI_F), which
ROCm has only from 5.3.  A backend lists such headers with the definitions they provide
(`absent_header_fallbacks`, data beside its API table); the port then includes the header where the
compiler has it and otherwise defines, itself, the names this file uses:

    #if __has_include(<hip/hip_math_constants.h>)
    #include <hip/hip_math_constants.h>
    #else  // ...
    #define HIP_PI_F 3.14159274F
    #endif

A redefinition with the same tokens is allowed, so a header's port and its includer may both carry one.
"""
from __future__ import annotations

import re
from . import lazy_re

_WORD = lazy_re.compile(r"[A-Za-z_]\w*")
_INCLUDE = lazy_re.compile(r"^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"]", re.M)


def carried(src, backend) -> dict[str, dict[str, str]]:
    """Per target header this file includes that has a fallback: the definitions (target name ->
    C text) of the names the file uses, in name order.  Once per file and backend."""
    cache = src.__dict__.setdefault("_kp_fallbacks", {})
    if backend.name in cache:
        return cache[backend.name]
    out: dict[str, dict[str, str]] = {}
    table = backend.api()
    if table is not None and backend.absent_header_fallbacks:
        words = set(_WORD.findall(src.text))
        for inner in _INCLUDE.findall(src.text):
            e = table.get(inner)
            defs = backend.fallback_definitions(e.hip) if e is not None and e.is_header else None
            if defs is None:
                continue
            used = {table.spelling(w) for w in words}
            out[e.hip] = {n: defs[n] for n in sorted(used & defs.keys())}
    cache[backend.name] = out
    return out


def defines(src, backend, name: str) -> bool:
    """Does the port of `src` carry a definition of the target name `name`?"""
    return any(name in defs for defs in carried(src, backend).values())


def include_block(src, backend, header: str, node_text: str) -> str | None:
    """The text that replaces `#include <cuda header>` where `header` has a fallback (None: none)."""
    defs = carried(src, backend).get(header)
    if defs is None:
        return None
    lines = [f"#if __has_include(<{header}>)", f"#include <{header}>"]
    if defs:
        lines.append(f"#else  // {backend.api_checked_with} and older lack it: what this file uses of it (kernelport)")
        lines += [f"#define {n} {v}" for n, v in defs.items()]
    lines.append("#endif")
    return "\n".join(lines) + ("\n" if node_text.endswith("\n") else "")
