"""Warp-size constants WS001 finds beside its macros and file-scope constants (tests/labelled9):

- a class's static constant member named for the warp size (sphexa's `struct GpuConfig { static
  constexpr int warpSize = 32; }`, read as `GpuConfig::warpSize`): a project's own constant, 32 for
  every build, however the member is spelled (even `warpSize`, the built-in's name: it is the
  class's, not the built-in, so it is never added to the file's warp-size names);
- log2 of the warp size hardcoded as 5, as a macro or such a member (hypre's `#define
  HYPRE_WARP_BITSHIFT 5`, sphexa's `warpSizeLog2 = 5`): warp ids `tid >> 5` and ladders of 5
  steps, which split a 64-lane wave in two; reported where a use is in warp-level code or in a
  lane, warp or warp-count helper (a shift of 5 that lays out 32-thread groups of a shared-memory
  histogram needs no wave: CUDA samples' `LOG2_WARP_SIZE`).

A constant not named for the warp whose 32 the dataflow confirmed (ECL-GC's `static const int WS =
32;  // warp size and bits per int`) is named, with the uses where it makes a lane or warp index that a
warp-level use reads (`carrying_uses`), for WS001's finding at its value.

Each is reported at its value, with its qualified uses as related locations (a macro use that pastes the member's
name, `CFG(WARP)` of `#define CFG(n) (TileCfg::n##_SIZE)`, is one: `_pasted_uses`); silent when it sits
in a platform or architecture branch, when a source file (not a header) never uses it, or when
every use is in a kernel whose 32-lane rows compute the same at 64 (advice then: lint/rowsplits.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node

from .. import headerconsts, warpflow
from ..headerconsts import LOG2_NAME
from ..source import uncomment
from ..warpsites import LANE_HELPER_NAME
from . import rowsplits
from .discovery import shown
from .finding import Related
from .. import lazy_re

_PASTE = lazy_re.compile(r"\w+(?:\s*##\s*\w+)+")  # a chain of pasted pieces in a macro body
_HEADERS = (".h", ".hpp", ".cuh", ".hh", ".inl")
_HELPER = lazy_re.compile(LANE_HELPER_NAME.pattern + r"|(^|_)(get_?)?(num_?warps|warp_?count|n_?warps)$")


@dataclass(frozen=True)
class NamedConstant:
    """A named warp-size constant and its uses."""
    name: str  # as its uses spell it: `GpuConfig::warpSize`, `HYPRE_WARP_BITSHIFT`
    value: Node  # the number literal
    log2: bool  # log2 of the warp size (5) rather than the size (32)
    uses: tuple[Node, ...]


def constants(ctx) -> list[NamedConstant]:
    """Static constant members named for the warp size (32) or its log2 (5), and log2 macros (5)."""
    out: list[NamedConstant] = []
    portable = ctx.settings.portable_macros
    for node in ctx.nodes("preproc_def"):
        name_n, val = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name_n is None or val is None or ctx.text(name_n) in portable or not LOG2_NAME.search(ctx.text(name_n)):
            continue
        if warpflow.int_value(uncomment(ctx.text(val)).strip()) == 5 and not ctx.guarded(node):
            name = ctx.text(name_n)
            uses = tuple(n for n in ctx.nodes("identifier") if ctx.text(n) == name and n.parent is not None
                         and n.parent.type != "preproc_def")
            out.append(NamedConstant(name, val, True, uses))
    for owner, field, val in _static_members(ctx):
        name = ctx.text(field)
        size = warpflow.WARP_SIZE_NAME.search(name) or name == "warpSize"
        v = warpflow.int_value(ctx.text(val))
        if (size and v == 32 or LOG2_NAME.search(name) and v == 5) and not ctx.guarded(val):
            uses = [*_qualified_uses(ctx, owner, name), *_pasted_uses(ctx, owner, name)]
            out.append(NamedConstant(f"{owner}::{name}", val, not size, tuple(sorted(uses, key=lambda n: n.start_byte))))
    return out


def check(rule, ctx) -> None:
    """WS001's findings for these constants."""
    header = ctx.path.endswith(_HEADERS)
    own = constants(ctx)
    _header_log2(rule, ctx, {c.name for c in own})  # an included header's, used here
    for c in own:
        if not c.uses and not header:
            continue  # unused in a source file (a header's uses are in the files that include it)
        if c.log2 and not any(_in_warp_code(ctx, u) for u in c.uses):
            continue  # a shift of 5 also lays out 32-thread groups that need no wave (shared-memory histograms)
        what = "log2 of the warp size as 5" if c.log2 else "the warp size as 32"
        related = tuple(ctx.related(u, f"use of {c.name}", site=True) for u in c.uses[:8])
        rows = rowsplits.advise_uses(ctx, rule.code, list(c.uses))
        if rows is not None:
            ctx.report(rule, c.value, f"`{c.name}` hardcodes {what}; {rows}", severity="info", related=related)
            continue
        used = (f"its {len(c.uses)} uses assume" if len(c.uses) > 1 else "its use assumes") if c.uses else "it assumes"
        fix = "log2 of a per-architecture wave constant (6 under `__GFX9__`, else 5)" if c.log2 else \
            f"{ctx.wave} at run time and a per-architecture constant (64 under `__GFX9__`, else 32) where a " \
            f"constant expression is needed"
        ctx.report(rule, c.value, f"`{c.name}` hardcodes {what}: {used} 32-lane warps, which is wrong {ctx.breaks}; "
                   f"use {fix}", related=related,
                   subject=None if c.uses else c.name)  # a header's, used elsewhere (lint/headeruses.py)


def _in_warp_code(ctx, use: Node) -> bool:
    """In a function with warp-level operations, or in a helper named for the lane, warp or warp count."""
    f = ctx.function_at(use)
    return f is not None and (ctx.key(f) in ctx.warp_level or bool(_HELPER.search(f.name.split("::")[-1])))


def _static_members(ctx):
    """(class name, member name node, value) of `static const(expr) T name = <number>;` in classes."""
    return headerconsts.static_members(ctx.src)


def _qualified_uses(ctx, owner: str, name: str):
    for q in ctx.nodes("qualified_identifier"):
        scope, nm = q.child_by_field_name("scope"), q.child_by_field_name("name")
        if scope is not None and nm is not None and ctx.text(nm) == name and ctx.text(scope).split("<")[0] == owner:
            yield q


def _pasted_uses(ctx, owner: str, name: str) -> list[Node]:
    """The uses of a function-like macro of the file that paste the member's name from their arguments
    (`#define CFG(n) (TileCfg::n##_SIZE)` used as `CFG(WARP)`, `#define CAT(a, b) a ## b` as
    `TileCfg::CAT(WARP_, SIZE)`): each pasted chain of the body, its parameters replaced by the use's arguments,
    spells `name`, and the body or the use's own qualifier names `owner`.  A use that pastes another name
    (`CFG(BLOCK)`) is none."""
    macros = {}
    for d in ctx.nodes("preproc_function_def"):
        nm, params, value = (d.child_by_field_name(k) for k in ("name", "parameters", "value"))
        if nm is not None and params is not None and value is not None and "##" in ctx.text(value):
            names = [ctx.text(c) for c in params.named_children if c.type == "identifier"]
            macros[ctx.text(nm)] = (names, ctx.text(value))
    out: list[Node] = []
    for call in ctx.nodes("call_expression") if macros else ():
        fn = call.child_by_field_name("function")
        text = ctx.text(fn) if fn is not None else ""
        got = macros.get(text.rsplit("::", 1)[-1].strip())
        args = call.child_by_field_name("arguments")
        if got is None or args is None:
            continue
        params, body = got
        given = [ctx.text(a).strip() for a in args.named_children if a.type != "comment"]
        if len(given) != len(params):
            continue
        bind = dict(zip(params, given))
        for chain in _PASTE.finditer(body):
            spelled = "".join(bind.get(p, p) for p in re.split(r"\s*##\s*", chain.group(0)))
            if spelled == name and (re.search(rf"\b{re.escape(owner)}\s*::", body) or
                                    re.search(rf"\b{re.escape(owner)}\s*::", text)):
                out.append(call)
                break
    return out


def _header_log2(rule, ctx, own: set[str]) -> None:
    """WS001 at this file's first warp-level use of each log2-of-the-warp-size constant of 5 an
    included header defines (`own`: the names the file defines itself, reported above).

    A project header often holds only the constant (sphexa's `ryoanji/types.h`), and its uses are in
    the files that include it (`warpscan.h`'s `for (int i = 0; i < GpuConfig::warpSizeLog2; i++) v =
    min(v, __shfl_xor_sync(m, v, 1 << i))`: 5 xor steps reduce 32 of a 64-lane wave's lanes).  Linted
    alone, the header has no use to judge by; linted with its includer, the use is visible, and the
    header's definition is the related location: the line a fix changes.  The same tests as for a
    constant of the file's own apply."""
    seen: set[str] = set()
    ported = lambda src, mod: ctx.ported_in(src, mod, ctx.unit_defines.values)  # noqa: E731
    for name, val, src in headerconsts.header_log2(ctx.module.visible, ctx.pinned_on_amd, ported):
        if name in own or name in seen:
            continue
        seen.add(name)
        uses = [u for u in _header_uses(ctx, name) if not ctx.guarded(u)]
        warp = [u for u in uses if _in_warp_code(ctx, u)]
        if not warp:
            continue
        line, col = val.start_point[0] + 1, val.start_point[1] + 1
        where = Related(str(shown(Path(str(src.path)))), line, col, f"`{name}` hardcoded as 5 here", "site")
        related = (where,) + tuple(ctx.related(u, f"use of {name}", site=True) for u in warp[1:8])
        header = Path(str(src.path)).name
        rows = rowsplits.advise_uses(ctx, rule.code, warp)
        if rows is not None:
            ctx.report(rule, warp[0], f"`{name}` ({header}:{line}) hardcodes log2 of the warp size as 5; {rows}",
                       severity="info", related=related)
            continue
        ctx.report(rule, warp[0], f"`{name}` ({header}:{line}) hardcodes log2 of the warp size as 5: this "
                   f"warp-level use assumes 32-lane warps, which is wrong {ctx.breaks}; use log2 of a "
                   f"per-architecture wave constant (6 under `__GFX9__`, else 5) in {header}", related=related)


def _header_uses(ctx, name: str) -> list[Node]:
    if "::" in name:
        owner, member = name.rsplit("::", 1)
        return list(_qualified_uses(ctx, owner, member))
    return [n for n in ctx.nodes("identifier") if ctx.text(n) == name and n.parent is not None
            and n.parent.type != "preproc_def"]


def constant_name(value: Node) -> str | None:
    """The name a constant's initializer is bound to (`static const int WS = 32;`: WS)."""
    d = value.parent
    if d is None or d.type != "init_declarator":
        return None
    n = d.child_by_field_name("declarator")
    return n.text.decode() if n is not None and n.type == "identifier" else None


def carrying_uses(ctx, s, name: str) -> list[Node]:
    """The uses of the constant `name` (the value of site `s`) where the dataflow made a lane or warp
    index of it (`lane = threadIdx.x % WS`: warpflow's derivations) that a warp-level use which
    confirmed `s` reads (`who == lane`): where the 32 becomes the hazard, when the constant's other
    uses are not about lanes (ECL-GC's `WS` is the warp and the bits of a colour word too)."""
    sinks = ctx.analysis.sinks.get(s.id, ())
    out = []
    for d in ctx.analysis.derivations.get(s.id, ()):
        u = next((i for i in ctx.src.index.under(d, "identifier") if ctx.text(i) == name), None)
        if u is None:
            continue  # the literal itself (`tid % 32`): the site's own finding is on it
        held = _held_by(ctx, d)
        f = ctx.function_at(d)
        for k in sinks:
            if ctx.function_at(k) is not f:
                continue
            if (k.start_byte <= d.start_byte and d.end_byte <= k.end_byte) or \
                    (held is not None and any(ctx.text(i) == held for i in ctx.src.index.under(k, "identifier"))):
                out.append(u)
                break
    return sorted(out, key=lambda n: n.start_byte)


def _held_by(ctx, e: Node) -> str | None:
    """The variable an expression's value is stored in (`int lane = e;`, `lane = e;`)."""
    p = e.parent
    while p is not None and p.type in ("parenthesized_expression", "cast_expression"):
        e, p = p, p.parent
    if p is not None and p.type == "init_declarator" and p.child_by_field_name("value") == e:
        d = p.child_by_field_name("declarator")
        return ctx.text(d) if d is not None and d.type == "identifier" else None
    if p is not None and p.type == "assignment_expression" and p.child_by_field_name("right") == e:
        left = p.child_by_field_name("left")
        return ctx.text(left) if left is not None and left.type == "identifier" else None
    return None
