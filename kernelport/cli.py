"""The `kernelport` command line (typer); output through rich."""
from __future__ import annotations

import copy
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

from . import __version__, check_budget
from .batchgc import batch, settle
from .cli_values import install
from .color import lazy_console
from .errors import KernelportError


class PlainValues:
    """Options converted without pydantic (kernelport/cli_values.py); mixed into typer's command classes."""

    def parse_args(self, ctx, args):  # type: ignore[no-untyped-def]
        install(self.get_params(ctx))  # type: ignore[attr-defined]  # after __init__: typer adds options late
        return super().parse_args(ctx, args)  # type: ignore[misc]


class PlainGroup(PlainValues, typer.core.TyperGroup):
    """The top-level command."""


app = typer.Typer(add_completion=True, no_args_is_help=True, rich_markup_mode=None, cls=PlainGroup,
                  help="Port annotated CUDA kernels to HIP and Metal, lint wave-size hazards, verify every port.")


class PlainHelp(PlainValues, typer.core.TyperCommand):
    """Help that names arguments by their metavar (`FILE...`), never by a Python type (`<list[Path]>`)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for p in self.params:
            if isinstance(p, typer.core.TyperArgument):
                p.display_type_rich = lambda ctx: None  # type: ignore[method-assign]
                name = p.metavar or p.name.upper()
                many = p.nargs != 1 and not name.endswith("...")
                shown = name + ("..." if many else "")
                p._usage_display_name = (lambda shown=shown, req=p.required:  # type: ignore[method-assign]
                                         shown if req else f"[{shown}]")


# made on first use (kernelport/color.py); emoji=False there: rich would print `k.cu:100:16` as `k.cu💯16`
out = lazy_console(stderr=False)
err = lazy_console(stderr=True)


def _version(value: bool) -> None:
    if value:
        out.print(f"kernelport {__version__}")
        raise typer.Exit(0)


def _color(value: str) -> str:
    global out, err
    from .color import consoles, resolve
    resolve(value)  # checks the value; NO_COLOR / FORCE_COLOR decide `auto`
    out, err = consoles(value)
    return value


@app.callback()
def main(version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                      help="Print the version and exit."),
         color: str = typer.Option("auto", "--color", metavar="WHEN", callback=_color, is_eager=True,
                                   help="Colour the output: auto (a terminal, unless NO_COLOR is set; FORCE_COLOR "
                                   "forces it), always or never.")) -> None:
    """kernelport: one CUDA source of truth, correct HIP and Metal ports."""


@app.command(cls=PlainHelp)
def completion(shell: str = typer.Argument(..., metavar="SHELL", help="bash, zsh or fish.")) -> None:
    """Print the shell completion script (bash: `source <(kernelport completion bash)`)."""
    shells = ("bash", "zsh", "fish")
    if shell not in shells:
        raise KernelportError(f"unknown shell '{shell}'", hint="shells: " + ", ".join(shells))
    from typer._completion_shared import get_completion_script
    sys.stdout.write(get_completion_script(prog_name="kernelport", complete_var="_KERNELPORT_COMPLETE",
                                           shell=shell).rstrip("\n") + "\n")


def _progress(items: list, what: str):
    """Yield `items`, with a transient bar on stderr for a long run in a terminal (never in a log)."""
    if len(items) < 8 or not sys.stderr.isatty():
        yield from items
        return
    from rich.progress import Progress
    with Progress(console=err.real(), transient=True) as bar:
        task = bar.add_task(what, total=len(items))
        for item in items:
            yield item
            bar.advance(task)


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


@app.command(cls=PlainHelp)
@batch()  # the whole run at the collector's batch pace (kernelport/batchgc.py)
def translate(
    files: List[Path] = typer.Argument(..., metavar="PATH...", help="CUDA source files (.cu, .cuh) or directories."),
    to: str = typer.Option("hip", "--to", metavar="TARGETS", help="Comma-separated targets: hip, metal, portable."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", metavar="DIR",
                                          help="Output directory (default: beside the source)."),
    stdout: bool = typer.Option(False, "--stdout", help="Print the port instead of writing it."),
    check: bool = typer.Option(False, "--check", help="Write nothing; exit 1 with a diff if a port on disk is stale."),
    force: bool = typer.Option(False, "--force", help="Overwrite files kernelport did not write or that were edited."),
    allow_unported: bool = typer.Option(False, "--allow-unported",
                                        help="Keep code that has no safe rewrite, behind a KERNELPORT-UNPORTED comment."),
    explain: bool = typer.Option(False, "--explain", help="List every rewrite and why it was made."),
    demote_double: bool = typer.Option(False, "--demote-double",
                                       help="Metal: translate double as float (Metal has no double) instead of stopping."),
    include_dir: Optional[List[Path]] = typer.Option(None, "-I", "--include-dir", metavar="DIR",
                                                     help="Search DIR for included headers (also [tool.kernelport] "
                                                     "include-dirs)."),
    define: Optional[List[str]] = typer.Option(None, "-D", "--define", metavar="NAME[=VALUE]",
                                               help="Define a macro for every file (also [tool.kernelport] defines)."),
    compile_commands: Optional[Path] = typer.Option(None, "--compile-commands", metavar="PATH",
                                                    help="Per-file -I/-D from this compile_commands.json (default: "
                                                    "one in the input's directory or a parent's build/)."),
    statistics: bool = typer.Option(False, "--statistics",
                                    help="Count per file and in total: API names mapped by kind, warp-width rewrites, "
                                         "refusals by code, unmapped names."),
) -> None:
    """Translate CUDA kernels to HIP and/or Metal, keeping names, comments and layout."""
    from . import output as outmod
    from .errors import Location
    from .project_ports import make
    from .translate import companion

    targets = _targets(to)
    if output is not None and not stdout and not check:
        _check_output_dir(output)
    # Every port of the run is made before anything is written: a run writes all or nothing.
    inputs, run = _translate_inputs(files, include_dir, define, compile_commands)
    status = 0
    planned: list[tuple[Path, Path, str, str]] = []  # (source, path, content, regenerate command)
    stats = None
    if statistics:
        from .translate_stats import Statistics
        stats = Statistics()
    options = {"demote_double": True} if demote_double else {}
    settle()  # the plan lives for the run: no collection traverses it again (kernelport/batchgc.py)
    made = make(run, targets, output, stdout, allow_unported=allow_unported, **options)
    for note in run.notes:
        err.print(note.format(), markup=False)
        status = 1 if note.severity == "error" else status  # a source found in a directory that does not parse
    for m in _progress(made, "translating"):
        f, dest, text, backend, port = m.origin, m.path, m.text, m.backend, m.port
        command = text.splitlines()[1].removeprefix("// Regenerate: ")
        for d in port.diagnostics:
            err.print(d.format(), markup=False)
        if explain:
            for n in port.notes:
                err.print(f"{n.location}: {n.before!r} -> {n.after!r}: {n.why}", markup=False)
        if stats is not None:
            err.print("\n".join(stats.add(str(f), backend, port)), markup=False)
        if not port.ok:
            err.print(f"{f}: not translated to {backend}: {sum(d.severity == 'error' for d in port.diagnostics)} "
                      "construct(s) have no safe rewrite (fix them, or pass --allow-unported)", markup=False)
            status = 1
            continue
        if port.empty:
            continue  # no device code: no port (its warning said so)
        if stdout:
            if len(made) > 1:  # several ports on one stream: say where each begins
                sys.stdout.write(f"// ===== kernelport: {dest.name} ({backend} port of {f}) =====\n")
            sys.stdout.write(text)
            continue
        # The port and the files that go with it (a Metal port's .metal.json sidecar, a header).
        planned.append((f, dest, text, command))
        planned += [(f, companion(dest, key), t, command) for key, t in port.extra_files.items()]
    if stats is not None:
        err.print("\n".join(stats.summary(run.project.searched)), markup=False)
    if stdout:
        raise typer.Exit(status)
    # No port over an input of the run, no two ports to one file: errors before anything is written.
    owners: dict[Path, tuple[Path, str]] = {}
    unique = []
    for f, path, content, command in planned:
        key = _resolved(path)
        if key in inputs:
            raise KernelportError(f"the port {path} would overwrite {inputs[key]}, an input of this run",
                                  Location(str(f), 1, 1),
                                  hint="translate the CUDA source, or write the port elsewhere with -o DIR")
        if key in owners:
            if owners[key][1] == content:
                continue  # a file every port shares (kp_warp.h): the same bytes, written once
            raise KernelportError(f"{owners[key][0]} and {f} would both be ported to {path}",
                                  Location(str(f), 1, 1),
                                  hint="translate them into different -o directories, or rename one")
        owners[key] = (f, content)
        unique.append((f, path, content, command))
    planned = unique
    if check:
        for f, path, content, command in planned:
            if not path.exists():
                err.print(f"{path}: missing (run: {command})", markup=False)
                status = 1
            elif path.read_text(encoding="utf-8", errors="replace") != content:
                on_disk = path.read_text(encoding="utf-8", errors="replace")
                sys.stdout.write(outmod.diff(on_disk, content, str(path)))
                err.print(outmod.stale_hint(on_disk, command, path, f), markup=False)
                status = 1
        raise typer.Exit(status)
    verdicts = []
    for f, path, content, _ in planned:
        try:
            verdicts.append((outmod.verdict(path, content, force=force), path, content))
        except outmod.WriteRefused as e:
            err.print(f"error: {e}", markup=False)
            status = 1
    if status:
        err.print("nothing written: a run writes all of its ports or none (fix the errors above)", markup=False)
        raise typer.Exit(status)
    try:
        outmod.write_all([(path, content) for v, path, content in verdicts if v != "unchanged"])
    except OSError as e:
        raise KernelportError(f"cannot write {e.filename or 'the ports'}: {e.strerror or e}; nothing was written",
                              hint="check that the output directory is writable, or choose another with -o DIR") \
            from None
    for v, path, _ in verdicts:
        out.print(f"{v:9} {path}", markup=False)
    raise typer.Exit(0)


def _translate_inputs(files: list[Path], include_dir, define, compile_commands):
    """The run's inputs (resolved -> as given; directories searched) and its project
    (kernelport.project_ports): each source read, checked and its annotations' warnings shown."""
    from . import annotations
    from .lint import config as configmod
    from .model import plain
    from .project import parse_define
    from .diagnostics import Diagnostic
    from .errors import Location
    from .project import HEADER_SUFFIXES
    from .project_ports import expand, plan
    from .source import SourceFile

    configmod.clear_cache()  # a new run: pyproject files may have changed (one process, several runs)
    overrides = configmod.Overrides(include_dirs=tuple(str(_resolved(d)) for d in include_dir or ()),
                                    defines=tuple(parse_define(d) for d in define or ()),
                                    compile_commands=compile_commands)
    if compile_commands is not None and not compile_commands.is_file():
        raise KernelportError(f"--compile-commands {compile_commands}: no such file", hint="check the path")
    found = expand(files)
    inputs: dict[Path, Path] = {}  # resolved -> as given (a file named twice is one input)
    ports = [f for f in found if _is_port(f)]
    for f in found:
        # `*.cu` also matches k.portable.cu: among sources a port is skipped (it is written from its
        # source); a run of ports alone is taken as asked, and refused below where it would overwrite one.
        if f in ports and len(ports) < len(found):
            if f in files:
                err.print(f"{f}: skipped: a port kernelport wrote (translate its source)", markup=False)
            continue
        inputs.setdefault(_resolved(f), f)
    if not inputs and any(f.is_dir() for f in files):
        raise KernelportError(f"no CUDA files under {', '.join(map(str, files))}",
                              hint="translate looks for *.cu, *.cuh and headers with device code")
    options_for = configmod.options_for(overrides)
    run = plan(list(inputs.values()), files, options_for, {k: SourceFile.read(f) for k, f in inputs.items()})
    for key, f in inputs.items():
        src = run.project.source(key)  # parsed with the macros its includes define where they matter
        try:
            src.check_syntax(dead_ok=True)  # (translate warns, KP230, where a dead branch does not parse)
        except KernelportError as e:
            if f in files:
                raise  # a file named on the command line: bad input (exit 2)
            if not f.name.endswith(HEADER_SUFFIXES):  # found in a directory: not translated (a header: KP222)
                run.sources.remove(f)
                run.notes.append(Diagnostic("", e.location or Location(str(f), 1, 1), f"{e.message}: not translated",
                                            e.hint or "", "error"))
            continue
        for spec in annotations.parse(plain(src)).values():  # (the project's model of this parse, not another)
            for loc, msg in spec.warnings:
                err.print(f"{loc}: warning: {msg}", markup=False)
    return inputs, run


def _is_port(p: Path) -> bool:
    """A file kernelport generated (sealed header), edited or not."""
    from . import output as outmod
    from .includes import is_regular
    if not is_regular(p):  # a FIFO would block the open: reading it fails later, with its located error
        return False
    try:
        with open(p, encoding="utf-8", errors="replace") as fh:
            head = fh.read(4096)
    except OSError:
        return False  # reading it fails later, with the usual located error
    return outmod.state(head + "\n") != "foreign" if "Generated by kernelport" in head else False


def _resolved(p: Path) -> Path:
    try:
        return p.resolve()
    except (OSError, RuntimeError):
        return p.absolute()


def _check_output_dir(d: Path) -> None:
    """-o must be a directory that exists or can be created, and must be writable (exit 2 if not)."""
    hint = "-o names a directory, created if missing"
    if d.exists() and not d.is_dir():
        raise KernelportError(f"-o {d}: is a file, not a directory", hint=hint)
    probe = d
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise KernelportError(f"-o {d}: cannot create it, {probe} is not a directory", hint=hint)
    if not os.access(probe, os.W_OK | os.X_OK):
        raise KernelportError(f"-o {d}: {probe} is not writable", hint="choose a directory you can write to")


@app.command(cls=PlainHelp)
@batch()  # (a pool's workers fork inside it and inherit the pace)
def verify(
    paths: List[Path] = typer.Argument(..., metavar="PATH...", help="Annotated kernel files or directories."),
    fmt: str = typer.Option("table", "--format", metavar="FORMAT",
                            help="table, json, junit or html (one self-contained page with plots)."),
    require: str = typer.Option("", "--require", metavar="NAMES", show_default=False,
                                help="Comma-separated backends/tools whose skip is a failure (CI): hip, metal, nvcc."),
    seed: Optional[int] = typer.Option(None, "--seed", metavar="N", help="Seed of the input generators (default: annotation)."),
    schedules: str = typer.Option("block,warp,thread", "--schedules", metavar="LIST", help="Emulator schedules to run."),
    device: Optional[str] = typer.Option(None, "--device", metavar="DEVICE",
                                          help="Also run the original on a real GPU: cuda."),
    jobs: int = typer.Option(0, "-j", "--jobs", metavar="N", show_default=False, help="Files verified in parallel (default: one per core)."),
    explain: bool = typer.Option(False, "--explain", help="Show inputs, reference and port values of failures."),
    max_buffer_bytes: Optional[str] = typer.Option(None, "--max-buffer-bytes", metavar="SIZE",
                                                   help="Memory budget of one kernel's buffers, e.g. 4G "
                                                        "(default 256M; also $KERNELPORT_MAX_BUFFER_BYTES)."),
    no_native_reference: bool = typer.Option(False, "--no-native-reference",
                                             help="Interpret the C reference in the emulator instead of compiling "
                                                  "and running it (untrusted code; slower)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Recompile and re-emulate everything; store nothing."),
    shard: Optional[str] = typer.Option(None, "--shard", metavar="I/N",
                                        help="Verify only shard I of N of the kernel files (I/N)."),
    wave_invariance: bool = typer.Option(False, "--wave-invariance", help="Only say, per kernel, whether its output "
                                         "at wave 64 equals its output at 32 (exit 1 if one differs)."),
    inputs: Optional[Path] = typer.Option(None, "--inputs", metavar="FILE", help="With --wave-invariance: inputs of "
                                          "kernels without annotations, as `@kp` lines in a file."),
    timeout: Optional[float] = typer.Option(None, "--timeout", metavar="SECONDS",
                                            help=f"Wall-clock budget of one check (an emulator run, the reference; "
                                                 f"default {check_budget.DEFAULT_SECONDS:g}, 0: none); a check "
                                                 "past it is a skip naming the loop it was in."),
    oracle: str = typer.Option("reference", "--oracle", metavar="ORACLE",
                               help="reference (the annotated one; else the original at wave 32) or original "
                                    "(the original at wave 32 for every kernel)."),
    arg: List[str] = typer.Option([], "--arg", metavar="NAME=SPEC",
                                  help="An input of unannotated kernels: x=float[4096]:uniform(-1,1), or n=4096 "
                                       "(a scalar, or a host size the launch is computed from)."),
    grid: Optional[str] = typer.Option(None, "--grid", metavar="G", help="Grid of unannotated kernels: 16 or 16,8."),
    block: Optional[str] = typer.Option(None, "--block", metavar="B", help="Block of unannotated kernels: 256."),
) -> None:
    """Prove every port computes what the original computes, at every wave width."""
    from . import verify_report
    from .annotations import BUDGET_ENV, parse_size
    from .verify import SCHEDULES, parse_shard, verify_paths

    if timeout is not None and not 0 <= timeout < 1e9:
        raise KernelportError(f"--timeout {timeout:g} is not a number of seconds", hint="e.g. --timeout 60; "
                              f"--timeout 0 for no budget (default {check_budget.DEFAULT_SECONDS:g})")
    if wave_invariance:  # its own question: no ports, no reference
        from .wave_invariance import report
        if arg or grid or block:  # (they were ignored, while a kernel not run said to pass them)
            raise KernelportError("--wave-invariance reads the inputs of unannotated kernels from --inputs FILE, "
                                  "not --arg/--grid/--block", hint="write them as `@kp` lines: @kp kernel NAME, "
                                  "@kp grid G, @kp block B, @kp arg NAME in TYPE[LENGTH] uniform(-1, 1), "
                                  "@kp scalar NAME = VALUE")
        raise typer.Exit(report(paths, fmt, sys.stdout, inputs, timeout))
    if inputs is not None:
        raise KernelportError("--inputs gives the inputs of the kernels --wave-invariance runs",
                              hint="add --wave-invariance")
    timeout = check_budget.resolve(timeout)  # not given: the default budget; 0: none
    if fmt == "table" and sys.stderr.isatty():  # a check past a few seconds says so (never in json/junit/html)
        os.environ[check_budget.PROGRESS_ENV] = "1"  # (read in the worker processes too)
    if max_buffer_bytes is not None:
        if parse_size(max_buffer_bytes) is None:
            raise KernelportError(f"--max-buffer-bytes {max_buffer_bytes!r} is not a size",
                                  hint="write bytes, or e.g. 512M, 4G")
        os.environ[BUDGET_ENV] = max_buffer_bytes  # read where annotations are checked, worker processes too

    if fmt not in ("table", "json", "junit", "html"):
        raise KernelportError(f"unknown format '{fmt}'", hint="formats: table, json, junit, html")
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
    if oracle not in ("reference", "original"):
        raise KernelportError(f"unknown --oracle '{oracle}'", hint="--oracle reference | original")
    from .infer_inputs import CommandLine
    given = CommandLine.parse(arg, grid, block) if arg or grid or block else None
    reports = verify_paths(paths, require=req, seed=seed, schedules=sched, device=device, jobs=jobs,
                           oracle=oracle, given=given,
                           progress=fmt == "table" and sys.stderr.isatty(), native_reference=not no_native_reference,
                           profile=fmt == "html", cache=not no_cache,
                           shard=parse_shard(shard) if shard is not None else None, timeout=timeout)
    for r in reports:
        if r.note:
            err.print(f"note: {r.note}", markup=False)
    from .verify import kernel_files
    empty_shard = shard is not None and not reports and bool(kernel_files(paths))
    if empty_shard:  # a CI matrix of more shards than kernel files: the spare ones pass, empty
        err.print(f"note: shard {shard} holds none of the {len(kernel_files(paths))} kernel files: nothing to verify",
                  markup=False)
    elif all(r.note for r in reports):  # nothing verified: a mistyped path must not pass CI
        raise KernelportError(f"no annotated kernels under {', '.join(map(str, paths))}",
                              hint="verify checks .cu files with // @kp annotations (docs/annotations.md); "
                                   "check the path")
    if fmt == "html":
        from .verify_html import html
        sys.stdout.write(html(reports))
    elif fmt == "json":
        sys.stdout.write(verify_report.as_json(reports) + "\n")
    elif fmt == "junit":
        sys.stdout.write(verify_report.junit(reports))
    else:
        verify_report.table(reports, out.real(), explain=explain)
    if any(r.error and "error:" in r.error for r in reports) and not any(
            c.status == "fail" for r in reports for c in r.checks):
        raise typer.Exit(2)
    raise typer.Exit(1 if any(r.failed for r in reports) else 0)


@app.command(cls=PlainHelp)
def bind(
    files: List[Path] = typer.Argument(..., metavar="FILE...", help="Annotated CUDA kernel files (.cu)."),
    output: Path = typer.Option(..., "-o", "--output", metavar="DIR", help="Output directory."),
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


@app.command(cls=PlainHelp)
def plan(
    file: Path = typer.Argument(..., metavar="FILE", help="An annotated CUDA kernel file (.cu)."),
    kernel: Optional[str] = typer.Option(None, "--kernel", metavar="NAME", help="The kernel to plan (default: the first annotated)."),
    fmt: str = typer.Option("md", "--format", metavar="FORMAT", help="md or json."),
    output: Optional[Path] = typer.Option(None, "-o", "--output", metavar="FILE", help="Write the plan to this file."),
    device: Optional[str] = typer.Option(None, "--device", metavar="DEVICE",
                                          help="Also time the original on a real GPU: cuda."),
    emit_timing_driver: Optional[Path] = typer.Option(
        None, "--emit-timing-driver", metavar="DIR", help="Write a standalone CUDA-events timing driver (timing.cu, the kernel and "
        "its inputs) to this directory, for a GPU host with nvcc only."),
    timing: Optional[Path] = typer.Option(None, "--timing", metavar="RESULT.json", help="A JSON line the timing driver printed: measured "
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


def for_argv(argv: list[str]) -> typer.Typer:
    """The app to run `argv` with.  typer builds every registered command's options from its
    signature on each run (~7 ms of a ~0.2 s one-file lint); where the first word names a command,
    the app holding that command alone parses it the same.  Anything else (options first, `--help`,
    a mistyped name, shell completion) gets the whole app."""
    if not argv or os.environ.get("_KERNELPORT_COMPLETE"):
        return app
    chosen = [c for c in app.registered_commands
              if (c.name or typer.main.get_command_name(c.callback.__name__)) == argv[0]]  # type: ignore[union-attr]
    if not chosen:
        return app
    one = copy.copy(app)
    one.registered_commands = chosen
    return one


def run() -> None:
    """Entry point: user errors print one line (exit 2); nothing ever prints a traceback."""
    from .entry import guarded
    guarded(lambda: for_argv(sys.argv[1:])(prog_name="kernelport", standalone_mode=False), lambda: err,
            exits=(typer.Exit,), aborts=(typer.Abort,))


# -- lint (kernelport/lint/cli.py) ----------------------------------------------------------------
from .lint.cli import lint as _lint_command, rule as _rule_command  # noqa: E402

app.command(name="lint", cls=PlainHelp)(_lint_command)
app.command(name="rule", cls=PlainHelp)(_rule_command)
