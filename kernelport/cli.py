"""The `kernelport` command line (typer); output through rich."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from . import __version__
from .errors import KernelportError

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None,
                  help="Port annotated CUDA kernels to HIP and Metal, lint wave-size hazards, verify every port.")
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def _version(value: bool) -> None:
    if value:
        out.print(f"kernelport {__version__}")
        raise typer.Exit(0)


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit.")) -> None:
    """kernelport: one CUDA source of truth, correct HIP and Metal ports."""


def _targets(to: str) -> list[str]:
    from .translate import TRANSLATORS as TARGETS
    ts = [t.strip() for t in to.split(",") if t.strip()]
    for t in ts:
        if t not in TARGETS:
            raise KernelportError(f"unknown target '{t}'", hint="targets: " + ", ".join(TARGETS))
    if not ts:
        raise KernelportError("--to names no target", hint="e.g. --to hip,metal")
    return ts


@app.command()
def translate(
    files: List[Path] = typer.Argument(..., help="CUDA source files (.cu, .cuh)."),
    to: str = typer.Option("hip", "--to", help="Comma-separated targets: hip, metal."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Output directory (default: beside the source)."),
    stdout: bool = typer.Option(False, "--stdout", help="Print the port instead of writing it."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 with a diff if a port on disk is stale."),
    force: bool = typer.Option(False, "--force", help="Overwrite files kernelport did not write or that were edited."),
    allow_unported: bool = typer.Option(False, "--allow-unported",
                                        help="Keep code that has no safe rewrite, behind a KERNELPORT-UNPORTED comment."),
    explain: bool = typer.Option(False, "--explain", help="List every rewrite and why it was made."),
) -> None:
    """Translate CUDA kernels to HIP and/or Metal, keeping names, comments and layout."""
    from . import output as outmod
    from .source import SourceFile
    from .translate import destination, port_file

    from . import annotations
    from .model import build

    targets = _targets(to)
    status = 0
    for f in files:
        src = SourceFile.read(f)
        src.check_syntax()
        for spec in annotations.parse(build(src)).values():
            for loc, msg in spec.warnings:
                err.print(f"{loc}: warning: {msg}", markup=False)
        for backend in targets:
            dest = destination(f, backend, output)
            port, text = port_file(src, backend, Path.cwd() if stdout else dest.parent,
                                   allow_unported=allow_unported)
            command = text.splitlines()[1].removeprefix("// Regenerate: ")
            for d in port.diagnostics:
                err.print(d.format(), markup=False)
            if explain:
                for n in port.notes:
                    err.print(f"{n.location}: {n.before!r} -> {n.after!r}: {n.why}", markup=False)
            if not port.ok:
                err.print(f"{f}: not translated to {backend}: {sum(d.severity == 'error' for d in port.diagnostics)} "
                          "construct(s) have no safe rewrite (fix them, or pass --allow-unported)", markup=False)
                status = 1
                continue
            if stdout:
                sys.stdout.write(text)
                continue
            if check:
                if not dest.exists():
                    err.print(f"{dest}: missing (run: {command})", markup=False)
                    status = 1
                elif dest.read_text(encoding="utf-8", errors="replace") != text:
                    sys.stdout.write(outmod.diff(dest.read_text(encoding="utf-8", errors="replace"), text, str(dest)))
                    err.print(f"{dest}: stale (run: {command})", markup=False)
                    status = 1
                continue
            try:
                verdict = outmod.write(dest, text, force=force)
            except outmod.WriteRefused as e:
                err.print(f"error: {e}", markup=False)
                status = 1
                continue
            out.print(f"{verdict:9} {dest}", markup=False)
    raise typer.Exit(status)


def run() -> None:
    """Entry point: user errors print one line (exit 2); nothing ever prints a traceback."""
    try:
        rc = app(standalone_mode=False)
        sys.exit(rc if isinstance(rc, int) else 0)
    except KernelportError as e:
        err.print(e.format(), markup=False)
        sys.exit(e.exit_code)
    except typer.Exit as e:
        sys.exit(e.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        err.print("aborted", markup=False)
        sys.exit(130)
    except SystemExit:
        raise
    except Exception as e:  # click usage errors and the unexpected
        if callable(getattr(e, "show", None)) and isinstance(getattr(e, "exit_code", None), int):
            e.show()  # a usage error from the CLI framework (typer vendors click)
            sys.exit(2)
        if os.environ.get("KERNELPORT_DEBUG"):
            raise
        err.print(f"kernelport: internal error: {type(e).__name__}: {e} "
                  "(please report it with the input file; KERNELPORT_DEBUG=1 shows the traceback)", markup=False)
        sys.exit(3)
