"""One include-free model per parse, shared by both backends of a run: the Metal translator, which changes
its model, takes its own copy of the parse's model (Module.own_copy) instead of building it again, and the
header splice reads the parse's model instead of building its own (issue 15: `--to hip,metal` built the
include-free model of a unit three times).  Counted, not timed; the ports are the rebuilds' ports."""
from __future__ import annotations

import collections
import sys
import textwrap
from pathlib import Path

from typer.testing import CliRunner

from kernelport import model
from kernelport.cli import app

PLAIN = """\
__global__ void scale(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = 2.0f * x[i];
}
"""
# a device helper from a header: the Metal port splices common.h in (a second text, its own model)
SPLICED = {
    "common.h": """\
        #pragma once
        __device__ inline float twice(float v) { return 2.0f * v; }
        """,
    "use.cu": """\
        #include "common.h"
        __global__ void scale(float *x, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) x[i] = twice(x[i]);
        }
        """,
}
# two helpers' shared arrays of one name: the Metal port renames each per helper, in its model (helper_shared.py)
HELPERS = """\
__device__ float first(float v) {
    __shared__ float buf[32];
    buf[threadIdx.x % 32] = v;
    __syncthreads();
    return buf[0];
}
__device__ float second(float v) {
    __shared__ float buf[32];
    buf[threadIdx.x % 32] = 2.0f * v;
    __syncthreads();
    return buf[1];
}
__global__ void both(float *o) { o[threadIdx.x] = first(o[threadIdx.x]) + second(1.0f); }
"""


def _builds(monkeypatch) -> collections.Counter:
    """model.build's calls by the text built, wherever a module imported it by name."""
    import importlib
    for name in ("kernelport.macro_bodies", "kernelport.lint.context", "kernelport.project", "kernelport.api_names",
                 "kernelport.backends.metal.headers", "kernelport.tile_sizes", "kernelport.soundness"):
        importlib.import_module(name)  # (imported before the patch: a lazy import would keep a counter of it)
    counts: collections.Counter = collections.Counter()
    real = model.build

    def counted(src, *a, **k):
        counts[src.text] += 1
        return real(src, *a, **k)
    for mod in list(sys.modules.values()):
        if (getattr(mod, "__name__", "") or "").startswith("kernelport") and getattr(mod, "build", None) is real:
            monkeypatch.setattr(mod, "build", counted)
    return counts


def _run(args: list[str]) -> str:
    res = CliRunner().invoke(app, ["translate", *args, "--stdout"])
    assert res.exit_code == 0, res.output
    return res.output


def test_a_unit_is_modelled_once_for_both_backends(tmp_path: Path, monkeypatch) -> None:
    f = tmp_path / "scale.cu"
    f.write_text(PLAIN)
    builds = _builds(monkeypatch)
    _run([str(f), "--to", "hip,metal"])
    assert builds[PLAIN] == 1  # main: 3 (the project's, the Metal translator's fresh one, the splice's first round)


def test_a_spliced_text_is_modelled_once(tmp_path: Path, monkeypatch) -> None:
    for name, code in SPLICED.items():
        (tmp_path / name).write_text(textwrap.dedent(code))
    builds = _builds(monkeypatch)
    out = _run([str(tmp_path / "use.cu"), "--to", "metal"])
    assert "spliced: device code needs it" in out
    spliced = [t for t in builds if t.startswith("// ---- \"common.h\", spliced")]  # (not the port, which says so too)
    assert len(spliced) == 1 and builds[spliced[0]] == 1  # main: 2 (the splice's last round, the translator's)
    assert builds[textwrap.dedent(SPLICED["use.cu"])] == 1  # main: 3


def _without_sharing(monkeypatch) -> None:
    """Main's rule: every model a translator or the splice asks for is built again."""
    monkeypatch.setattr(model.Module, "own_copy", lambda self, source: model.build(source))
    from kernelport import translate
    from kernelport.backends.metal import headers
    monkeypatch.setattr(translate, "plain", model.build)
    monkeypatch.setattr(headers, "plain", model.build)


def test_ports_are_the_rebuilds_ports(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "scale.cu").write_text(PLAIN)
    (tmp_path / "helpers.cu").write_text(HELPERS)
    sub = tmp_path / "spliced"
    sub.mkdir()
    for name, code in SPLICED.items():
        (sub / name).write_text(textwrap.dedent(code))
    runs = [[str(tmp_path), "--to", "hip,metal"], [str(tmp_path), "--to", "metal,hip"]]
    shared = [_run(a) for a in runs]
    with monkeypatch.context() as m:
        _without_sharing(m)
        rebuilt = [_run(a) for a in runs]
    assert shared == rebuilt
    assert "buf_first" in shared[0] and "buf_second" in shared[0]  # the helpers' arrays renamed in the Metal port


def test_a_translator_that_changes_its_model_leaves_the_parse_model_alone(tmp_path: Path) -> None:
    """Metal renames a helper's shared array in its model: the parse's model (which HIP, lint and the next
    run read) keeps the name, so a second run in the process writes the same port."""
    f = tmp_path / "helpers.cu"
    f.write_text(HELPERS)
    first = _run([str(f), "--to", "metal"])
    hip = _run([str(f), "--to", "hip"])
    assert _run([str(f), "--to", "metal"]) == first
    assert "buf_first" not in hip and hip.count("__shared__ float buf[32];") == 2


def test_own_copy_is_a_rebuild(tmp_path: Path) -> None:
    from kernelport.source import SourceFile
    src = SourceFile.from_text(HELPERS, str(tmp_path / "helpers.cu"))
    base = model.plain(src)
    mine = base.own_copy(src)
    for name in ("functions", "macros", "shared", "uses", "launches", "asm"):
        assert getattr(mine, name) == getattr(base, name) and getattr(mine, name) is not getattr(base, name), name
    assert all(a is not b for a, b in zip(mine.shared, base.shared))
    mine.shared[0].name = "renamed"
    assert base.shared[0].name == "buf"
    assert model.plain(src) is base
