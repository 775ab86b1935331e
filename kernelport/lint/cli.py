"""The `kernelport lint` and `kernelport rule` commands (registered at the end of kernelport/cli.py).

`lint` declares the options to typer (their help, their spellings) and runs kernelport/lint/command.py,
whose keyword defaults are these options' defaults (tests/test_startup.py checks both against typer's).
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..errors import KernelportError
from . import command
from .rule import TARGETS, all_rules, family_severity, get


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
    command.lint(**locals())  # (the parameters alone: nothing else is bound yet)


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
