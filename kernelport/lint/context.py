"""One file as the rules see it: source, kernel model, warp-size dataflow, positions, settings."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Callable

from tree_sitter import Node

from .. import backends, dialect, fnscopes, warpflow, wavebranches
from ..model import Function, Module, Visible, build, with_header_launches
from ..project import needs_macros
from ..reached import reached
from ..source import SourceFile, uncomment
from .. import guards
from .finding import Finding, Fix, Related
from . import portedtests, rowsplits, unseen_launches, widthguards
from .rule import Rule
from .. import lazy_re



# rules whose hazard is not a 32-lane assumption (a 32-bit mask HIP rejects at any width, warpSize in a
# constant expression, a 64 assumed on AMD): a wave branch compiled only at 32 lanes keeps them
_ANY_WIDTH = ("WS007", "WS013", "WS014")


@dataclass
class Settings:
    """What a lint run asks of each file: targets, rules and include options."""
    targets: frozenset[str]
    enabled: frozenset[str]
    portable_macros: frozenset[str] = frozenset()
    includes: object = None  # kernelport.project.Options: the file's include path and defines


@dataclass
class Unit:
    """Text to analyse and where its bytes live in the user's file."""
    path: str  # as displayed
    lang: str  # the backend whose dialect the file is in (CUDA in Python strings: the source's)
    text: str  # analysed text (CUDA-shaped; a backend's `lint_reader` shims its text)
    locate: Callable[[int], tuple[int, int]] | None = None  # analysed byte offset -> (line, col) in the file
    fixable: bool = True  # the analysed text is the file's text (not a shim or an embedded string)
    header_macros: dict[str, tuple[str, int, int, str]] = field(default_factory=dict)  # name -> (path, line, col, value)
    visible: Visible | None = None  # what its includes define (kernelport.project)
    inactive: frozenset[str] = frozenset()  # its own macros the run's defines rule out
    active: dict = field(default_factory=dict)  # its own macros' definitions in the branches the run takes
    macros: dict = field(default_factory=dict)  # MacroDefs from its includes and -D (the macro-aware parse)
    include_error: str | None = None  # why what its includes define could not be read (an internal error)
    reached_files: tuple = ()  # the other files its include walk read (headers, an includer's context): lint.triggers scans them
    parsed: object = None  # the project's ProjectFile of this text: its parse and model, made once per run
    walked_header: bool = False  # a header the directory walk found, not named on the command line (uncalledptx)


@dataclass
class HardcodedMacro:
    """A macro that hard-codes the warp size, and where its value is."""
    name: str
    value: str
    where: tuple[str, int, int]  # path, line, column of the value
    node: Node | None  # the value node when defined in this file


class AnalysisFailed(Exception):
    """Warpflow failed on a unit (its cause is the error): the engine reports it for the file, not per rule."""


class Context:
    def __init__(self, unit: Unit, settings: Settings):
        self.unit = unit
        self.path = unit.path
        self.lang = unit.lang
        self.settings = settings
        self.enabled = settings.enabled
        own = backends.get(unit.lang).lint_targets  # the platforms a file of this language is for
        self.targets = (settings.targets & own) or own
        shared = unit.parsed  # the project parsed this text already (a --fix re-lint has other text)
        if shared is not None and (shared.src.text != unit.text or shared.src.included_macros):
            shared = None
        self.src = shared.src.named(unit.path) if shared is not None else SourceFile.from_text(unit.text, unit.path)
        if needs_macros(self.src, unit.macros):  # parse again through the macros its includes define
            self.src = SourceFile.from_text(unit.text, unit.path, macros=unit.macros)
            shared = None
        self.findings: list[Finding] = []
        # past depth.MAX_DEPTH levels nothing is analysed (the analyses recurse): lint_unit reports it
        self.too_deep = self.src.nesting_error()
        self._given = None  # translate's analysis of this model, where it made one (`analysis`)
        if self.too_deep is None:
            self.module: Module = build(self.src) if shared is None else shared.module.copy(self.src)
            if unit.visible is not None:
                self.module.visible = unit.visible
                self.module.launches = with_header_launches(self.module)
                for name in unit.inactive:
                    self.module.macros.pop(name, None)
                self._active_macros(unit.active)
                portedtests.header_definitions(self.module.visible, lambda src, mod: self.ported_in(
                    src, mod, self.unit_defines.values), self.unit_defines)  # its headers as the ports compile them
            moved = self._ported_macros()
            self._given = getattr(shared, "analysis", None) if shared is not None and unit.visible is None and not moved \
                else None  # (translate's, of this model)

    @cached_property
    def analysis(self) -> warpflow.Analysis:
        """Warpflow's analysis of the model, made on the first read: a unit whose selected rules read none of it
        (lint.triggers: a rule its unit does not trigger runs not at all) never pays for it.  Its failure is the
        file's, as when it was made with the context (lint_unit: one KP006 for the analysis, no rule's)."""
        if self._given is not None:
            return self._given
        try:
            return warpflow.analyze(self.module, lint=True)
        except Exception as e:
            raise AnalysisFailed(str(e)) from e

    def _ported_macros(self) -> bool:
        """Its own macros defined per branch of a test the ports settle, as the definition they compile on AMD's
        device pass (portedtests.ported_definitions: `#ifdef __CUDA_ARCH__` / `#define LANES 32` / `#else` /
        `#define LANES 1` is 32 there, where the model and the run's walk keep the host's 1).  Whether any moved."""
        from ..model import Macro
        got = portedtests.ported_definitions(self.src, self.module.macros, self.arch_ported, self.unit_defines)
        for name, node in got.items():
            v = node.child_by_field_name("value")
            self.module.macros[name] = Macro(name, uncomment(self.src.text_of(v)).strip() if v else "", node, v)
        return bool(got)

    def _active_macros(self, active: dict) -> None:
        """Its own macros as the definitions the run's branches take (`#ifdef X` decided by -D or by an
        includer's define), read at the same places of this parse (the walk read the project's)."""
        defs = {n.start_byte: n for n in self.src.index.of_type("preproc_def")} if active else {}
        for name, mac in active.items():
            node = defs.get(mac.node.start_byte)
            if name in self.module.macros and node is not None:
                self.module.macros[name] = replace(mac, node=node, value_node=node.child_by_field_name("value"))

    # -- positions ---------------------------------------------------------------------------
    def position(self, byte: int) -> tuple[int, int]:
        if self.unit.locate is not None:
            return self.unit.locate(byte)
        loc = self.src.location(byte)
        return loc.line, loc.column

    def text(self, node: Node) -> str:
        return self.src.text_of(node)

    def where(self, node: Node) -> str:
        line, col = self.position(node.start_byte)
        return f"{line}:{col}"

    # -- reporting ---------------------------------------------------------------------------
    def report(self, rule: Rule, at: Node | tuple[int, int], message: str, *, severity: str | None = None,
               fix: Fix | Callable[[], Fix | None] | None = None, related: tuple[Related, ...] = (),
               subject: str | None = None) -> None:
        """Record a finding; `fix` may be deferred (a callable), computed only if the finding keeps one;
        `subject`: Finding.subject."""
        if rule.code not in self.enabled:
            return
        sev = severity or rule.severity(self.targets)
        if sev is None:
            return
        if rule.code.startswith("WS") and rule.code not in _ANY_WIDTH and self._wave_macro_names and \
                self.only_at_32(at if isinstance(at, Node) else self.src.root.descendant_for_byte_range(*at)):
            return  # the project's own 32-lane path, which no 64-lane wave compiles (wavebranches)
        if isinstance(at, Node) and sev != "info":  # 32-lane rows that compute the same at 64: advice
            advice = rowsplits.advise(self, rule.code, at)
            if advice is not None:
                sev, message, fix = "info", f"{rowsplits.lead(message)}; {advice}", None
            elif rule.code in rowsplits.ROW_CODES:  # no launch in the run gives the block: say where it would come from
                message = unseen_launches.attach(self, at, message)
        start, end = (at.start_byte, at.end_byte) if isinstance(at, Node) else at
        message += self.port_takes_another(at if isinstance(at, Node) else self.src.root.descendant_for_byte_range(*at))
        line, col = self.position(start)
        eline, ecol = self.position(max(end, start))
        if (eline, ecol) <= (line, col):
            eline, ecol = line, col + 1
        if callable(fix):
            fix = fix() if self.unit.fixable else None
        self.findings.append(Finding(self.path, line, col, eline, ecol, rule.code, rule.name, sev, message,
                                     fix if self.unit.fixable else None, tuple(related), (start, end), subject=subject))

    def related(self, node: Node, message: str, *, site: bool = False) -> Related:
        """A place the finding names: `site` where the same assumption is written there (a fix changes
        it), else context (finding.Related)."""
        line, col = self.position(node.start_byte)
        return Related(self.path, line, col, message, "site" if site else "context")

    # -- wording -----------------------------------------------------------------------------
    @property
    def wave(self) -> str:
        """How this dialect spells the wave width at run time, for messages."""
        c = dialect.concept("warp_size")
        attr = c.attribute(self.lang)
        return f"a `[[{attr[1]}]]` parameter" if attr else f"`{c.spelling(self.lang)}`"

    @property
    def widest_wave(self) -> int:
        """The widest wave of the configured targets' runs (64 where AMD CDNA is one)."""
        return max((r.wave for b in backends.all() for r in b.runs if r.target in self.targets), default=32)

    @property
    def breaks(self) -> str:
        """Which configured hardware a 32-lane assumption breaks on."""
        t = self.targets
        own = backends.get(self.lang).lint_breaks_own
        if own:
            return own
        parts = [w for b in backends.all() for target, w in b.lint_breaks.items() if target in t]
        if not parts:  # only 32-wide targets: name the wider hardware those backends also run on
            parts = [b.lint_breaks_otherwise for b in backends.all() if b.lint_breaks_otherwise and b.lint_targets & t]
        return " and ".join(parts) or "on a GPU whose wave is not 32 wide"

    # -- code structure ----------------------------------------------------------------------
    def function_at(self, node: Node) -> Function | None:
        return self.module.function_at(node)

    def code_context(self, node: Node) -> str:
        """'const' (a constant expression is required: array sizes too), 'device' or 'host'."""
        from ..code_contexts import context as code_context
        c = code_context(node, self.module)
        return "const" if c == "size" else c

    @cached_property
    def pinned_on_amd(self) -> frozenset[str]:
        """NVIDIA macros (`CUDA_VERSION`) an `#error` of this file or its headers requires on every build."""
        vis = self.unit.visible
        return guards.pinned_on_amd(self.src) | (vis.pinned_on_amd if vis is not None else frozenset())

    @cached_property
    def unit_defines(self) -> guards.Defines:
        """The unit's own macros its definitions decide (kernelport.unitdefines): this file's and its headers',
        each file's definitions read as the AMD build of the source as written and the ports compile them
        (`ported_in`: a `#define ISCUDA` under an `#ifdef __CUDA_ARCH__` the port respells is AMD's too)."""
        from ..unitdefines import unit_defines
        vis = self.unit.visible
        away = getattr(vis, "elsewhere", None)
        files = [(self.src, lambda: self.module)]
        if away is not None:
            files += [(pf.src, lambda pf=pf: pf.module) for pf in (away.project.file(p) for p in away.paths) if pf is not None]
        models = {id(s): m for s, m in files}
        opts = self.settings.includes
        return unit_defines([s for s, _ in files], frozenset(n for n, _ in getattr(opts, "defines", ()) or ()),
                            lambda src, values: self.ported_in(src, models[id(src)](), values))

    def ported_in(self, src, module, values) -> dict[int, int | None]:
        """portedtests.settled for a file of the unit (`values`: the unit's decided macros), once per file."""
        got = self.__dict__.setdefault("_ported_in", {})
        if id(src) not in got:  # (the parse is kept with its answer: ids name nodes only while their tree lives)
            got[id(src)] = (portedtests.settled(src, module, portedtests.port_backends(self.targets), values), src)
        return got[id(src)][0]

    def side_of(self, node: Node) -> str | None:
        return guards.side_of(node, self.src, self.pinned_on_amd, self.unit_defines, self.__dict__.setdefault("_sides", {}),
                              self.arch_ported)

    def arch_reading(self, node: Node) -> tuple[bool, bool] | None:
        """Inside an `#if __CUDA_ARCH__ >= N` or a device-pass test the ports settle (`arch_ported`): whether the AMD build of the source
        as written compiles `node` (`__CUDA_ARCH__` undefined: the `#else`) and whether the ports do (the newest
        architecture's branch); None elsewhere."""
        ported = self.arch_ported
        bs = [b for b in guards.branches(node, self.src) if b.test.id in ported] if ported else []
        if not bs:
            return None
        return (all(b.reached(self.src, guards.AMD_DEVICE) for b in bs),
                all(b.reached(self.src, guards.AMD_DEVICE, decided=ported) for b in bs))

    def port_takes_another(self, node: Node | None) -> str:
        """A note for a finding in a branch the AMD build of the source as written compiles and the ports do not
        (the `#else` of `#if __CUDA_ARCH__ >= N`, the host branch of `#ifdef __CUDA_ARCH__`): a fix there changes
        only that build, so the user hears which test the port reads otherwise; "" elsewhere."""
        if node is None or self.arch_reading(node) != (True, False):
            return ""
        ported = self.arch_ported
        for b in guards.branches(node, self.src):  # (innermost first: the test that sends the port elsewhere)
            if b.test.id in ported and b.reached(self.src, guards.AMD_DEVICE) and \
                    not b.reached(self.src, guards.AMD_DEVICE, decided=ported):
                head = self.src.data.split(b"\n")[b.test.start_point[0]].decode("utf-8", "replace").strip()
                line = self.position(b.test.start_byte)[0]
                return (f" (the port compiles another branch of `{head}`, line {line}, on AMD's device pass;"
                        " only a build of the source as written compiles this one there)")
        return ""

    def left_out(self, node: Node) -> bool:
        """In a branch of an `#if __CUDA_ARCH__ >= N` that no AMD build compiles, as written or ported."""
        return self.arch_reading(node) == (False, False)

    @cached_property
    def arch_ported(self) -> dict[int, int | None]:
        """The `#if __CUDA_ARCH__ >= N` tests the ports of the configured targets settle (kernelport.arch_branches:
        the branch the newest NVIDIA architecture takes is what they compile; the others are NVIDIA's alone), and the
        device-pass tests they respell (kernelport.device_pass: `#ifdef __CUDA_ARCH__` as the AMD device pass reads
        `__HIP_DEVICE_COMPILE__`), so the device branch is code the ports compile on AMD and the `#else` stays the
        source-as-written build's."""
        return self.ported_in(self.src, self.module, self.unit_defines.values)

    def guarded(self, node: Node) -> bool:
        return self.side_of(node) is not None

    @cached_property
    def warp_level(self) -> set[str]:
        """The keys (fnscopes) of the warp-level functions: ask with `key(f)`."""
        return self.analysis.warp_level

    def key(self, f: Function | None) -> str | None:
        """The key of a function in the analysis's tables (fnscopes: `tile::lane` is not `warp::lane`)."""
        return fnscopes.of(self.module).key(f) if f is not None else None

    def function_of(self, key: str | None) -> Function | None:
        return fnscopes.of(self.module).function(key)

    def launched(self, launch) -> set[str]:
        """The keys of this file's kernels a launch runs (the one C++ would choose)."""
        got = self.kernels_launched.get(id(launch))
        runs = got[1] if got is not None and got[0] is launch else fnscopes.launched(self.module, launch)
        return {self.key(g) for g in runs}  # type: ignore[misc]

    @cached_property
    def kernels_launched(self) -> dict[int, tuple]:
        """id(launch) -> (the launch, the definitions it runs: fnscopes.launched), for every launch of the
        model, resolved once: the rules ask per kernel about every launch (a square of the file)."""
        return {id(la): (la, fnscopes.launched(self.module, la)) for la in self.module.launches}

    def launches_of(self, f: Function) -> list:
        """The model's launches that run `f`, in order."""
        by = self.__dict__.get("_launches_by_kernel")
        if by is None:
            by = self.__dict__["_launches_by_kernel"] = {}
            for la, runs in self.kernels_launched.values():
                for g in {id(g): g for g in runs}.values():
                    by.setdefault(id(g), []).append(la)
        return by.get(id(f), [])

    @cached_property
    def row_splits(self) -> dict[str, str]:
        """Function -> why its 32-lane rows compute the same on a 64-lane wave (rowsplits: advice)."""
        return rowsplits.consistent(self)

    @cached_property
    def sites(self) -> list[warpflow.Site]:
        """Confirmed wave-width sites the user should hear about (portable and guarded code left out)."""
        return self._reportable_sites(lambda side: side is None)

    @cached_property
    def amd_only_sites(self) -> list[warpflow.Site]:
        """Confirmed wave-width sites in device code only the AMD build compiles (`#if USE_ROCM`), not
        under a test of the architecture (`__AMDGCN_WAVEFRONT_SIZE`, `__GFX11__`): a 32 there counts
        the lanes of a wave that has 64 on CDNA."""
        return self._reportable_sites(lambda side: side == guards.SIDE_AMD)

    def _reportable_sites(self, keep_side: Callable[[str | None], bool]) -> list[warpflow.Site]:
        out = []
        portable = self.settings.portable_macros
        for s in self.analysis.confirmed():
            if s.role in ("ws_macro", "ws_m1_macro"):
                name = self.macro_name(s.node)
                if name in portable:
                    continue
            if not keep_side(self.side_of(s.node)):
                continue
            if s.role == "one" and re.search(r"[lL]{2}", self.text(s.node)):
                continue  # already 1ull
            if self._in_wide_guard(s.node):
                continue  # `if (warpSize > 32) ...`: the extra ladder step of a 64-wide wave
            out.append(s)
        out.sort(key=lambda s: (s.node.start_byte, s.role))
        return out

    _WIDE = lazy_re.compile(r"\bwarpSize\s*(>\s*32|>=\s*64|==\s*64)|\b(32|64)\s*(<|<=|==)\s*warpSize\b")

    def _in_wide_guard(self, node: Node) -> bool:
        p = node.parent
        while p is not None and p.type not in ("function_definition", "translation_unit"):
            if p.type == "if_statement":
                c = p.child_by_field_name("condition")
                if c is not None and self._WIDE.search(self.text(c)):
                    return True
            p = p.parent
        return self._in_wide_branch(node) or widthguards.guarded_step(node)

    def _in_wide_branch(self, node: Node) -> bool:
        """Inside a wave branch compiled only at 64 lanes (kernelport/wavebranches.py): a 32 there is
        half a wave (`lane & 31`, `mask >> 32`), what the author split the wave into on purpose.  Only
        literals, and a ballot stored in 32 bits where the statement takes its upper half itself
        (`(lane < 32) ? (int)tmp : (int)(tmp >> 32)`): any other 32-bit type there is still the hazard."""
        b = self.wave_branch(node)
        if b is None or b.width != 64:
            return False
        if node.type == "number_literal":
            return True
        stmt = node
        while stmt.parent is not None and stmt.type not in ("declaration", "expression_statement"):
            stmt = stmt.parent
        return self._HALF_OF_64.search(self.text(stmt)) is not None

    _HALF_OF_64 = lazy_re.compile(r"\(\s*\w+\s*>>\s*32\s*\)")

    def wave_branch(self, node: Node) -> wavebranches.Branch | None:
        """The project's wave-size branch around `node` (see kernelport/wavebranches.py)."""
        return wavebranches.enclosing(node, self.text, self._wave_macro_names.__contains__)

    def only_at_32(self, node: Node) -> bool:
        """In a wave branch compiled only at 32 lanes: the `#else` of `SEL == 64` where SEL is the wave
        itself (defined from `__AMDGCN_WAVEFRONT_SIZE`): no 64-lane wave ever runs it."""
        b = self.wave_branch(node)
        return b is not None and b.width == 32 and (wavebranches.bound(b.selector, self._macro_values) or
                                                    b.selector in self._per_wave_macros)

    @cached_property
    def _per_wave_macros(self) -> frozenset[str]:
        return wavebranches.defined_per_wave(self.nodes("preproc_def"), self.text)

    @cached_property
    def _macro_values(self) -> dict[str, str | None]:
        """The unit's object-like macros (this file's, its includes' and includers') and their text."""
        vals: dict[str, str | None] = {n: v[3] for n, v in self.unit.header_macros.items()}
        vis = getattr(self.unit, "visible", None)
        vals.update((n, m.value) for n, m in (vis.macros.items() if vis is not None else ()))
        for node in self.nodes("preproc_def"):
            name_n, val = node.child_by_field_name("name"), node.child_by_field_name("value")
            if name_n is not None:
                vals[self.text(name_n)] = self.text(val) if val is not None else None
        return vals

    @cached_property
    def _wave_macro_names(self) -> frozenset[str]:
        """warpSize, the compiler's wave size, and the macros that can select a wave width (wavebranches)."""
        return wavebranches.selectors(self.src.text, self._macro_values)

    def macro_name(self, value_node: Node) -> str | None:
        d = value_node.parent
        if d is not None and d.type == "preproc_def":
            n = d.child_by_field_name("name")
            return self.text(n) if n is not None else None
        return None

    @cached_property
    def hardcoded_macros(self) -> dict[str, HardcodedMacro]:
        """Object-like macros and file-scope constants that hardcode the warp size as 32."""
        out: dict[str, HardcodedMacro] = {}
        portable = self.settings.portable_macros
        for name, (path, line, col, value) in self.unit.header_macros.items():
            if name not in portable:
                out[name] = HardcodedMacro(name, value, (path, line, col), None)
        confirmed = {(s.node.start_byte, s.node.end_byte) for s in self.sites if s.role == "ws_macro"}
        for node in self.nodes("preproc_def"):
            name_n, val = node.child_by_field_name("name"), node.child_by_field_name("value")
            if name_n is None or val is None:
                continue
            name = self.text(name_n)
            if name in portable or warpflow.int_value(self.text(val)) != 32 or self.guarded(node):
                continue
            if (val.start_byte, val.end_byte) in confirmed or warpflow.WARP_SIZE_NAME.search(name):
                line, col = self.position(val.start_byte)
                out[name] = HardcodedMacro(name, uncomment(self.text(val)).strip(), (self.path, line, col), val)
        for node, name, value in self.named_constants():
            if name not in portable and warpflow.int_value(self.text(value)) == 32 and not self.guarded(node):
                line, col = self.position(value.start_byte)
                out[name] = HardcodedMacro(name, self.text(value), (self.path, line, col), value)
        return out

    def named_constants(self):
        """File- and namespace-scope `constexpr int kWarpSize = 32;` style constants: (decl, name, value).
        An accessor named for the warp size that only returns a number (QUDA's `constexpr int
        warp_size() { return 32; }`) is one too: every call is the constant."""
        for node in reached(self.src, self.src.root, ("function_definition", "declaration"), (
                "translation_unit", "namespace_definition", "declaration_list", "preproc_if", "preproc_ifdef",
                "preproc_else", "preproc_elif")):  # (a walk entering those, from the node index: kernelport.reached)
            if node.type == "function_definition":
                hit = self._constant_accessor(node)
                if hit is not None:
                    yield node, *hit
                continue
            if node.type != "declaration":
                continue
            for d in node.children_by_field_name("declarator"):
                if d.type != "init_declarator":
                    continue
                nm, val = d.child_by_field_name("declarator"), d.child_by_field_name("value")
                if nm is None or val is None or nm.type != "identifier" or val.type != "number_literal":
                    continue
                name = self.text(nm)
                if warpflow.WARP_SIZE_NAME.search(name):
                    yield node, name, val

    def _constant_accessor(self, fn: Node) -> tuple[str, Node] | None:
        """(name, returned literal) of `int warp_size() { return 32; }`: a function named for the warp
        size, without parameters, whose body is one `return` of a number."""
        d, body = fn.child_by_field_name("declarator"), fn.child_by_field_name("body")
        if d is None or d.type != "function_declarator" or body is None:
            return None
        nm, params = d.child_by_field_name("declarator"), d.child_by_field_name("parameters")
        stmts = [c for c in body.named_children if c.type != "comment"]
        if nm is None or nm.type != "identifier" or not warpflow.WARP_SIZE_NAME.search(self.text(nm)) or \
                params is None or params.named_children or len(stmts) != 1 or stmts[0].type != "return_statement":
            return None
        val = next((c for c in stmts[0].named_children if c.type != "comment"), None)
        return (self.text(nm), val) if val is not None and val.type == "number_literal" else None

    def nodes(self, *types: str) -> list[Node]:
        """Every node of these types, in source order (the file's node index: one walk per file)."""
        ix = self.src.index
        if len(types) == 1:
            return ix.of_type(types[0])
        return sorted((n for t in types for n in ix.of_type(t)), key=lambda n: n.start_byte)

    @cached_property
    def divergence(self):
        from .divergence import OUTPUTS, Divergence
        from .rule import all_rules
        wants = {x for r in all_rules() if r.code in self.enabled and self.lang in r.languages
                 for x in r.divergence_reads}
        return Divergence(self, wants or OUTPUTS, wave_aware=True).run()

    def calls(self, root: Node | None = None) -> list[tuple[Node, str]]:
        """(call node, callee name) for every call by plain name under root, in source order: a slice of
        the file's calls, each call's callee read once per context (rules and helpers asked again per
        function and per rule, reading every call's callee each time)."""
        named = self.__dict__.get("_kp_calls")
        if named is None:
            named = self.__dict__["_kp_calls"] = [(n, _callee_name(self.src, n))
                                                  for n in self.src.index.of_type("call_expression")]
        lo, hi = self.src.index.bounds(root, "call_expression") if root is not None else (0, len(named))
        return [p for p in named[lo:hi] if p[1] is not None]

    def concept_of_call(self, call: Node):
        """(concept, argument-order backend, {param: arg node}) of a dialect call, else None."""
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "identifier":
            return None
        return dialect.bind_call(backends.source().name, self.text(fn), call)


def _callee_name(src, call: Node) -> str | None:
    """The callee's name of a call by plain name (`f(x)`, `f<T>(x)`), else None."""
    fn = call.child_by_field_name("function")
    if fn is not None and fn.type == "identifier":
        return src.text_of(fn)
    if fn is not None and fn.type == "template_function":
        nm = fn.child_by_field_name("name")
        if nm is not None:
            return src.text_of(nm)
    return None
