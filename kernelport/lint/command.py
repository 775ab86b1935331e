"""What `kernelport lint` does, without the CLI framework: the command's options arrive as plain values.

kernelport/lint/cli.py declares the options to typer; kernelport/lint/argv.py reads the plain spellings
of a pre-commit hook's argv without typer (its start-up is a quarter of a one-file lint's).  Both call
`lint` here.  Exit statuses are SystemExit, which typer passes through as it passes its own Exit.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

from ..errors import KernelportError
from . import config as configmod
from .finding import RANK
from .formats import FORMATS, render, statistics as print_statistics, summary
from .rule import check_selectors, parse_targets


def _say(text: str) -> None:
    """A line on stderr, flushed, as typer's echo writes these (counts and fixed words: no ANSI codes to strip)."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _split(values: Optional[List[str]]) -> list[str]:
    out: list[str] = []
    for v in values or []:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


def _label(side: str, path: str) -> str:
    return path if Path(path).is_absolute() else f"{side}/{Path(path).as_posix()}"


def _stdin_result(display: str, overrides: configmod.Overrides, mode: str | None, unsafe: bool):
    """Lint text read from stdin as if it were the file `display` (its kind, its configuration)."""
    from . import units
    from .engine import FileResult, lint_unit, settings_for, units_of
    from dataclasses import replace
    from .fix import fix_text
    path = Path(display)
    units.reset_project(configmod.options_for(overrides))  # (the files beside it: read with the run's options)
    text = sys.stdin.read()
    res = FileResult(display, text=text)
    settings = settings_for(path, overrides)
    us = units_of(path, display, text, True, settings.includes)
    if us is None:
        raise KernelportError(f"{display}: not a CUDA (.cu, .cuh), HIP (.hip), header, C++ source, Metal or Python file name",
                              hint="--stdin-filename names the file the text comes from, e.g. kernels/reduce.cu")
    res.findings = [f for u in us for f in lint_unit(u, settings)]
    if mode and len(us) == 1 and us[0].fixable and not any(f.code == "KP001" for f in res.findings):
        def relint(t: str):
            return lint_unit(replace(us[0], text=t), settings)
        fixed, res.findings, res.fixed_codes, res.withheld, res.hidden = fix_text(text, res.findings, relint,
                                                                                   unsafe=unsafe)
        res.applied = len(res.fixed_codes)
        if fixed != text:
            res.fixed = fixed
    return res


def _show_fixes(results, stream) -> None:
    from collections import Counter
    for r in results:
        if r.fixed_codes:
            counts = Counter(r.fixed_codes)
            stream.write(f"Fixed in {r.path}: " + ", ".join(
                f"{n} × {c}" + (" (unsafe)" if a == "unsafe" else "") for (c, a), n in sorted(counts.items())) + "\n")


def lint(paths: Optional[List[Path]] = None, format: str = "full", select: Optional[List[str]] = None,
         ignore: Optional[List[str]] = None, fail_on: Optional[str] = None, exit_zero: bool = False,
         statistics: bool = False, targets: Optional[str] = None, fix: bool = False, diff: bool = False,
         show_fixes: bool = False, unsafe_fixes: bool = False, stdin_filename: Optional[Path] = None,
         output_file: Optional[Path] = None, config: Optional[Path] = None, jobs: Optional[int] = None,
         include_dir: Optional[List[Path]] = None, define: Optional[List[str]] = None,
         hip_define: Optional[List[str]] = None, compile_commands: Optional[Path] = None, confirm: bool = False,
         inputs: Optional[Path] = None) -> None:
    """The lint command (its options: kernelport/lint/cli.py's declaration, whose defaults these are)."""
    from .engine import lint_paths
    from ..project import parse_define

    if format not in FORMATS:
        raise KernelportError(f"unknown format '{format}'", hint="formats: " + ", ".join(FORMATS))
    if inputs is not None and not confirm:
        raise KernelportError("--inputs gives the inputs of the kernels --confirm runs", hint="add --confirm")
    if confirm and (fix or diff or statistics):
        raise KernelportError("--confirm marks findings; it does not combine with --fix, --diff or --statistics",
                              hint="run `kernelport lint --confirm` on its own")
    given = None
    if inputs is not None:  # its errors before any file is linted
        from ..wave_inputs import read as read_inputs
        given = read_inputs(inputs)
    if fail_on is not None and fail_on not in configmod.FAIL_LEVELS:
        raise KernelportError(f"unknown --fail-on level '{fail_on}'", hint="error, warning or info")
    configmod.clear_cache()  # a new run: pyproject files may have changed (one process, several runs)
    if config is not None:
        if not config.is_file():
            raise KernelportError(f"--config {config}: no such file", hint="name a pyproject.toml")
        configmod.use(config)
    paths = list(paths or [Path(".")])
    stdin = [p for p in paths if str(p) == "-"]
    if stdin and (len(paths) > 1 or stdin_filename is None):
        raise KernelportError("`-` reads one file from stdin and needs --stdin-filename",
                              hint="e.g. kernelport lint - --stdin-filename kernels/reduce.cu < kernels/reduce.cu")
    for p in paths:
        if not stdin and not p.exists():
            raise KernelportError(f"no such file or directory: {p}", hint="check the path")
    overrides = configmod.Overrides(
        targets=parse_targets([targets]) if targets is not None else None,
        select=tuple(check_selectors(_split(select), "--select")) if select else None,
        ignore=tuple(check_selectors(_split(ignore), "--ignore")),
        include_dirs=tuple(str(d.resolve()) for d in include_dir or ()),
        defines=tuple(parse_define(d) for d in define or ()),
        hip_defines=tuple(parse_define(d)[0] for d in hip_define or ()),
        compile_commands=compile_commands,
    )
    if compile_commands is not None and not compile_commands.is_file():
        raise KernelportError(f"--compile-commands {compile_commands}: no such file", hint="check the path")
    cfg = configmod.find(stdin_filename if stdin and stdin_filename is not None else paths[0])
    level = fail_on or cfg.fail_on or "warning"
    mode = "diff" if diff else "fix" if fix else None
    out = open(output_file, "w", encoding="utf-8") if output_file is not None else sys.stdout
    try:
        if stdin:
            results = [_stdin_result(str(stdin_filename), overrides, mode, unsafe_fixes)]
        else:
            results = lint_paths(paths, overrides, mode=mode, jobs=jobs, unsafe_fixes=unsafe_fixes,
                                 progress=format in ("full", "concise") and output_file is None)
        if confirm:  # the emulator, only when asked for (lint's start-up time)
            from .confirm import confirm as run_confirm, summary as confirm_summary
            counts = run_confirm(results, given)
            if format in ("full", "concise"):
                _say(confirm_summary(counts))
        return _report(results, mode, format, statistics, show_fixes, exit_zero, level, bool(stdin), out,
                       unsafe_fixes)
    finally:
        if output_file is not None:
            out.close()


def _report(results, mode, format, statistics, show_fixes, exit_zero, level, stdin, out, unsafe_fixes) -> None:
    findings = sorted((f for r in results for f in r.findings), key=lambda f: f.sort_key())
    texts = {r.path: (r.fixed if r.fixed is not None and mode == "fix" else r.text) for r in results if r.text}
    parse_error = any(f.code in ("KP001", "KP002", "KP007") for f in findings)  # KP007: main's annotation check
    withheld = sum(r.withheld for r in results)
    held = (f"; {withheld} fix{'es' if withheld != 1 else ''} not applied: each would add a finding"
            if withheld else "")
    hidden = sum(r.hidden for r in results)
    held += f"; {hidden} hidden (use --unsafe-fixes)" if hidden else ""
    unsafe_n = sum(a == "unsafe" for r in results for _, a in r.fixed_codes)
    held = (f" ({unsafe_n} unsafe)" if unsafe_n else "") + held

    if mode == "diff":
        import difflib  # only for --diff
        changed = 0
        for r in results:
            if r.fixed is not None and r.text is not None:
                changed += 1
                out.write("".join(difflib.unified_diff(r.text.splitlines(keepends=True), r.fixed.splitlines(keepends=True),
                                                       fromfile=_label("a", r.path), tofile=_label("b", r.path))))
        n = sum(r.applied for r in results)
        if show_fixes:
            _show_fixes(results, sys.stderr)
        _say(f"Would fix {n} finding{'s' if n != 1 else ''} in {changed} file{'s' if changed != 1 else ''}{held}.")
        raise SystemExit(0 if exit_zero else 2 if parse_error else 1 if changed else 0)

    if mode == "fix":
        n, files = sum(r.applied for r in results), sum(1 for r in results if r.fixed is not None)
        if stdin:  # like ruff: the fixed text goes to stdout, the findings that remain to stderr
            r = results[0]
            sys.stdout.write(r.fixed if r.fixed is not None else r.text or "")
            out = sys.stderr if out is sys.stdout else out
        if show_fixes:
            _show_fixes(results, sys.stderr)
        _say(f"Fixed {n} finding{'s' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}{held}.")

    if statistics:
        print_statistics(findings, out, format, unsafe_fixes)
    else:
        from ..color import resolve
        render(format, findings, texts, out, color=resolve(stream=out))
    if format in ("full", "concise") and not statistics:
        _say(summary(findings, len(results), unsafe_fixes))
    if exit_zero:
        raise SystemExit(0)
    if parse_error:
        raise SystemExit(2)
    failing = any(RANK[f.severity] >= RANK[level] for f in findings)
    raise SystemExit(1 if failing else 0)
