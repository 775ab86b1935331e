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
    from . import backends
    targets = backends.port_names()
    ts = [t.strip() for t in to.split(",") if t.strip()]
    for t in ts:
        if t not in targets:
            raise KernelportError(f"unknown target '{t}'", hint="targets: " + ", ".join(targets))
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
    demote_double: bool = typer.Option(False, "--demote-double",
                                       help="Metal: translate double as float (Metal has no double) instead of stopping."),
) -> None:
    """Translate CUDA kernels to HIP and/or Metal, keeping names, comments and layout."""
    from . import output as outmod
    from .source import SourceFile
    from .translate import companion, destination, port_file

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
            options = {"demote_double": True} if demote_double else {}
            port, text = port_file(src, backend, Path.cwd() if stdout else dest.parent,
                                   allow_unported=allow_unported, **options)
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
            # The port and the files that go with it (a Metal port's .metal.json sidecar, a header).
            files = [(dest, text)] + [(companion(dest, key), t) for key, t in port.extra_files.items()]
            if check:
                for path, content in files:
                    if not path.exists():
                        err.print(f"{path}: missing (run: {command})", markup=False)
                        status = 1
                    elif path.read_text(encoding="utf-8", errors="replace") != content:
                        sys.stdout.write(outmod.diff(path.read_text(encoding="utf-8", errors="replace"), content,
                                                     str(path)))
                        err.print(f"{path}: stale (run: {command})", markup=False)
                        status = 1
                continue
            for path, content in files:
                try:
                    verdict = outmod.write(path, content, force=force)
                except outmod.WriteRefused as e:
                    err.print(f"error: {e}", markup=False)
                    status = 1
                    continue
                out.print(f"{verdict:9} {path}", markup=False)
    raise typer.Exit(status)


@app.command()
def verify(
    paths: List[Path] = typer.Argument(..., help="Annotated kernel files or directories."),
    fmt: str = typer.Option("table", "--format", help="table, json or junit."),
    require: str = typer.Option("", "--require",
                                help="Comma-separated backends/tools whose skip is a failure (CI): hip, metal, nvcc."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the input generators (default: annotation)."),
    schedules: str = typer.Option("block,warp,thread", "--schedules", help="Emulator schedules to run."),
    device: Optional[str] = typer.Option(None, "--device", help="Also run the original on a real GPU: cuda."),
    jobs: int = typer.Option(0, "-j", "--jobs", help="Files verified in parallel (default: one per core)."),
    explain: bool = typer.Option(False, "--explain", help="Show inputs, reference and port values of failures."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Recompile and re-emulate everything; store nothing."),
    shard: Optional[str] = typer.Option(None, "--shard", help="Verify only shard I of N of the kernel files (I/N)."),
) -> None:
    """Prove every port computes what the original computes, at every wave width."""
    from . import verify_report
    from .verify import SCHEDULES, parse_shard, verify_paths

    if fmt not in ("table", "json", "junit"):
        raise KernelportError(f"unknown format '{fmt}'", hint="formats: table, json, junit")
    req = {r.strip() for r in require.split(",") if r.strip()}
    from . import backends
    known = {n for b in backends.REGISTRY.values() for n in (b.name, *b.tools)}
    bad = req - known
    if bad:
        raise KernelportError(f"unknown --require entry '{sorted(bad)[0]}'",
                              hint="use backend or tool names: " + ", ".join(sorted(known)))
    sched = tuple(s.strip() for s in schedules.split(",") if s.strip())
    if not sched or set(sched) - set(SCHEDULES):
        raise KernelportError(f"unknown schedule in '{schedules}'", hint="schedules: " + ", ".join(SCHEDULES))
    on_device = [b.name for b in backends.REGISTRY.values() if b.device_runner]
    if device is not None and device not in on_device:
        raise KernelportError(f"unknown device '{device}'", hint="--device " + " | ".join(on_device))
    reports = verify_paths(paths, require=req, seed=seed, schedules=sched, device=device, jobs=jobs,
                           progress=fmt == "table" and err.is_terminal, cache=not no_cache,
                           shard=parse_shard(shard) if shard is not None else None)
    if fmt == "json":
        sys.stdout.write(verify_report.as_json(reports) + "\n")
    elif fmt == "junit":
        sys.stdout.write(verify_report.junit(reports))
    else:
        verify_report.table(reports, out, explain=explain)
    if any(r.error and "error:" in r.error for r in reports) and not any(
            c.status == "fail" for r in reports for c in r.checks):
        raise typer.Exit(2)
    raise typer.Exit(1 if any(r.failed for r in reports) else 0)


@app.command()
def bind(
    files: List[Path] = typer.Argument(..., help="Annotated CUDA kernel files (.cu)."),
    output: Path = typer.Option(..., "-o", "--output", help="Output directory."),
    rust: bool = typer.Option(False, "--rust", help="Also write a Rust crate (std only) with safe bindings."),
    swift: bool = typer.Option(False, "--swift", help="Also write a Metal host snippet in Swift (untested on hardware)."),
    force: bool = typer.Option(False, "--force", help="Overwrite files kernelport did not write or that were edited."),
) -> None:
    """Write checked extern "C" launchers (CUDA, HIP) and, optionally, Rust and Swift bindings."""
    from . import output as outmod
    from .bind import NotBound, bind_file
    from .bind.files import write

    status = 0
    for f in files:
        try:
            outputs = bind_file(f, output, rust=rust, swift=swift)
        except NotBound as e:
            for d in e.diagnostics:
                err.print(d, markup=False)
            err.print(f"{f}: not bound: its port has constructs with no safe rewrite", markup=False)
            status = 1
            continue
        for o in outputs:
            try:
                verdict = write(o.path, o.text, force=force)
            except outmod.WriteRefused as e:
                err.print(f"error: {e}", markup=False)
                status = 1
                continue
            out.print(f"{verdict:9} {o.path}", markup=False)
    raise typer.Exit(status)


@app.command()
def plan(
    file: Path = typer.Argument(..., help="An annotated CUDA kernel file (.cu)."),
    kernel: Optional[str] = typer.Option(None, "--kernel", help="The kernel to plan (default: the first annotated)."),
    fmt: str = typer.Option("md", "--format", help="md or json."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write the plan to this file."),
    device: Optional[str] = typer.Option(None, "--device", help="Also time the original on a real GPU: cuda."),
    emit_timing_driver: Optional[Path] = typer.Option(
        None, "--emit-timing-driver", help="Write a standalone CUDA-events timing driver (timing.cu, the kernel and "
        "its inputs) to this directory, for a GPU host with nvcc only."),
    timing: Optional[Path] = typer.Option(None, "--timing", help="A JSON line the timing driver printed: measured "
                                          "figures for part 8."),
    force: bool = typer.Option(False, "--force", help="Overwrite -o FILE even if kernelport did not write it."),
) -> None:
    """Write the backend-agnostic plan of a kernel (8 parts, review checklist, CPU fallback)."""
    from .plan import build_plan
    from .plan.facts import gather
    from .plan.render import as_json, as_markdown

    if fmt not in ("md", "json"):
        raise KernelportError(f"unknown format '{fmt}'", hint="formats: md, json")
    from . import backends
    on_device = [b.name for b in backends.all() if b.device_runner]
    if device is not None and device not in on_device:
        raise KernelportError(f"unknown device '{device}'", hint="--device " + " | ".join(on_device))
    facts = gather(file, kernel)
    result = None
    if timing is not None:
        from .plan.timing import parse_result
        if not timing.is_file():
            raise KernelportError(f"{timing}: no such file", hint="save the driver's output: ./timing > result.json")
        result = parse_result(timing.read_text(encoding="utf-8", errors="replace"))

    def on_device(traffic):
        """The timing driver (written to --emit-timing-driver, run with --device cuda)."""
        import tempfile
        from .plan import timing as tmod
        if emit_timing_driver is not None:
            d = tmod.write_driver(facts, emit_timing_driver, traffic)
            err.print(f"wrote {d} (run: cd {d.parent} && nvcc -O3 -arch=native -o timing timing.cu && ./timing)",
                      markup=False)
        if device is None:
            return result, None
        with tempfile.TemporaryDirectory(prefix="kernelport-timing-") as tmp:
            try:
                return tmod.run_driver(tmod.write_driver(facts, Path(tmp), traffic)), None
            except Exception as e:  # no GPU here: part 8 says so
                return None, str(e)

    doc = build_plan(file, kernel, facts=facts, timing=result, on_device=on_device)
    text = as_json(doc) if fmt == "json" else as_markdown(doc)
    if output is None:
        sys.stdout.write(text)
        return
    from . import output as outmod
    if output.exists() and not force and output.read_text(encoding="utf-8", errors="replace") != text:
        raise KernelportError(f"{output} exists and differs", hint="pass --force to overwrite it, or choose another -o")
    outmod.write(output, text, force=True)
    err.print(f"wrote {output}", markup=False)


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


# -- lint (kernelport/lint/cli.py) ----------------------------------------------------------------
from .lint.cli import lint as _lint_command, rule as _rule_command  # noqa: E402

app.command(name="lint")(_lint_command)
app.command(name="rule")(_rule_command)
