"""What translate computes once per run and shares: the project's model and analysis of a file,
a scope's declarations for member uses, the include-free model and analysis the self-check's lint
of the original reads (for every backend).  Shared only where reading it again would give the same
(bench/port_hashes.py: the ports and diagnostics over tests/realcorpus and examples are unchanged)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from kernelport import warpflow
from kernelport.member_uses import member_calls
from kernelport.project import Project
from kernelport.project_ports import make, single
from kernelport.source import SourceFile


def _two_files(tmp_path: Path) -> tuple[Path, Path, Path]:
    (tmp_path / "common.h").write_text("#pragma once\n#define WARP_SIZE 32\n")
    (tmp_path / "other.h").write_text("#pragma once\n#define LANES 32\n")
    k = tmp_path / "k.cu"
    k.write_text('#include "common.h"\n__global__ void k(int *o) { o[threadIdx.x % WARP_SIZE] = 1; }\n')
    return k, tmp_path / "common.h", tmp_path / "other.h"


def test_a_files_model_and_analysis_are_built_once_per_run(tmp_path):
    k, _, _ = _two_files(tmp_path)
    p = Project()
    assert p.module(k) is p.module(k)
    assert p.analysis(k) is p.analysis(k)
    assert p.module(k, fresh=True) is not p.module(k)  # a caller that changes its model gets its own


def test_a_decision_on_a_macro_the_file_sees_builds_its_model_again_one_it_cannot_see_does_not(tmp_path):
    k, common, other = _two_files(tmp_path)
    p = Project()
    first = p.module(k)
    assert "WARP_SIZE" not in first.visible.confirmed
    p.confirmed[(other.resolve(), "LANES")] = "'LANES' is the warp size elsewhere"  # k.cu does not include it
    assert p.module(k) is first
    p.confirmed[(common.resolve(), "WARP_SIZE")] = "'WARP_SIZE' is the warp size in k.cu:2"
    again = p.module(k)
    assert again is not first and again.visible.confirmed == {"WARP_SIZE": "'WARP_SIZE' is the warp size in k.cu:2"}
    assert p.analysis(k).confirmed() is not None and p.analysis(k) is p.analysis(k)


def test_a_name_is_resolved_in_its_own_scope_each_time():
    code = textwrap.dedent("""\
        #include <cooperative_groups.h>
        namespace cg = cooperative_groups;
        struct Tile { __device__ int group_dim() const { return 4; } };
        __device__ int a() { auto g = cg::this_thread_block(); return g.group_dim().x; }
        __device__ int b() { Tile g; return g.group_dim(); }
        __device__ int c() { auto g = cg::this_thread_block(); return g.group_dim().y; }
        """)
    src = SourceFile.from_text(code, "t.cu")
    lines = [src.loc(call).line for call, group, member in member_calls(src)]
    assert lines == [4, 6]  # b's `g` is its own Tile, though a's and c's are thread blocks


def test_a_header_linted_after_a_file_that_includes_it_is_not_parsed_again(tmp_path, monkeypatch):
    """lint reads every file of a tree: a header the run already parsed as an include is shown
    under its own path (its tree, index and model shared), not parsed a second time; its findings
    are those of a run that lints it first."""
    from kernelport.lint.engine import lint_paths
    (tmp_path / "red.cuh").write_text("#pragma once\n__device__ int lane() { return threadIdx.x % 32; }\n"
                                      "__device__ float red(float v) { for (int o = 16; o > 0; o /= 2)\n"
                                      "  v += __shfl_down_sync(0xffffffff, v, o); return v; }\n")
    (tmp_path / "a.cu").write_text('#include "red.cuh"\n__global__ void k(float *x) { x[lane()] = red(x[0]); }\n')
    parsed: list[str] = []
    real = SourceFile.from_text.__func__

    def counting(cls, text, path="<string>", macros=None):
        parsed.append(Path(path).name)
        return real(cls, text, path, macros)
    monkeypatch.setattr(SourceFile, "from_text", classmethod(counting))
    both = lint_paths([tmp_path / "a.cu", tmp_path / "red.cuh"], jobs=1)
    assert sorted(parsed) == ["a.cu", "red.cuh"]
    alone = lint_paths([tmp_path / "red.cuh"], jobs=1)
    assert [f.to_dict() if hasattr(f, "to_dict") else f for f in both[1].findings] == \
        [f.to_dict() if hasattr(f, "to_dict") else f for f in alone[0].findings]
    assert {f.code for f in alone[0].findings} >= {"WS004"} and both[1].path.endswith("red.cuh")


def test_a_projects_parse_of_other_text_is_not_reused(tmp_path):
    h = tmp_path / "h.cuh"
    h.write_text("#pragma once\n#define W 32\n")
    p = Project()
    first = p.file(h)
    same = p.add_text(h, h.read_text())
    assert same.src.tree is first.src.tree and same.src.path == str(h)
    other = p.add_text(h, "#pragma once\n#define W 64\n")
    assert other.src.tree is not first.src.tree and other.src.text.endswith("64\n")


def test_a_headers_hip_configuration_names_are_read_once_per_parse(tmp_path, monkeypatch):
    """Every unit that includes a header asks which HIP configuration names it tests: once per run."""
    from kernelport import hipbuild
    from kernelport.lint.engine import lint_paths
    (tmp_path / "common.h").write_text("#pragma once\n#ifdef USE_HIP\n#include <hip/hip_runtime.h>\n#endif\n")
    for n in ("a", "b", "c"):
        (tmp_path / f"{n}.cu").write_text('#include "common.h"\n__global__ void k(int *o) { o[0] = 1; }\n')
    asked: list[str] = []
    real = hipbuild._configuration_names  # the work; configuration_names answers from the parse's cache

    def counting(src):
        asked.append(Path(src.path).name)
        return real(src)
    monkeypatch.setattr(hipbuild, "_configuration_names", counting)
    lint_paths([tmp_path / f"{n}.cu" for n in ("a", "b", "c")], jobs=1)
    assert sorted(asked) == ["a.cu", "b.cu", "c.cu", "common.h"]


KERNEL = """#include "common.h"
__global__ void k(float* x) {
    float v = x[threadIdx.x];
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % WARP_SIZE == 0) x[threadIdx.x / WARP_SIZE] = v;
}
"""

LONE = KERNEL.replace('#include "common.h"', "#include <cstdio>").replace("WARP_SIZE", "32")


def _project(tmp_path: Path):
    (tmp_path / "common.h").write_text("#pragma once\n#define WARP_SIZE 32\n")
    f = tmp_path / "k.cu"
    f.write_text(KERNEL)
    return f, single(f, SourceFile.read(f))


def test_the_project_model_of_a_file_is_its_include_free_model_with_the_includes(tmp_path):
    f, run = _project(tmp_path)
    proj = run.project
    m, plain = proj.module(f), proj.file(f).module
    assert m.functions is plain.functions  # one build of the tree, not two
    assert m.visible is not None and "WARP_SIZE" in m.visible.macros and plain.visible is None
    assert proj.module(f, fresh=True).functions is not plain.functions  # a caller that changes it builds its own


def test_the_self_check_analyses_the_original_once_for_every_backend(tmp_path, monkeypatch):
    f, run = _project(tmp_path)
    analysed = []
    real = warpflow.analyze
    monkeypatch.setattr(warpflow, "analyze", lambda m: analysed.append(m) or real(m))
    made = make(run, ["hip", "metal"], None, True)
    assert [m.backend for m in made if not m.header] == ["hip", "metal"]
    plain = run.project.file(f).module
    # the project's model (hip), metal's own (it changes its model), the include-free one once,
    # and each port's
    assert sum(m is plain for m in analysed) == 1
    assert all(m.port.ok for m in made), [d.format() for m in made for d in m.port.diagnostics]


def test_the_project_analysis_serves_as_the_include_free_one_only_where_the_includes_add_nothing(tmp_path):
    f, run = _project(tmp_path)  # k.cu reads WARP_SIZE from common.h: its analysis is not lint's
    make(run, ["hip"], None, True)
    assert run.project.plain_analysis(f) is None
    alone = tmp_path / "alone.cu"
    alone.write_text(LONE)  # (a macro of its own that the project decides is the wave is a decision it reads)
    lone = single(alone, SourceFile.read(alone))
    made = make(lone, ["hip"], None, True)
    proj = lone.project
    assert proj.plain_analysis(alone) is proj.analysis(alone)
    assert made[0].port.ok and "__shfl_down(v, o, 32)" in made[0].text  # translated as before (rows of 32)
    src = proj.source(alone)
    assert src.__dict__["_kp_plain_analysis"] == (proj.file(alone).module, proj.analysis(alone))  # lint's


def test_a_lone_files_self_check_does_not_analyse_the_original_again(tmp_path, monkeypatch):
    alone = tmp_path / "alone.cu"
    alone.write_text(LONE)
    run = single(alone, SourceFile.read(alone))
    analysed = []
    real = warpflow.analyze
    monkeypatch.setattr(warpflow, "analyze", lambda m, **kw: analysed.append(m.visible is None) or real(m, **kw))
    make(run, ["hip"], None, True)
    # the project's analysis was made by its plan (single); here only the port's: the original's
    # include-free analysis for the self-check's lint is the project's
    assert analysed == [True]


def test_a_headers_shuffle_wrapper_keeps_the_project_analysis_from_serving_as_the_include_free_one(tmp_path):
    """warpflow reads an included header's shuffle wrappers (kernelport.shufflewrappers; the wrapper
    is also a warp-level function of the header): where the includes give it one, the file alone is
    analysed differently, so lint's analysis is its own."""
    (tmp_path / "shfl.cuh").write_text("#pragma once\n__device__ float down(float v, int o) "
                                       "{ return __shfl_down_sync(0xffffffff, v, o); }\n")
    f = tmp_path / "k.cu"
    f.write_text('#include "shfl.cuh"\n__global__ void k(float* x) {\n    float v = x[threadIdx.x];\n'
                 "    for (int o = 16; o > 0; o /= 2) v += down(v, o);\n    x[0] = v;\n}\n")
    run = single(f, SourceFile.read(f))
    make(run, ["hip"], None, True)
    assert run.project.module(f).visible.shuffle_wrappers  # (the case this test is about)
    assert run.project.plain_analysis(f) is None


def _header_and_two_sources(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "red.cuh").write_text(textwrap.dedent("""\
        #pragma once
        __device__ float red(float v) {
          for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
          return v;
        }
        """))
    for n in ("a", "b"):
        (tmp_path / f"{n}.cu").write_text(f'#include "red.cuh"\n__global__ void {n}(float *x) {{ x[0] = red(x[1]); }}\n')
    return tmp_path / "a.cu", tmp_path / "b.cu"


def test_a_header_is_parsed_and_its_port_linted_once_per_process_not_once_per_file_translated_alone(
        tmp_path, monkeypatch):
    """translate FILE and verify make a project per file: a header every file includes was parsed,
    its include-free model analysed and its port linted again in each (issue 15).  Kept by content
    for the process, each is made once; the ports are those of a first run."""
    from kernelport import source
    from kernelport.lint import engine
    a, b = _header_and_two_sources(tmp_path)
    parsed: list[bytes] = []
    real_parser = source._parser

    class Counting:
        def __init__(self):
            self.parser = real_parser()

        def parse(self, data, *rest):
            parsed.append(bytes(data))
            return self.parser.parse(data, *rest)

        def __getattr__(self, name):
            return getattr(self.parser, name)
    linted: list[str] = []
    real_lint = engine.lint_text

    def counting_lint(text, path="<string>", *rest, **kw):
        linted.append(Path(path).name)
        return real_lint(text, path, *rest, **kw)
    from kernelport import project
    built: list[str] = []
    real_build = project.build

    def counting_build(src, *rest, **kw):
        built.append(Path(src.path).name)
        return real_build(src, *rest, **kw)
    ports = []
    for rounds in range(2):
        if rounds:
            monkeypatch.setattr(source, "_parser", Counting)
            monkeypatch.setattr(engine, "lint_text", counting_lint)
            monkeypatch.setattr(project, "build", counting_build)
        for f in (a, b):
            made = make(single(f, SourceFile.read(f)), ["hip"], None, True)
            ports.append([(m.path.name, m.text) for m in made])
        if not rounds:
            first = list(ports)
            ports.clear()
    assert ports == first and any("red" in n for n, _ in first[0])  # the header's port is made in each
    assert not [d for d in parsed if b"__shfl_down_sync" in d and b"__global__" not in d]  # red.cuh: kept
    assert not [n for n in linted if n.startswith("red")]  # its port's lint and the original's: kept
    assert "red.cuh" not in built  # its include-free model: kept with its parse


def test_parses_kept_for_the_process_are_bounded_least_recently_used_first():
    """A process that reads a large tree keeps only its last parses (their size: the texts')."""
    from kernelport.source import _Kept
    kept = _Kept(10)
    kept.put("a", 1, 4)
    kept.put("b", 2, 4)
    assert kept.get("a") == 1  # a used again: b is now the oldest
    kept.put("c", 3, 4)
    assert (kept.get("a"), kept.get("b"), kept.get("c"), kept.size) == (1, None, 3, 8)


def test_a_headers_port_made_in_the_project_of_each_includer_is_linted_once(tmp_path, monkeypatch):
    """translate FILE makes a project per file: a header's port names, in its first lines, the command
    of the file whose project made it (`Regenerate: kernelport translate a.cu ...`).  Those lines are
    no code: the port b.cu's project makes of the header is the same code and its lint is not run
    again (it was, once per includer: 61 of 315 port lints over tests/realcorpus); each port keeps
    its own lines."""
    from kernelport.lint import engine
    a, b = _header_and_two_sources(tmp_path)
    linted: list[str] = []
    real_lint = engine.lint_text

    def counting_lint(text, path="<string>", *rest, **kw):
        linted.append(Path(path).name)
        return real_lint(text, path, *rest, **kw)
    monkeypatch.setattr(engine, "lint_text", counting_lint)
    ports = [m.text for f in (a, b) for m in make(single(f, SourceFile.read(f)), ["hip"], None, True) if m.header]
    assert len(ports) == 2 and "translate a.cu" in ports[0] and "translate b.cu" in ports[1]
    code = [[ln for ln in p.split("\n")[2:] if not ln.startswith("// kernelport-checksum")] for p in ports]
    assert code[0] == code[1]  # the same code below the two lines (each sealed with its own checksum)
    assert [n for n in linted if n.startswith("red.cuh") and n != "red.cuh"] == ["red.cuh.hip"]  # the port's lint


def test_a_ports_provenance_lines_are_read_as_fixed_lines_by_its_lint():
    """What the port's lint reads: the port with its first lines naming no file of the run, on as many
    lines (the findings' lines are the port's); a text that does not start with them is read as it is."""
    from kernelport import templates
    from kernelport.soundness import _without_provenance
    header = templates.port_header("hip", "dir/a.cuh", "kernelport translate dir/b.cu --to hip")
    body = "__device__ int lane() { return threadIdx.x % 32; }\n"
    code = _without_provenance(header + body, header, "hip")
    assert code.endswith(body) and code.count("\n") == (header + body).count("\n") and "b.cu" not in code
    assert code == _without_provenance(templates.port_header("hip", "x.cuh", None) + body,
                                       templates.port_header("hip", "x.cuh", None), "hip")
    assert _without_provenance("// other\n" + body, header, "hip") == "// other\n" + body


def test_a_file_translated_under_its_relative_and_its_absolute_path_is_linted_once(tmp_path, monkeypatch):
    """A header is translated under two spellings of its path in one run over a tree: as a file given
    (relative, `translate red.cuh`) and as the include of another file's project (resolved).  Its lint
    reads the file the path names, not its spelling: the self-check's lints of the original and of the
    port are run once for both (144 of 556 original lints and 28 of 201 port lints over
    tests/realcorpus were such repeats), and the port and its diagnostics are those of a cold run."""
    from kernelport import soundness, source
    from kernelport.lint import engine
    _header_and_two_sources(tmp_path)
    monkeypatch.chdir(tmp_path)

    def translate(path: Path) -> list:
        return [(m.path.name, m.text, [(d.code, d.location.line, d.message) for d in m.port.diagnostics])
                for m in make(single(path, SourceFile.read(path)), ["hip"], None, True)]

    def cold() -> None:
        for kept in (source._PARSES, soundness._PORT_LINTS, soundness._ORIGINAL_LINTS):
            kept.clear()
    cold()
    expected = translate(Path("red.cuh"))
    cold()
    linted: list[str] = []
    real_lint = engine.lint_text

    def counting_lint(text, path="<string>", *rest, **kw):
        linted.append(path)
        return real_lint(text, path, *rest, **kw)
    monkeypatch.setattr(engine, "lint_text", counting_lint)
    translate(tmp_path / "red.cuh")
    assert sorted(Path(p).name for p in linted) == ["red.cuh", "red.cuh.hip"] and Path(linted[0]).is_absolute()
    got = translate(Path("red.cuh"))
    assert len(linted) == 2  # neither linted again
    assert got == expected and "__shfl_down" in got[0][1]
