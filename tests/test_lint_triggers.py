"""Rules' triggers (kernelport/lint/triggers.py): a rule runs only on a unit whose texts hold its trigger.

The proof of each trigger is that every example a rule must flag selects it (a trigger word dropped from
the tables fails here), that a trigger reaches through an included header, a macro, a line splice and a
token paste, and that skipping changes no finding (examples/ linted with every trigger forced on).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport import backends
from kernelport.lint import engine, triggers, units
from kernelport.lint.context import Context, Settings
from kernelport.lint.engine import lint_paths, lint_text
from kernelport.lint.rule import TARGETS, all_rules, selected

LANG = {"cu": "cuda", "hip": "hip", "metal": "metal", "py": "python"}
PATH = {"cu": "t.cu", "hip": "t.hip", "metal": "t.metal", "py": "t.py"}
GATED = [r for r in all_rules() if r.triggers is not None]


def _units(text: str, lang: str, path: str):
    if lang == "python":
        return units.python_units(path, text)
    return [units.unit(backends.get(lang), path, text)]


def test_the_gated_rules_are_the_ones_whose_triggers_are_written_down():
    assert {r.code for r in GATED} == {"PT002", "SY001", "SY003", "WS007", "WS012"}
    assert all(isinstance(r.triggers, triggers.Trigger) for r in GATED)


@pytest.mark.parametrize("rule, i, example", [pytest.param(r, i, e, id=f"{r.code}-{i}")
                                              for r in GATED for i, e in enumerate(r.flags)])
def test_every_example_a_rule_flags_selects_it(rule, i, example):
    lang, path = LANG[example.lang], PATH[example.lang]
    found = [f for f in lint_text(example.clean, path, lang, targets=example.targets) if f.code == rule.code]
    assert found, "the example flags (else this test proves nothing)"
    assert any(triggers.Selector(u).fires(rule.triggers) for u in _units(example.clean, lang, path))


@pytest.mark.parametrize("rule", [pytest.param(r, id=r.code) for r in GATED])
def test_a_dropped_trigger_word_is_missed(rule, monkeypatch):
    """The test above can fail: with its words emptied, no flagged example selects the rule."""
    monkeypatch.setattr(triggers, "_WORDS", {rule.triggers.name: frozenset()})
    monkeypatch.setattr(triggers, "_BY_TEXT", {})
    ex = rule.flags[0]
    us = _units(ex.clean, LANG[ex.lang], PATH[ex.lang])
    assert not any(triggers.Selector(u).fires(rule.triggers) for u in us if "##" not in u.text)


KERNEL = """#include "sync.cuh"
__global__ void k(float* x, int n) {
    __shared__ float s[256];
    if (threadIdx.x < n) {
        s[threadIdx.x] = x[threadIdx.x];
        BAR();
    }
}
"""


def _lint_dir(tmp_path: Path, header: str, kernel: str = KERNEL):
    (tmp_path / "sync.cuh").write_text(header)
    (tmp_path / "k.cu").write_text(kernel)
    got = lint_paths([tmp_path / "k.cu"])
    return [f.code for r in got for f in r.findings]


def _contexts(tmp_path, monkeypatch, header: str):
    made = []
    real = Context.__init__

    def keep(self, unit, settings):
        real(self, unit, settings)
        made.append(self)
    monkeypatch.setattr(Context, "__init__", keep)
    codes = _lint_dir(tmp_path, header)
    assert made
    return codes, made


def test_a_barrier_from_an_included_header_still_runs_sy001_and_divergence(tmp_path, monkeypatch):
    """A header's macro is the unit's parse's text: its barrier selects SY001, whose analysis runs as on main."""
    _, made = _contexts(tmp_path, monkeypatch, "#pragma once\n#define BAR() __syncthreads()\n")
    assert all("divergence" in c.__dict__ for c in made)


def test_a_header_without_a_barrier_leaves_sy001_and_divergence_unrun(tmp_path, monkeypatch):
    codes, made = _contexts(tmp_path, monkeypatch, "#pragma once\n#define BAR() __threadfence()\n")
    assert "SY001" not in codes
    assert all("divergence" not in c.__dict__ for c in made)  # the analysis only SY001/WS012 read


def test_a_barrier_in_the_unit_is_still_reported(tmp_path):
    codes = _lint_dir(tmp_path, "#pragma once\n", KERNEL.replace("BAR();", "__syncthreads();"))
    assert "SY001" in codes


def test_the_selector_reads_the_unit_s_headers_macros_splices_and_pastes(tmp_path):
    (tmp_path / "sync.cuh").write_text("#pragma once\n#define BAR() __syncthreads()\n")
    (tmp_path / "k.cu").write_text(KERNEL)
    settings = engine.settings_for(tmp_path / "k.cu", engine.configmod.Overrides())
    units.reset_project(engine.configmod.options_for(engine.configmod.Overrides()))
    u = engine.units_of(tmp_path / "k.cu", str(tmp_path / "k.cu"), KERNEL, True, settings.includes)[0]
    assert u.reached_files and triggers.Selector(u).fires(triggers.BARRIER)
    plain = units.unit(backends.source(), "t.cu", KERNEL)  # the same text read without its header
    assert not triggers.Selector(plain).fires(triggers.BARRIER)
    assert triggers.in_text(triggers.BARRIER, "void f() { __sync\\\nthreads(); }")  # a line splice
    assert triggers.in_text(triggers.BARRIER, "#define S(x) __sync##x()\nvoid f() { S(threads); }")  # a paste
    assert not triggers.in_text(triggers.BARRIER, "void f() { __threadfence(); }")
    assert triggers.in_text(triggers.INLINE_ASM, 'void f() { __asm__ volatile("bar.sync 0;"); }')


def test_skipping_changes_no_finding_of_examples(monkeypatch):
    root = Path(__file__).resolve().parent.parent / "examples"
    cut = [(r.path, [f.sort_key() for f in r.findings]) for r in lint_paths([root], jobs=1)]
    monkeypatch.setattr(triggers.Selector, "fires", lambda self, t: True)
    full = [(r.path, [f.sort_key() for f in r.findings]) for r in lint_paths([root], jobs=1)]
    assert cut == full and any(codes for _, codes in cut)


def test_a_rule_without_a_trigger_runs_on_every_unit():
    assert triggers.Selector(units.unit(backends.source(), "t.cu", "int x;")).fires(None)
    s = Settings(frozenset(TARGETS), selected(None))
    assert s.enabled >= {r.code for r in GATED}
