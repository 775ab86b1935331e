"""The project model's include walk costs each file once per run (kernelport.includewalk): a chain
of headers or a common header under many sources is walked once, not once per includer, and the
unit it gives is the one a walk of its own would give."""
from __future__ import annotations

from pathlib import Path

from kernelport.includewalk import IncludeWalk
from kernelport.project import Options, Project


def _chain(d: Path, n: int) -> list[Path]:
    for i in range(n):
        inc = f'#include "h{i + 1}.cuh"\n' if i + 1 < n else "#define WARP_SIZE 32\n"
        (d / f"h{i}.cuh").write_text(f"#pragma once\n{inc}#define V{i} {i}\n")
    return [d / f"h{i}.cuh" for i in range(n)]


def _count_walks(monkeypatch) -> list[Path]:
    walked: list[Path] = []
    real = IncludeWalk._walk_file

    def counting(self, path, *a, **k):
        walked.append(path)
        return real(self, path, *a, **k)
    monkeypatch.setattr(IncludeWalk, "_walk_file", counting)
    return walked


def test_each_file_of_a_chain_is_walked_once_for_every_unit(tmp_path, monkeypatch):
    """60 headers each including the next, every one a unit (lint reads each): 60 walks; a walk per
    includer was 60 * 61 / 2 = 1,830."""
    headers = _chain(tmp_path, 60)
    walked = _count_walks(monkeypatch)
    proj = Project()
    for h in headers:
        sc = proj.scan(h)
        assert len(sc.order) == 60 - headers.index(h) and "WARP_SIZE" in sc.macros
    assert len(walked) == 60


def test_a_common_header_is_walked_once_under_many_sources(tmp_path, monkeypatch):
    (tmp_path / "common.cuh").write_text("#pragma once\n" + "".join(f'#include "c{i}.cuh"\n' for i in range(5)))
    for i in range(5):
        (tmp_path / f"c{i}.cuh").write_text(f"#define C{i} {i}\n")
    sources = []
    for s in range(20):
        sources.append(tmp_path / f"s{s}.cu")
        sources[-1].write_text('#include "common.cuh"\n__global__ void k(int* p) { p[0] = C4; }\n')
    walked = _count_walks(monkeypatch)
    proj = Project()
    for s in sources:
        assert list(proj.scan(s).macros) == [f"C{i}" for i in range(5)]
    assert len(walked) == 20 + 6  # each source, then common.cuh and its five headers once


def test_a_spliced_walk_is_the_walk_made_in_place(tmp_path, monkeypatch):
    """Conditionals on names an includer defines, #undef, include guards and a header reached twice:
    the unit is the same whether each header's own walk is spliced in or walked in place."""
    (tmp_path / "a.cuh").write_text("#ifndef A_H\n#define A_H\n#include \"b.cuh\"\n#define FROM_A 1\n#endif\n")
    (tmp_path / "b.cuh").write_text("#ifdef USE_WIDE\n#define WIDTH 64\n#else\n#define WIDTH 32\n#endif\n"
                                    "#undef GONE\n#include \"c.cuh\"\n")
    (tmp_path / "c.cuh").write_text("#pragma once\n#define GONE 1\n#ifdef FROM_A\n#define LATE 1\n#endif\n")
    (tmp_path / "k.cu").write_text('#define USE_WIDE\n#define GONE 2\n#include "c.cuh"\n#include "a.cuh"\n'
                                   '#include "b.cuh"\n')

    def unit(splice: bool):
        proj = Project()
        if not splice:
            monkeypatch.setattr(proj, "_sub", lambda path, opts: None)
        for h in ("a.cuh", "b.cuh", "c.cuh"):  # their own walks first: made and kept for the unit
            proj.scan(tmp_path / h)
        sc = proj.scan(tmp_path / "k.cu", Options(defines=(("X", "1"),)))
        return ([p.name for p in sc.order], {n: (m.value, p.name) for n, (m, p) in sc.macros.items()},
                {p.name: [i.name for i in incs] for p, incs in sc.includes.items()})
    spliced, in_place = unit(True), unit(False)
    assert spliced == in_place
    assert spliced[1]["WIDTH"] == ("64", "b.cuh") and "LATE" not in spliced[1]


def test_a_chain_deeper_than_compilers_follow_is_cut_alike_for_every_unit(tmp_path, monkeypatch):
    """230 headers each including the next, every one a unit: each unit reaches 201 files at most and
    is cut (a located too-deep include) where its own chain passes 200 levels; the units below the
    cut are walks on their own, spliced (6,060 walks; a walk per unit and level was 26,130)."""
    from kernelport.includes import MAX_INCLUDE_DEPTH
    headers = _chain(tmp_path, 230)
    walked = _count_walks(monkeypatch)
    proj = Project()
    for i, h in sorted(enumerate(headers), key=lambda ih: ih[1].name):  # lint's order: by name
        sc = proj.scan(h)
        assert len(sc.order) == min(MAX_INCLUDE_DEPTH + 1, 230 - i)
        assert [t.name for t in sc.too_deep] == ([f"h{i + MAX_INCLUDE_DEPTH + 1}.cuh"] if i < 29 else [])
    assert len(walked) <= 30 * (MAX_INCLUDE_DEPTH + 2)
