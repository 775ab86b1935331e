"""The `kernelport lint` and `kernelport rule` commands (registered at the end of kernelport/cli.py)."""
from __future__ import annotations

import difflib
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


def lint(
    paths: Optional[List[Path]] = typer.Argument(None, help="Files or directories (default: the current directory)."),
    format: str = typer.Option("full", "--format", help="full | concise | json | sarif | github"),
    select: Optional[List[str]] = typer.Option(None, "--select", help="Rule codes or prefixes to enable (e.g. WS,SY001)."),
    ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Rule codes or prefixes to disable."),
    fail_on: Optional[str] = typer.Option(None, "--fail-on", help="Lowest severity that exits 1: error | warning | info "
                                          "(default: warning)."),
    exit_zero: bool = typer.Option(False, "--exit-zero", help="Exit 0 even when there are findings."),
    statistics: bool = typer.Option(False, "--statistics", help="Print the number of findings per rule instead."),
    targets: Optional[str] = typer.Option(None, "--targets",
                                          help="Comma-separated: cuda, hip-cdna, hip-rdna, metal (default: all)."),
    fix: bool = typer.Option(False, "--fix", help="Apply the fixes that cannot change CUDA behaviour."),
    diff: bool = typer.Option(False, "--diff", help="Print the fixes as a unified diff; write nothing."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", help="Worker processes (default: all cores)."),
) -> None:
    """Find warp-size, synchronisation and platform hazards in CUDA, HIP, Metal and embedded CUDA."""
    from .engine import lint_paths

    if format not in FORMATS:
        raise KernelportError(f"unknown format '{format}'", hint="formats: " + ", ".join(FORMATS))
    if fail_on is not None and fail_on not in configmod.FAIL_LEVELS:
        raise KernelportError(f"unknown --fail-on level '{fail_on}'", hint="error, warning or info")
    paths = list(paths or [Path(".")])
    for p in paths:
        if not p.exists():
            raise KernelportError(f"no such file or directory: {p}", hint="check the path")
    overrides = configmod.Overrides(
        targets=parse_targets([targets]) if targets is not None else None,
        select=tuple(check_selectors(_split(select), "--select")) if select else None,
        ignore=tuple(check_selectors(_split(ignore), "--ignore")),
    )
    cfg = configmod.find(paths[0])
    level = fail_on or cfg.fail_on or "warning"
    mode = "diff" if diff else "fix" if fix else None
    results = lint_paths(paths, overrides, mode=mode, jobs=jobs, progress=format in ("full", "concise"))
    findings = sorted((f for r in results for f in r.findings), key=lambda f: f.sort_key())
    texts = {r.path: (r.fixed if r.fixed is not None and mode == "fix" else r.text) for r in results if r.text}
    parse_error = any(f.code in ("KP001", "KP002", "KP007") for f in findings)
    out = sys.stdout

    if mode == "diff":
        changed = 0
        for r in results:
            if r.fixed is not None and r.text is not None:
                changed += 1
                out.write("".join(difflib.unified_diff(r.text.splitlines(keepends=True), r.fixed.splitlines(keepends=True),
                                                       fromfile=_label("a", r.path), tofile=_label("b", r.path))))
        n = sum(r.applied for r in results)
        typer.echo(f"Would fix {n} finding{'s' if n != 1 else ''} in {changed} file{'s' if changed != 1 else ''}.",
                   err=True)
        raise typer.Exit(0 if exit_zero else 2 if parse_error else 1 if changed else 0)

    if mode == "fix":
        n, files = sum(r.applied for r in results), sum(1 for r in results if r.fixed is not None)
        typer.echo(f"Fixed {n} finding{'s' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}.", err=True)

    if statistics:
        print_statistics(findings, out)
    else:
        render(format, findings, texts, out, color=None if out.isatty() else False)
    if format in ("full", "concise") and not statistics:
        typer.echo(summary(findings, len(results)), err=True)
    if exit_zero:
        raise typer.Exit(0)
    if parse_error:
        raise typer.Exit(2)
    failing = any(RANK[f.severity] >= RANK[level] for f in findings)
    raise typer.Exit(1 if failing else 0)


def rule(code: Optional[str] = typer.Argument(None, help="A rule code (WS002) or name; omit to list every rule.")) -> None:
    """Show a rule's documentation, or list all rules."""
    rules = all_rules()
    if code is None:
        w = max(len(r.name) for r in rules)
        for r in rules:
            sev = family_severity(r.family, frozenset(TARGETS))
            sev = r.severity(frozenset(TARGETS)) or sev
            fx = "fix" if r.fixable else "   "
            typer.echo(f"{r.code}  {r.name:<{w}}  {sev:<7}  {fx}  {r.summary}")
        return
    r = get(code) or next((x for x in rules if x.name == code.lower()), None)
    if r is None:
        raise KernelportError(f"unknown rule '{code}'", hint="`kernelport rule` lists the rules")
    from .docs import rule_text
    typer.echo(rule_text(r))
