"""The first unit of a run that reaches a file (context_macros._first_scan, read by every header's
macro-aware parse and by arch_branches): the units' include walks are read once per run, not once per
file asked about (issue 15: a run's .cu files, which no unit includes, each walked every unit again)."""
from __future__ import annotations

from pathlib import Path

from kernelport import context_macros
from kernelport.project import Project


def _run(tmp_path: Path) -> tuple[Project, list[Path]]:
    (tmp_path / "common.h").write_text("#define FIRST 1\n")
    (tmp_path / "inner.h").write_text('#include "common.h"\n#define INNER 2\n')
    (tmp_path / "both.h").write_text('#include "inner.h"\n')
    texts = {"a.cu": "int a;\n", "b.cu": '#define B 3\n#include "both.h"\n', "c.cu": '#include "common.h"\n',
             "d.cu": '#include "inner.h"\n', "e.cu": "int e;\n", "f.cu": "int f;\n"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text)
    p = Project()
    p.units = [(tmp_path / n).resolve() for n in [*texts, "both.h"]]
    return p, p.units


def _reference(p: Project, root: Path):
    """The walk asked for by the old reading: every unit, in order, each time."""
    for unit in p.units:
        u = p._real(unit)
        if u == root or p.file(u) is None:
            continue
        sc = p.scan(u, p.options(u))
        if root in sc.files():
            return sc
    return None


def test_the_first_unit_that_reaches_each_file_is_the_same(tmp_path):
    p, units = _run(tmp_path)
    for root in [*units, *(tmp_path / h for h in ("common.h", "inner.h", "both.h"))]:
        root = root.resolve()
        assert context_macros._first_scan(p, root) is _reference(p, root)
    assert context_macros._first_scan(p, (tmp_path / "common.h").resolve()) is p.scan(units[1], p.options(units[1]))
    assert context_macros.around(p, (tmp_path / "common.h").resolve(), {}).keys() == {"B", "INNER"}  # (its includers, whole)
    assert context_macros._first_scan(p, units[-1]) is p.scan(units[1], p.options(units[1]))  # both.h: b.cu's


def test_each_unit_is_walked_once_for_all_the_files_asked_about(tmp_path, monkeypatch):
    p, units = _run(tmp_path)
    asked = []
    real = Project.scan

    def scan(self, path, opts=None):
        asked.append(path)
        return real(self, path, opts)
    monkeypatch.setattr(Project, "scan", scan)
    for root in units:  # every .cu: no unit includes one, so each ask reads to the end of the run
        context_macros.around(p, root, {})
    assert len(asked) == len(units)  # the old reading: len(units) * (len(units) - 1)


def test_a_new_run_of_units_is_read_again(tmp_path):
    p, units = _run(tmp_path)
    assert context_macros._first_scan(p, (tmp_path / "common.h").resolve()) is not None
    p.units = [units[0], units[4]]  # a.cu and e.cu: neither reaches common.h
    assert context_macros._first_scan(p, (tmp_path / "common.h").resolve()) is None
