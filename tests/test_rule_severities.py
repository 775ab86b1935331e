"""Each rule declares the severities its `check` passes to ctx.report in place of `severity(targets)`
(`Rule.severities`); translate's self-check, which keeps errors alone, runs only the rules that can
report an error for the backend's targets (`rule.error_codes`).  A rule that reports a severity it
did not declare fails here: run over every rule's fixtures and tests/realcorpus samples, at every
target set the backends' self-checks use and at all targets."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kernelport import backends
from kernelport.lint import context
from kernelport.lint.engine import lint_text
from kernelport.lint.rule import TARGETS, Rule, all_rules, error_codes

ROOT = Path(__file__).resolve().parent.parent
PATH = {"cu": "t.cu", "hip": "t.hip", "metal": "t.metal", "py": "t.py"}
LANG = {"cu": None, "hip": "hip", "metal": "metal", "py": "python"}
SETS = sorted({tuple(sorted({r.target for r in b.runs})) for b in backends.all() if not b.is_source} |
              {tuple(sorted(TARGETS))})
SAMPLES = ["tests/realcorpus/rodinia/cuda/huffman/pabio_kernels_v2.cu",
           "tests/realcorpus/polybench-gpu/CUDA/JACOBI1D/jacobi1D.cu"] + sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*.cu"))


@pytest.fixture
def passed(monkeypatch):
    """(rule code, the severity its check passed) for each report."""
    got: list[tuple[str, str]] = []
    real = context.Context.report

    def report(self, rule, at, message, *, severity=None, **kw):
        if severity is not None:
            got.append((rule.code, severity))
        return real(self, rule, at, message, severity=severity, **kw)
    monkeypatch.setattr(context.Context, "report", report)
    return got


def _undeclared(got):
    rules = {r.code: r for r in all_rules()}
    return sorted({(c, s) for c, s in got if s not in rules[c].severities})


@pytest.mark.parametrize("targets", SETS, ids="+".join)
def test_every_fixture_reports_only_declared_severities(passed, targets):
    for r in all_rules():
        for e in (*r.flags, *r.passes):
            lint_text(e.clean, PATH[e.lang], LANG[e.lang], targets=targets)
    assert _undeclared(passed) == []


@pytest.mark.parametrize("targets", SETS, ids="+".join)
def test_corpus_samples_report_only_declared_severities(passed, targets):
    for p in SAMPLES:
        lint_text((ROOT / p).read_text(errors="replace"), p, targets=targets)
    assert _undeclared(passed) == []


# Helper modules that report for a rule they are handed: the rules that hand them theirs.
HELPERS = {"warpconsts.py": ("WS001",), "ws_sites.py": ("WS002",)}  # SiteRule.advice: WS002 alone returns one


def _passed_severities():
    """(where, the rule codes, the string constants of the `severity=` argument) of every `.report(...)`
    call in kernelport/lint: in a rule's class its code, in a helper module HELPERS' codes."""
    for p in sorted((ROOT / "kernelport" / "lint").rglob("*.py")):
        tree = ast.parse(p.read_text())
        for cls in [None, *[n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]]:
            body = tree if cls is None else cls
            code = next((c.value for n in getattr(cls, "body", ()) if isinstance(n, ast.Assign)
                         for c in ast.walk(n.value) if isinstance(c, ast.Constant) and str(c.value)[:2] in
                         ("WS", "SY", "PT", "KP") and len(str(c.value)) == 5), None)
            for call in ast.walk(body):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "report"):
                    continue
                if cls is None and any(call in ast.walk(c) for c in ast.walk(tree) if isinstance(c, ast.ClassDef)):
                    continue  # (a class's call: with its class)
                for kw in call.keywords:
                    if kw.arg == "severity":
                        sevs = {c.value for c in ast.walk(kw.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
                        yield f"{p.name}:{call.lineno}", (code,) if code else HELPERS.get(p.name, ()), sevs


def test_every_severity_written_in_a_report_is_declared():
    rules = {r.code: r for r in all_rules()}
    found = list(_passed_severities())
    assert len(found) >= 5  # (the scan sees the calls: WS001's, WS012's, WS015's and lint/warpconsts.py's)
    for where, codes, sevs in found:
        assert codes, f"{where}: a report with a severity of no known rule (add its module to HELPERS)"
        for c in codes:
            assert sevs <= rules[c].severities, f"{where}: {c} passes {sorted(sevs)}, declares {sorted(rules[c].severities)}"


def test_an_undeclared_error_fails_the_check(passed, monkeypatch):
    """The check can fail: a rule that passes an error it does not declare is found."""
    ws012 = next(r for r in all_rules() if r.code == "WS012")
    monkeypatch.setattr(type(ws012), "severities", frozenset())
    assert any(c == ("WS012",) and "error" in s for _, c, s in _passed_severities())
    for e in ws012.flags:
        lint_text(e.clean, PATH[e.lang], LANG[e.lang])
    assert (ws012.code, "error") in _undeclared(passed)


def test_the_error_rules_of_each_backend():
    metal = frozenset(r.target for r in backends.get("metal").runs)
    hip = frozenset(r.target for r in backends.get("hip").runs)
    ws = [r.code for r in all_rules() if r.family == "WS"]
    assert set(error_codes("WS", metal)) < set(ws) and "WS013" in error_codes("WS", metal)  # (the wave is 32)
    assert "WS007" not in error_codes("WS", hip) and "WS001" in error_codes("WS", hip)  # (a warning everywhere)
    assert all(c in error_codes("WS", frozenset(TARGETS)) for c in error_codes("WS", metal))


def test_can_report_reads_the_targets_and_the_declared_severities():
    class R(Rule):
        code, name = "WS999", "x"

        def severity(self, targets):
            return "error" if "a" in targets else "warning"
    assert R().can_report("error", frozenset("a")) and not R().can_report("error", frozenset("b"))
    R.severities = frozenset({"error"})
    assert R().can_report("error", frozenset("b"))
