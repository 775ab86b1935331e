"""Soundness passes of the translator (issue 12): one warp width per warp-level group, no
self-assignment of a local that shadows the built-in, and translate linting its own output.

The rewrite rules and the condition under which each is sound: docs/soundness.md.
"""
from __future__ import annotations

import os
import re
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable

from tree_sitter import Node

from . import abslanes, annotated_votes, backends, blocksizes, device_switch_widths, host_wave_constants, includes, dialect, fnscopes, launchrows, macro_warp_math, lazy_re, renamed_ports, warpflow, warpwidth, wavebranches
from .diagnostics import Diagnostic
from .errors import Location
from .source import SourceFile, _Kept

if TYPE_CHECKING:
    from .translate import Port

SOURCE = backends.source().name
_FILE_SCOPE = ("translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif")


class Soundness:
    """Mixin of Translator: the passes that keep a port computing what the original computes."""
    # provided by Translator
    src: SourceFile
    backend: str
    rw: Any
    module: Any
    analysis: Any
    widths: warpwidth.Widths
    note: Callable[..., None]
    problem: Callable[..., bool]
    cuda_only_region: Callable[[Node], bool]

    def rewrite_lane_outputs(self) -> None:
        """A `%laneid` the kernel stores as data keeps the original's 32-lane numbers; one that meets the
        wave, or a literal the port makes the wave's, stored is KP235 (kernelport/laneoutputs.py)."""
        from .laneoutputs import check
        self.data_lanes: set[int] = set()  # asm statements whose lane id is the 32-lane warp's (rewrite_asm_idiom)
        check(self)
        from .logical_lanes import rewrite  # a logical group's `%laneid`: its 32-lane warp's lane
        rewrite(self)

    def rewrite_shadowed_builtins(self) -> None:
        """`int warpSize = 32;` as a local: the built-in's own value under CUDA.  The declaration goes
        (its uses then read the built-in, or 32 in a logical group); any other value is refused, as a
        port would otherwise read itself (`int warpSize = warpSize;`) or shadow the target's built-in."""
        names = {n for n, c in dialect._by_name(SOURCE).items() if c.key == "warp_size"}
        for f in self.module.functions.values():
            if not f.is_device:  # a host function's local (`int warpSize = prop.warpSize;`) shadows no device built-in
                continue
            for d in self.src.index.under(f.body, "declaration"):
                decls = d.children_by_field_name("declarator")
                if not any(warpflow.ident_name(x) in names for x in decls):
                    continue
                init = decls[0].child_by_field_name("value") if len(decls) == 1 else None
                value = self.src.text_of(init).strip() if init is not None else ""
                if init is not None and (warpflow.int_value(value) == 32 or value in names):
                    self.rw.replace(d, f"/* {' '.join(self.src.text_of(d).split())} (the built-in) */")
                    self.note(d, "/* ... */", "a local copy of the built-in warp width")
                else:
                    self.problem("KP221", d, f"a local named '{warpflow.ident_name(decls[0])}' shadows the built-in "
                                 "warp width with another value", "rename the local (e.g. kGroupWidth)")

    def drop_builtin_redeclarations(self) -> None:
        """`extern const dim3 blockDim;`, `extern __device__ void __syncthreads(void);` at file scope
        (ccminer's cuda_helper.h, for the host pass and an IDE): the target declares its built-ins
        itself, differently (hipcc: 'redeclaration of blockDim with a different type'), so a
        redeclaration compiled off NVIDIA goes from the port as a comment."""
        from .model import file_scope_items
        builtins = {n for n, c in dialect._by_name(SOURCE).items() if c.kind in ("index", "barrier")}
        for item in file_scope_items(self.src):
            decls = item.children_by_field_name("declarator") if item.type == "declaration" else []
            if decls and all(warpflow.ident_name(d) in builtins for d in decls) and not self.cuda_only_region(item):
                self.rw.replace(item, f"/* {' '.join(self.src.text_of(item).split())} (a CUDA built-in, declared by the target) */")
                self.note(item, "/* ... */", "a redeclaration of a CUDA built-in")

    def drop_target_overloads(self) -> None:
        """A file-scope definition of a device function the target declares itself with the same
        parameter types (softmax samples' CAS-loop `__device__ static float atomicMax(float*, float)`;
        hipcc: 'static declaration of atomicMax follows non-static declaration'): it goes from the port
        under `#if 0`, with a note, and its calls reach the target's, which means the same."""
        from .api_names import _parameter_types
        own, same = backends.get(self.backend).own_overloads, backends.get(self.backend).same_types
        for f in self.module.functions.values() if own else ():
            sig = _parameter_types(self.src, f.node) if f.body is not None and "::" not in f.name else None
            named = None if sig is None else \
                tuple(same.get(t.rstrip("*&"), t.rstrip("*&")) + t[len(t.rstrip("*&")):] for t in sig)  # the types
            if sig is None or (f.name, named) not in own or f.template_node is not None or \
                    f.node.parent is None or f.node.parent.type not in _FILE_SCOPE or self.cuda_only_region(f.node):
                continue
            name = backends.get(self.backend).display_name
            self.rw.replace(f.node, lambda rw, n, t=f"{f.name}({', '.join(sig)})":
                            f"#if 0  // kernelport: {name} declares {t} itself\n{rw.original(n)}\n#endif")
            self.note(f.node, "#if 0", f"{name} declares `{f.name}({', '.join(sig)})` itself: this definition "
                      "would redefine it, so its calls reach the target's")

    def cast_overloaded_arguments(self) -> None:
        """A call of a device function CUDA declares once and the target overloads (the backend's
        `argument_types`: `__ffsll`): each argument converted to CUDA's parameter type, `__ffsll((long
        long)(x))`, which is the conversion CUDA's call makes, so an argument of another type
        (`std::uint64_t`) picks the overload CUDA's meaning has, not an ambiguity hipcc refuses."""
        types = backends.get(self.backend).argument_types
        if not types:
            return
        from .fnscopes import callee_name
        from .source import call_args
        declared = self.declared_names()
        for call in self.src.index.of_type("call_expression"):
            fn = call.child_by_field_name("function")
            name = callee_name(fn)
            if name not in types or name in declared or self.cuda_only_region(call) or self.rw.text(fn) != name:
                continue  # (a callee the port renamed: a widened ballot's `__ffs` that became `__ffsll`)
            if self.rw.has(call):  # the API table's rename, to the same name: anything else is left as it is
                if self.rw.text(call) != self.src.text_of(call):
                    continue
                self.rw.remove(call)
            args = call_args(call)
            if len(args) != len(types[name]) or any(self.rw.has(a) for a in args):
                continue
            for a, t in zip(args, types[name]):
                self.rw.replace(a, lambda rw, n, t=t: f"({t})({rw.stitch(n)})")

    def cast_handle_arguments(self) -> None:
        """A cast to one of CUDA's handle types in the arguments of a texture or surface call, where the
        backend spells those types distinctly (its `handle_types`, `handle_calls`): cuOSD's
        `surf2Dread<T>((cudaTextureObject_t)p, x, y)` converts p to the one integer type CUDA's texture
        and surface objects share, so the port casts to the handle the call takes (hipSurfaceObject_t),
        where the type's own spelling would be a pointer to another struct, which hipcc refuses."""
        b = backends.get(self.backend)
        if not b.handle_calls or not any(t.encode() in self.src.data for t in b.handle_types):
            return
        from .fnscopes import callee_name
        from .source import call_args
        declared = self.declared_names()
        for call in self.src.index.of_type("call_expression"):
            name = callee_name(call.child_by_field_name("function"))
            want = b.handle_calls.get(name)
            if want is None or name in declared or self.cuda_only_region(call):
                continue
            for a in call_args(call):
                while a.type == "parenthesized_expression" and a.named_child_count == 1:
                    a = a.named_children[0]
                t = a.child_by_field_name("type") if a.type == "cast_expression" else None
                written = " ".join(self.src.text_of(t).split()) if t is not None else None
                if written not in b.handle_types or b.handle_types[written] == want:
                    continue
                self.rw.replace(t, want)
                self.note(t, want, f"CUDA's texture and surface objects are one integer type; {name} takes a {want} "
                          f"on {b.display_name}")

    def wave_sites(self) -> list[warpflow.Site]:
        """Confirmed sites of groups that mean the hardware wave; a logical 32-lane group keeps its 32s."""
        return [s for s in self.analysis.confirmed() if not self.widths.logical(s.function)]

    # A macro body translated on its own (macro_bodies.rewrite) names the file's warp-size macros, which its
    # wrapped text neither defines nor sees confirmed: the outer file's names, set by the body's caller.
    outer_wave_macros: frozenset[str] = frozenset()

    def wave_macros(self) -> set[str]:
        """Names of the warp-size macros the port makes the wave constant: defined here or a header's used here
        (and, in a macro body's port, the file's)."""
        return {self.src.text_of(s.node.parent.child_by_field_name("name")) if s.role == "ws_macro" else
                self.src.text_of(s.node) for s in self.wave_sites() if s.role in ("ws_macro", "ws_macro_use")} | \
            self.outer_wave_macros

    def wide_waves(self) -> bool:
        return any(r.wave > 32 for r in backends.get(self.backend).runs)

    def check_warp_widths(self) -> None:
        """KP219: groups whose width the launch geometry cannot decide, and votes over a logical
        32-lane group that may share a 64-lane wave with another group."""
        if not self.wide_waves():
            return  # every wave of this backend is 32 wide: both readings are the same code
        for node, message, hint in self.widths.problems:
            self.problem("KP219", node, message, hint)
        sited = {s.function for s in self.analysis.confirmed()}  # once, not once per group
        refused = {i.function for i in self.analysis.issues}
        for g in self.widths.groups:
            if not g.functions & self.analysis.warp_level and not g.votes and g.functions.isdisjoint(sited):
                continue  # no warp-level code: nothing depends on the width
            if not g.functions.isdisjoint(refused):
                continue  # already refused where it has no safe rewrite (KP207): one reason is enough
            where = g.votes[0] if g.votes else g.node
            if g.host:  # host code takes its kernels' width (launchgroups): they say it; the host only at its sites
                where = next((s.node for s in self.analysis.confirmed() if s.function in g.functions), None)
            if where is None or self.cuda_only_region(where):
                continue
            branch = next((b for n in (g.node, *g.votes) if n is not None and
                           (b := wavebranches.in_module(n, self.module)) is not None and b.width == 64), None)
            if branch is not None and g.width != warpwidth.NATIVE and g.votes and g.shares_wave:
                # the 32-lane evidence is the project's own wave-64 path, its votes the wave's: neither reading
                # (halfvotes' per-warp votes included, whose halves that path would split again) is sound
                self.problem("KP219", g.node or where, _in_branch(self.src, g, branch),
                             "port this group by hand: kernelport keeps a project's wave branches as written "
                             "only once it can check the code around them (not yet)")
                continue
            if g.width == warpwidth.UNDECIDED or (g.width == warpwidth.LOGICAL and g.votes and g.shares_wave and
                                                  not g.half_votes):  # (kernelport/halfvotes.py)
                if g.width == warpwidth.LOGICAL and g.annotated and g.votes:
                    self.problem("KP219", where, *annotated_votes.whole_wave(self.module, where))  # (the user said 32)
                    continue
                self.problem("KP219", where, f"cannot decide the warp width here: {g.why}",
                             "say what the code means above the kernel or helper: `// @kp warp-width 32` (a "
                             "logical 32-lane group) or `// @kp warp-width native` (the hardware wave), and "
                             "launch blocks of whole 64-lane waves for native")

    def check_runtime_wave_counts(self) -> None:
        """KP233 at a header helper's `blockDim.x / warpSize` whose includers may launch partial waves."""
        blocksizes.refuse_runtime_wave_counts(self)

    def check_macro_warp_math(self) -> None:
        """KP219 at a use of a macro whose body keeps a 32-lane index the port cannot follow (macro_warp_math)."""
        macro_warp_math.refuse_unfollowed_warp_math(self)

    def rewrite_host_wave_constants(self) -> None:
        """Host reads of a file-scope constant the port makes the wave width ask the device (host_wave_constants)."""
        host_wave_constants.rewrite(self)

    def rewrite_launch_rows(self) -> None:
        """Launches whose block rows the kernel ties to a warp width the port makes the wave (launchrows)."""
        launchrows.rewrite_launch_rows(self)
        device_switch_widths.check(self)  # (a stored host width the program reads after a device switch: KP244)

    def refused_group_mask(self, c: dialect.Concept, mask: Node | None, call: Node) -> bool:
        """A warp reduction or a match (sm_70's __match_any_sync, __match_all_sync) runs over every lane of its
        group in the port: with another mask than CUDA's full one it is refused (KP203), True."""
        if not (c.kind == "warp_reduce" or (c.kind == "cuda_only" and c.warp_level)):
            return False
        if mask is not None and (mask.start_byte, mask.end_byte) in self.full_masks():
            return False
        self.problem("KP203", mask or call, f"{self.src.text_of(call.child_by_field_name('function'))} is ported only "
                     "with CUDA's full mask (0xffffffff): the port runs it over every lane of its group",
                     "run it over the lanes of a full warp, or guard it with #ifdef __CUDA_ARCH__")
        return True

    def logical_width(self, concept: dialect.Concept, bound: dict[str, Node], use) -> str | None:
        """A shuffle of a logical 32-lane group without a width: spell the width CUDA means (32). A warp
        reduction's width is its group's: 32 there, else the wave (`warp_size`), as its full mask is."""
        group_wide = concept.kind in ("warp_reduce", "cuda_only") and "width" in concept.params  # a reduction, a match
        if concept.kind != "shuffle" and not group_wide:
            return None
        logical = "width" in concept.params and "width" not in bound and \
            self.widths.logical(fnscopes.owner(self.module, use.node))
        if concept.kind == "shuffle" and logical:
            return "32"
        if concept.key == "shfl" and "width" not in bound and abslanes.width(self, use.node) == "32":
            return "32"  # a plain lane of plain data: the thread's own 32-lane warp (abslanes)
        if group_wide:
            return "32" if logical else self.spell("warp_size")
        return None


# The path of a local include (`#include "bvh.h"`, in the port `#include "bvh.hip.h"`): the lint of a
# translation unit's text alone (translate's self-check of the original and of the port) resolves no
# local header, so a port that differs from its original only there has the original's findings (a
# header of the project whose includes are ported: most of a large tree's headers).
_LOCAL_INCLUDE = lazy_re.compile(rb'(?m)^([ \t]*#[ \t]*include[ \t]*)"[^"\n]*"')


def _errors_lint(text: str, path: str, lang: str | None = None, *, targets, parsed=None) -> list:
    """lint_text of the warp-size rules that can report an error for `targets` (Rule.severities): only
    their errors are compared (`_warp_codes`), so the others' rules and analyses are not run (Metal: 2 of 33)."""
    from .lint.engine import lint_text  # lint is heavy and only needed here
    from .lint.rule import error_codes
    codes = error_codes("WS", frozenset(targets))
    return lint_text(text, path, lang, targets=targets, select=codes, parsed=parsed) if codes else []


def _warp_codes(findings) -> dict[str, list]:
    out: dict[str, list] = {}
    for f in findings:
        if f.code.startswith("WS") and f.severity == "error":
            out.setdefault(f.code, []).append(f)
    return out


def plain_parse_of(parse: SourceFile, src: SourceFile) -> bool:
    """Whether `parse` is what lint of `src`'s text alone parses: `src` itself, or, where `src` was parsed through
    its includes' macros (a project's, kernelport/project.py), the plain parse of the same text and path kept
    beside it (ProjectFile.plain_src): SourceFile.from_text's inputs, text, path and no macros, are equal, so its
    parse is the one lint would make (from_text keeps parses by those inputs for the same reason)."""
    return parse is src or parse.text == src.text and parse.path == src.path and not parse.included_macros


class _Parsed:
    """The original as translate parsed it, for its lint: parsed once, its include-free model built
    and analysed once (for every backend of the run: the analysis does not depend on the targets)."""

    def __init__(self, src: SourceFile, model: tuple | None = None) -> None:
        if model is not None and model[0].source is not src and plain_parse_of(model[0].source, src):
            src = model[0].source  # the plain parse of `src`'s text the project kept (lint reads it, not `src`)
        self.src = src
        if model is not None:  # an include-free model of this text (translate's or the project's)
            self.__dict__["module"] = model[0]
            if model[1] is not None:  # and translate's analysis of it
                src.__dict__["_kp_plain_analysis"] = model
        elif "_kp_plain_analysis" in src.__dict__:  # another backend's lint of it built one
            self.__dict__["module"] = src.__dict__["_kp_plain_analysis"][0]

    @cached_property
    def module(self):
        from .model import plain
        return plain(self.src)  # (the parse's one include-free model: lint's context reads a copy of it)

    @cached_property
    def analysis(self):
        """warpflow's analysis of `module`, once per model (asked only where lint reads this parse)."""
        got = self.src.__dict__.get("_kp_plain_analysis")
        if got is None or got[0] is not self.module:
            got = self.src.__dict__["_kp_plain_analysis"] = (self.module, warpflow.analyze(self.module))
        return got[1]


_PORT_LINTS = _Kept(4 << 20)
_ORIGINAL_LINTS = _Kept(4 << 20)  # the originals' warp-size errors, by text, file and targets (see `_lint_path`)
_PROVENANCE = "SOURCE"  # the source a port's first lines name when its lint reads them (no path of the run)
# Lint's rules on a block size that is not a whole wave (kernelport/blocksizes.py): in the port and not
# in the original, the port's rewrite to the wave width is what needs whole waves (KP233, not a bug).
_BLOCK_GEOMETRY = frozenset({"WS015", "WS031"})
_GROUP_HELPERS = frozenset({"WS021"})  # a caller's 32-lane groups calling a helper the port made the wave's  # the warp-size errors of the ports' lints, by the port's text


def _without_provenance(text: str, header: str, backend: str) -> str:
    """`text` with its first lines, `header` (where the port comes from, how to make it again), in the
    words of a port of `_PROVENANCE`: the same lines, so lint's findings stand where they stand in
    `text`; `text` itself where it does not start so or the lines would not match."""
    if not header or not text.startswith(header):
        return text
    from . import templates
    fixed = templates.port_header(backend, _PROVENANCE, None)
    return fixed + text[len(header):] if fixed.count("\n") == header.count("\n") else text


def _lint_path(path: str) -> str:
    """The file a lint of a text under `path` reads (the files beside it: includers, a header's other
    includers' values): `path` from the working directory, which names it whether it is spelled relative
    or absolute.  A header is translated under both spellings in one run (as a file given on the
    command line, relative, and as the include of another file's project, resolved), and its lint is
    the same; a file's findings carry their path, but the self-check reads only their rule, line,
    column, span and message (which name other files by their resolved paths, never this one's)."""
    return path if os.path.isabs(path) else os.path.join(os.getcwd(), path)


def original_warp_errors(src: SourceFile, backend: str, model: tuple | None = None) -> dict[str, list]:
    """The original's warp-size errors by rule for the backend's lint targets, linted once per set of
    targets (hip and portable share theirs; translate's own pass and its self-check alike)."""
    targets = sorted({r.target for r in backends.get(backend).runs})
    cache = src.__dict__.setdefault("_kp_lint_cache", {})
    key = tuple(targets)
    if key not in cache:  # and once per text and file for the process: another parse of it (its path
        # spelled otherwise, or read through other macros) has the same lint
        shared = (src.text, _lint_path(src.path), key)
        got = _ORIGINAL_LINTS.get(shared)
        if got is None:
            got = _ORIGINAL_LINTS.put(shared, _warp_codes(_errors_lint(src.text, src.path, targets=targets,
                                                                       parsed=_Parsed(src, model))), len(src.text))
        cache[key] = got
    return cache[key]


def self_check(src: SourceFile, backend: str, port: Port, text: str, rw, allow_unported: bool = False, *,
               model: tuple | None = None, header: str = "", exact: list[tuple[int, int]] = (), widths=None,
               module=None, elsewhere=None) -> str:
    """Translate checks its own output: lint the port for its targets; a warp-size finding the
    original did not need (more of a rule's findings in the port than in the original) is a
    kernelport bug, and the port is not written (KP220).  A hazard of the original that the port
    keeps as written is KP225 (see `kept_hazards`).  Returns the port's text (marked where
    `allow_unported` keeps such a hazard).  `model`: translate's (module, analysis) of `src` where
    they are what lint builds (include-free, unchanged): the original is not analysed again.
    `header`: the port's first lines (templates.port_header), which lint reads as `_PROVENANCE`.  `exact`: the
    byte spans of functions the port keeps CUDA-exact where lint of the original sees a plain port's
    hazards (kernelport/halfvotes.py): their findings are not kept hazards."""
    targets = sorted({r.target for r in backends.get(backend).runs})
    before = original_warp_errors(src, backend, model)
    at = text.find(port.body) if port.body else -1
    if _LOCAL_INCLUDE.sub(b"", port.body.encode()) == _LOCAL_INCLUDE.sub(b"", src.data):
        after = before  # the same code, its local includes spelled as their ports: lint reads neither's headers
    elif at >= 0 and header and text.startswith(header) and \
            renamed_ports.alike(src, port.body, text[len(header):at], backend):
        after = before  # the same code under API renames lint reads as opaque names (kernelport/renamed_ports.py)
    else:  # a port that several runs of the process make alike (a header's, in the project of each
        # file that includes it) is linted once: lint of a text alone reads nothing but its arguments,
        # and the port's provenance lines (which name the command of the file that included it) are
        # no code: lint reads fixed ones in their place, on as many lines
        path = src.path + (backends.get(backend).extension or "")
        code = _without_provenance(text, header, backend)
        key = (code, _lint_path(path), backend, tuple(targets))
        after = _PORT_LINTS.get(key)
        if after is None:
            after = _PORT_LINTS.put(key, _warp_codes(_errors_lint(code, path, backend, targets=targets)),
                                    len(code))
    offset = text[:at].count("\n") if at >= 0 else 0
    alone = None
    for code, found in sorted(after.items()):  # errors: what the backend's own runs get wrong
        # (a finding on the prologue's own lines is the backend's helper, not a rewrite of the user's code:
        # kp_device_warp_size()'s fallback `width = 32` reached through a __host__ __device__ lane helper)
        found = [f for f in found if f.line > offset] if at >= 0 and offset else found
        if len(found) <= len(before.get(code, [])):
            continue
        if model is not None and src.path.lower().endswith(includes.HEADER_SUFFIXES):
            # a header's kernels take their blocks from the includers' launches (unit_launches), which the
            # original's lint read through translate's model and the port's, a text alone, cannot: no more
            # findings than the original's own lint alone is the port keeping what the original says alone
            if alone is None:
                alone = _warp_codes(_errors_lint(src.text, _lint_path(src.path), targets=targets))
            if len(found) <= len(alone.get(code, [])):
                continue
        f = found[len(before.get(code, []))] if code in before else found[0]
        line = max(f.line - offset, 1)
        if code in _BLOCK_GEOMETRY:  # the port made 32-lane code the wave's, for blocks that are not whole waves
            port.diagnostics.append(Diagnostic(
                "KP233", Location(src.path, line, 1),
                f"the {backend.upper()} port makes this kernel's 32-lane code the wave's, which is right only for "
                f"blocks of whole waves: {code} in the port ({f.message.split(':')[0]})",
                f"launch whole {max(r.wave for r in backends.get(backend).runs)}-lane waves (query the device's wave "
                "width on the host), or keep 32-lane groups "
                "explicitly (`// @kp warp-width 32`) where the kernel's code allows it"))
            continue
        if code in _GROUP_HELPERS:  # the port widened a helper that a caller's 32-lane groups call: no safe reading
            port.diagnostics.append(Diagnostic(
                "KP219", Location(src.path, line, 1),
                f"cannot decide the warp width here: the {backend.upper()} port would make a helper's lanes the "
                f"wave's where its caller keeps groups of 32 ({f.message.split(':')[0]})",
                "mark the helper `// @kp warp-width 32` (a logical 32-lane group: its full-mask votes then run over "
                "each CUDA warp), or size the caller's groups by `warpSize`"))
            continue
        port.diagnostics.append(Diagnostic(
            "KP220", Location(src.path, line, 1),
            f"internal consistency: the {backend.upper()} port would have {code} near this line that the "
            f"original does not ({f.message.split(':')[0]}); kernelport did not write it",
            "this is a kernelport bug: please report it with this file; `kernelport lint` on the port shows it"))
    if not port.ok:
        return text
    from .kept_hazards import kept_hazards
    if exact:
        before = {c: [f for f in fs if f.span is None or not any(a <= f.span[0] < b for a, b in exact)]
                  for c, fs in before.items()}
    return kept_hazards(src, backend, port, text, before, offset, rw, allow_unported, after=after, module=module,
                        widths=widths, elsewhere=elsewhere)  # (translate's: a launch in 32s for kernels it keeps at 32 lanes)


def _in_branch(src, g, branch) -> str:
    """KP219's reason where its evidence sits in a wave branch the project wrote for 64 lanes."""
    cond = branch.directive.child_by_field_name("condition")
    return (f"cannot decide the warp width here: {g.why.split(' with votes')[0]}, inside the project's own wave "
            f"branch `#if {src.text_of(cond).strip()}` (line {src.loc(branch.directive).line}), written for a "
            f"64-lane wave; kept as written, with `{branch.selector}` made the wave, it needs the code outside "
            "the branches, which both widths compile, to agree with its 32-lane halves (per-32 counts and rows "
            "outside it), which kernelport does not check: a wrong port at wave 64 is worse than this refusal")
