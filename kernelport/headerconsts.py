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
build may not see; one under a test the ports settle (`#ifdef __CUDA_ARCH__`) is read as they compile
it (kernelport.lint.portedtests.header_definitions).  An include guard is such an `#if` too: reading
through it (stop 54, reverted) flagged labelled14's TransformerEngine look-alikes, the logical 32-lane
groups of its transpose tiles built from utils.cuh's guarded `THREADS_PER_WARP = 32`.  Constants
inside functions, classes and initializers that are not one literal (`2 * WS`) are left to the
analysis of the file that defines them.

The same concept for lint's log2 of the warp size (`#define HYPRE_WARP_BITSHIFT 5`, sphexa's
`struct GpuConfig { static constexpr int warpSizeLog2 = 5; }`) is here too: `header_log2` reads a
header's macro from what the project model holds (the active definition, `Visible.macros`, and the
module that defines it), and a class's static constant members with `static_members`, which
lint/warpconsts.py reads for the file's own classes as well (the model holds no class members).
"""
from __future__ import annotations

from tree_sitter import Node

from . import guards, lazy_re
from .model import Macro
from .reached import reached
from .source import uncomment
from .warpsites import WARP_SIZE_NAME, int_value

# A name for log2 of the warp size (`WARP_BITSHIFT`, `warpSizeLog2`, `kLog2WarpSize`).
LOG2_NAME = lazy_re.compile(r"(?i)(warp|wave(front)?)_?(size)?_?(log_?2?|(bit_?)?shift|bits|lg)$|"
                            r"(^|_)(k_?)?(log_?2?|lg)_?(warp|wave(front)?)_?(size)?$")
_CLASSES = ("translation_unit", "namespace_definition", "declaration_list", "struct_specifier", "class_specifier",
            "field_declaration_list", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "declaration")

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


def _literal_constants(src):
    """(name, declaration, literal) of each `const` or `constexpr` integer declared in `src` with one literal."""
    for d in src.index.of_type("init_declarator"):
        decl, name, value = d.parent, d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if decl is None or decl.type != "declaration" or name is None or name.type != "identifier":
            continue
        if value is None or value.type != "number_literal":
            continue
        if any(c.type == "type_qualifier" and src.text_of(c) in _QUALIFIERS for c in decl.children):
            yield src.text_of(name), decl, value


def constants(src) -> dict[str, Macro]:
    """name -> Macro(name, the literal's text, the declaration, the literal) for each `const` or
    `constexpr` integer constant at file or namespace scope of `src` initialised by one literal."""
    out: dict[str, Macro] = {}
    for name, decl, value in _literal_constants(src):
        if _unconditional(decl):
            out.setdefault(name, Macro(name, src.text_of(value), decl, value))
    return out


def conditional_constants(src) -> dict[str, list[tuple[Node, Node]]]:
    """name -> [(declaration, literal)] of the constants `constants` leaves for being under a conditional (at
    file or namespace scope), for a name with no unconditional definition: the conditions decide which one a
    build compiles (kernelport.lint.portedtests.header_definitions asks the ports')."""
    out: dict[str, list[tuple[Node, Node]]] = {}
    plain: set[str] = set()
    for name, decl, value in _literal_constants(src):
        if _unconditional(decl):
            plain.add(name)
        elif not any(a.type in _SCOPES_OUT for a in _ancestors(decl)):
            out.setdefault(name, []).append((decl, value))
    return {n: ds for n, ds in out.items() if n not in plain}


def wave_widths(src) -> set[str]:
    """Warp-size constants `src` defines per platform as that platform's wave width: hipDF's
    `cudf::detail::warp_size` is `{64}` under `#if defined(__HIP_PLATFORM_AMD__)` (`{32}` in a
    wave-32 build's `#else`) and `{32}` in the outer `#else`.  Each build sees the width of the
    wave it runs, so a use is the wave width itself, as `warpSize` is: lanes from `t % warp_size`
    run to 63 on AMD.  A name counts only where every definition is one literal 32 or 64, a 64 is
    compiled on an AMD pass, and every definition an NVIDIA pass compiles is 32."""
    found: dict[str, list[tuple[int | None, frozenset[str]]]] = {}
    for d in src.index.of_type("init_declarator"):
        decl, name, value = d.parent, d.child_by_field_name("declarator"), d.child_by_field_name("value")
        if decl is None or decl.type != "declaration" or name is None or name.type != "identifier" or \
                value is None or not WARP_SIZE_NAME.search(src.text_of(name)) or _unconditional(decl) or \
                any(a.type in _SCOPES_OUT for a in _ancestors(decl)):
            continue
        if value.type == "initializer_list" and len(value.named_children) == 1:
            value = value.named_children[0]  # `warp_size{64}`
        literal = int_value(src.text_of(value)) if value.type == "number_literal" else None
        found.setdefault(src.text_of(name), []).append((literal, guards.reach(decl, src)))
    return {name for name, defs in found.items()
            if all(v in (32, 64) for v, _ in defs) and any(v == 64 and on & guards.AMD for v, on in defs)
            and any(on & guards.NVIDIA for _, on in defs) and all(v == 32 for v, on in defs if on & guards.NVIDIA)}


def _ancestors(node: Node):
    p = node.parent
    while p is not None:
        yield p
        p = p.parent


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
        vis.wave_widths |= {name for name in proj._per_file("wave_widths", p, lambda f: wave_widths(f.src), set())
                            if name not in vis.macros and name not in vis.constants}


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


def static_members(src):
    """(class name, member name node, value) of `static const(expr) T name = <number>;` in the classes of `src`."""
    for node in reached(src, src.root, ("field_declaration",), _CLASSES):  # (the walk entering _CLASSES only)
        if node.parent is None or node.parent.type != "field_declaration_list":
            continue
        words = {src.text_of(c) for c in node.children if c.type in ("storage_class_specifier", "type_qualifier")}
        field, val = node.child_by_field_name("declarator"), node.child_by_field_name("default_value")
        spec = node.parent.parent
        owner = spec.child_by_field_name("name") if spec is not None else None
        if "static" in words and words & {"const", "constexpr"} and field is not None and \
                field.type == "field_identifier" and val is not None and val.type == "number_literal" and owner is not None:
            yield src.text_of(owner), field, val


def header_log2(vis, pinned: frozenset[str] = frozenset(), ported=None):
    """(name as uses spell it, its value node, the header's source) for each log2-of-the-warp-size
    constant of 5 the headers a file includes define (`vis`: its Visible), outside platform and
    architecture branches: a macro that is the active definition here, or a class's static member.
    `ported`: (header source, its model) -> the tests its ports settle (kernelport.lint.portedtests): a
    `#define WARP_BITSHIFT 5` under an `#ifdef __CUDA_ARCH__` the port respells is compiled on AMD's device
    pass, not NVIDIA's alone."""
    if vis is None or vis.elsewhere is None:
        return
    for mod in vis.elsewhere.modules():
        src = mod.source
        settled = ported(src, mod) if ported is not None else None
        found = []
        for name, mac in mod.macros.items():  # the model's macros of that header: active here, and a 5
            active = vis.macros.get(name)
            if active is not None and active.node == mac.node and mac.value_node is not None and \
                    LOG2_NAME.search(name) and int_value(uncomment(src.text_of(mac.value_node)).strip()) == 5 and \
                    guards.side_of(mac.node, src, pinned, ported=settled) is None:
                found.append((mac.node.start_byte, name, mac.value_node))
        for owner, field, val in static_members(src):
            name = src.text_of(field)
            if LOG2_NAME.search(name) and int_value(src.text_of(val)) == 5 and \
                    guards.side_of(val, src, pinned, ported=settled) is None:
                found.append((field.start_byte, f"{owner}::{name}", val))
        for _, name, val in sorted(found, key=lambda t: t[0]):
            yield name, val, src
