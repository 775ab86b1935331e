"""A unit's model and analysis stand when the project's warp-size decisions change on names they never
read (kernelport/decision_reads.py): analysed once per run, not again after the planning pass; a unit that
read a changed decision is analysed again, and every port is what the rebuild made (the check turned off)."""
from __future__ import annotations

import collections
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kernelport import warpflow
from kernelport.cli import app
from kernelport.project import Project

HEADER = """\
#pragma once
#define WARP_SIZE 32
__device__ inline int twice(int v) { return 2 * v; }
"""
# a.cu never names WARP_SIZE; b.cu reads it (a plain store); c.cu's ballot makes it the project's wave width.
# The planning pass analyses a.cu and b.cu before c.cu decides, so both saw no decision on WARP_SIZE.
UNITS = {
    "a.cu": """\
        #include "common.h"
        __global__ void scale(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = twice(i); }
        """,
    "b.cu": """\
        #include "common.h"
        __global__ void fill(int *o) { o[threadIdx.x] = WARP_SIZE; }
        """,
    "c.cu": """\
        #include "common.h"
        __global__ void vote(const int *in, unsigned *out) {
            unsigned b = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
            int lane = threadIdx.x % WARP_SIZE;
            if (lane == 0) out[threadIdx.x / WARP_SIZE] = b;
        }
        """,
}


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "common.h").write_text(HEADER)
    for name, code in UNITS.items():
        (tmp_path / name).write_text(textwrap.dedent(code))
    return tmp_path


def _translate(tree: Path, backend: str, monkeypatch) -> tuple[collections.Counter, int, str]:
    counts: collections.Counter = collections.Counter()
    analyze = warpflow.analyze

    def counted(m, *a, **k):
        if m.visible is not None:  # the project's models (with includes), as the planning pass and translators read
            counts[Path(m.source.path).name] += 1
        return analyze(m, *a, **k)
    monkeypatch.setattr(warpflow, "analyze", counted)
    res = CliRunner().invoke(app, ["translate", str(tree), "--to", backend, "--stdout"])
    monkeypatch.setattr(warpflow, "analyze", analyze)
    return counts, res.exit_code, res.output


def test_a_unit_that_never_read_the_changed_decision_is_analysed_once(tmp_path, monkeypatch):
    counts, code, out = _translate(_tree(tmp_path), "hip", monkeypatch)
    assert code == 0, out
    assert "#define WARP_SIZE KP_WAVE_SIZE" in out  # c.cu's decision made the header's macro the wave width
    assert counts["a.cu"] == 1  # main: 2 (the decision on a macro it sees, though it never reads it)
    assert counts["b.cu"] == 2  # it read WARP_SIZE before the decision: analysed again, as on main
    assert counts["c.cu"] == 2  # its own first analysis read the name it then decided


@pytest.mark.parametrize("backend", ["hip", "metal"])
def test_the_ports_are_what_a_rebuild_makes(tmp_path, monkeypatch, backend):
    tree = _tree(tmp_path)
    _, code, kept = _translate(tree, backend, monkeypatch)
    monkeypatch.setattr(Project, "_decisions_stand", lambda *a: False, raising=False)  # main's rule: any change builds again
    counts, code_again, rebuilt = _translate(tree, backend, monkeypatch)
    assert (code, kept) == (code_again, rebuilt)
    assert counts["a.cu"] == 2


def test_reads_by_name_are_logged_and_a_read_of_the_whole_stands_only_for_the_same_decisions():
    from kernelport.decision_reads import Decisions
    d = Decisions({"WARP_SIZE": "why"})
    assert "LANES" not in d and d.get("WARP_SIZE") == "why"
    assert d.asked == {"LANES", "WARP_SIZE"} and not d.whole
    assert d.stands_with({"WARP_SIZE": "why", "OTHER": "x"})  # OTHER never read
    assert not d.stands_with({"WARP_SIZE": "why", "LANES": "x"})  # LANES was asked: it is decided now
    assert not d.stands_with({})
    d.become({"WARP_SIZE": "why", "OTHER": "x"})
    assert d.asked == {"LANES", "WARP_SIZE"} and dict(d) == {"WARP_SIZE": "why", "OTHER": "x"}
    for whole in (bool, len, list, set, lambda x: x.items(), lambda x: x.copy(), lambda x: x == {}, dict):
        e = Decisions({"A": "a"})
        whole(e)
        assert e.whole, whole
        assert e.stands_with({"A": "a"}) and not e.stands_with({"A": "a", "B": "b"})
