"""How verify reports: a rich table for people, JSON for tools, JUnit XML for CI test tabs."""
from __future__ import annotations

import json
from xml.etree import ElementTree as ET

from rich.console import Console
from rich.table import Table

from . import backends
from .verify import FileReport

_MARK = {"pass": "[green]pass[/]", "fail": "[bold red]FAIL[/]", "skip": "[yellow]skip[/]"}


def _cell(checks) -> str:
    if not checks:
        return "[dim]-[/]"
    if any(c.status == "fail" for c in checks):
        return _MARK["fail"]
    if all(c.status == "skip" for c in checks):
        return _MARK["skip"]
    return _MARK["pass"]


def table(reports: list[FileReport], console: Console, explain: bool = False) -> None:
    t = Table(title="kernelport verify", show_lines=False)
    for col in ("kernel", "backend", "wave", "lint", "drift", "compile", "numeric", "races"):
        t.add_column(col)
    for rep in reports:
        if rep.error:
            t.add_row(rep.path, "", "", "", "", "", _MARK["fail"], "")
            continue
        for k in rep.kernels:
            for backend, wave in dict.fromkeys((r.backend, r.wave) for r in backends.all_runs()):
                mine = [c for c in rep.checks if c.backend == backend and (c.wave in (wave, None))]
                if not mine:
                    continue
                by = lambda kind: [c for c in mine if c.kind == kind and c.kernel in (k, "*")]  # noqa: E731
                t.add_row(k, backend, str(wave), _cell(by("lint")), _cell(by("drift") + by("translate")),
                          _cell(by("compile")),
                          _cell(by("numeric") + by("device")), _cell(by("races")))
    console.print(t)
    for rep in reports:
        if rep.error:
            console.print(f"[bold red]{rep.path}[/]: {rep.error}", markup=True, highlight=False)
        for c in rep.checks:
            if c.status == "fail":
                where = " ".join(x for x in (c.kernel if c.kernel != "*" else "", c.backend,
                                             f"wave {c.wave}" if c.wave else "", c.target, c.schedule) if x)
                console.print(f"[bold red]FAIL[/] {rep.path} [{where}] {c.kind}: ", end="", markup=True)
                console.print(c.detail, markup=False, highlight=False)
                if explain and c.explain:
                    console.print("      " + json.dumps(c.explain), markup=False, highlight=False)
            elif c.status == "info":  # e.g. the original at wave 64: never a failure of the port
                console.print("[cyan]info[/] ", end="", markup=True)
                console.print(f"{rep.path} [{c.kernel}] {c.detail}", markup=False, highlight=False)
            elif c.status == "skip" and c.kind in ("compile", "drift", "lint"):
                console.print(f"[yellow]skip[/] {rep.path} {c.backend}: ", end="", markup=True)
                console.print(c.detail, markup=False, highlight=False)
    n_fail = sum(c.status == "fail" for r in reports for c in r.checks) + sum(bool(r.error) for r in reports)
    n = sum(len(r.checks) for r in reports)
    console.print(f"{n} checks, {n_fail} failed, {sum(c.status == 'skip' for r in reports for c in r.checks)} "
                  f"skipped", markup=False)


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
                               time=f"{c.seconds:.3f}")
            if c.status == "fail":
                ET.SubElement(tc, "failure", message=c.detail[:500]).text = c.detail
            elif c.status == "skip":
                ET.SubElement(tc, "skipped", message=c.detail[:500])
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"
