"""Issue 15: what lint reads once per run or per parse (kernelport/textwords.py, the header roots of
kernelport/lint/includervalues.py), and that an edited file is read as edited.

A header that splits the thread index by several names its includers define (`tid / WS`, `tid % LANES`,
`tid / ROWS`) had its includers asked again for each name, and each ask read the includer's whole text
for its words: a sixth of lint's CPU over tests/realcorpus.  The findings must not move."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from kernelport import textwords
from kernelport.includers import Includers
from kernelport.lint import engine
from kernelport.source import SourceFile

HEADER = """\
#pragma once
static __device__ inline int rank3(const int flag, int* const temp_w)
{
  const int tid = threadIdx.x;
  const int warp = tid / WS;
  const int lane = tid % LANES;
  const int row = tid / ROWS;
  const int bm = __ballot_sync(~0, flag);
  if (lane == 0) temp_w[warp + row] = __popc(bm);
  return __popc(bm & ((1 << lane) - 1));
}
"""

INCLUDER = """\
#define WS 32
#define LANES 32
#define ROWS 32
#include "rank3.h"
__global__ void k{i}(int* t) {{ t[threadIdx.x] = rank3(t[threadIdx.x] > 0, t); }}
"""

PLAIN_HEADER = HEADER.replace("WS;", "32;").replace("LANES;", "32;").replace("ROWS;", "32;")


def _lint(d: Path, files: dict[str, str]) -> list[tuple]:
    d.mkdir(exist_ok=True)
    for name, text in files.items():
        (d / name).write_text(text)
    return [(Path(f.path).name, f.line, f.column, f.code, f.message.replace(str(d), "<dir>"))
            for r in engine.lint_paths([d / n for n in files], jobs=1) for f in r.findings]


def test_each_includer_asked_once_per_header(tmp_path, monkeypatch):
    asked: Counter = Counter()
    real = Includers._includes_of

    def counted(self, g, f, words):
        asked[(g.name, f.name)] += 1
        return real(self, g, f, words)
    monkeypatch.setattr(Includers, "_includes_of", counted)
    got = _lint(tmp_path, {"rank3.h": HEADER, "a.cu": INCLUDER.format(i=0), "b.cu": INCLUDER.format(i=1)})
    assert any(f[0] == "rank3.h" for f in got)
    # once for the unit's includer (Project.includer), once for the header's roots (includervalues):
    # not again for each of the three names the header splits by
    assert asked[("a.cu", "rank3.h")] <= 2 and asked[("b.cu", "rank3.h")] <= 2, asked


def test_same_findings_as_a_fresh_run(tmp_path):
    files = {"rank3.h": HEADER, "a.cu": INCLUDER.format(i=0), "b.cu": INCLUDER.format(i=1)}
    first = _lint(tmp_path / "one", files)
    again = _lint(tmp_path / "one", files)
    assert first == again


def test_edited_header_read_as_edited(tmp_path):
    """A header that names no includer macro, then (edited between two runs of one process) names them:
    the second run reads the edited words, as a run in a fresh directory does."""
    d = tmp_path / "p"
    before = _lint(d, {"rank3.h": PLAIN_HEADER, "a.cu": INCLUDER.format(i=0)})
    after = _lint(d, {"rank3.h": HEADER, "a.cu": INCLUDER.format(i=0)})
    fresh = _lint(tmp_path / "q", {"rank3.h": HEADER, "a.cu": INCLUDER.format(i=0)})
    assert after == fresh
    assert [f for f in after if f[0] == "rank3.h"] != [f for f in before if f[0] == "rank3.h"]


def test_words_of_each_parse():
    a = SourceFile.from_text("int warp = tid / WS; // LANES\n#define ROWS 4\n", "w1.cu")
    b = SourceFile.from_text("int warp = tid / 32;\n", "w1.cu")
    assert textwords.of(a) == {"int", "warp", "tid", "WS", "LANES", "define", "ROWS"}
    assert textwords.of(a) is textwords.of(a)
    assert textwords.of(b) == {"int", "warp", "tid"}  # another text of the same path: its own words
