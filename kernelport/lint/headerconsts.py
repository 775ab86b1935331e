"""Log2-of-the-warp-size constants an included header hardcodes as 5, read in this file's warp code.

lint/warpconsts.py reports `#define HYPRE_WARP_BITSHIFT 5` or `struct GpuConfig { static constexpr int
warpSizeLog2 = 5; }` where the file that defines it uses it in warp-level code.  A project header
often holds only the constant (sphexa's `ryoanji/types.h`), and its uses are in the files that
include it (`warpscan.h`'s `for (int i = 0; i < GpuConfig::warpSizeLog2; i++) v = min(v,
__shfl_xor_sync(m, v, 1 << i))`: 5 xor steps reduce 32 of a 64-lane wave's lanes).  Linted alone, the
header has no use to judge by; linted with its includer, the use is visible.  So the includer reports
it (WS001) at its first use in warp-level code, naming the header's definition as the related
location: the line a fix changes.  The same tests as for a constant of the file's own apply (a use in
a function with warp-level operations or in a lane, warp or warp-count helper; none in a platform or
architecture branch; advice where every such use is in 32-lane rows that compute the same at 64).
"""
from __future__ import annotations

from pathlib import Path

from tree_sitter import Node

from .. import guards, warpflow
from ..source import uncomment, walk
from .discovery import shown
from .finding import Related


def _header_log2(ctx):
    """(name as uses spell it, its value node, the header's source) for each log2-of-the-warp-size
    constant of 5 an included header defines: a macro active here, or a class's static member."""
    from .warpconsts import _CLASSES, LOG2_NAME
    vis = ctx.module.visible
    if vis is None or vis.elsewhere is None:
        return
    for mod in vis.elsewhere.modules():
        src = mod.source
        for node in walk(src.root, lambda n: n.type in _CLASSES or n.type == "preproc_def"):
            if guards.side_of(node, src, ctx.pinned_on_amd) is not None:
                continue
            if node.type == "preproc_def":
                name_n, val = node.child_by_field_name("name"), node.child_by_field_name("value")
                name = src.text_of(name_n) if name_n is not None else ""
                active = vis.macros.get(name)
                if val is not None and LOG2_NAME.search(name) and active is not None and active.node == node and \
                        warpflow.int_value(uncomment(src.text_of(val)).strip()) == 5:
                    yield name, val, src
            elif node.type == "field_declaration" and node.parent is not None and \
                    node.parent.type == "field_declaration_list":
                words = {src.text_of(c) for c in node.children if c.type in ("storage_class_specifier", "type_qualifier")}
                field, val = node.child_by_field_name("declarator"), node.child_by_field_name("default_value")
                spec = node.parent.parent
                owner = spec.child_by_field_name("name") if spec is not None else None
                if "static" in words and words & {"const", "constexpr"} and field is not None and owner is not None \
                        and field.type == "field_identifier" and val is not None and val.type == "number_literal" \
                        and LOG2_NAME.search(src.text_of(field)) and warpflow.int_value(src.text_of(val)) == 5:
                    yield f"{src.text_of(owner)}::{src.text_of(field)}", val, src


def _uses(ctx, name: str) -> list[Node]:
    if "::" in name:
        owner, member = name.rsplit("::", 1)
        from .warpconsts import _qualified_uses
        return list(_qualified_uses(ctx, owner, member))
    return [n for n in ctx.nodes("identifier") if ctx.text(n) == name and n.parent is not None
            and n.parent.type != "preproc_def"]


def check(rule, ctx, own: set[str]) -> None:
    """WS001 at this file's first warp-level use of each such header constant (`own`: the names the
    file defines itself, reported by warpconsts)."""
    from . import rowsplits
    from .warpconsts import _in_warp_code
    seen: set[str] = set()
    for name, val, src in _header_log2(ctx):
        if name in own or name in seen:
            continue
        seen.add(name)
        uses = [u for u in _uses(ctx, name) if not ctx.guarded(u)]
        warp = [u for u in uses if _in_warp_code(ctx, u)]
        if not warp:
            continue
        line, col = val.start_point[0] + 1, val.start_point[1] + 1
        where = Related(str(shown(Path(str(src.path)))), line, col, f"`{name}` hardcoded as 5 here")
        related = (where,) + tuple(ctx.related(u, f"use of {name}") for u in warp[1:8])
        header = Path(str(src.path)).name
        rows = rowsplits.advise_uses(ctx, rule.code, warp)
        if rows is not None:
            ctx.report(rule, warp[0], f"`{name}` ({header}:{line}) hardcodes log2 of the warp size as 5; {rows}",
                       severity="info", related=related)
            continue
        ctx.report(rule, warp[0], f"`{name}` ({header}:{line}) hardcodes log2 of the warp size as 5: this "
                   f"warp-level use assumes 32-lane warps, which is wrong {ctx.breaks}; use log2 of a "
                   f"per-architecture wave constant (6 under `__GFX9__`, else 5) in {header}", related=related)
