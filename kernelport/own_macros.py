"""Where a file's own `#define` of a built-in's name is in force, the name is the file's macro.

`#define warpSize 64` (limitz/cuda-audio's gpu.h defines it 32) makes every later `warpSize` of the
file the macro's 64 on NVIDIA's device pass, not the hardware's wave width: `__shared__ float
s[warpSize]` is an array of 64 beside `threadIdx.x % warpSize` lanes numbered to 63.  Translate
(model.build: not a use of the built-in, so no rewrite to the port's wave constant) and lint (WS013
and WS016: not the run-time wave width; WS001 judges the macro's value) both ask here, so that they
read the name alike: before, translate sized such an array by the wave constant (32 on gfx1030: an
out-of-bounds write), and a port that kept the macro was refused by lint reading it as the built-in.

In force: from the definition to an `#undef` of the name, where the definition is compiled on
NVIDIA's device pass (guards.reach).  A host-only fallback (`#ifndef __CUDACC__ #define warpSize 32`)
is not: device code there reads the built-in.
"""
from __future__ import annotations

import bisect

from tree_sitter import Node

from . import guards


def _directives(src) -> dict[str, list[tuple[int, Node | None]]]:
    """{name: [(byte, the #define node, or None for an #undef)]}, in file order, made once per file."""
    got = src.__dict__.get("_kp_own_macro_directives")
    if got is None:
        got = src.__dict__["_kp_own_macro_directives"] = {}
        for n in src.index.of_types("preproc_def", "preproc_function_def"):
            if (name := n.child_by_field_name("name")) is not None:
                got.setdefault(src.text_of(name), []).append((n.end_byte, n))
        for n in src.index.of_type("preproc_call") if got else ():
            d, arg = n.child_by_field_name("directive"), n.child_by_field_name("argument")
            if d is not None and arg is not None and src.text_of(d).replace(" ", "") == "#undef" and \
                    src.text_of(arg).strip() in got:
                got[src.text_of(arg).strip()].append((n.start_byte, None))
        for v in got.values():
            v.sort(key=lambda e: e[0])
    return got


def spans(src, name: str) -> tuple[list[int], list[int]]:
    """(starts, ends): the byte spans where a `#define name` of the file is in force, in order."""
    memo = src.__dict__.setdefault("_kp_own_macro_spans", {})
    got = memo.get(name)
    if got is None:
        starts: list[int] = []
        ends: list[int] = []
        for at, d in _directives(src).get(name, ()):
            if d is None and len(ends) < len(starts):
                ends.append(at)  # #undef
            elif d is not None and len(ends) == len(starts) and guards.NVIDIA_DEVICE in guards.reach(d, src):
                starts.append(at)
        if len(ends) < len(starts):
            ends.append(1 << 62)  # to the end of the file
        got = memo[name] = (starts, ends)
    return got


def shadowed(src, node: Node, name: str | None = None, visible=None) -> bool:
    """Is this identifier (spelling `name`) the file's own macro, not the built-in its name spells?
    `visible` (model.Visible, project mode): an included header's unconditional `#define` of the name is
    in force in the whole file too (limitz/cuda-audio's gpu.h); a conditional one is left to the built-in."""
    name = name if name is not None else src.text_of(node)
    if visible is not None and (mac := visible.macros.get(name)) is not None and not _conditional(mac.node):
        return True
    if name not in _directives(src):
        return False
    starts, ends = spans(src, name)
    i = bisect.bisect_right(starts, node.start_byte) - 1
    return i >= 0 and node.start_byte < ends[i]


def builtin_uses(module) -> list:
    """The model's uses less the names its includes' macros shadow (model.build saw only the file)."""
    vis = module.visible
    if vis is None or not vis.macros:
        return module.uses
    return [u for u in module.uses if u.node.type not in ("identifier", "type_identifier") or
            not shadowed(module.source, u.node, visible=vis)]


def header_spans(module) -> list[tuple[int, int]]:
    """The byte spans of the uses `builtin_uses` drops: translate's self-check lints the original alone,
    where they read as the built-in, so its findings there are no hazard the port keeps (kept_hazards)."""
    from . import backends, dialect
    vis, read_as = module.visible, backends.source().name
    names = [n for n, mac in vis.macros.items() if not _conditional(mac.node) and dialect.lookup(read_as, n)
             is not None] if vis is not None else []  # only a built-in's name: a header's WARP_SIZE keeps its hazards
    ids = module.source.named_under(module.source.root, "identifier", names) if names else []
    return [(n.start_byte, n.end_byte) for n in ids]


def _conditional(node: Node) -> bool:
    p = node.parent
    while p is not None and p.type not in ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"):
        p = p.parent
    return p is not None
