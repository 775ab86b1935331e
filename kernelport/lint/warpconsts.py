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

Each is reported at its value, with its qualified uses as related locations; silent when it sits
in a platform or architecture branch, when a source file (not a header) never uses it, or when
every use is in a kernel whose 32-lane rows compute the same at 64 (advice then: lint/rowsplits.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from .. import warpflow
from ..source import uncomment, walk
from ..warpsites import LANE_HELPER_NAME
from . import headerconsts, rowsplits
from .. import lazy_re

LOG2_NAME = lazy_re.compile(r"(?i)(warp|wave(front)?)_?(size)?_?(log_?2?|(bit_?)?shift|bits|lg)$|"
                            r"(^|_)(k_?)?(log_?2?|lg)_?(warp|wave(front)?)_?(size)?$")
_HEADERS = (".h", ".hpp", ".cuh", ".hh", ".inl")
_HELPER = lazy_re.compile(LANE_HELPER_NAME.pattern + r"|(^|_)(get_?)?(num_?warps|warp_?count|n_?warps)$")
_CLASSES = ("translation_unit", "namespace_definition", "declaration_list", "struct_specifier", "class_specifier",
            "field_declaration_list", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "declaration")


@dataclass(frozen=True)
class NamedConstant:
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
            out.append(NamedConstant(f"{owner}::{name}", val, not size, tuple(_qualified_uses(ctx, owner, name))))
    return out


def check(rule, ctx) -> None:
    """WS001's findings for these constants."""
    header = ctx.path.endswith(_HEADERS)
    own = constants(ctx)
    headerconsts.check(rule, ctx, {c.name for c in own})  # an included header's, used here
    for c in own:
        if not c.uses and not header:
            continue  # unused in a source file (a header's uses are in the files that include it)
        if c.log2 and not any(_in_warp_code(ctx, u) for u in c.uses):
            continue  # a shift of 5 also lays out 32-thread groups that need no wave (shared-memory histograms)
        what = "log2 of the warp size as 5" if c.log2 else "the warp size as 32"
        related = tuple(ctx.related(u, f"use of {c.name}") for u in c.uses[:8])
        rows = rowsplits.advise_uses(ctx, rule.code, list(c.uses))
        if rows is not None:
            ctx.report(rule, c.value, f"`{c.name}` hardcodes {what}; {rows}", severity="info", related=related)
            continue
        used = (f"its {len(c.uses)} uses assume" if len(c.uses) > 1 else "its use assumes") if c.uses else "it assumes"
        fix = "log2 of a per-architecture wave constant (6 under `__GFX9__`, else 5)" if c.log2 else \
            f"{ctx.wave} at run time and a per-architecture constant (64 under `__GFX9__`, else 32) where a " \
            f"constant expression is needed"
        ctx.report(rule, c.value, f"`{c.name}` hardcodes {what}: {used} 32-lane warps, which is wrong {ctx.breaks}; "
                   f"use {fix}", related=related)


def _in_warp_code(ctx, use: Node) -> bool:
    """In a function with warp-level operations, or in a helper named for the lane, warp or warp count."""
    f = ctx.function_at(use)
    return f is not None and (ctx.key(f) in ctx.warp_level or bool(_HELPER.search(f.name.split("::")[-1])))


def _static_members(ctx):
    """(class name, member name node, value) of `static const(expr) T name = <number>;` in classes."""
    for node in walk(ctx.src.root, lambda n: n.type in _CLASSES):
        if node.type != "field_declaration" or node.parent is None or node.parent.type != "field_declaration_list":
            continue
        words = {ctx.text(c) for c in node.children if c.type in ("storage_class_specifier", "type_qualifier")}
        field, val = node.child_by_field_name("declarator"), node.child_by_field_name("default_value")
        spec = node.parent.parent
        owner = spec.child_by_field_name("name") if spec is not None else None
        if "static" in words and words & {"const", "constexpr"} and field is not None and \
                field.type == "field_identifier" and val is not None and val.type == "number_literal" and owner is not None:
            yield ctx.text(owner), field, val


def _qualified_uses(ctx, owner: str, name: str):
    for q in ctx.nodes("qualified_identifier"):
        scope, nm = q.child_by_field_name("scope"), q.child_by_field_name("name")
        if scope is not None and nm is not None and ctx.text(nm) == name and ctx.text(scope).split("<")[0] == owner:
            yield q
