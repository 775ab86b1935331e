"""Translate's self-check lints the original as lint reads its text alone (include-free).  Where the run
parsed the file again through its includes' macros (`HD` = `__host__ __device__` from a header), the
project keeps the plain parse (ProjectFile.plain_src) and the lint reads it and its model instead of
building them again; its warp-size errors are those of a lint of the text alone."""
from __future__ import annotations

from kernelport import soundness
from kernelport.lint import context, engine
from kernelport.macros import MacroDef
from kernelport.project_ports import make, single
from kernelport.source import SourceFile

HEADER = "#pragma once\n#define HD __host__ __device__\n"
KERNEL = """#include "defs.h"
HD inline float twice(float x) { return 2.0f * x; }
__global__ void k(float *o, float v) {
    int lane = threadIdx.x & 31;
    for (int s = 16; s > 0; s >>= 1) v += __shfl_down_sync(0xffffffff, v, s);
    if (lane == 0) o[threadIdx.x / 32] = twice(v);
}
"""
WITH_ERRORS = """#include "defs.h"
#define WARP 32
HD inline float twice(float x) { return 2.0f * x; }
__global__ void k(float *o, float v) {
    __shared__ float part[32];
    int lane = threadIdx.x % WARP;
    unsigned b = __ballot_sync(0xffffffff, v > 0);
    if (b == 0xffffffff) v = 0;
    for (int s = 16; s > 0; s >>= 1) v += __shfl_down_sync(0xffffffff, v, s);
    if (lane == 0) part[threadIdx.x / WARP] = twice(v);
}
"""


def _run(tmp_path, header: str, text: str = KERNEL):
    (tmp_path / "defs.h").write_text(header)
    f = tmp_path / "k.cu"
    f.write_text(text)
    return f, single(f, SourceFile.read(f))


def _original_builds(monkeypatch) -> list:
    built = []
    real = context.build
    monkeypatch.setattr(context, "build", lambda src: built.append(src) or real(src))
    return built


def test_a_file_parsed_through_its_includes_macros_is_linted_with_the_kept_plain_parse(tmp_path, monkeypatch):
    f, run = _run(tmp_path, HEADER)
    built = _original_builds(monkeypatch)
    made = make(run, ["hip"], None, True)
    pf = run.project.file(f)
    assert pf.src.included_macros and "HD" in pf.src.included_macros  # parsed again through defs.h's macros
    assert made[0].port.ok, [d.format() for d in made[0].port.diagnostics]
    # lint built the port's model only: the original's is the plain parse's (main built it again here)
    assert [s.text for s in built if s.text == KERNEL] == []
    assert pf.plain_src is not None and pf.plain_src.text == pf.src.text and not pf.plain_src.included_macros
    assert "_kp_plain_analysis" in pf.plain_src.__dict__  # the original's include-free analysis, on that parse


def test_the_kept_parse_gives_the_warp_size_errors_of_a_lint_of_the_text_alone(tmp_path):
    f, run = _run(tmp_path, HEADER, WITH_ERRORS)
    make(run, ["hip"], None, True)
    src = run.project.source(f)
    assert src.included_macros  # the run's parse: through defs.h's macros
    targets = sorted({r.target for r in soundness.backends.get("hip").runs})
    got = soundness.original_warp_errors(src, "hip")
    alone = soundness._warp_codes(engine.lint_text(WITH_ERRORS, src.path, targets=targets, select=["WS"]))
    assert got, "the file has warp-size errors to compare"
    assert {c: [(x.line, x.column, x.message) for x in fs] for c, fs in got.items()} == \
        {c: [(x.line, x.column, x.message) for x in fs] for c, fs in alone.items()}


def test_a_file_whose_plain_parse_stands_keeps_no_second_parse(tmp_path, monkeypatch):
    f, run = _run(tmp_path, "#pragma once\n#define LANES 32\n")  # no macro the parse needs: `HD` undefined
    (tmp_path / "k.cu").write_text(KERNEL.replace("HD inline", "__host__ __device__ inline"))
    run = single(f, SourceFile.read(f))
    built = _original_builds(monkeypatch)
    made = make(run, ["hip"], None, True)
    pf = run.project.file(f)
    assert getattr(pf, "plain_src", None) is None and not pf.src.included_macros
    assert made[0].port.ok and [s for s in built if s.text == pf.src.text] == []  # the project's model, as before


def test_only_a_plain_parse_of_the_same_text_and_path_stands_for_the_original():
    text = "__global__ void k(int *o) { o[threadIdx.x] = 1; }\n"
    plain = SourceFile.from_text(text, "a.cu")
    macro = SourceFile.from_text(text, "a.cu", macros={"X": MacroDef("X", None, "1", "<command line>", 0)})
    assert soundness.plain_parse_of(plain, plain)
    assert soundness.plain_parse_of(plain, macro)  # the kept plain parse of what was parsed through macros
    assert not soundness.plain_parse_of(macro, plain)  # a parse through macros is not lint's
    assert not soundness.plain_parse_of(SourceFile.from_text(text, "b.cu"), macro)  # another path
    assert not soundness.plain_parse_of(SourceFile.from_text(text + "\n", "a.cu"), macro)  # other text
