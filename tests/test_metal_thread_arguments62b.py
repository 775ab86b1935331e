"""The checker's rounds of wrapped temporaries never end in an unchecked pass (review of h/metal62;
issue 11, Metal part; snippets written for the test).

clang names one failing argument of a call per run; check/thread_arguments.py wraps it and runs clang
again.  h/metal62 stopped after 6 rounds and passed what was left: a device argument after six
temporaries (`eight(0.0f, ..., 5.0f, out[1], ...)`), which Metal rejects, was accepted.  The rounds go
on to 16, and a temporary still named when they run out is an error at its call, not a pass.
"""
from __future__ import annotations

import pytest

from conftest import require_tool

HEAD = ("#include <metal_stdlib>\nusing namespace metal;\n"
        "float eight(const float &a, const float &b, const float &c, const float &d, const float &e,\n"
        "            const float &f, const float &g, const float &h) { return a + b + c + d + e + f + g + h; }\n"
        "kernel void k(device float *out [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n")
LINE = HEAD.count("\n") + 1


def _errors(args: list[str]) -> list[tuple[int, int, str]]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    text = HEAD + "  out[0] = eight(" + ", ".join(args) + ");\n}\n"
    return [(d.line, d.column, d.message) for d in check_metal_source(text, "t.metal") if d.severity == "error"]


@pytest.mark.parametrize("before", [1, 6, 7])
def test_a_device_argument_after_many_temporaries_is_an_error(before: int):
    args = [f"{j}.0f" for j in range(before)] + ["out[1]"] + ["1.0f"] * (7 - before)
    errs = _errors(args)
    assert [(line, col) for line, col, _ in errs] == [(LINE, 12)], errs


def test_temporaries_in_every_position_pass():
    assert _errors([f"{j}.0f" for j in range(8)]) == []


def test_rounds_that_run_out_are_an_error_not_a_pass(monkeypatch):
    import kernelport.backends.metal.check as check
    monkeypatch.setattr(check, "MAX_ROUNDS", 2)
    errs = _errors([f"{j}.0f" for j in range(8)])  # valid Metal, but the checker did not finish
    assert [(line, col) for line, col, _ in errs] == [(LINE, 12)] and "not checked" in errs[0][2], errs
