"""A header's macro whose value every includer of the run defines (issue 11, heldout22's LC framework).

FPcompress's and PFPL's headers (d_zero_elimination.h, d_RAZE.h, sum_reduction.h) use `WS` without
defining it: each `.cu` that includes them says `#define WS 32` first (ratio-compressor-double.cu
defines it per wave: 64 under `__AMDGCN_WAVEFRONT_SIZE == 64`, 32 in its #else).  Linted as a file of
the run, such a header saw an unknown `WS`: `warp = tid / WS` was no warp index, so `if (warp == 0)`
around a full-mask shuffle read as a thread-dependent split of the warp (WS012).

`roots` walks up from the header to every file at the top of its include chains (the run's files and
those beside each header, kernelport.includers); `kinds` says how each root defines the name: `wave`
(every definition per wave, wavebounds' test) or the one integer every definition writes.  The header
reads the name (`add_visible`, lint only) as:

- every root per wave: the wave itself (`Visible.wave_widths`, as a header constant per platform);
- every root per wave or 32, at least one 32: a macro that hardcodes the warp as 32 (the unit's
  `header_macros`, as a header's `#define WARP_SIZE 32` is): `tid / WS` is a warp index of 32-lane
  warps, `warp == 0` a whole warp of the code's WS lanes (the 32 on a 64-wide wave is the includer's
  WS001, reported there);
- anything else (a root with 16, a root that does not define it, another file of a unit defining it,
  a header no file of the run includes, the header defining it itself): unknown, today's findings.
"""
from __future__ import annotations

from pathlib import Path

import re

from .. import lazy_re, warpflow
from .discovery import shown

_MAX_INCLUDERS = 64  # files walked up from a header: a header every file includes is not read this way
_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc")
_DEFINE = lazy_re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
_SPLIT_BY = lazy_re.compile(r"[%/]\s*\(?\s*([A-Za-z_]\w*)\b(?!\s*[(.\[])")  # `tid % WS`, `tid / WS`


def roots(proj, f: Path) -> list[Path] | None:
    """The files at the top of `f`'s include chains (None: too many files up, or none), once per run:
    `add_visible` asks for each name a header splits by, and each walk up asks every includer again."""
    cache = proj.__dict__.setdefault("_kp_header_roots", {})
    if f not in cache:
        cache[f] = _roots(proj, f)
    return cache[f]


def _roots(proj, f: Path) -> list[Path] | None:
    out, seen, todo = [], {f}, [f]
    while todo:
        h = todo.pop()
        ups = [g for g in proj._naming(h) if g != h and proj._includes_of(g, h, [])]
        if not ups and h != f:
            out.append(h)
        for g in ups:
            if g not in seen:
                seen.add(g)
                todo.append(g)
        if len(seen) > _MAX_INCLUDERS:
            return None
    return out or None


def kind(proj, r: Path, name: str) -> str | int | None:
    """How root `r` defines `name` for its unit: 'wave', the one integer all its definitions write, or
    None (no definition, differing values, or another file of its unit defines it too)."""
    from .wavebounds import _defines_per_wave, _defs
    pf, sc = proj.file(r), proj.scan(r, proj.options(r))
    if pf is None or any(name in sc.local.get(p, {}) for p in sc.order if p != r):
        return None
    if _defines_per_wave(pf.src, name):
        return "wave"
    vals = {warpflow.int_value(pf.src.text_of(d.child_by_field_name("value")).strip().strip("()"))
            if d.child_by_field_name("value") is not None else None for d in _defs(pf.src, name)}
    return vals.pop() if len(vals) == 1 and None not in vals else None


def kinds(proj, f: Path, name: str) -> set | None:
    try:
        rs = roots(proj, proj._real(f))
        return None if rs is None else {kind(proj, r, name) for r in rs}
    except (OSError, ValueError, RecursionError):
        return None


def add_visible(proj, path: Path, text: str, vis, header_macros: dict) -> None:
    """The names a header splits the thread index by (`% NAME`, `/ NAME`) and does not define itself,
    read at every includer of the run (see the module's doc)."""
    if Path(str(path)).suffix not in _HEADERS:
        return
    defined = None
    for name in dict.fromkeys(m.group(1) for m in _SPLIT_BY.finditer(text)):
        if name in header_macros or name in vis.wave_widths or name in vis.constants:
            continue
        if defined is None:  # the header's own #define names, read once (not a pattern per name)
            defined = frozenset(_DEFINE.findall(text))
        if name in defined:
            continue
        ks = kinds(proj, Path(str(path)), name)
        if not ks or not ks <= {"wave", 32}:
            continue
        if ks == {"wave"}:
            vis.wave_widths.add(name)
            continue
        mac = vis.macros.get(name)  # the first includer's definition, where it is included partway
        where = vis.where.get(name) if mac is not None else None
        at = (where[0], where[1], where[2]) if where else _a_definition(proj, Path(str(path)), name)
        if at is not None:
            header_macros[name] = (str(shown(Path(at[0]))), at[1], at[2], "32")


def _a_definition(proj, f: Path, name: str) -> tuple[str, int, int] | None:
    """(path, line, column) of a root's `#define name 32` (for the finding that names it)."""
    from .wavebounds import _defs
    for r in roots(proj, proj._real(f)) or ():
        pf = proj.file(r)
        for d in _defs(pf.src, name) if pf is not None else ():
            v = d.child_by_field_name("value")
            if v is not None and warpflow.int_value(pf.src.text_of(v).strip().strip("()")) == 32:
                return str(r), v.start_point[0] + 1, v.start_point[1] + 1
    return None
