"""Wave-size branches: preprocessor branches a project writes for one wave width.

Real projects often carry their own wave-width paths: `#if defined(WS) && (WS == 64)` beside an
`#else` for 32 lanes, `#if __AMDGCN_WAVEFRONT_SIZE == 64`, `#if WARP_SIZE > 32`.  The condition
compares a wave-width selector with 32 or 64; the branch it keeps is compiled only at one width:

- the branch that holds where the selector is 64 (`SEL == 64`, `SEL > 32`, `SEL >= 64`, `64 == SEL`,
  or the `#else` of `SEL == 32`) is compiled only where the selector is 64.  Its code was written for
  64 lanes: a 32 there is half a wave (`lane & 31`, `tmp >> 32`), the author's split, not a 32-lane
  assumption.
- the other branch is the 32-lane path.  It is compiled only at wave 32 where the selector IS the
  wave (the compiler's `__AMDGCN_WAVEFRONT_SIZE`, `warpSize`, or a macro the unit defines from one of
  them); where the project defines the selector as 32 for every target, that path runs on a 64-lane
  wave too, and its 32-lane assumptions are hazards (`bound`).

A selector is `warpSize`, the compiler's wave macro, a name spelled as a warp size (`WARP_SIZE`), a
macro the unit defines as 32 or 64, or a macro the file takes a lane remainder by (`tid % WS`).
Conjuncts `defined(SEL)` are allowed; any other condition is not a wave-size branch.  One module for
translate (where KP219 names the branch) and lint (which keeps quiet on code that is right for the
width its branch is compiled at).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from . import lazy_re
from .warpsites import WARP_SIZE_NAME

COMPILER = ("warpSize", "__AMDGCN_WAVEFRONT_SIZE", "__AMDGCN_WAVEFRONT_SIZE__")
_DEFINED = lazy_re.compile(r"^\s*\(*\s*defined\s*(?:\(\s*(\w+)\s*\)|\s+(\w+))\s*\)*\s*$")
_COMPARE = lazy_re.compile(r"^\s*\(*\s*(?:(\w+)\s*(==|!=|>=|<=|>|<)\s*(\d+)|(\d+)\s*(==|!=|>=|<=|>|<)\s*(\w+))\s*\)*\s*$")
_MIRROR = {"==": "==", "!=": "!=", ">": "<", "<": ">", ">=": "<=", "<=": ">="}
_OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, ">": lambda a, b: a > b,
        "<": lambda a, b: a < b, ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b}


@dataclass(frozen=True)
class Branch:
    """The wave branch around a node: the `#if`/`#elif` that tests `selector`, and the width the
    node's code is compiled at (`width`) where the selector is the wave."""
    directive: Node
    selector: str
    width: int
    in_else: bool


def condition(text: str) -> tuple[str, int] | None:
    """(selector, the width at which the condition holds) for a wave test; None for any other."""
    text = re.sub(r"/\*.*?\*/|//.*", "", text).strip()
    parts = [p for p in re.split(r"&&", text)]
    tests = [p for p in parts if not _DEFINED.match(p)]
    if len(tests) != 1 or "||" in text:
        return None
    m = _COMPARE.match(tests[0])
    if m is None:
        return None
    name, op, value = (m.group(1), m.group(2), int(m.group(3))) if m.group(1) else \
        (m.group(6), _MIRROR[m.group(5)], int(m.group(4)))
    if name.isdigit():
        return None
    defined = {d.group(1) or d.group(2) for p in parts if (d := _DEFINED.match(p))}
    if defined - {name}:
        return None
    at64, at32 = _OPS[op](64, value), _OPS[op](32, value)
    if at64 == at32:
        return None
    return name, 64 if at64 else 32


def selectors(text: str, defined: dict[str, str | None]) -> frozenset[str]:
    """Names in `text` (a file) that can select a wave width: see the module's doc.  `defined`: the
    unit's object-like macros and their values."""
    out = set(COMPILER)
    out.update(n for n, v in defined.items() if v is not None and _int(v) in (32, 64))
    out.update(n for n in defined if WARP_SIZE_NAME.search(n))
    out.update(m.group(1) for m in _REMAINDER.finditer(text))
    return frozenset(out)


_REMAINDER = lazy_re.compile(r"%\s*\(?\s*([A-Za-z_]\w*)\b(?!\s*[(.\[])")


def bound(name: str, defined: dict[str, str | None]) -> bool:
    """Whether `name` is the wave itself: the compiler's, or a macro defined as one of them."""
    seen = set()
    while name not in COMPILER:
        v = defined.get(name)
        if v is None or name in seen:
            return False
        seen.add(name)
        name = re.sub(r"^\(+|\)+$", "", v.strip())
    return True


def defined_per_wave(defs, text_of) -> frozenset[str]:
    """Macros that are the wave by their definitions: every `#define NAME 64` / `32` of the file sits in a
    branch on the compiler's wave whose width is that value (`#if __AMDGCN_WAVEFRONT_SIZE == 64` /
    `#define WS 64` / `#else` / `#define WS 32`).  `defs`: the file's preproc_def nodes."""
    seen: dict[str, bool] = {}
    for d in defs:
        name_n, val = d.child_by_field_name("name"), d.child_by_field_name("value")
        if name_n is None:
            continue
        b = enclosing(d, text_of, COMPILER.__contains__)
        ok = val is not None and b is not None and _int(text_of(val)) == b.width
        seen[text_of(name_n)] = seen.get(text_of(name_n), True) and ok
    return frozenset(n for n, ok in seen.items() if ok)


def enclosing(node: Node, text_of, is_selector) -> Branch | None:
    """The innermost wave branch around `node` (its code compiled at one width), or None."""
    p, child = node.parent, node
    while p is not None and p.type != "translation_unit":
        if p.type in ("preproc_if", "preproc_elif"):
            c = p.child_by_field_name("condition")
            alt = p.child_by_field_name("alternative")
            if c is not None and child != c:
                test = condition(text_of(c))
                if test is not None and is_selector(test[0]):
                    in_else = alt is not None and child == alt
                    width = test[1] if not in_else else 96 - test[1]
                    return Branch(p, test[0], width, in_else)
        p, child = p.parent, p
    return None


def in_module(node: Node, module) -> Branch | None:
    """`enclosing` with the selectors of a model (its macros and what its includes and includers define)."""
    src = module.source
    defined = {n: m.value for n, m in module.macros.items()}
    vis = getattr(module, "visible", None)
    defined.update((n, m.value) for n, m in (vis.macros.items() if vis is not None else ()))
    # the selectors of the file's text, once per model and macros (a pass over the text per node asked about
    # grew with the square of the file)
    got = module.__dict__.get("_kp_selectors")
    if got is None or got[0] is not src or got[1] != defined:
        got = module.__dict__["_kp_selectors"] = (src, defined, selectors(src.text, defined))
    return enclosing(node, src.text_of, got[2].__contains__)


def _int(text: str) -> int | None:
    t = re.sub(r"/\*.*?\*/|//.*", "", text).strip().strip("()").strip()
    return int(t) if t.isdigit() else None
