"""Lint one file (every unit of analysable text in it), and many files in parallel."""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import config as configmod
from .. import backends, run_paths
from ..batchgc import batch
from ..depth import big_stack
from ..includes import is_regular
from ..source import decode
from . import discovery, macrobodies, suppress, triggers, units
from .context import AnalysisFailed, Context, Settings, Unit
from .finding import Finding
from .rule import REGISTRY, TARGETS, all_rules, get, selected


@dataclass
class FileResult:
    """One file's lint: its findings, and its text where the report needs it."""
    path: str
    findings: list[Finding] = field(default_factory=list)
    text: str | None = None  # the file's text where rendering needs it: findings or a fix (kept off the
    #                           results of clean files, which worker processes would otherwise pickle back)
    fixed: str | None = None  # the text after --fix/--diff, when it changed
    applied: int = 0  # fixes applied
    fixed_codes: list[tuple[str, str]] = field(default_factory=list)  # (rule, applicability) of each fix applied
    withheld: int = 0  # fixes not applied because each would add a finding
    hidden: int = 0  # unsafe fixes not applied for want of --unsafe-fixes
    skipped: bool = False  # not a CUDA input after all (a header without device code)
    note: str | None = None  # why an explicitly named file was skipped


def _kp(code: str, path: str, line: int, col: int, message: str, end_col: int | None = None,
        severity: str | None = None) -> Finding:
    r = get(code)
    return Finding(path, line, col, line, end_col or col + 1, code, r.name,
                   severity or r.severity(frozenset(TARGETS)) or "error", message)


def _line_start(data: bytes, line: int) -> int:
    pos = 0
    for _ in range(line - 1):
        pos = data.index(b"\n", pos) + 1
    return pos


def _internal(path: str, stage: str, e: Exception, settings: Settings) -> list[Finding]:
    """KP006 for a failure outside the per-rule guard: this file's analysis stops, the run goes on."""
    if os.environ.get("KERNELPORT_DEBUG"):
        raise e
    if "KP006" not in settings.enabled:
        return []
    return [_kp("KP006", path, 1, 1, f"internal error in {stage} of {path}: {type(e).__name__}: {e}; the file was not "
                "linted, every other file was (please report it with this file)")]



@big_stack  # also when called alone (stdin, lint_text): the rules recurse over the syntax tree
def lint_unit(unit: Unit, settings: Settings) -> list[Finding]:
    try:  # the model, warpflow and the context: a failure there is this file's, never the run's
        ctx = Context(unit, settings)
    except Exception as e:
        return _internal(unit.path, "the analysis (model, warpflow)", e, settings)
    try:
        return _lint_context(ctx, unit, settings)
    except AnalysisFailed as e:  # warpflow, made on its first read (Context.analysis): the file's, as before
        return _internal(unit.path, "the analysis (model, warpflow)", e.__cause__, settings)
    except Exception as e:  # outside the per-rule guard: syntax errors, annotations, suppressions
        return _internal(unit.path, "the lint engine", e, settings)


def _lint_context(ctx: Context, unit: Unit, settings: Settings) -> list[Finding]:
    found: list[Finding] = []
    deep = ctx.too_deep
    if deep is not None:  # the rules recurse over the tree: a file past the bound is reported, not linted
        line, col = ctx.position(_line_start(ctx.src.data, deep.location.line) + len(
            ctx.src.line_text(deep.location.line)[:deep.location.column - 1].encode()))
        return [_kp("KP001", unit.path, line, col, f"{deep.message}; this file is not linted (hint: {deep.hint})")]
    if "KP001" in settings.enabled:
        lines_seen = set()
        for loc, msg in ctx.src.syntax_errors():
            # syntax_errors() positions are in the analysed text; map them to the file
            byte = _line_start(ctx.src.data, loc.line) + len(ctx.src.line_text(loc.line)[:loc.column - 1].encode())
            line, col = ctx.position(byte)
            if line in lines_seen or len(lines_seen) >= 20:
                continue
            lines_seen.add(line)
            found.append(_kp("KP001", unit.path, line, col, f"syntax error: {msg}; the rest of the file is still "
                             "linted, but findings near this line may be missing"))
    # annotations are read from CUDA-shaped text (a dialect read as written, not through a reader)
    if "KP007" in settings.enabled and "@kp" in unit.text and unit.lang in backends.REGISTRY and \
            backends.get(unit.lang).lint_reader is None:
        found.extend(_annotation_findings(ctx, unit))
    fires = triggers.Selector(unit).fires
    for rule in all_rules():
        if rule.code not in settings.enabled or unit.lang not in rule.languages or not fires(rule.triggers):
            continue  # (a rule whose trigger the unit does not hold reports nothing: lint/triggers.py)
        try:
            rule.check(ctx)
        except AnalysisFailed:
            raise
        except Exception as e:  # never a traceback: report the rule's failure, run the others
            if os.environ.get("KERNELPORT_DEBUG"):
                raise
            if "KP006" in settings.enabled:
                found.append(_kp("KP006", unit.path, 1, 1, f"rule {rule.code} ({rule.name}) failed on this file: "
                                 f"{type(e).__name__}: {e} (please report it; --ignore {rule.code} to skip it)"))
    found.extend(ctx.findings)
    found.extend(macrobodies.findings(ctx, lint_unit, replace(settings, enabled=settings.enabled | {"KP001"})))
    if unit.include_error and "KP006" in settings.enabled:
        found.append(_kp("KP006", unit.path, 1, 1, f"what this file's includes define could not be read: "
                         f"{unit.include_error} (please report it); the file was linted without them"))
    sups = suppress.of(ctx)
    kept = [f for f in found if f.code == "KP001"] + suppress.apply([f for f in found if f.code != "KP001"], sups)
    kept.extend(_suppression_findings(unit, sups, settings))
    uniq = {}
    for f in kept:
        uniq.setdefault((f.code, f.line, f.column, f.message), f)
    return sorted(uniq.values(), key=Finding.sort_key)


def _annotation_findings(ctx: Context, unit: Unit) -> list[Finding]:
    """KP007: the `// @kp` annotations checked as translate and verify check them."""
    from ..annotations import parse
    from ..errors import KernelportError
    try:
        parse(ctx.module)
    except RecursionError as e:  # never a traceback: say so, the rules still run
        return [_kp("KP006", unit.path, 1, 1, f"the annotation check failed on this file: {type(e).__name__}: {e} "
                    "(please report it; --ignore KP007 to skip it)")] if "KP006" in ctx.settings.enabled else []
    except KernelportError as e:
        line, col = 1, 1
        if e.location is not None and 1 <= e.location.line <= ctx.src.text.count("\n") + 1:
            byte = _line_start(ctx.src.data, e.location.line) + \
                len(ctx.src.line_text(e.location.line)[:e.location.column - 1].encode())
            line, col = ctx.position(byte)
        return [_kp("KP007", unit.path, line, col, f"invalid annotation: {e.message}"
                    + (f" (hint: {e.hint})" if e.hint else ""))]
    return []


def _suppression_findings(unit: Unit, sups, settings: Settings) -> list[Finding]:
    out = []
    applicable = [r.code for r in all_rules() if r.code in settings.enabled and unit.lang in r.languages]
    for s in sups:
        if s.style == "kernelport" and not s.reason and "KP004" in settings.enabled:
            out.append(_kp("KP004", unit.path, s.line, s.column,
                           "suppression without a reason: say why the finding does not apply, e.g. "
                           "`// kernelport: ignore[WS002] NVIDIA-only kernel`", s.end_column))
        if s.codes is None:
            if s.style == "kernelport" and not s.used and "KP003" in settings.enabled:
                out.append(_kp("KP003", unit.path, s.line, s.column, "unused suppression: no finding on the line it "
                               "covers", s.end_column))
            continue
        for c in s.codes:
            if c in s.used:
                continue
            known = c == "ALL" or any(code == c or (len(c) == 2 and code.startswith(c)) for code in REGISTRY)
            if not known:
                if "KP005" in settings.enabled:
                    out.append(_kp("KP005", unit.path, s.line, s.column, f"unknown rule code `{c}` in suppression "
                                   "(`kernelport rule` lists the rules)", s.end_column))
                continue
            if "KP003" in settings.enabled and any(code == c or (len(c) == 2 and code.startswith(c)) or c == "ALL"
                                                   for code in applicable):
                out.append(_kp("KP003", unit.path, s.line, s.column, f"unused suppression of `{c}`: no {c} finding "
                               "on the line it covers", s.end_column))
    return out


def units_of(path: Path, display: str, text: str, explicit: bool, includes=None) -> list[Unit] | None:
    kind = discovery.kind(path)
    if kind == discovery.PYTHON:
        if not explicit and not discovery.PY_MARKERS.search(text):
            return None
        us = units.python_units(display, text)
        return [units.with_includes(u, path, includes, part=i) for i, u in enumerate(us)]
    if kind == discovery.HEADER and not explicit and not discovery.DEVICE_MARKERS.search(text):
        return None
    b = discovery.dialect_of(path)
    u = units.unit(b, display, text)
    u.walked_header = not explicit and path.suffix.lower() in discovery.HEADER_EXT - discovery.CXX_SOURCES
    if b.lint_reader is None:  # text read as written: what its includes define counts
        units.with_includes(u, path, includes)
    return [u]


@big_stack  # the rules recurse over the syntax tree: depth.MAX_DEPTH levels need more than the default stack
def lint_file(task) -> FileResult:
    display, explicit, settings, mode, unsafe = task
    try:
        return _lint_file(display, explicit, settings, mode, unsafe)
    except Exception as e:  # header macros, embedded units, --fix: reported for this file, the run goes on
        res = FileResult(display, _internal(display, "linting", e, settings))
        try:
            res.text = Path(display).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            res.text = None
        return res


def _lint_file(display: str, explicit: bool, settings: Settings, mode: str | None, unsafe: bool = False) -> FileResult:
    path = Path(display)
    res = FileResult(display)
    if discovery.kind(path) is None:
        res.skipped, res.note = True, (f"{display}: skipped: not a CUDA (.cu, .cuh), HIP (.hip), header, C++ source, Metal or "
                                       "Python file")
        return res
    if not is_regular(path) and path.exists():  # a FIFO would block, a device never end
        res.findings = [_kp("KP002", display, 1, 1, "cannot read the file: not a regular file (a device, FIFO or "
                            "socket)")]
        return res
    try:
        raw = path.read_bytes()
    except OSError as e:
        res.findings = [_kp("KP002", display, 1, 1, f"cannot read the file: {e.strerror or e}")]
        return res
    try:
        text = decode(raw)  # a comment's Latin-1 bytes are read (kernelport.source.decode)
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        col = len(raw[raw.rfind(b"\n", 0, e.start) + 1:e.start].decode("utf-8", errors="replace")) + 1
        res.findings = [_kp("KP002", display, line, col, f"not valid UTF-8 (byte 0x{raw[e.start]:02x}); save the "
                            "file as UTF-8")]
        return res
    res.text = text
    us = units_of(path, display, text, explicit, settings.includes)
    if us is None:
        res.skipped = True
        return res
    findings: list[Finding] = []
    for u in us:
        findings.extend(lint_unit(u, settings))
    if mode and len(us) == 1 and us[0].fixable and not any(f.code == "KP001" for f in findings):

        def relint(t: str) -> list[Finding]:  # a fix never adds a finding: fix_text lints each
            return lint_unit(replace(us[0], text=t), settings)
        from .fix import fix_text  # the translator's rewrites: only under --fix/--diff
        current, findings, res.fixed_codes, res.withheld, res.hidden = fix_text(text, findings, relint,
                                                                                 unsafe=unsafe)
        res.applied = len(res.fixed_codes)
        if current != text:
            res.fixed = current
            if mode == "fix":
                from .fix import write_atomic
                write_atomic(path, current)
    res.findings = sorted(findings, key=Finding.sort_key)
    if not res.findings and res.fixed is None:
        res.text = None
    return res


def settings_for(path: Path, overrides: configmod.Overrides) -> Settings:
    cfg = configmod.find(path)
    select = overrides.select if overrides.select is not None else cfg.select
    ignore = tuple(cfg.ignore) + tuple(overrides.ignore) + cfg.ignored_for(path)
    targets = overrides.targets or cfg.targets or frozenset(TARGETS)
    return Settings(targets, selected(select, ignore), cfg.portable_macros,
                    configmod.includes_for(path, cfg, overrides))


def _exclude_for(d: Path):
    cfg = configmod.find(d)
    if not cfg.exclude or cfg.root is None:
        return ()
    import pathspec
    return (cfg.root.resolve(), pathspec.GitIgnoreSpec.from_lines(cfg.exclude))


def lint_paths(paths: list[Path], overrides: configmod.Overrides | None = None, *, mode: str | None = None,
               jobs: int | None = None, progress: bool = False, unsafe_fixes: bool = False) -> list[FileResult]:
    with batch():  # (a pool's workers fork inside it and inherit the pace)
        return _lint_paths(paths, overrides, mode, jobs, progress, unsafe_fixes)


def _lint_paths(paths: list[Path], overrides: configmod.Overrides | None, mode: str | None, jobs: int | None,
                progress: bool, unsafe_fixes: bool) -> list[FileResult]:
    overrides = overrides or configmod.Overrides()
    # files may have changed since the last run; the project reads every file with the run's options
    # (forked workers inherit it empty)
    units.reset_project(configmod.options_for(overrides))
    files = discovery.discover(paths, _exclude_for)
    units.project().units = [run_paths.resolved(Path(p)) for p, _ in files]  # a file's includer (kernelport.includers)
    dirs = [run_paths.resolved(Path(p)) for p in paths if Path(p).is_dir()]  # a directory run: headers no -I reaches
    if dirs:  # are looked for under its tree as translate does (kernelport.include_search: Bridge++'s
        units.project().search_dirs = dirs  # `#include "inline/define_params.h"`, its WARP_LENGTH leaderfolds' guard)
    tasks = [(str(p), explicit, settings_for(p, overrides), mode, unsafe_fixes) for p, explicit in files]
    workers = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    if workers == 1 or len(tasks) < 4:
        it = map(lint_file, tasks)
        out = _collect(it, len(tasks), progress)
    else:
        all_rules()  # import every rule module before the pool forks: workers inherit them, warm
        _before_fork(units.project())
        from concurrent.futures import ProcessPoolExecutor  # (multiprocessing: only for a pool, not one file)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            chunk = max(1, min(16, len(tasks) // (workers * 4)))
            out = _collect(pool.map(lint_file, tasks, chunksize=chunk), len(tasks), progress)
    if len(tasks) > 1 and mode is None:  # a header's definition, with its includers seen (lint/headeruses.py)
        from .headeruses import quiet_unused
        quiet_unused(out, units.project())
    return out


def _before_fork(proj) -> None:
    """The run's parses and its index of the words each file names (unit_launches.run_index), made once
    before the pool forks: every worker needs that index for the first kernel it lints, and each built
    it for itself, parsing every file of the run again (-j 2 cost 8% more CPU than -j 1).  A failure
    here is left to the workers, which meet it again and report it at the file it concerns."""
    from ..depth import on_big_stack
    from ..unit_launches import run_index
    try:
        on_big_stack(run_index, proj)
    except Exception:  # noqa: BLE001 - a worker reports it as the one-process run does
        pass


def _collect(it, total: int, progress: bool) -> list[FileResult]:
    out: list[FileResult] = []
    if progress and total >= 8 and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        with Progress(TextColumn("linting"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            t = bar.add_task("lint", total=total)
            for r in it:
                out.append(r)
                bar.advance(t)
    else:
        out = list(it)
    for r in out:
        if r.note:
            print(f"kernelport: {r.note}", file=sys.stderr)
    return [r for r in out if not r.skipped]


def lint_text(text: str, path: str = "<string>", lang: str | None = None, *, targets=None, select=None,
              ignore=(), portable_macros=(), parsed=None) -> list[Finding]:
    """Lint a string (tests, tools).  `lang`: a backend's name (default: the source dialect) or "python".
    `parsed`: the caller's parse of `text` (`.src`, `.module`), used instead of parsing it again."""
    settings = Settings(frozenset(targets) if targets else frozenset(TARGETS), selected(select, ignore),
                        frozenset(portable_macros))
    if lang == discovery.PYTHON:
        us = units.python_units(path, text)
    else:
        us = [units.unit(backends.get(lang) if lang else backends.source(), path, text)]
        us[0].parsed = parsed  # the context checks it is this text, parsed without includes
    out: list[Finding] = []
    for u in us:
        out.extend(lint_unit(u, settings))
    return sorted(out, key=Finding.sort_key)
