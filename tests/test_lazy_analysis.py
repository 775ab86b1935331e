"""Warpflow's analysis is made on a lint context's first read (kernelport/lint/context.py `analysis`).

A run of rules that read none of it (`--select SY002`, `PT`, a rule a unit does not trigger) makes none;
a rule that reads it gets the analysis it got before, with the same findings.
"""
from __future__ import annotations

from kernelport import warpflow
from kernelport.lint import context as lint_context
from kernelport.lint.engine import lint_text

KERNEL = """__global__ void k(float* out, const float* x) {
    __shared__ volatile float s[64];
    int lane = threadIdx.x % 32;
    s[threadIdx.x] = x[threadIdx.x];
    if (threadIdx.x < 32) {
        s[threadIdx.x] += s[threadIdx.x + 32];
        s[threadIdx.x] += s[threadIdx.x + 16];
    }
    asm volatile("membar.gl;");
    out[threadIdx.x] = __shfl_sync(0xffffffff, s[0], lane);
}
"""


def _counted(monkeypatch) -> list[int]:
    made = []
    real = warpflow.analyze

    def analyze(module, *a, **k):
        made.append(1)
        return real(module, *a, **k)
    monkeypatch.setattr(lint_context.warpflow, "analyze", analyze)
    return made


def test_rules_that_read_no_analysis_make_none(monkeypatch):
    made = _counted(monkeypatch)
    found = lint_text(KERNEL, "t.cu", select=["SY002", "PT002"])
    assert {f.code for f in found} == {"SY002", "PT002"}  # the rules ran and reported
    assert made == []  # (main made one analysis per unit whatever the selection)


def test_a_rule_that_reads_it_gets_it_and_the_same_findings(monkeypatch):
    made = _counted(monkeypatch)
    lane = lint_text(KERNEL, "t.cu", select=["WS002"])
    assert [f.code for f in lane] == ["WS002"] and lane[0].line == 3  # `threadIdx.x % 32`: warpflow's confirmed site
    assert made == [1]  # made once, on the first read, however many reads follow
    every = lint_text(KERNEL, "t.cu")
    assert [(f.code, f.line, f.column, f.message) for f in every if f.code == "WS002"] == \
        [(f.code, f.line, f.column, f.message) for f in lane]
    assert {"SY002", "PT002", "WS002"} <= {f.code for f in every}


def test_a_failing_analysis_is_the_files_as_before(monkeypatch):
    """Made on first read inside a rule, its failure is still one KP006 for the file (main's message), not a
    failure of each rule that reads it."""
    def broken(module, *a, **k):
        raise ValueError("boom")
    monkeypatch.setattr(lint_context.warpflow, "analyze", broken)
    found = lint_text(KERNEL, "t.cu")
    assert [(f.code, f.message.split(":")[0]) for f in found] == [("KP006", "internal error in the analysis (model, "
                                                                    "warpflow) of t.cu")]
    assert "ValueError: boom" in found[0].message
    # the look-alike: rules that read no analysis never meet the failure and report as before
    assert {f.code for f in lint_text(KERNEL, "t.cu", select=["SY002", "PT002"])} == {"SY002", "PT002"}
