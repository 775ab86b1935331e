"""The project model: the files of a run, their local includes, and what each file sees from them.

A CUDA file is rarely complete alone: `WARP_SIZE` comes from a common header, the shuffles of a
sort live in an included `.cuh`.  `Project` resolves local includes (`#include "x"` beside the
including file, then the include path; `#include <x>` through the include path only; never the
system's directories), parses each file once per run (a cache keyed by the resolved path), and
gives each file a `Visible`: the macros its includes define in include order (after `#undef` and
the run's `-D`), the warp-level device functions they declare, and the warp-size macros the
project decided are the wave width.  The walk of a unit's includes is kernelport.includewalk's.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from tree_sitter import Node

from . import context_macros, guards, include_search, includes, launch_macros, macro_signatures, own_macros, run_paths, \
    textwords
from .decision_reads import Decisions
from .includers import Elsewhere, Includers
from .includewalk import Include, IncludeWalk, Scan, _type_names  # noqa: F401  (Include, _type_names: re-exported)
from .errors import KernelportError, Location
from .model import Macro, Module, Visible, build, plain, with_header_launches
from .source import SourceFile
from . import lazy_re

HEADER_SUFFIXES = includes.HEADER_SUFFIXES
_NAME = lazy_re.compile(r"[A-Za-z_]\w*$")


@dataclass(frozen=True)
class Options:
    """How a file is compiled, as far as includes go: -I dirs (absolute), -D NAME=VALUE, -include,
    and the macros that the project's HIP build defines besides (kernelport.hipbuild)."""
    include_dirs: tuple[str, ...] = ()
    defines: tuple[tuple[str, str], ...] = ()
    forced_includes: tuple[str, ...] = ()
    hip_defines: tuple[str, ...] = ()
    # Whether the walk is of a CUDA compile, which defines __CUDACC__ (macros.CUDA_COMPILE); the
    # project's own HIP build (hip_macros) is hipcc's, which does not: there the name stays unknown.
    cuda_compile: bool = True

    def merged(self, other: "Options") -> "Options":
        dirs = self.include_dirs + tuple(d for d in other.include_dirs if d not in self.include_dirs)
        return Options(dirs, self.defines + other.defines, self.forced_includes + other.forced_includes,
                       self.hip_defines + other.hip_defines, self.cuda_compile and other.cuda_compile)


def parse_define(text: str, where: Location | None = None) -> tuple[str, str]:
    """`NAME` or `NAME=VALUE` (a -D argument or a `defines` entry) -> (name, value)."""
    name, _, value = text.partition("=")
    if not _NAME.match(name.strip()):
        raise KernelportError(f"-D {text!r}: not a macro name", where, hint="write -D NAME or -D NAME=VALUE")
    return name.strip(), value if "=" in text else "1"


@dataclass
class ProjectFile:
    """One file of a project, parsed once."""
    path: Path  # resolved
    src: SourceFile
    _module: Module | None = None
    repaired: bool = False  # parsed again with the macros of its includes (where the plain parse stopped)
    defs: dict | None = None  # its own #defines as kernelport.macros reads them (once)
    # The plain parse, kept where the run parsed the file again through its includes' macros (`src` is then
    # that parse): what lint of its text alone parses (translate's self-check lints the original so)
    plain_src: SourceFile | None = None

    @property
    def module(self) -> Module:
        if self._module is None:  # past the nesting bound nothing is analysed (the command reports the file)
            deep = self.src.nesting_error() is not None
            src = SourceFile.from_text("", self.src.path) if deep else self.src
            # built once per parse (parses are kept by content for the process: a header's model is
            # not built again by the project of each file that includes it), read-only like the parse
            self._module = plain(src)
        return self._module


class Project(IncludeWalk, Includers):
    """One run's files, parsed once each; `options(path)` gives a file's include path and defines."""

    def __init__(self, options=None):
        run_paths.clear()  # a new run (or a translate's file alone): the filesystem is asked again
        self._options = options or (lambda p: Options())
        self._files: dict[Path, ProjectFile | None] = {}
        self._scans: dict[tuple[Path, Options], Scan] = {}
        self._declared: dict[Path, frozenset[str]] = {}
        self._lane_slots: dict[Path, dict] = {}
        self._wave_helpers: dict[tuple[Path, frozenset[str]], dict] = {}
        self._mask_helpers: dict[tuple[Path, frozenset[str]], dict] = {}
        self._warp_multiples: dict[Path, list] = {}
        self.confirmed: dict[tuple[Path, str], str] = {}  # (defining file, macro) -> why (the project's decision)
        self.tu_options: dict[Path, Options] = {}  # header -> the options of a translation unit that includes it
        self._reals: dict[Path, Path] = {}
        self._own_options: dict[Path, Options] = {}
        self._models: dict[tuple, list] = {}  # (root, options) -> [decisions seen, model, analysis or None]
        self._subs: dict[tuple[Path, Options], Scan | None] = {}  # a file's walk on its own (None: under way)
        self._nest = 0  # files being walked now (nested)
        self._resolved: dict[tuple, Path | None] = {}  # (includer, name, angled, -I dirs) -> the header (once)
        self._wheres: dict[tuple, tuple[str, int, int]] = {}
        self._facts: dict[tuple[str, Path], tuple] = {}  # (what, file) -> (the parse it was read from, the fact)
        self.units: list[Path] = []  # the run's files (kernelport.includers: who includes a file partway)
        self._includers: dict[Path, tuple | None] = {}
        self._named: dict | None = None
        self._dirs: dict[Path, dict] = {}  # directory -> its files' includes by base name (read once)
        self.includer_notes: list[tuple[Path, str]] = []
        self.tree_index = include_search.TreeIndex()  # headers no -I reaches, where search_dirs is set
        self.searched: dict[tuple[Path, str], include_search.Found] = {}

    def _real(self, path: Path) -> Path:
        """The resolved path, once per run (a file is asked for by every file that includes it)."""
        got = self._reals.get(path)  # (one look-up: a Path's hash and equality are Python calls, 52k asks a lint)
        if got is None:
            got = self._reals[path] = _resolved(path)
        return got

    def options(self, path: Path) -> Options:
        """A file's options: a header's are those of the first source that includes it (its -I
        come from that source's compile command), unless it has its own."""
        key = self._real(path)
        if key in self.tu_options:
            return self.tu_options[key]
        got = self._own_options.get(key)
        if got is None:  # once per file and run: finding its pyproject and compile_commands.json stats the tree
            got = self._own_options[key] = self._options(key)
        return got

    # -- files ------------------------------------------------------------------------------
    def file(self, path: Path) -> ProjectFile | None:
        """The parsed file (once per run); None when it cannot be read as UTF-8."""
        key = self._real(path)
        if key not in self._files:
            try:
                self._files[key] = ProjectFile(key, SourceFile.read(key))
            except KernelportError:
                self._files[key] = None
        return self._files[key]

    def source(self, path: Path, opts: Options | None = None) -> SourceFile:
        """The file as parsed for this run: where the plain parse stops, parsed again with the
        macros its includes and the run's -D define (kernelport.macros), so that a project's
        `HOST_DEVICE` or `CHECK(...)` does not stop it."""
        root = self._real(path)
        pf = self.file(root)
        if pf is None:
            raise KernelportError(f"cannot read {path}", Location(str(path), 1, 1))
        if not pf.repaired:
            pf.repaired = True
            defs = self.macro_defs(root, opts)
            if self.units and (around := context_macros.around(self, root, defs)):
                defs = {**around, **defs}  # what the files read before it define (kernelport/context_macros.py)
            if needs_macros(pf.src, defs):
                pf.plain_src = pf.src
                pf.src = SourceFile.from_text(pf.src.text, pf.src.path, macros=defs)
                pf._module = None
        return pf.src

    def macro_defs(self, path: Path, opts: Options | None = None) -> dict:
        """MacroDefs visible to `path` from its includes and the run's -D (for the macro-aware parse)."""
        from .macros import MacroDef, definitions
        root = self._real(path)
        opts = opts if opts is not None else self.options(root)
        defs = {n: MacroDef(n, None, v, "<command line>", 0) for n, v in opts.defines}
        sc = self.scan(root, opts)
        for p in sc.order:
            f = self.file(p) if p != root else None
            if f is not None:
                out = sc.decided_out.get(p)
                if out:  # a branch a defined name rules out (`#elif defined(FW_OPENCL)` under -DCUDA)
                    defs.update(definitions(f.src, skip=out))
                    continue
                if f.defs is None:
                    f.defs = definitions(f.src)
                defs.update(f.defs)
        return defs

    def add(self, path: Path, src: SourceFile) -> ProjectFile:
        """A file the caller already parsed (translate reads its inputs itself)."""
        pf = self._files[self._real(path)] = ProjectFile(self._real(path), src)
        return pf

    def add_text(self, path: Path, text: str) -> ProjectFile:
        """The file `path` holding `text`, shown under `path` as given (lint's display path).  A header
        this run already parsed as an include (same text, a plain parse) is not parsed again: its
        tree, node index and model are shown under that path (SourceFile.named, Module.copy)."""
        old = self._files.get(self._real(path))
        if old is None or old.src.text != text or old.src.included_macros:
            return self.add(path, SourceFile.from_text(text, str(path)))
        src = old.src.named(str(path))
        model = old._module.copy(src) if old._module is not None else None
        pf = self._files[self._real(path)] = ProjectFile(self._real(path), src, model)
        return pf

    # -- what a file sees ----------------------------------------------------------------------
    def _decisions(self, root: Path, sc) -> dict[str, str]:
        """The project's warp-size decisions on the macros `root` sees (its includes' and its own): name -> why."""
        got: dict[str, str] = {}
        for name, (_, owner) in sc.macros.items():
            why = self.confirmed.get((owner, name)) if owner != root else None
            if why:
                got[name] = why
        for name in sc.local.get(root, {}):  # the project's decision on this file's own macros
            why = self.confirmed.get((root, name))
            if why and sc.macros.get(name, (None, None))[1] == root:
                got[name] = why
        return got

    def visible(self, path: Path, opts: Options | None = None) -> Visible:
        """What `path` sees from its includes (its own definitions are its module's)."""
        root = self._real(path)
        sc = self.scan(root, opts)
        others = [p for p in sc.order if p != root]  # (a header's facts are read once per run: _per_file)
        vis = Visible()
        for name, (mac, owner) in sc.macros.items():
            if owner == root:
                continue
            vis.macros[name] = mac
            vis.where[name] = self._where(owner, mac)
        vis.confirmed = Decisions(self._decisions(root, sc))
        fns: set[str] = set()
        for p in others:
            fns |= self.warp_qualified(p, fns)
        vis.warp_qualified = frozenset(fns)
        vis.warp_functions = frozenset(q.rsplit("::", 1)[-1] for q in fns)
        for p in others:  # each accumulates on its own: one walk
            for name, where in self.lane_slots(p).items():
                vis.lane_slots.setdefault(name, where)
            for name, h in self.wave_helpers(p, vis.wave_helpers).items():
                vis.wave_helpers.setdefault(name, h)
            vis.mask_helpers.update(self.mask_helpers(p, vis.mask_helpers))
        from .warpmultiples import solve
        vis.warp_multiples = solve([i for p in others for i in self.warp_multiple_items(p)])
        vis.elsewhere = Elsewhere(self, others, root)
        from .declared_names import unit_declared
        vis.declared = unit_declared(self, sc, root)
        if self.units:  # and what the files read before it declare (kernelport/context_macros.py)
            vis.declared |= context_macros.declared_before(self, root)
        vis.types = dict(sc.types)
        vis.hip_macros = self.hip_macros(root, opts)
        from .shufflewrappers import wrappers
        for p in others:
            for name, w in self._per_file("wrappers", p, lambda f: wrappers(f.module), {}).items():
                vis.shuffle_wrappers.setdefault(name, w)
        for p in others:  # the definitions active in this unit (DeepEP's SM90 LAUNCH_KERNEL, not its #else)
            got = self._launch_macros(p, sc.functions.get(p, []), vis.launch_forms)
            vis.launch_forms.update(got.calls)
            vis.launch_configs.update(got.configs)
            vis.launch_fixed.update(got.fixed)
            for d in sc.functions.get(p, []):  # (header_lane_macros.call_facts: `#define LANE_OF(t) ((t) & 31)`)
                if (nm := d.child_by_field_name("name")) is not None:
                    vis.function_macros[nm.text.decode("utf-8", "replace")] = (d, str(p))
        from .member_spaces import declared_spaces, merge_spaces
        for p in others:
            for key, spaces in self._per_file("spaces", p, lambda f: declared_spaces(f.src), {}).items():
                merge_spaces(vis.declared_spaces, key, spaces)
        vis.pinned_on_amd = frozenset().union(*(self._per_file("pinned", p, lambda f: guards.pinned_on_amd(f.src),
                                                               frozenset()) for p in others))
        return vis

    def _launch_macros(self, path: Path, defs: list[Node], known: dict):
        """The macros of `defs` (a header's active function-like #defines) that wrap a launch, launch a
        named kernel or declare a launch configuration (kernelport.launchforms), given the launch
        macros of the headers before it; once per run for the same definitions."""
        from . import backends, launchforms
        key = ("launch macros", path, tuple(n.id for n in defs), tuple(known))
        if key not in self._facts:
            self._facts[key] = launchforms.macro_forms(defs, {**backends.launch_forms(), **known},  # type: ignore[index]
                                                       backends.launch_configs())
        return self._facts[key]  # type: ignore[index]

    def _where(self, owner: Path, mac: Macro) -> tuple[str, int, int]:
        """(path, line, column) of a header macro's value, once per definition and run."""
        key = (owner, mac.node.id)
        got = self._wheres.get(key)
        if got is None:
            loc = self.file(owner).src.loc(mac.value_node if mac.value_node is not None else mac.node)  # type: ignore[union-attr]
            got = self._wheres[key] = (str(owner), loc.line, loc.column)
        return got

    def _per_file(self, what: str, path: Path, fn, none):
        """fn(the ProjectFile), once per file and parse (a common header is seen by every includer)."""
        pf = self.file(path)
        if pf is None:
            return none
        got = self._facts.get((what, path))
        if got is None or got[0] is not pf.src:
            got = self._facts[(what, path)] = (pf.src, fn(pf))
        return got[1]

    def hip_macros(self, path: Path, opts: Options | None = None) -> dict:
        """Macros the AMD build of `path` compiles, its own and its headers': the
        translation unit walked again with the HIP configuration's names defined (ggml's vendors/hip.h
        under `GGML_USE_HIP`), a header counting where every include on its way is taken by that build."""
        from . import hipbuild
        root = self._real(path)
        opts = opts if opts is not None else self.options(root)
        plain = self.scan(root, opts)
        names = frozenset(opts.hip_defines).union(
            *(self._per_file("configuration names", p, lambda f: hipbuild.configuration_names(f.src), frozenset())
              for p in plain.order))
        known = {n for n, _ in opts.defines}
        sc = self.scan(root, replace(opts, defines=opts.defines + tuple((n, "1") for n in sorted(names - known)),
                                     cuda_compile=False))
        srcs = {p: f.src for p in sc.order if (f := self.file(p)) is not None}
        taken, out = {root}, {}
        for p in sc.order:
            if p not in taken or p not in srcs:
                continue
            for inc in sc.includes.get(p, []):
                if inc.resolved is not None and hipbuild.taken_on_amd(inc.node, srcs[p], names):
                    taken.add(inc.resolved)
            defs = sorted(sc.functions.get(p, []) + [m.node for m in sc.local.get(p, {}).values()],
                          key=lambda n: n.start_byte)
            key = ("hip macros", p, names, tuple(n.id for n in defs))  # a common header: once per run
            if key not in self._facts or self._facts[key][0] is not srcs[p]:  # type: ignore[index]
                self._facts[key] = (srcs[p], hipbuild.macros(srcs[p], names, defs))  # type: ignore[index]
            out.update(self._facts[key][1])  # type: ignore[index]
        return out

    def lane_slots(self, path: Path) -> dict[str, tuple[frozenset[int], str, int]]:
        """Functions of `path` that store through a pointer parameter at a full-wave lane index:
        name -> (those parameters' positions, this path, the store's line), once per run."""
        if path not in self._lane_slots:
            from .laneslots import lane_written_params
            pf = self.file(path)
            found = lane_written_params(pf.module) if pf is not None else {}
            self._lane_slots[path] = {n: (pos, str(path), pf.src.loc(node).line)  # type: ignore[union-attr]
                                      for n, (pos, node) in found.items()}
        return self._lane_slots[path]

    def wave_helpers(self, path: Path, known: dict) -> dict:
        """Device functions of `path` that work on the hardware wave (kernelport.wavehelpers), given
        those of the headers before it: name -> WaveHelper."""
        key = (path, frozenset(known))
        if key not in self._wave_helpers:
            from .wavehelpers import wave_helpers
            pf = self.file(path)
            self._wave_helpers[key] = wave_helpers(pf.module, str(path), known) if pf is not None else {}
        return self._wave_helpers[key]

    def mask_helpers(self, path: Path, known: dict) -> dict:
        """Device functions of `path` that return a lane mask or take a 32-bit integer
        (kernelport.masksources), given those of the headers before it: name -> MaskHelper."""
        key = (path, frozenset(n for n, h in known.items() if h.returns_mask))
        if key not in self._mask_helpers:
            from .masksources import helpers
            pf = self.file(path)
            self._mask_helpers[key] = helpers(pf.module, str(path), known) if pf is not None else {}
        return self._mask_helpers[key]

    def warp_multiple_items(self, path: Path) -> list:
        """What each template of `path` says about parameters counting whole warps (kernelport.warpmultiples)."""
        if path not in self._warp_multiples:
            from .warpmultiples import items
            pf = self.file(path)
            self._warp_multiples[path] = items(pf.src) if pf is not None else []
        return self._warp_multiples[path]

    def declared(self, path: Path) -> frozenset[str]:
        """Every name `path` declares (macros, functions, types, variables), once per run."""
        if path not in self._declared:
            from .declared_names import names_declared_in
            pf = self.file(path)
            self._declared[path] = frozenset() if pf is None else names_declared_in(pf.src)
        return self._declared[path]

    def warp_functions(self, path: Path, known: set[str] = frozenset()) -> frozenset[str]:  # type: ignore[assignment]
        """The names of `warp_qualified`'s functions."""
        return frozenset(q.rsplit("::", 1)[-1] for q in self.warp_qualified(path, known))

    def warp_qualified(self, path: Path, known: set[str] = frozenset()) -> frozenset[str]:  # type: ignore[assignment]
        """Device functions of `path` that use a warp-level operation (directly or through a
        function of `known` or of the same file), by qualified name (kernelport.fnscopes): a call
        is the file's own function where C++ finds one (a same-named function of another header
        or namespace is not it), else the qualified names it may name in `known`."""
        pf = self.file(path)
        if pf is None:
            return frozenset()
        m = pf.module  # (the parse's include-free model, built once per parse for the process)
        if "_kp_warp_calls" not in m.__dict__:  # the file's own part, once per model: every project that
            # reaches a header (translate and verify make one per file) reads the same calls of it
            from .fnscopes import of
            from .source import call_args
            sc = of(m)
            direct = {sc.qualified(f) for u in m.uses if u.concept.warp_level and (f := m.function_at(u.node))}
            calls: list[tuple[str, set[str], list[list[str]]]] = []  # (function, its own callees, others' names)
            for f in m.functions.values():
                if f.body is not None:
                    own, outside = set(), []
                    for c in pf.src.index.under(f.body, "call_expression"):
                        fn = c.child_by_field_name("function")
                        if found := sc.resolve(f, fn, call_args(c)):
                            own |= {sc.qualified(g) for g in found}
                        elif names := sc.candidates(f, fn):
                            outside.append(names)
                    calls.append((sc.qualified(f), own, outside))
            m.__dict__["_kp_warp_calls"] = (direct, calls)
        direct, calls = m.__dict__["_kp_warp_calls"]  # `known` (the headers before it) only adds callers
        level = set(direct) | {f for f, _, outside in calls if any(not known.isdisjoint(n) for n in outside)}
        changed = True
        while changed:
            changed = False
            for fname, own, _ in calls:
                if fname not in level and own & level:
                    level.add(fname)
                    changed = True
        return frozenset(level)

    def module(self, path: Path, opts: Options | None = None, *, fresh: bool = False) -> Module:
        """The file's model with what its includes define (its own inactive definitions left out).

        Built once per run and shared (read-only: the planning pass, each backend's translator and
        a header's second port all ask for it); `fresh`: a model of its own for a caller that
        changes it.  Built again only where the project's decisions on the macros this unit sees
        (`confirmed`, settled by the planning pass) have changed since."""
        if fresh:
            return self._fresh_module(path, opts)
        key, seen = self._model_key(path, opts)
        got = self._models.get(key)
        if got is not None and got[0] != seen and got[1].source is self.source(path, opts) and \
                self._decisions_stand(got[1], key[0], key[1]):
            got[0] = seen  # no decision it read has changed: it is what a rebuild would make (decision_reads)
        if got is None or got[0] != seen or got[1].source is not self.source(path, opts):
            got = self._models[key] = [seen, self._fresh_module(path, opts, shared=True), None]
        return got[1]

    def _decisions_stand(self, m: Module, root: Path, opts: Options) -> bool:
        """Whether the decisions `m` and its analysis read are the project's now; if so `m` takes the new ones."""
        vis = m.visible
        if vis is None or not isinstance(vis.confirmed, Decisions):
            return False
        new = self._decisions(root, self.scan(root, opts))
        if not vis.confirmed.stands_with(new):
            return False
        vis.confirmed.become(new)
        return True

    def analysis(self, path: Path, opts: Options | None = None):
        """warpflow's analysis of `module(path, opts)`, once per model (shared read-only like it), and
        once per process for a model that reads the same (kernelport.header_plans)."""
        m = self.module(path, opts)
        key = self._model_key(path, opts)[0]
        got = self._models[key]
        if got[2] is None:  # another project's plan where this model reads the same (kernelport/header_plans.py)
            from .header_plans import analysis
            got[2] = analysis(m, key)
        return got[2]

    def plain_analysis(self, path: Path, opts: Options | None = None):
        """`analysis(path)` where it is also that of the file's include-free model (what lint reads in
        translate's self-check): a copy of that model (not another build) whose includes and defines
        give warpflow nothing to read (`Visible.feeds_warpflow`).  None otherwise, or where the
        analysis is not built (none is built here)."""
        key, seen = self._model_key(path, opts)
        got, pf = self._models.get(key), self.file(path)
        if got is None or got[0] != seen or got[2] is None or pf is None or pf._module is None:
            return None
        m, plain, vis = got[1], pf._module, got[1].visible
        if any(getattr(m, f) is not getattr(plain, f) for f in ("source", "functions", "shared", "uses", "launches",
                                                                "asm")) or m.macros != plain.macros:
            return None
        from .hipbuild import file_macros
        return None if vis is not None and vis.feeds_warpflow(lambda: file_macros(plain.source)) else got[2]

    def _model_key(self, path: Path, opts: Options | None) -> tuple[tuple, tuple]:
        """(the unit's key, the project decisions it sees: those on macros of the files it reaches)."""
        root = self._real(path)
        opts = opts if opts is not None else self.options(root)
        if not self.confirmed:
            return (root, opts), ()
        files = self.scan(root, opts).files()
        return (root, opts), tuple((str(f), n, why) for (f, n), why in self.confirmed.items() if f in files)

    def _fresh_module(self, path: Path, opts: Options | None, shared: bool = False) -> Module:
        """The model with what the includes define; `shared` (read-only, like the file's include-free
        model): a copy of that model with its own macros and includes, not a second build."""
        root = self._real(path)
        src = self.source(root, opts)
        if src.nesting_error() is not None:  # past the nesting bound: nothing analysed, the command reports it
            return build(SourceFile.from_text("", src.path))
        pf = self.file(root)
        # a fresh model for a caller that changes it (its own copy); the file's include-free one stays as it is
        m = (pf.module.copy(src) if shared else pf.module.own_copy(src)) if pf is not None and pf.src is src else build(src)
        sc = self.scan(root, opts)
        active = sc.local.get(root, {})
        m.macros = {n: active.get(n, mac) for n, mac in m.macros.items() if n in active or not _conditional(mac.node)}
        m.visible = self.visible(root, opts)
        m.uses = own_macros.builtin_uses(m)  # a header's `#define warpSize 32`: its uses are the macro here too
        m.launches = with_header_launches(m)
        return m

    def inactive(self, path: Path, opts: Options | None = None) -> frozenset[str]:
        """This file's macros whose every definition sits in a branch the run's defines rule out."""
        root = self._real(path)
        pf = self.file(root)
        if pf is None:
            return frozenset()
        active = self.scan(root, opts).local.get(root, {})
        return frozenset(n for n, mac in pf.module.macros.items() if n not in active and _conditional(mac.node))

    def headers(self, path: Path, opts: Options | None = None) -> list[Path]:
        """The local headers `path` includes, transitively, in include order."""
        sc = self.scan(path, opts)
        if not sc.context:
            return sc.order[1:]
        return [p for p in sc.order if p != self._real(path) and p not in sc.context]  # the includer's: context


def needs_macros(src: SourceFile, defs: dict) -> bool:
    """Whether `src` must be parsed through its includes' macros: the plain parse stopped, or it
    uses an attribute-like macro (`HD` = `__host__ __device__`) whose words the model needs, or its
    repair masked a statement macro the includes define as a whole statement (`CUERR` = `{ ... }`:
    every use of it is one, also those that parse, `CUERR` then `cudaEventCreate(&e);` as a declaration),
    or its repair kept a conditional's branch the run's -D rejects, or it uses a launch-configuration macro
    (`#define KERNEL_ARGS2(g, b) <<< g, b >>>`: kernelport/launch_macros.py)."""
    if not defs:
        return False
    from .macro_groups import groups, rejected_branch_kept
    from .macros import attribute_like, ends_definition
    if src.root.has_error or any(m.reason == "statement" and (d := defs.get(m.name)) is not None and d.params is None
                                 and ends_definition(d, defs) for m in src.masks):
        return True
    if any(m.reason.startswith("conditional (") for m in src.masks) and \
            rejected_branch_kept(src.masks, groups(src.data), defs, src.data):
        return True  # the plain parse kept a branch the run's -D rejects (macro_groups)
    if macro_signatures.needs(src.data, defs):
        return True  # `extern "C" SIGNATURE(name) {` (kernelport/macro_signatures.py)
    words = textwords.of(src)  # (a launch-configuration macro, `k KERNEL_ARGS2(g, b)(a)`, parses as a declaration)
    return any(name in words and (attribute_like(m, defs) or name in launch_macros.config_macros({name: m}))
               for name, m in defs.items())


def _resolved(p: Path) -> Path:
    try:
        return run_paths.resolved(p)
    except (OSError, RuntimeError):
        return p.absolute()


def _conditional(node: Node) -> bool:
    p = node.parent
    while p is not None:
        if p.type in ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"):
            return True
        p = p.parent
    return False
