"""File-scope integer constants of an included header, read by its includers like its macros.

HeCBench's rsmt keeps `static const int WS = 32;  // warp size` in utils.h and uses it for every
lane and warp index of main.cu; a header's `#define WS 32` already reaches the includer's analysis
through `Visible.macros` (kernelport.warpsites.macro_facts), its `const` did not, so lint saw an
unknown name.  Here, for lint, a header's constants whose initializer is one integer literal become
object-like `Macro`s of the value (`Visible.constants`, with `Visible.where`): the analysis judges
their uses exactly as a header macro's, and WS001 names the definition.  Translate does not read
them yet: it rewrites a header macro's definition in the header's port, and has no such rewrite for
a constant, so a port that moved the host's uses to the wave would leave the device's at 32.

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


def add_visible(proj, path, opts, vis) -> None:
    """The constants of the headers `path` includes into `vis` (lint's view of them: translate does
    not rewrite a header's constant as it does a header's macro, so its ports keep reading `vis`
    without them, kernelport.lint.units.with_includes)."""
    root = proj._real(path)
    for p in proj.scan(root, opts).order:
        if p == root:
            continue
        for name, c in proj._per_file("constants", p, lambda f: constants(f.src), {}).items():
            if name not in vis.macros and name not in vis.constants:
                vis.constants[name], vis.where[name] = c, proj._where(p, c)


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


def port_note(unit, name: str) -> str:
    """What translate does with a header's definition that a finding at its use names."""
    vis = getattr(unit, "visible", None)
    if vis is not None and name in vis.constants and name not in vis.macros:
        return "a header's constant: translate leaves its definition as it is, change it there"
    return "translate rewrites it in the header's port"
