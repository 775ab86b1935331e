"""A run's ports as a project: every source, and every local header they include whose port differs.

- Inputs: files, and directories searched for `*.cu`, `*.cuh` and headers that hold CUDA.
- The project's headers are the local headers the inputs reach (kernelport.project): under an input
  directory or an include directory, or found beside the file that includes them (`"../common/x.h"`);
  the system's and `-isystem` directories are never searched.  A header that cannot be ported (it does
  not parse) is KP222 at the `#include` that reaches it.
- Warp-size macros are decided once for the project: a header's `#define WARP_SIZE 32` that any
  file uses as the wave width is rewritten in the header's port, and every file sees it so.
- A header is ported when its port differs from it (device code, warp code, CUDA API, CUDA
  includes, or an include of another ported header); the port is named by the backend's
  `header_extension` (`common.cuh` -> `common.hip.h`), and every port's includes of ported headers
  are rewritten to the ports' names.  With `-o DIR` the output tree mirrors the inputs' tree below
  their common root.
- A backend without a `header_extension` (Metal) ports no headers: its translator splices the ones
  a source's device code needs into that source's port, found on the same include path.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import backends, include_search, warpflow
from .diagnostics import Diagnostic
from .errors import KernelportError, Location
from .includes import MAX_INCLUDE_DEPTH, is_regular
from .project import HEADER_SUFFIXES, Options, Project
from .source import SourceFile

SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", "build", "dist"}


@dataclass
class Made:
    """One file of the run's output: a port (of a source or a header) or a file that goes with it."""
    origin: Path  # the CUDA file it is made from, as given or found
    path: Path
    text: str
    command: str
    backend: str
    header: bool = False
    port: object = None  # the translate.Port (None for companions)


@dataclass
class Run:
    """A project's translation run: its sources, headers and output tree."""
    project: Project
    sources: list[Path]  # as given or found
    headers: list[Path] = field(default_factory=list)  # the project's headers (resolved), include order
    roots: list[Path] = field(default_factory=list)  # what counts as the project
    base: Path | None = None  # the common root the -o tree mirrors
    notes: list[Diagnostic] = field(default_factory=list)
    includer_of: dict[Path, Path] | None = None  # header -> the first source that includes it (`_command`)


def expand(paths: list[Path]) -> list[Path]:
    """Files as given; a directory: its `*.cu`, `*.cuh` and headers holding CUDA, recursively."""
    from .lint.discovery import DEVICE_MARKERS
    out: list[Path] = []
    for p in paths:
        if not p.is_dir():
            out.append(p)
            continue
        for d, dirs, names in os.walk(p):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("."))
            for n in sorted(names):
                f = Path(d) / n
                if not is_regular(f):  # a device, FIFO or loop of links named k.cu: nothing to read
                    continue
                if n.endswith((".cu", ".cuh")):
                    out.append(f)
                elif n.endswith(HEADER_SUFFIXES):
                    try:
                        text = f.read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        continue
                    if DEVICE_MARKERS.search(text):
                        out.append(f)
    return out


def plan(inputs: list[Path], given: list[Path], options_for, srcs: dict[Path, SourceFile]) -> Run:
    """The project of a run: its sources, headers, roots and the warp-size decisions (project.confirmed)."""
    from . import output
    proj = Project(options_for)
    proj.units = [_res(p) for p in inputs]  # who includes a file partway through it (kernelport.includers)
    proj.search_dirs = [_res(p) for p in given if p.is_dir()]  # headers no -I reaches: kernelport.include_search
    for p, parsed in srcs.items():
        proj.add(p, parsed)
    sources = [f for f in inputs if not f.name.endswith(HEADER_SUFFIXES)]
    roots = [_res(p) if p.is_dir() else _res(p).parent for p in given]
    for s in inputs:
        roots += [Path(d) for d in proj.options(_res(s)).include_dirs]
    run = Run(proj, sources, roots=roots)
    seen: set[Path] = {_res(s) for s in sources}
    for h in [_res(f) for f in inputs if f.name.endswith(HEADER_SUFFIXES)]:
        if h not in seen:
            seen.add(h)
            run.headers.append(h)
    for s in inputs:
        for h in proj.headers(_res(s)):
            if h not in proj.tu_options and not proj.options(h).include_dirs:
                proj.tu_options[h] = proj.options(_res(s))  # its includes resolve as in the source's build
            pf = proj.file(h)
            # every local header a source reaches is the project's: under the inputs and include
            # dirs, or beside an includer (`#include "../common/common.h"`): a port that included it
            # unported would keep its CUDA (system and -isystem dirs are never searched)
            if h not in seen and pf is not None and output.state(pf.src.text) == "foreign":
                seen.add(h)
                run.headers.append(h)
    files = [_res(s) for s in sources] + run.headers
    # -o mirrors the tree below the common root of the inputs as given (a directory itself, a file's
    # directory) and of the headers ported with them
    tops = [_res(p) if p.is_dir() else _res(p).parent for p in given] + [h.parent for h in run.headers]
    # and of the include dirs the headers lie under: a port's `#include <sub/x.hip.h>` (AliceVision's
    # `-I src`) then finds its header's port under OUT's copy of that dir, as the original's does
    incdirs = {Path(d) for s in inputs for d in proj.options(_res(s)).include_dirs}
    tops += [d for d in incdirs if any(h.is_relative_to(d) for h in run.headers)]
    run.base = Path(os.path.commonpath([str(t) for t in tops])) if tops else None
    for f in files:  # a local header that is nowhere to be found: said once, where it is included
        for i in proj.scan(f).includes.get(f, []):
            if i.resolved is None and not i.angled and not _toolkit_header(i.name) and (f, i.name) not in proj.searched:
                run.notes.append(Diagnostic("", i.location, f"'{i.name}' not found beside the file or on the include "
                                            "path: what it defines is unknown here", "add its directory with -I DIR",
                                            "note"))
    for f in files:  # a header found by searching the tree, or a name that several files answer
        for i in proj.scan(f).includes.get(f, []):
            if (found := proj.searched.get((f, i.name))) is not None:
                message, hint = include_search.note_text(found, _shown)
                run.notes.append(Diagnostic("", i.location, message, hint, "note"))
    deep = {str(i.location): i for f in files for i in proj.scan(f).too_deep}  # once each, for every unit
    for i in deep.values():
        run.notes.append(Diagnostic("", i.location, f"'{i.name}' is included more than {MAX_INCLUDE_DEPTH} levels "
                                    "deep: not followed, what it defines is unknown here",
                                    f"no compiler follows such a chain (GCC stops at {MAX_INCLUDE_DEPTH}): shorten it",
                                    "note"))
    for f, why in proj.includer_notes:  # several includers: which one's text the file was analysed with
        run.notes.append(Diagnostic("", Location(str(_shown(f)), 1, 1), why, "its port is made from its own text "
                                    "either way", "note"))
    _decide(run)
    return run


def configured(p: Path) -> Options:
    """A file's include dirs and defines as verify sees them: its pyproject's [tool.kernelport], its
    compile_commands.json (what translate and lint read where no -I/-D is given)."""
    from .lint import config as configmod
    return configmod.includes_for(p, configmod.find(p), configmod.Overrides())


def configured_project() -> Project:
    """A project whose files are read with their configured include dirs and defines: verify's
    inference reads the headers (sizes, typedefs) its ports are translated with."""
    return Project(configured)


def run_source(path: Path) -> SourceFile:
    """The file as translate parses it (verify's original): plainly, or where that parse stops, again with the
    macros its includes and the configured -D define (Project.source: repeat.h's `repeat16(S)` taking statements)."""
    src = SourceFile.read(path)
    if not src.root.has_error:
        return src
    try:
        return configured_project().source(path)
    except KernelportError:
        return src  # (its syntax error is reported as the plain parse's)


def single(path: Path, src: SourceFile) -> Run:
    """The project of one source as verify sees it (its pyproject's include dirs and defines, its
    compile_commands.json): the headers its port includes are ported with it."""
    return plan([path], [path], configured, {_res(path): src})


def _decide(run: Run) -> None:
    """Which header macros are the wave width, for the whole project (any file's confirmed use)."""
    proj = run.project
    for f in [_res(s) for s in run.sources] + run.headers:
        try:
            m = proj.module(f)
            a = proj.analysis(f)  # the translators of this run read the same (kept, not analysed again)
        except Exception:  # noqa: BLE001 - a file translate refuses says why when it is translated
            continue
        vis = m.visible
        for s in a.confirmed():
            if s.role == "ws_macro_use" and vis is not None:
                name = m.source.text_of(s.node)
                where = vis.where.get(name)
                if where is not None:
                    loc = m.source.loc(s.node)
                    proj.confirmed.setdefault((Path(where[0]), name),
                                              f"'{name}' is the warp size in {Path(loc.path).name}:{loc.line}")
            elif s.role == "ws_macro" and s.node.parent is not None and \
                    s.node.parent.child_by_field_name("name") is not None:
                name = m.source.text_of(s.node.parent.child_by_field_name("name"))  # type: ignore[arg-type]
                proj.confirmed.setdefault((f, name), s.why or f"'{name}' names the warp size")


def _holds_cuda(text: str) -> bool:
    """Device code, CUDA API calls or CUDA headers: what a port would have to change."""
    from .lint.discovery import DEVICE_MARKERS
    return bool(DEVICE_MARKERS.search(text) or re.search(r"\bcuda[A-Z]\w*\s*\(|#\s*include\s*[<\"]cu", text))


_toolkit_header = include_search.toolkit_header  # `"cuda_runtime.h"` written with quotes: the backend maps it


def _res(p: Path) -> Path:
    try:
        return p.resolve()
    except (OSError, RuntimeError):
        return p.absolute()


def _under(p: Path, roots: list[Path]) -> bool:
    return any(p == r or r in p.parents for r in roots)


def destination(run: Run, f: Path, backend: str, out: Path | None, header: bool, whole_name: bool = False) -> Path:
    """Where f's port goes: its stem and the backend's extension (its whole name, suffix kept, with
    `whole_name`: for files whose stems alone would meet)."""
    b = backends.get(backend)
    name = (f.name if whole_name else f.stem) + ((b.header_extension if header else b.extension) or "")
    if out is None:
        return f.parent / name
    rel = _res(f).parent.relative_to(run.base) if run.base is not None and _under(_res(f), [run.base]) else Path()
    return out / rel / name


def _plain_model(pf, src):
    """The include-free model of `src`'s text that translate's self-check lints the original with: the project's
    where `src` is the file's plain parse; where the run parsed it again through its includes' macros, that of
    the plain parse the project kept (ProjectFile.plain_src: the parse lint of the text alone makes, shown
    under the file's path), not a third parse and build; None otherwise (lint parses and builds it)."""
    if pf is None or pf.src is not src:
        return None
    if not src.included_macros:
        return pf.module
    from .model import plain
    p = pf.plain_src
    return plain(p) if p is not None and p.text == src.text and not p.included_macros and \
        p.nesting_error() is None else None


def make(run: Run, targets: list[str], out: Path | None, stdout: bool, *, allow_unported: bool = False,
         **options) -> list[Made]:
    """Every port of the run, per backend: sources always, headers whose port differs; includes of
    ported headers rewritten to the ports' names.  KP222 on includes of unported warp headers."""
    from .translate import port_file
    proj = run.project
    made: list[Made] = []
    for backend in targets:
        splices = backends.get(backend).header_extension is None  # one file a port: it splices its headers
        if splices:  # a header no source of the run includes is in no port: said, never silence
            included = {h for s in run.sources for h in proj.headers(_res(s))}
            run.notes += [Diagnostic("", Location(str(_shown(h)), 1, 1), f"not ported to {backend} on its own: a "
                                     f"{backend} port is one file per source, with the headers it needs spliced in",
                                     "translate a source that includes it", "note")
                          for h in run.headers if h not in included]
        files = [(s, _res(s), False) for s in run.sources] + [(_shown(h), h, True) for h in run.headers
                                                             if not splices]
        dest = {key: destination(run, given, backend, out, hdr) for given, key, hdr in files}
        met: dict[Path, int] = {}
        for d in dest.values():
            met[_res(d)] = met.get(_res(d), 0) + 1
        for given, key, hdr in files:  # `utils.h` and an included `utils.cpp`: each port keeps its suffix
            if met[_res(dest[key])] > 1:
                dest[key] = destination(run, given, backend, out, hdr, whole_name=True)
        header_keys = set(run.headers)
        ported = {key for _, key, hdr in files if not hdr}
        results: dict[Path, tuple] = {}

        changes_model = backends.get(backend).translator().changes_model

        def translate_one(given: Path, key: Path, hdr: bool, include_map: dict[int, str], via: str | None = None,
                          **more):
            src = proj.source(key)
            m = proj.module(key, fresh=changes_model)
            a = proj.analysis(key) if not changes_model else _private_analysis(proj, key, m)
            shared = bool(include_map) or hdr
            pf = proj.file(key)
            return port_file(src, backend, Path.cwd() if stdout else dest[key].parent, allow_unported=allow_unported,
                             module=m, analysis=a, include_map=include_map, prologue={"shared_helpers": shared},
                             plain_model=_plain_model(pf, src),
                             plain_analysis=proj.plain_analysis(key) if not src.included_macros else None,
                             include_dirs=tuple(proj.options(key).include_dirs),
                             defines=tuple(proj.options(key).defines),
                             via=via or _command(run, given, key, hdr, dest[key].parent),
                             out_root=None if stdout else "" if out is None else
                             Path(os.path.relpath(_res(out), _res(dest[key].parent))).as_posix(), **options, **more)

        said: set[tuple[Path, int]] = set()  # KP222 once per include line and backend, however many ports reach it
        refused: dict[Path, str] = {}  # headers that cannot be read as CUDA: left as they are, said at includes
        def include_map_of(key: Path) -> dict[int, str]:
            """How the port of `key` spells its includes: the ports of the ported headers it includes."""
            incs = proj.scan(key).includes.get(key, [])
            include_map = {i.node.start_byte: _spelling(i, dest[key], dest[i.resolved], (key, i.name) in proj.searched)
                           for i in incs if i.resolved in ported}  # (its own name too: a guarded self-include)
            for i in incs:  # a header left alone, reached beside the file or by a search of the tree
                # (kernelport.include_search): still reached from where the port is
                searched = (key, i.name) in proj.searched
                if i.resolved is not None and i.resolved not in ported and dest[key].parent.resolve() != key.parent and \
                        (searched or not i.angled and (key.parent / i.name).resolve() == i.resolved):
                    rel = Path(os.path.relpath(i.resolved, dest[key].parent.resolve())).as_posix()
                    include_map[i.node.start_byte] = f'"{rel}"' if i.angled else rel
            return include_map

        # first pass, over the headers with each after those it includes: what each header's port is
        # with its includes as written, or, where it includes a header already ported (so it is ported
        # itself), its port with those includes rewritten: translated once, not once to decide and again
        firsts = {key: (given, hdr) for given, key, hdr in files if hdr}
        for key in _includes_first(proj, list(firsts)):
            given, hdr = firsts[key]
            reaches = any(i.resolved in ported for i in proj.scan(key).includes.get(key, []))
            include_map = include_map_of(key) if reaches else {}
            try:
                port, text = translate_one(given, key, hdr, include_map)
            except KernelportError as e:
                if _holds_cuda(pf_text(proj, key)):  # host C that the grammar cannot read needs no port
                    refused[key] = e.format()
                continue
            results[key] = (include_map, port, text)
            if reaches or port.body != pf_text(proj, key) or not port.ok:  # a refused construct is said, never dropped
                ported.add(key)
        changed = True
        while changed:  # a header that includes a ported header is ported (its include is rewritten)
            changed = False
            for h in run.headers:
                if h not in ported and h not in refused and any(i.resolved in ported for i in proj.scan(h).includes.get(h, [])):
                    ported.add(h)
                    changed = True
        for given, key, hdr in files:
            if key not in ported:
                continue
            if splices:  # its includes are the translator's: spliced where needed, else left out
                port, text = translate_one(given, key, hdr, {})
                made.append(Made(given, dest[key], text, "", backend, hdr, port))
                continue
            include_map = include_map_of(key)
            if key not in results or results[key][0] != include_map:  # (a cycle's header: ported after its pass)
                results[key] = (include_map, *translate_one(given, key, hdr, include_map))
            _, port, text = results[key]
            port.diagnostics += _unported_warp_includes(proj, key, ported, refused, header_keys, said)
            port.diagnostics += _warp_fragments(proj, key)
            if hdr and not proj.module(key).kernels:  # a sidecar describes kernels: a header without any has none
                port.extra_files = {k: v for k, v in port.extra_files.items() if not k.startswith(".")}
            made.append(Made(given, dest[key], text, "", backend, hdr, port))
        if splices:
            _serve_extern_calls(run, made, backend, translate_one, dest)
    order = {(_res(s) if not h else s): i for i, (s, h) in
             enumerate([(s, False) for s in run.sources] + [(h, True) for h in run.headers])}
    made.sort(key=lambda m: (order.get(_res(m.origin), len(order)), targets.index(m.backend)))  # file by file
    return made


def made_or_refused(run: Run, backend: str) -> list[Made]:
    """make's ports of a one-file run (verify's), headers after the file; where it writes none (a header alone, on a
    backend whose port is one file per source: Metal's), one refused port that says why, as a refusal would."""
    made = make(run, [backend], None, False)
    if made:
        return made
    from .translate import Port
    f = (run.sources or run.headers)[0]
    why = "; ".join(d.message for d in run.notes if d.severity == "note" and "on its own" in d.message)
    return [Made(f, f, "", "", backend, True, Port(backend, "", [Diagnostic(
        "", Location(str(_shown(f)), 1, 1), why or f"no {backend} port of this file is written", "", "error")]))]


def _serve_extern_calls(run: Run, made: list[Made], backend: str, translate_one, dest: dict) -> None:
    """A one-file-a-port backend's calls of functions a port declares and another source of the run
    defines (Port.extern_calls: Metal's address-space signatures): the defining sources are translated
    again, given the union of the run's calls (each caller's own port declares what it calls)."""
    wanted: dict[str, list] = {}
    callers: dict[str, list[Path]] = {}
    for m in made:
        if m.backend == backend and m.port is not None:
            for name, sigs in m.port.extern_calls.items():
                wanted.setdefault(name, []).extend(s for s in sigs if s not in wanted.get(name, []))
                callers.setdefault(name, []).append(_res(m.origin))
    if not wanted:
        return
    for i, m in enumerate(made):
        key = _res(m.origin)
        if m.backend != backend or m.header:
            continue
        names = {f.name for f in run.project.module(key).functions.values() if f.is_device and not f.is_kernel} & set(wanted)
        if not names:
            continue
        base = dest[key].parent
        others = sorted({c for n in names for c in callers[n]} - {key})
        via = " ".join(Path(os.path.relpath(p, base)).as_posix() for p in [key, *others])  # regenerates it
        port, text = translate_one(m.origin, key, False, {}, extern_calls={n: wanted[n] for n in sorted(names)}, via=via)
        if port.body != m.port.body:  # (its own calls served them already: the port and its command stay)
            made[i] = Made(m.origin, m.path, text, "", backend, False, port)


def _includes_first(proj: Project, headers: list[Path]) -> list[Path]:
    """`headers`, each after the ones of them it includes (depth first; in an include cycle the
    header reached first comes last)."""
    members, out, seen = set(headers), [], set()
    for top in headers:
        if top in seen:
            continue
        seen.add(top)
        stack = [(top, iter(proj.scan(top).includes.get(top, [])))]
        while stack:
            h, incs = stack[-1]
            nxt = next((i.resolved for i in incs if i.resolved in members and i.resolved not in seen), None)
            if nxt is None:
                stack.pop()
                out.append(h)
            else:
                seen.add(nxt)
                stack.append((nxt, iter(proj.scan(nxt).includes.get(nxt, []))))
    return out


def _private_analysis(proj: Project, key: Path, m):
    """For a translator that changes its model and analysis: a copy of the plan's analysis (`_decide`
    made it for every file), not a second run of warpflow on the same text; None where the plan could
    not make it (the translator then analyses its own model and says what failed)."""
    try:
        return proj.analysis(key).private(m)
    except Exception:  # noqa: BLE001 - as in _decide: the file's translation reports it
        return None


def _unported_warp_includes(proj: Project, key: Path, ported: set[Path], refused: dict[Path, str],
                            run_headers: set[Path], said: set[tuple[Path, int]]) -> list[Diagnostic]:
    """KP222 for the port of `key`: each header it includes as CUDA that holds warp-level code or CUDA
    API this run does not port (one that is itself a kernelport port, say) or that could not be read.  A
    header of the run whose port would not differ is not written, so the port includes it as it is,
    and its own includes as they are: those are followed too (cudahandbook's scanWarp.cuh, unchanged,
    includes `../scanWarpPolicy.cuh` with the shuffles), and the warning is at the include that
    reaches the unported header, once per run."""
    out: list[Diagnostic] = []
    includes = proj.scan(key).includes  # the translation unit's includes, per file, as it resolves them
    todo, seen = [(key, ())], {key}
    while todo:
        f, via = todo.pop(0)
        for i in includes.get(f, []):
            h = i.resolved
            if h is None or h in ported or h in seen:
                continue
            seen.add(h)
            through = f" (included through {' -> '.join(via)})" if via else ""
            where = (Path(i.location.path), i.location.line)
            outside = h not in run_headers and h not in refused
            what = "warp-level code" if outside and _warp_header(proj, h) else _cuda_api(proj, h) if outside else ""
            if h in refused or what:
                if where in said:
                    continue
                said.add(where)
                if h in refused:
                    out.append(Diagnostic(
                        "KP222", i.location, f"'{i.name}'{through} is not ported: {refused[h]}; the port includes "
                        "the CUDA header", "fix the header so that it parses as CUDA C++", "warning"))
                else:
                    out.append(Diagnostic(
                        "KP222", i.location, f"'{i.name}'{through} has {what} but is not ported in this "
                        "run: the port includes the CUDA header", "translate the header itself, or include its "
                        "CUDA source rather than a port of it", "warning"))
            else:  # included as written: what it includes, the port includes too
                todo.append((h, via + (i.name,)))
    return out


_BODIES = ("compound_statement", "field_declaration_list")


def _warp_fragments(proj: Project, key: Path) -> list[Diagnostic]:
    """KP234 for the port of `key`: each header it includes inside a function or class body (a
    fragment of statements: cusph's `{ #include "interactions/...cuh" }`) that holds warp-level code.
    Ported on its own, the fragment's shuffles and ballots are judged without the code around them (a
    reduction begun in the includer), so a port that includes it could be wrong at wave 64: refused
    at the include.  A fragment without warp-level code is ported or included as it is, as any header."""
    out: list[Diagnostic] = []
    for i in proj.scan(key).includes.get(key, []):
        n = i.node.parent
        while n is not None and n.type not in _BODIES:
            n = n.parent
        if n is not None and i.resolved is not None and _warp_header(proj, i.resolved):
            out.append(Diagnostic(
                "KP234", i.location, f"'{i.name}' is included inside a body and holds warp-level code: its "
                "port on its own would not see the code around it", "make the fragment a __device__ function "
                "(or paste it into the body) and translate again"))
    return out


def pf_text(proj: Project, key: Path) -> str:
    pf = proj.file(key)
    return pf.src.text if pf is not None else ""


def _shown(p: Path) -> Path:
    try:
        return Path(os.path.relpath(p))
    except ValueError:
        return p


def _warp_header(proj: Project, h: Path) -> bool:
    pf = proj.file(h)
    if pf is None:
        return False
    m = pf.module
    return bool(proj.warp_functions(h)) or any(u.concept.warp_level for u in m.uses) or any(
        warpflow.int_value(mac.value) == 32 and warpflow.WARP_SIZE_NAME.search(n) for n, mac in m.macros.items())


def _cuda_api(proj: Project, h: Path) -> str:
    """What of the CUDA API a header outside the run names, which its port would rename (the source
    backend's API-shaped names, `cudaError_t` in a `CHECK` macro, and CUDA's own headers), as the
    warning says it; "" when none."""
    from .declared_names import names_declared_in
    pf = proj.file(h)
    if pf is None:
        return ""
    text = _COMMENTS.sub(" ", pf.src.text)
    pattern = backends.source().api_pattern
    own = names_declared_in(pf.src)  # the header's own `cudaCheck` is no CUDA API
    names = [n.group(0) for n in re.finditer(rf"\b(?:{pattern})\b", text) if n.group(0) not in own] if pattern else []
    heads = [n for n in _INCLUDED.findall(text) if _toolkit_header(n)]
    found = list(dict.fromkeys(names)) + [f"<{n}>" for n in dict.fromkeys(heads)]
    if not found:
        return ""
    return "CUDA API (" + ", ".join(f"`{n}`" for n in found[:3]) + (", ..." if len(found) > 3 else "") + ")"


_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_INCLUDED = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^">\n]+)[">]', re.M)


def _spelling(inc, port_of_includer: Path, port_of_header: Path, searched: bool) -> str:
    """How the includer's port names the header's port: relative to it for `"x"`; `<dir/x>` keeps
    its directory part (the include path then names the ports' tree), unless no include dir reached
    it (kernelport.include_search): then relative too, and the port compiles without a -I."""
    if inc.angled and not searched:
        head = inc.name.rsplit("/", 1)[0] + "/" if "/" in inc.name else ""
        return head + port_of_header.name
    rel = Path(os.path.relpath(port_of_header, port_of_includer.parent)).as_posix()
    return f'"{rel}"' if inc.angled else rel  # (a whole spelling: `<x>` becomes `"../x"`)


def _command(run: Run, given: Path, key: Path, hdr: bool, base: Path) -> str | None:
    """The regenerate command of a port: for a header's port, the command of a source that includes it
    (the first of the run's sources that does)."""
    if not hdr:
        return None
    if run.includer_of is None:  # once per run: each header port asked every source (headers x sources)
        run.includer_of = {}
        for s in run.sources:
            r = _res(s)
            for h in run.project.headers(r):
                run.includer_of.setdefault(h, r)
    s = run.includer_of.get(key)
    return str(Path(os.path.relpath(s, base)).as_posix()) if s is not None else None
