"""The `kernelport lint` and `kernelport rule` commands (registered at the end of kernelport/cli.py)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from ..errors import KernelportError
from . import config as configmod
from .finding import RANK
from .formats import FORMATS, render, statistics as print_statistics, summary
from .rule import TARGETS, all_rules, check_selectors, family_severity, get, parse_targets


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


def lint(
    paths: Optional[List[Path]] = typer.Argument(None, metavar="PATH...",
                                                 help="Files or directories (default: the current directory); "
                                                 "`-` reads one file from stdin (with --stdin-filename)."),
    format: str = typer.Option("full", "--format", metavar="FORMAT", help="full | concise | json | sarif | github"),
    select: Optional[List[str]] = typer.Option(None, "--select", metavar="CODES",
                                               help="Rule codes or prefixes to enable (e.g. WS,SY001)."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", metavar="CODES",
                                               help="Rule codes or prefixes to disable."),
    fail_on: Optional[str] = typer.Option(None, "--fail-on", metavar="LEVEL",
                                          help="Lowest severity that exits 1: error | warning | info "
                                          "(default: warning)."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when there are findings."),
    statistics: bool = typer.Option(False, "--statistics",
                                    help="Print the number of findings per rule instead (JSON with --format json)."),
    targets: Optional[str] = typer.Option(None, "--targets", metavar="TARGETS",
                                          help="Comma-separated: cuda, hip-cdna, hip-rdna, metal (default: all)."),
    fix: bool = typer.Option(False, "--fix", help="Apply the fixes that cannot change CUDA behaviour and add no "
                             "finding."),
    diff: bool = typer.Option(False, "--diff", help="Print the fixes as a unified diff; write nothing."),
    show_fixes: bool = typer.Option(False, "--show-fixes", help="With --fix or --diff: list the fixes per file."),
    unsafe_fixes: bool = typer.Option(False, "--unsafe-fixes", help="Also offer and apply the fixes that change a "
                                      "type on NVIDIA (`1u << lane` → `1ull << lane`); marked unsafe."),
    stdin_filename: Optional[Path] = typer.Option(None, "--stdin-filename", metavar="PATH",
                                                  help="The name of the file read from stdin (`-`): its kind, its "
                                                  "configuration, the path in findings."),
    output_file: Optional[Path] = typer.Option(None, "--output-file", "-o", metavar="FILE",
                                               help="Write the report to FILE instead of stdout."),
    config: Optional[Path] = typer.Option(None, "--config", metavar="FILE",
                                          help="Use this pyproject.toml's [tool.kernelport] instead of the nearest one."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", metavar="N", help="Worker processes (default: all "
                                       "cores)."),
    include_dir: Optional[List[Path]] = typer.Option(None, "-I", "--include-dir", metavar="DIR",
                                                     help="Search DIR for included headers (also [tool.kernelport] "
                                                     "include-dirs)."),
    define: Optional[List[str]] = typer.Option(None, "-D", "--define", metavar="NAME[=VALUE]",
                                               help="Define a macro for every file (also [tool.kernelport] defines)."),
    hip_define: Optional[List[str]] = typer.Option(None, "--hip-define", metavar="NAME",
                                                   help="A macro the project's HIP build defines (besides "
                                                   "__HIP_PLATFORM_AMD__, USE_ROCM-style names and those tested "
                                                   "around an #include <hip/...>): lint judges wave-64 hazards "
                                                   "under that build (also [tool.kernelport] hip-defines)."),
    compile_commands: Optional[Path] = typer.Option(None, "--compile-commands", metavar="PATH",
                                                    help="Per-file -I/-D from this compile_commands.json (default: "
                                                    "one in the file's directory or a parent's build/)."),
    confirm: bool = typer.Option(False, "--confirm", help="Run each kernel with a warp-size finding at wave 32 and "
                                 "64 (annotated or inferred inputs): mark the finding confirmed (outputs differ), "
                                 "latent or not run."),
    inputs: Optional[Path] = typer.Option(None, "--inputs", metavar="FILE",
                                          help="With --confirm: inputs of kernels without annotations, as `@kp` "
                                          "lines in a file (docs/confirm.md)."),
) -> None:
    """Find warp-size, synchronisation and platform hazards in CUDA, HIP, Metal and embedded CUDA."""
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
                typer.echo(confirm_summary(counts), err=True)
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
        typer.echo(f"Would fix {n} finding{'s' if n != 1 else ''} in {changed} file{'s' if changed != 1 else ''}"
                   f"{held}.", err=True)
        raise typer.Exit(0 if exit_zero else 2 if parse_error else 1 if changed else 0)

    if mode == "fix":
        n, files = sum(r.applied for r in results), sum(1 for r in results if r.fixed is not None)
        if stdin:  # like ruff: the fixed text goes to stdout, the findings that remain to stderr
            r = results[0]
            sys.stdout.write(r.fixed if r.fixed is not None else r.text or "")
            out = sys.stderr if out is sys.stdout else out
        if show_fixes:
            _show_fixes(results, sys.stderr)
        typer.echo(f"Fixed {n} finding{'s' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}{held}.",
                   err=True)

    if statistics:
        print_statistics(findings, out, format, unsafe_fixes)
    else:
        from ..color import resolve
        render(format, findings, texts, out, color=resolve(stream=out))
    if format in ("full", "concise") and not statistics:
        typer.echo(summary(findings, len(results), unsafe_fixes), err=True)
    if exit_zero:
        raise typer.Exit(0)
    if parse_error:
        raise typer.Exit(2)
    failing = any(RANK[f.severity] >= RANK[level] for f in findings)
    raise typer.Exit(1 if failing else 0)


def rule(code: Optional[str] = typer.Argument(None, metavar="CODE", help="A rule code (WS002) or name; omit to list every rule.")) -> None:
    """Show a rule's documentation, or list all rules."""
    rules = all_rules()
    if code is None:
        w = max(len(r.name) for r in rules)
        for r in rules:
            sev = family_severity(r.family, frozenset(TARGETS))
            sev = r.severity(frozenset(TARGETS)) or sev
            fx = ("fix!" if r.fix_applicability == "unsafe" else "fix ") if r.fixable else "    "
            typer.echo(f"{r.code}  {r.name:<{w}}  {sev:<7}  {fx}  {r.summary}")
        typer.echo("fix: `--fix` applies it; fix!: an unsafe fix, applied only with `--fix --unsafe-fixes`.")
        return
    r = get(code) or next((x for x in rules if x.name == code.lower()), None)
    if r is None:
        raise KernelportError(f"unknown rule '{code}'", hint="`kernelport rule` lists the rules")
    from .docs import rule_text
    typer.echo(rule_text(r))
