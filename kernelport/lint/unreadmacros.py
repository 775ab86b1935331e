"""A source file's wave-width definition that nothing in the file reads (WS014 quiet).

tree-free-nbody's tree_free_fmm_kernel.cu (heldout100) defines the width per platform and never uses it:

    #if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
    #define WARP_SIZE 64        // WS014: 64 for every AMD GPU, RDNA's 32 included
    #else
    #define WARP_SIZE 32
    #endif

A value nothing reads computes nothing: no lane, ladder or launch is wrong on RDNA for it (WS001 is quiet on
an unused `#define WARP_SIZE 32` in a source file the same way).  A name is read when its word occurs in the
file's text outside comments and outside the directives that only define, undefine or test it (`#define NAME`,
`#undef NAME`, `#ifdef NAME`, `#ifndef NAME`, `defined(NAME)`), or when a macro of the file may paste it out of
pieces (kept_hazards.pastes_to).  A header's definition is always kept: its reads are in the files that include it;
and so is the definition of a source file that includes a quoted header (`#include "lanes.cuh"`), before or after
it: the header's functions may read the name (`for (o = WARP_SIZE / 2; ...)`), or its macros
(`#define LANE(x) ((x) % WARP_SIZE)`) that the file expands (review66e: such a file lost its WS014).  An angle-bracket
include is taken as a system header's (`<hip/hip_runtime.h>`, `<stdio.h>`), as tree-free-nbody's are.
"""
from __future__ import annotations

import re

from .. import lazy_re

HEADERS = (".h", ".hpp", ".cuh", ".hh", ".inl")
_QUOTED_INCLUDE = lazy_re.compile(r'^[ \t]*#[ \t]*include[ \t]*"', re.M)
_COMMENT = lazy_re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def unread(ctx, name: str) -> bool:
    """Whether `name`, defined in ctx's source file (not a header), is read nowhere in that file (above)."""
    if ctx.path.endswith(HEADERS) or name not in ctx.src.text or _QUOTED_INCLUDE.search(ctx.src.text):
        return False
    from ..kept_hazards import pastes_to  # (read only where a finding is about to be made)
    text = _COMMENT.sub(" ", ctx.src.text.replace("\\\n", " "))
    w = re.escape(name)
    text = re.sub(rf"^[ \t]*#[ \t]*(?:define|undef|ifdef|ifndef)[ \t]+{w}\b[^\n]*|\bdefined\s*\(?\s*{w}\b", " ", text,
                  flags=re.M)
    return re.search(rf"\b{w}\b", text) is None and not pastes_to(ctx.src.text, name)
