"""A unit that names nothing of a warp skips warpflow and the warp-size rules (kernelport.lint.prescan,
issue 15): counted, never timed, and its findings are those of the full analysis."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kernelport import warpflow
from kernelport.lint import prescan
from kernelport.lint.engine import lint_paths, lint_text

_QUIET = textwrap.dedent("""\
    #include <cstdio>
    __global__ void saxpy(int n, float a, const float* x, float* y) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = a * x[i] + y[i];
    }
    void run(int n, float a, const float* x, float* y) { saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y); }
    """)

# the same kernel gaining one warp operation: a lane index and a shuffle whose width is hardcoded
_LOUD = _QUIET.replace("if (i < n) y[i] = a * x[i] + y[i];",
                       "float v = x[i]; v += __shfl_down_sync(0xffffffff, v, 16);\n"
                       "    if ((threadIdx.x & 31) == 0) y[i / 32] = v;")


@pytest.fixture
def analyses(monkeypatch):
    """The number of warpflow analyses lint makes."""
    n = [0]
    real = warpflow.analyze

    def counted(*a, **k):
        n[0] += 1
        return real(*a, **k)
    monkeypatch.setattr(warpflow, "analyze", counted)
    return n


def _full(monkeypatch, text: str):
    """lint's findings with the prescan off: every unit analysed."""
    with monkeypatch.context() as m:
        m.setattr(prescan, "quiet", lambda *a, **k: False)
        return lint_text(text, "k.cu")


def test_a_unit_without_a_warp_word_is_not_analysed_and_its_findings_stay(monkeypatch, analyses):
    got = lint_text(_QUIET, "k.cu")
    assert analyses[0] == 0
    assert got == _full(monkeypatch, _QUIET)
    assert analyses[0] == 1  # (the full run analyses it)


def test_a_function_that_gains_a_warp_operation_is_analysed(monkeypatch, analyses):
    got = lint_text(_LOUD, "k.cu")
    assert analyses[0] == 1
    assert {f.code for f in got} & {"WS002", "WS007", "WS011", "WS003"}, [f.code for f in got]
    assert got == _full(monkeypatch, _LOUD)


@pytest.mark.parametrize("token", ["32", "31", "16", "5", "64", "0xffffffff", "037777777777", "~0u", "warpSize",
                                   "kWarpSize", "lane", "__ballot_sync", "__popc", "__shared__", "WAVE", "@kp"])
def test_each_warp_token_makes_a_unit_loud(token):
    assert not prescan.loud_text(_QUIET)
    assert prescan.loud_text(_QUIET + f"// {token}\n" if token == "@kp" else _QUIET + f"int z = {token};\n")


@pytest.mark.parametrize("number", ["1", "2", "100", "256", "1024", "3.25", "1e5"])
def test_other_numbers_leave_a_unit_quiet(number):
    assert not prescan.loud_text(_QUIET + f"int z = {number};\n")


def test_a_header_macro_that_expands_to_a_warp_operation_makes_its_user_loud(tmp_path: Path, monkeypatch,
                                                                             analyses):
    (tmp_path / "ops.h").write_text("#define REDUCE(v) __shfl_down_sync(0xffffffff, v, 16)\n#define SCALE 2\n")
    user = _QUIET.replace("#include <cstdio>", '#include "ops.h"')
    (tmp_path / "plain.cu").write_text(user.replace("a * x[i]", "SCALE * x[i]"))
    (tmp_path / "reduces.cu").write_text(user.replace("a * x[i]", "REDUCE(x[i])"))
    monkeypatch.chdir(tmp_path)
    quiet = {}
    from kernelport.lint import context
    real = context.Context.__init__

    def init(self, *a, **k):
        real(self, *a, **k)
        quiet[Path(self.path).name] = self.quiet
    monkeypatch.setattr(context.Context, "__init__", init)
    lint_paths([tmp_path / "plain.cu", tmp_path / "reduces.cu"], jobs=1)
    assert quiet == {"plain.cu": True, "reduces.cu": False}
