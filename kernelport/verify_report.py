"""How verify reports: a rich table for people, JSON for tools, JUnit XML for CI test tabs."""
from __future__ import annotations

import json
from xml.etree import ElementTree as ET

from rich.console import Console
from rich.padding import Padding
from rich.table import Table

from . import backends
from .verify import FileReport, when_run

_MARK = {"pass": "[green]pass[/]", "fail": "[bold red]FAIL[/]", "skip": "[yellow]skip[/]"}


def _cell(checks) -> str:
    if not checks:
        return "[dim]-[/]"
    if any(c.status == "fail" for c in checks):
        return _MARK["fail"]
    if all(c.status == "skip" for c in checks):
        return _MARK["skip"]
    return _MARK["pass"]


LINT_GATE = ("lint gate: errors of the SY/PT rules on the original (what translate cannot fix) and of every rule "
             "on each port, less the original's WS001 definitions the port keeps as written; `kernelport lint FILE` "
             "runs every rule on the original")


def _cell_with_schedules(checks) -> str:
    """A cell that also says under which schedules a check failed (`FAIL thread`)."""
    cell = _cell(checks)
    failing = list(dict.fromkeys(c.schedule for c in checks if c.status == "fail" and c.schedule))
    return f"{cell} {','.join(failing)}" if failing else cell


def where(rep: FileReport, c) -> str:
    """`file · kernel k · hip wave 64 (gfx90a) · schedule thread · numeric`: which check, exactly."""
    parts = [rep.path, f"kernel {c.kernel}" if c.kernel != "*" else "all kernels"]
    run = c.backend + (f" wave {c.wave}" if c.wave else "") + (f" ({c.target})" if c.target else "")
    parts.append(run)
    if c.schedule:
        parts.append(f"schedule {c.schedule}")
    parts.append(c.kind)
    return " · ".join(parts)


def _rows(rep: FileReport):
    for k in rep.kernels:
        for backend, wave in dict.fromkeys((r.backend, r.wave) for r in backends.all_runs()):
            mine = [c for c in rep.checks if c.backend == backend and (c.wave in (wave, None))]
            if not mine:
                continue
            by = lambda kind: [c for c in mine if c.kind == kind and c.kernel in (k, "*")]  # noqa: E731
            yield (rep.path, k, backend, str(wave), _cell(by("lint")), _cell(by("drift") + by("translate")),
                   _cell(by("compile")), _cell_with_schedules(by("numeric") + by("device")),
                   _cell_with_schedules(by("races")))


def duration(seconds: float) -> str:
    """Measured seconds at a unit that shows them: `2.35 s`, `41 ms`, `0.27 ms` (never `0.0 s`)."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.0f} ms" if seconds >= 0.01 else f"{seconds * 1000:.2g} ms"


def timing(c) -> str:
    """` (cached: 2.1 ms; 1.35 s when it ran)` for a verdict read from the cache, else ``."""
    return f" (cached: {duration(c.seconds)}; {duration(when_run(c))} when it ran)" if c.cached else ""


def file_summary(rep: FileReport) -> str:
    counts = {s: sum(c.status == s for c in rep.checks) for s in ("pass", "info", "fail", "skip")}
    secs, cached = sum(c.seconds for c in rep.checks), [c for c in rep.checks if c.cached]
    failing = sorted({f"{c.kind} {c.backend}" + (f" wave {c.wave}" if c.wave else "")
                      for c in rep.checks if c.status == "fail"})
    verdict = "FAIL" if rep.failed else "pass"
    head = (f"{rep.path}: {verdict}: {len(rep.kernels)} kernel{'s' if len(rep.kernels) != 1 else ''}, "
            f"{len(rep.checks)} checks: {counts['pass']} passed, "
            + (f"{counts['info']} informational, " if counts["info"] else "")
            + f"{counts['fail']} failed, {counts['skip']} skipped "
            f"({duration(secs)} of checks" + (f"; {len(cached)} cached: read from the cache, not run again, "
                                              f"{duration(sum(map(when_run, cached)))} when they ran" if cached else "")
            + ")")
    if rep.error:
        return f"{head}; not verified (the error is above)"
    return head + (f"; failed: {', '.join(failing)}" if failing else "")


def _explain_table(c) -> Table:
    e = c.explain
    t = Table(show_header=True, box=None, padding=(0, 2, 0, 0))
    for col in ("at", "inputs", "reference", "port", "|port - reference|", "bound"):
        t.add_column(col)
    inputs = ", ".join(f"{k}={v!r}" for k, v in e.get("inputs", {}).items()) or "-"
    try:
        diff = f"{abs(float(e['port']) - float(e['reference'])):.6g}"
    except (TypeError, ValueError):
        diff = "-"
    t.add_row(f"{e['buffer']}[{e['index']}]", inputs, repr(e["reference"]), repr(e["port"]), diff,
              f"{e['bound']:.3g}" if isinstance(e.get("bound"), (int, float)) else str(e.get("bound")))
    return t


def table(reports: list[FileReport], console: Console, explain: bool = False) -> None:
    if not console.is_terminal:
        console.width = max(console.width, 200)  # a log or a pipe: never squeeze the columns
    t = Table(title="kernelport verify", show_lines=False)
    for col in ("file", "kernel", "backend", "wave", "lint gate", "drift", "compile", "numeric", "races"):
        t.add_column(col)
    for rep in reports:
        if rep.error:
            t.add_row(rep.path, "-", "", "", "", "", "", _MARK["fail"], "")
            continue
        for row in _rows(rep):
            t.add_row(*row)
    console.print(t)
    console.print(LINT_GATE, markup=False, highlight=False, style="dim")
    for rep in reports:
        if rep.error:
            console.print(f"[bold red]FAIL[/] {rep.path}: ", end="", markup=True)
            console.print(rep.error, markup=False, highlight=False)
        for c in rep.checks:
            if c.status == "fail":
                console.print("[bold red]FAIL[/] ", end="", markup=True)
                console.print(f"{where(rep, c)}: {c.detail}{timing(c)}", markup=False, highlight=False)
                if explain and c.explain:
                    console.print(Padding(_explain_table(c), (0, 0, 0, 5)))
            elif c.status == "info":  # e.g. the original at wave 64: never a failure of the port
                console.print("[cyan]info[/] ", end="", markup=True)
                console.print(f"{rep.path} [{c.kernel}] {c.detail}", markup=False, highlight=False)
            elif c.kind == "oracle":  # what the ports were compared with, and the inputs it ran on
                console.print("[cyan]oracle[/] " if c.status == "pass" else "[yellow]not run[/] ", end="", markup=True)
                console.print(f"{rep.path} [{c.kernel}] {c.detail}", markup=False, highlight=False)
            elif c.budget is not None and "cut after" in c.detail:  # where a run ran out of time, how to go on
                console.print("[yellow]cut[/] ", end="", markup=True)
                console.print(f"{where(rep, c)}: {c.detail}", markup=False, highlight=False)
            elif c.status == "skip" and c.kind in ("compile", "drift", "lint"):
                console.print("[yellow]skip[/] ", end="", markup=True)
                console.print(f"{where(rep, c)}: {c.detail}{timing(c)}", markup=False, highlight=False)
    for rep in reports:
        console.print(file_summary(rep), markup=False, highlight=False)
    n_fail = sum(c.status == "fail" for r in reports for c in r.checks) + sum(bool(r.error) for r in reports)
    n = sum(len(r.checks) for r in reports)
    cut = [c for r in reports for c in r.checks if c.budget is not None]
    n_cut = sum("cut after" in c.detail for c in cut)  # the others not run after a cut one (one budget a kernel)
    console.print(f"{len(reports)} file{'s' if len(reports) != 1 else ''}, {n} checks, {n_fail} failed, "
                  f"{sum(c.status == 'skip' for r in reports for c in r.checks)} skipped" + (
                      f" ({n_cut} cut by the time budget, {len(cut) - n_cut} not run after it: --timeout)" if cut else ""),
                  markup=False)


def as_json(reports: list[FileReport]) -> str:
    return json.dumps([r.to_dict() for r in reports], indent=2)


def junit(reports: list[FileReport]) -> str:
    suites = ET.Element("testsuites", name="kernelport verify")
    for rep in reports:
        s = ET.SubElement(suites, "testsuite", name=rep.path, tests=str(len(rep.checks) + bool(rep.error)),
                          failures=str(sum(c.status == "fail" for c in rep.checks)),
                          errors=str(int(bool(rep.error))), skipped=str(sum(c.status == "skip" for c in rep.checks)))
        if rep.error:
            tc = ET.SubElement(s, "testcase", classname=rep.path, name="read")
            ET.SubElement(tc, "error", message=rep.error).text = rep.error
        for c in rep.checks:
            name = " ".join(x for x in (c.kind, c.backend, f"wave{c.wave}" if c.wave else "", c.target, c.schedule)
                            if x)
            tc = ET.SubElement(s, "testcase", classname=f"{rep.path}::{c.kernel}", name=name,
                               time=f"{c.seconds:.6f}")  # this run's: a cached verdict's lookup
            if c.cached or c.budget is not None:  # what the check took where it ran; the budget that cut it
                props = ET.SubElement(tc, "properties")
                if c.cached:
                    ET.SubElement(props, "property", name="cached", value="true")
                    ET.SubElement(props, "property", name="run_seconds", value=f"{when_run(c):.6f}")
                if c.budget is not None:
                    ET.SubElement(props, "property", name="budget_seconds", value=f"{c.budget:g}")
            if c.status == "fail":
                ET.SubElement(tc, "failure", message=c.detail[:500]).text = c.detail
            elif c.status == "skip":
                ET.SubElement(tc, "skipped", message=c.detail[:500])
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
