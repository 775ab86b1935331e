"""Conditional branches the port's own `#define`s rule out, blanked for the Python checks.

clang preprocesses the port before it type-checks it, so a branch the port's defines rule out is never
compiled; the Python checks (attributes, kernel signatures) read the text as written and would judge it.
deepwave's kernels list parameters under `#if DW_NDIM >= 3`: the port writes `#define DW_NDIM 1` (the
build's -D) at its top and leaves the ruled-out parameters as written (no address space: they never
compile), which the signature check reported as pointers without an address space.

Only what is certain: object-like defines outside every conditional, with no `#undef` of the name, and
conditionals the run's integer values decide (kernelport.macro_groups.decided_variant, as the translator
decides the build's -D); anything else stays checked.
"""
from __future__ import annotations

import re


def blank_dead_branches(masked: str) -> str:
    """`masked` (comments and literals neutralised) with the ruled-out branches' lines blanked."""
    if "#" not in masked:
        return masked
    from ....macro_groups import decided_variant, groups
    from ....macros import MacroDef
    data = masked.encode("utf-8")
    found = groups(data)
    if not found:
        return masked
    spans = [(g.start, g.end) for g in found]
    undefined = set(re.findall(r"(?m)^[ \t]*#[ \t]*undef[ \t]+(\w+)", masked))
    # the Metal compiler's own macros (the backend's lowering defines them; the checker's header too): a
    # `#if !defined(__METAL_VERSION__)` branch (vec_math.h's host-only `long long max(...)`, a port of
    # `#if !defined(__CUDACC__)`) is one Metal never compiles
    from ....backends import get
    defs = {name: MacroDef(name, None, value, "<command line>", 0)
            for name, value in get("metal").lowering.defines.items() if name not in undefined}
    for m in re.finditer(rb"(?m)^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+([^\n]*?)[ \t]*$", data):
        name = m.group(1).decode()
        if name in undefined or any(s <= m.start() < e for s, e in spans):
            continue
        # the port's unconditional define acts as the build's -D does (decided_variant reads those)
        defs[name] = MacroDef(name, None, m.group(2).decode("utf-8", "replace"), "<command line>", 0)
    if not defs:
        return masked
    out = bytearray(data)
    for g in found:
        variant = decided_variant(g, defs, data)
        if variant is None:
            continue
        for s, e in g.hidden(variant):
            out[s:e] = bytes(b if b == 0x0A else 0x20 for b in data[s:e])
    text = out.decode("utf-8", "replace")
    return text if len(text) == len(masked) else masked  # (a multi-byte character cut: leave it checked)
