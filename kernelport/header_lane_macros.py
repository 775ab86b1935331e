"""A header's object-like macro that computes a lane or a warp index from a hardcoded 32, read at each use in the
files that include it (issue 11; stop 63 left "lane macros from headers").

A header's integer macro already reaches its includers (kernelport/warpsites.py macro_facts: `#define LANE_MASK 31`
makes each use a `ws_m1` site, `#define WARP_SIZE 32` a `ws_macro_use` one).  Two spellings did not:

- a value that is an expression of other macros (`#define LANE_MASK (WARP_SIZE - 1)`, `#define WARP_SIZE (1 << 5)`):
  `value` folds it with the macros the file sees, and only where the expression names a warp-size name
  (`WARP_SIZE_NAME`) or is literals alone, so a header's `#define ROW_MASK (TILE - 1)` of a 32-wide tile stays
  unknown;
- a value that is a lane or warp index of the thread index (`#define LANE_ID (threadIdx.x & 31)`,
  `(threadIdx.x % WARP_SIZE)`, `(threadIdx.x >> 5)`): `index_facts` makes each use here a `lane_macro_use` or
  `warp_macro_use` site of a LANE / WARP fact, which the dataflow follows from the use as from the local spelling.
  Lint reports the use (WS002 / WS003) and names the definition.

A header's function-like macro of one parameter (`#define LANE_OF(t) ((t) & 31)`, `#define WARP_OF(t) ((t) >> 5)`)
is read the same way at each use given a thread index (`LANE_OF(threadIdx.x)`: `call_facts`, a site at the use).

Lint's analysis only (`warpflow.analyze(..., lint=True)`): translate's reading of such a use is unchanged (its
group decisions and refusals, KP219 at a header's 32-lane `WARP_INDEX`, read the header's port, not these facts).

Definitions under a platform or wave test (`#if defined(__HIP_PLATFORM_AMD__)`, `#ifdef __CUDA_ARCH__`, a wave-size
macro's `#if`) are left to today's reading: the header chose a width per platform there.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import lazy_re

_PLATFORM = lazy_re.compile(r"(?i)hip|amd|rocm|gfx|wave|warp|cuda_arch|nvcc|__cuda|simd|lane")
_OP_KIND = {"&": (31, "lane"), "%": (32, "lane"), "/": (32, "warp"), ">>": (5, "warp")}
_IDENT = lazy_re.compile(r"[A-Za-z_]\w*")
_CONDITIONALS = ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else", "preproc_elifdef")


def _platform_guarded(mac) -> bool:
    """The definition sits under an `#if` that tests a platform, an architecture or a width (an include guard,
    `#ifndef LANES_CUH`, does not)."""
    p = mac.node.parent if mac.node is not None else None
    while p is not None:
        if p.type in _CONDITIONALS:
            cond = p.child_by_field_name("condition") or p.child_by_field_name("name")
            if p.type == "preproc_else" or cond is None:
                cond = p.parent.child_by_field_name("condition") or p.parent.child_by_field_name("name") \
                    if p.parent is not None else None
            text = cond.text.decode("utf-8", "replace") if cond is not None else ""
            if _PLATFORM.search(text) and not re.fullmatch(r"\s*\w+_(H|HPP|CUH|INCLUDED|H_)_*\s*", text):
                return True
        p = p.parent
    return False


def _names(an) -> dict:
    """Name -> macro of what the file sees (its own macros over the headers')."""
    vis = an.m.visible
    out = dict(vis.macros) if vis is not None else {}
    out.update(an.m.macros)
    return out


def _fold(text: str, macros: dict, depth: int = 0) -> int | None:
    """The integer a macro value folds to through other object-like macros (None: not a constant)."""
    from .blockdims import evaluate
    if depth > 6:
        return None
    known = {}
    for name in dict.fromkeys(_IDENT.findall(text)):
        m = macros.get(name)
        if m is None or not m.value:
            return None
        v = _fold(m.value, macros, depth + 1)
        if v is None:
            return None
        known[name] = v
    return evaluate(text, known)


def value(an, mac) -> int | None:
    """A header macro's value folded through the macros the file sees, where the expression names the warp's size
    (`(WARP_SIZE - 1)`) or holds literals only (`(1 << 5)`); None otherwise."""
    from .warpsites import WARP_SIZE_NAME
    text = mac.value or ""
    if "(" not in text and not re.search(r"[-+*/<>&|]", text) or "threadIdx" in text or _platform_guarded(mac):
        return None
    names = _IDENT.findall(text)
    if names and not any(WARP_SIZE_NAME.search(n) for n in names):
        return None
    return _fold(text, _names(an))


def index_facts(an, mac, node: Node) -> frozenset | None:
    """{(LANE or WARP, a site at `node`)} for a header macro whose value is `threadIdx.x OP C` (OP one of & % / >>,
    C folding to 31 / 32 / 32 / 5); None for any other value."""
    from .warpsites import LANE, WARP
    text = (mac.value or "").strip()
    if "threadIdx" not in text or "#" in text or _platform_guarded(mac):
        return None
    m = re.fullmatch(r"\(*\s*(\(?\s*threadIdx\s*\.\s*x\s*\)?)\s*(&|%|/|>>)\s*([^()]*?|\([^()]*\))\s*\)*", text)
    if m is None or text.count("(") != text.count(")"):
        return None
    want, kind = _OP_KIND[m.group(2)]
    const = m.group(3).strip()
    names = _IDENT.findall(const)
    if any(n == "warpSize" or n in getattr(an.m.visible, "wave_widths", ()) for n in names):
        return None  # the wave's own width
    if _fold(const, _names(an)) != want:
        return None
    role = "lane_macro_use" if kind == "lane" else "warp_macro_use"
    return frozenset({(LANE if kind == "lane" else WARP, an.site(node, role))})


def call_facts(an, n: Node, name: str, arg_facts: list) -> frozenset | None:
    """{(LANE or WARP, a site at the call `n`)} for a use of a header's function-like macro of one parameter whose
    value is `P OP C` (`#define LANE_OF(t) ((t) & 31)`, `#define WARP_OF(t) ((t) >> 5)`; OP and C as index_facts
    reads them) given a thread index (its argument's facts name the thread, a lane or a warp index); None otherwise.
    The same value given a row index (`ROW_OF(i)` of rows of 32) is no lane: its argument names no thread."""
    from types import SimpleNamespace
    from .warpsites import LANE, TID, WARP
    vis = an.m.visible
    if len(arg_facts) != 1 or not {TID, LANE, WARP} & {k for k, _ in arg_facts[0]}:
        return None
    got = function_macro(an.src, vis, an.m, name, n.start_byte)
    if got is None:
        return None
    node, _ = got
    params = [c.text.decode() for c in (node.child_by_field_name("parameters") or node).named_children
              if c.type == "identifier"]
    value = node.child_by_field_name("value")
    text = value.text.decode("utf-8", "replace").strip() if value is not None else ""
    if len(params) != 1 or "#" in text or _platform_guarded(SimpleNamespace(node=node)):
        return None
    p = re.escape(params[0])
    m = re.fullmatch(rf"\(*\s*(\(?\s*{p}\s*\)?)\s*(&|%|/|>>)\s*([^()]*?|\([^()]*\))\s*\)*", text)
    if m is None or text.count("(") != text.count(")") or re.search(rf"\b{p}\b", m.group(3)):
        return None
    want, kind = _OP_KIND[m.group(2)]
    const = m.group(3).strip()
    if any(c == "warpSize" or c in getattr(vis, "wave_widths", ()) for c in _IDENT.findall(const)):
        return None  # the wave's own width
    if _fold(const, _names(an)) != want:
        return None
    role = "lane_macro_use" if kind == "lane" else "warp_macro_use"
    return frozenset({(LANE if kind == "lane" else WARP, an.site(n, role))})


def function_macro(src, vis, m, name: str, at: int):
    """(definition node, path) of the function-like macro `name` a use at byte `at` of `src` expands: the file's own
    last `#define name(...)` before it (lint66: `#define LANE(x) ((x) & 31)` in the .cu itself, as lowell's and
    many single-file kernels write it), else a header's (vis.function_macros); None for neither, or where an
    object-like macro of the file's takes the name."""
    if name in m.macros:
        return None
    own = [d for d in src.index.of_type("preproc_function_def") if d.start_byte < at
           and (nm := d.child_by_field_name("name")) is not None and src.text_of(nm) == name]
    if own:
        return own[-1], src.path
    return vis.function_macros.get(name) if vis is not None else None


def definition(ctx, s) -> str:
    """` (`LANE_ID` is `(threadIdx.x & 31)` at lanes.cuh:3)` for a use site of this module's, else ``."""
    if s.role not in ("lane_macro_use", "warp_macro_use"):
        return ""
    vis = ctx.module.visible
    from .lint.discovery import shown
    from pathlib import Path
    if s.node.type == "call_expression":  # a function-like macro's use (call_facts)
        fn = s.node.child_by_field_name("function")
        name = ctx.text(fn) if fn is not None else ""
        got = function_macro(ctx.src, vis, ctx.module, name, s.node.start_byte)
        if got is None:
            return ""
        node, path = got
        value = node.child_by_field_name("value")
        params = node.child_by_field_name("parameters")
        head = f"{name}{params.text.decode() if params is not None else '()'}"
        body = " ".join(value.text.decode("utf-8", "replace").split()) if value is not None else ""
        return f" (`{head}` is `{body}` at {shown(Path(path))}:{node.start_point[0] + 1})"
    name = ctx.text(s.node)
    mac, at = (vis.macros.get(name), vis.where.get(name)) if vis is not None else (None, None)
    if mac is None or at is None:
        return ""
    return f" (`{name}` is `{' '.join(mac.value.split())}` at {shown(Path(at[0]))}:{at[1]})"
