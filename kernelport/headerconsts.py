"""File-scope integer constants of an included header, read by its includers like its macros.

HeCBench's rsmt keeps `static const int WS = 32;  // warp size` in utils.h and uses it for every
lane and warp index of main.cu; a header's `#define WS 32` already reaches the includer's analysis
through `Visible.macros` (kernelport.warpsites.macro_facts), its `const` did not, so lint saw an
unknown name.  Here a header's constants whose initializer is one integer literal become
object-like `Macro`s of the value (`Visible.constants`, with `Visible.where`): the analysis judges
their uses exactly as a header macro's, and WS001 names the definition.

Only unconditional definitions count: one under any `#if`/`#ifdef` may be the other platform's
branch (`#if defined(__GFX9__) ... #else static const int WS = 32;`), whose value the includer's
build may not see.  Constants inside functions, classes and initializers that are not one literal
(`2 * WS`) are left to the analysis of the file that defines them.
"""
from __future__ import annotations

from tree_sitter import Node

from .model import Macro

_QUALIFIERS = ("const", "constexpr")
_SCOPES_OUT = ("function_definition", "field_declaration_list", "compound_statement", "lambda_expression")
_BRANCHES = ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else", "preproc_elifdef")


def _unconditional(node: Node) -> bool:
    p = node.parent
    while p is not None:
        if p.type in _SCOPES_OUT or p.type in _BRANCHES:
            return False
        p = p.parent
    return True


def constants(src) -> dict[str, Macro]:
    """name -> Macro(name, the literal's text, the declaration, the literal) for each `const` or
    `constexpr` integer constant at file or namespace scope of `src` initialised by one literal."""
    out: dict[str, Macro] = {}
    for d in src.index.of_type("init_declarator"):
        decl, name, value = d.parent, d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if decl is None or decl.type != "declaration" or name is None or name.type != "identifier":
            continue
        if value is None or value.type != "number_literal":
            continue
        if not any(c.type == "type_qualifier" and src.text_of(c) in _QUALIFIERS for c in decl.children):
            continue
        if _unconditional(decl):
            out.setdefault(src.text_of(name), Macro(src.text_of(name), src.text_of(value), decl, value))
    return out


def defined_at(unit, name: str) -> tuple[str, int, int, str] | None:
    """(path, line, column, value) of a header definition `unit` sees of `name` (macro or constant),
    for a finding at its use to name it (kernelport.lint.units.Unit.visible)."""
    vis = getattr(unit, "visible", None)
    mac = None if vis is None else vis.macros.get(name) or vis.constants.get(name)
    if mac is None or name not in vis.where:
        return None
    from pathlib import Path
    from .lint.discovery import shown
    path, line, col = vis.where[name]
    return str(shown(Path(path))), line, col, mac.value
