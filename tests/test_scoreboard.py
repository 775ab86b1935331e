"""bench/scoreboard.py reports each step's real result: a stand-in `kernelport` executable whose
every answer is known (a port that compiles, one that does not, a refusal, an internal error, a
parse error, exit 0 with no port) is measured with the real nvcc, hipcc and Metal checker, and
each file's row, the table and the done-when figures must say exactly that."""
from __future__ import annotations

import importlib.util
import json
import stat
import sys
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

import pytest

from conftest import require_tool

ROOT = Path(__file__).resolve().parent.parent

# The originals need the manifest's include dir and define to compile.
CUDA_OK = ('#include "flag.h"\n#if FLAG != 7\n#error FLAG not defined by the manifest\n#endif\n'
           "__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
MANIFEST = """[project.demo]
repo = "example/demo"
commit = "0000000000000000000000000000000000000000"
license = "none"
include_dirs = ["inc"]
defines = ["FLAG_VALUE=7"]
nvcc_flags = []
sources = ["src/good.cu", "src/broken.cu", "src/refused.cu", "src/ghost.cu"]
"""
HIP_OK = "#include <hip/hip_runtime.h>\n__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n"
HIP_BAD = "#include <hip/hip_runtime.h>\nvoid host() { hipDeviceProp prop; (void)prop; }\n"
METAL_OK = ("#include <metal_stdlib>\nusing namespace metal;\n"
            "kernel void k(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = 1.0f; }\n")
METAL_BAD = ("#include <metal_stdlib>\nusing namespace metal;\n"
             "kernel void k(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { double d = x[i]; x[i] = d; }\n")

# file -> backend -> (exit code, stderr, port text or None)
SPEC = {
    "good.cu": {"hip": (0, "", HIP_OK), "metal": (0, "", METAL_OK)},
    "broken.cu": {"hip": (0, "", HIP_BAD), "metal": (0, "", METAL_BAD)},
    "refused.cu": {"hip": (1, "{f}:3:5: error: KP201 inline PTX (hint: x)\n", None),
                   "metal": (3, "internal error: IndexError (please report it)\n", None)},
    "ghost.cu": {"hip": (0, "", None),
                 "metal": (2, "{f}:2:1: error: syntax error: cannot parse 'x' (hint: y)\n", None)},
}

FAKE = '''#!{python}
"""A stand-in kernelport: answers `translate FILE --to B -o DIR` from spec.json."""
import json, sys
from pathlib import Path
args = sys.argv[1:]
if args == ["--version"]:
    print("kernelport fake"); sys.exit(0)
if args[:2] == ["translate", "--help"]:
    print("Usage: kernelport translate FILE... [-I DIR] [-D NAME]"); sys.exit(0)
src, backend, out = Path(args[1]), args[args.index("--to") + 1], Path(args[args.index("-o") + 1])
spec = json.loads((Path(__file__).parent / "spec.json").read_text())
if src.is_dir():  # project mode: HIP ports of all but refused/ghost/unlisted.cu, Metal refused
    with open(Path(__file__).parent / "project-argv.txt", "a") as log:
        log.write(" ".join(args) + "\\n")
    if backend == "metal":
        sys.stderr.write("x.cu:1:1: error: KP217 no\\n"); sys.exit(1)
    for f in src.rglob("*.cu"):
        if f.name not in ("refused.cu", "ghost.cu", "unlisted.cu"):
            dest = out / f.relative_to(src).with_suffix(".hip")
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(spec.get(f.name, spec["good.cu"])[backend][2])
    sys.exit(0)
code, err, port = spec[src.name][backend]
if port is not None:
    out.mkdir(parents=True, exist_ok=True)
    (out / (src.stem + "." + backend)).write_text(port)
sys.stderr.write(err.replace("{{f}}", str(src)))
sys.exit(code)
'''


def _scoreboard():
    spec = importlib.util.spec_from_file_location("scoreboard", ROOT / "bench" / "scoreboard.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["scoreboard"] = mod  # dataclasses look their module up while it loads
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    for tool in ("nvcc", "hipcc", "clang"):
        require_tool(tool)
    tmp = tmp_path_factory.mktemp("scoreboard")
    (tmp / "manifest.toml").write_text(MANIFEST)
    proj = tmp / "demo"
    (proj / "src").mkdir(parents=True)
    (proj / "inc").mkdir()
    (proj / "inc" / "flag.h").write_text("#define FLAG FLAG_VALUE\n")
    (proj / "src" / "unlisted.cu").write_text("not a source of the manifest\n")
    for name in SPEC:
        text = "__global__ void k( {\n" if name == "refused.cu" else CUDA_OK
        (proj / "src" / name).write_text(text)
    fake = tmp / "fake" / "kernelport"
    fake.parent.mkdir()
    fake.write_text(FAKE.format(python=sys.executable))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    (fake.parent / "spec.json").write_text(json.dumps(SPEC))
    out = tmp / "rows.json"
    board = _scoreboard()
    buf = StringIO()
    with redirect_stdout(buf):
        assert board.main([str(tmp), "-j", "2", "--kernelport", str(fake), "--json", str(out)]) == 0
    rows = {Path(r["file"]).name: r for r in json.loads(out.read_text())["rows"]}
    return rows, buf.getvalue(), (fake.parent / "project-argv.txt").read_text()


def test_each_step_is_reported_as_it_happened(measured):
    rows, _, _ = measured
    got = {f: (r["nvcc"], r["hip"], r["hip_codes"], r["hipcc"], r["metal"], r["metal_codes"], r["checker"])
           for f, r in rows.items()}
    assert got == {
        "good.cu": ("pass", "written", "", "pass", "written", "", "pass"),
        "broken.cu": ("pass", "written", "", "fail", "written", "", "fail"),
        "refused.cu": ("fail", "refused", "KP201", "", "internal_error", "", ""),
        "ghost.cu": ("pass", "no_port", "", "", "parse_error", "", ""),
    }
    assert "hipDeviceProp" in rows["broken.cu"]["hipcc_error"]
    assert "double" in rows["broken.cu"]["checker_error"]
    assert rows["refused.cu"]["nvcc_error"] and not rows["good.cu"]["nvcc_error"]
    assert rows["refused.cu"]["hip_error"].endswith("error: KP201 inline PTX (hint: x)")
    assert all(r["hip_s"] > 0 and r["nvcc_s"] > 0 for r in rows.values())
    assert rows["good.cu"]["hipcc_s"] > 0 and rows["broken.cu"]["checker_s"] > 0
    # a step that did not run has no time: an empty cell, never an unmeasured 0.0
    assert rows["refused.cu"]["hipcc_s"] is None and rows["ghost.cu"]["checker_s"] is None


def test_the_summary_times_only_the_steps_that_ran(measured):
    _, text, _ = measured
    summed = next(ln for ln in text.splitlines() if ln.startswith("Measured:"))
    assert "hipcc " in summed and "(2 runs)" in summed and " 0.0 s" not in summed.split("summed per step:")[1]
    # a quick measured step keeps its digits (the fake's project-mode runs take some hundredths)
    assert [_scoreboard().seconds(t) for t in (0.042, 0.004, 12.34)] == ["0.042", "0.004", "12.3"]


def test_the_table_and_done_when_figures_count_those_rows(measured):
    _, text, _ = measured
    total = next(ln for ln in text.splitlines() if ln.startswith("| total |"))
    # ghost.cu exited 0 without a port: not counted as written
    assert total == ("| total | 4 | 3 | 2 (1 refused, 0 parse errors, 0 internal errors) | 1 of 2 | "
                     "2 (1 internal errors) | 1 of 2 | 33.3% (1 of 3) | 50.0% |")
    assert "error: unknown type name 'hipDeviceProp'" in text  # a top cause, location stripped


def test_project_mode_translates_the_project_dir_with_its_flags_and_finds_each_port(measured):
    rows, text, argv = measured
    demo = [ln.split() for ln in argv.splitlines() if ln.split()[1].endswith("/demo")]
    assert [a[3] for a in demo] == ["hip", "metal"]  # one project-mode run per backend
    assert all(any(x.startswith("-I") and x.endswith("/demo/inc") for x in a) and a[-1] == "-DFLAG_VALUE=7"
               for a in demo)
    got = {f: (r["project_hip"], r["project_hipcc"], r["project_metal"], r["project_checker"])
           for f, r in rows.items()}
    assert got == {
        "good.cu": ("written", "pass", "refused", ""),
        "broken.cu": ("written", "fail", "refused", ""),
        "refused.cu": ("no_port", "", "refused", ""),
        "ghost.cu": ("no_port", "", "refused", ""),
    }
    project_total = [ln for ln in text.splitlines() if ln.startswith("| total |")][1]
    assert project_total == ("| total | 4 | 3 | 2 (0 refused, 0 parse errors, 0 internal errors) | 1 of 2 | "
                             "0 (0 internal errors) | 0 of 0 | 33.3% (1 of 3) | n/a |")
    assert "demo --to metal: refused KP217 in" in text


def test_compare_lists_exactly_the_files_whose_outcome_changed():
    board = _scoreboard()
    old = [{"project": "p", "file": "a.cu", "hip": "written", "hipcc": "fail"},
           {"project": "p", "file": "b.cu", "hip": "refused", "hipcc": ""}]
    rows = [board.Row("p", "a.cu", hip="written", hipcc="pass"), board.Row("p", "b.cu", hip="refused"),
            board.Row("p", "new.cu", hip="written")]
    assert board.compare(old, rows) == ["Changed since 2-file run: 1 files",
                                        "  p/a.cu: hipcc fail -> pass"]


def test_the_originals_nvcc_result_is_cached_until_the_project_changes(tmp_path, monkeypatch):
    require_tool("nvcc")
    board = _scoreboard()
    monkeypatch.setattr(board, "NVCC_CACHE", tmp_path / "cache")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "h.h").write_text("#define N 4\n")
    src = tmp_path / "p" / "k.cu"
    src.write_text('#include "h.h"\n__global__ void k(float* x) { x[threadIdx.x] = N; }\n')
    proj = board.Project("p", tmp_path / "p", [src], stamp=board.tree_stamp(tmp_path / "p"))
    first, again = board.Row("p", "k.cu"), board.Row("p", "k.cu")
    board.nvcc_step(proj, src, first)
    board.nvcc_step(proj, src, again)
    assert (first.nvcc, again.nvcc) == ("pass", "pass") and first.nvcc_s > 0 and not first.nvcc_cached
    # a cached result keeps the figure measured when nvcc ran and says it is cached (never a 0.0)
    assert again.nvcc_cached and again.nvcc_s == first.nvcc_s
    entry = board.nvcc_cache_path(proj, src, board.include_args(proj, src) + proj.nvcc_flags)
    entry.write_text(json.dumps(["pass", ""]))  # an entry written before the figure was kept
    old = board.Row("p", "k.cu")
    board.nvcc_step(proj, src, old)
    assert old.nvcc == "pass" and old.nvcc_cached and old.nvcc_s is None  # an empty cell, not a 0.0
    (tmp_path / "p" / "h.h").write_text("#define N undefined_name\n")  # a header, not the source
    proj.stamp = board.tree_stamp(tmp_path / "p")
    changed = board.Row("p", "k.cu")
    board.nvcc_step(proj, src, changed)
    assert changed.nvcc == "fail" and changed.nvcc_s > 0 and "undefined_name" in changed.nvcc_error


def test_reuse_keeps_the_earlier_rows_and_replaces_the_remeasured_ones():
    board = _scoreboard()
    old = [board.asdict(board.Row("p", "a.cu", hipcc="fail")), board.asdict(board.Row("q", "b.cu", hip="refused"))]
    merged = board.reuse(old, [board.Row("p", "a.cu", hipcc="pass"), board.Row("p", "c.cu")])
    assert [(r.project, r.file, r.hip, r.hipcc) for r in merged] == [
        ("p", "a.cu", "", "pass"), ("q", "b.cu", "refused", ""), ("p", "c.cu", "", "")]


def test_hipcc_gets_the_projects_host_compiler_flags_and_rdc_not_its_device_flags():
    board = _scoreboard()
    assert board.host_flags(["-std=c++17", "-rdc=true", "-Xcompiler", "-fopenmp,-Wall", "-lineinfo",
                             "--compiler-options=-pthread", "-arch=sm_80"]) == [
        "-std=c++17", "-fgpu-rdc", "-fopenmp", "-Wall", "-pthread"]
    assert board.host_flags(["-lineinfo", "-O3", "--use_fast_math"]) == []  # nvcc's own: none for the host


def test_a_port_mirrored_under_a_shorter_common_root_is_found_with_its_ported_include_dirs(tmp_path):
    """translate mirrors the files it ports under their common root: with the project's include
    dirs src/common ported too, src/cuda/a.cu's port is OUT/cuda/a.hip (SHOC's layout), not
    OUT/src/cuda/a.hip; the port and the ported include dirs are found there."""
    board = _scoreboard()
    root = tmp_path / "proj"
    out = tmp_path / "out"
    for p in ("cuda/a.hip", "common/c.hip.h", "other/b.hip"):
        (out / p).parent.mkdir(parents=True, exist_ok=True)
        (out / p).write_text("")
    proj = board.Project("p", root, [root / "src/cuda/a.cu"], [root / "src/common", root / "inc"])
    port, dropped = board.find_file_port(out, Path("src/cuda/a.cu"), ".hip")
    assert port == out / "cuda/a.hip" and dropped == ("src",)
    args = board.hipcc_args(proj, root / "src/cuda/a.cu", out, dropped)
    assert args[0] == f"-I{out / 'common'}" and f"-I{root / 'src/common'}" in args
    # the look-alikes: a port of another file of that name elsewhere is not it, nor is a missing one
    assert board.find_file_port(out, Path("src/cuda/b.cu"), ".hip") is None
    assert board.find_file_port(out, Path("src/cuda/a.cu"), ".metal") is None


HEADER_FAKE = '''#!{python}
"""A stand-in kernelport for header sources: `ported.cuh` gets a HIP port `ported.hip.h`; `same.cuh`
none (its port would equal it); Metal ports no header alone and says so."""
import sys
from pathlib import Path
args = sys.argv[1:]
src, backend, out = Path(args[1]), args[args.index("--to") + 1], Path(args[args.index("-o") + 1])
if backend == "metal":
    sys.stderr.write(f"{{src}}:1:1: note: not ported to metal on its own\\n"); sys.exit(0)
if src.name == "ported.cuh":
    out.mkdir(parents=True, exist_ok=True)
    (out / "ported.hip.h").write_text("#include <hip/hip_runtime.h>\\n__global__ void k(float* x) {{ x[0] = 1.0f; }}\\n")
sys.exit(0)
'''


def test_a_header_source_is_measured_by_its_header_port_or_as_itself_when_unchanged(tmp_path):
    """`.cuh` sources (libraries that keep kernels in headers): the HIP port is `x.hip.h` (the
    backend's header_extension), not `x.hip`; exit 0 with nothing written is a header whose port
    would equal it, compiled as it is ("unchanged", counted as written); Metal's exit 0 with its
    note is "header_note", not a missing port."""
    for tool in ("nvcc", "hipcc"):
        require_tool(tool)
    board = _scoreboard()
    root = tmp_path / "proj"
    root.mkdir()
    for name in ("ported.cuh", "same.cuh"):
        (root / name).write_text("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
    fake = tmp_path / "kernelport"
    fake.write_text(HEADER_FAKE.format(python=sys.executable))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    proj = board.Project("p", root, [root / "ported.cuh", root / "same.cuh"])
    rows = {s.name: board.file_steps(str(fake), proj, s, tmp_path / s.stem, use_cache=False)
            for s in proj.sources}
    assert (rows["ported.cuh"].hip, rows["ported.cuh"].hipcc) == ("written", "pass")
    assert (rows["same.cuh"].hip, rows["same.cuh"].hipcc) == ("unchanged", "pass")
    assert {r.metal for r in rows.values()} == {"header_note"}
    assert "not ported to metal on its own" in rows["same.cuh"].metal_error
    c = board.counts(list(rows.values()))
    assert (c["hip_written"], c["unchanged"], c["hipcc_of_nvcc"], c["metal_written"]) == (2, 1, 2, 0)


def test_translate_timeout_is_the_flags(tmp_path, monkeypatch):
    """--translate-timeout bounds each translate run: a kernelport that never answers in time is a
    `timeout` row naming the bound it was given, not a wait for the default's 120 s."""
    require_tool("nvcc")
    board = _scoreboard()
    monkeypatch.setattr(board, "NVCC_CACHE", tmp_path / "cache")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "k.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
    slow = tmp_path / "slow"
    slow.write_text(f"#!{sys.executable}\nimport sys, time\n"
                    "if sys.argv[1:] == ['--version']:\n    print('slow'); sys.exit(0)\n"
                    "time.sleep(30)\n")
    slow.chmod(slow.stat().st_mode | stat.S_IEXEC)
    out = tmp_path / "rows.json"
    with redirect_stdout(StringIO()):
        assert board.main([str(tmp_path / "p"), "--kernelport", str(slow), "--no-project-mode",
                           "--translate-timeout", "1", "--json", str(out)]) == 0
    (row,) = json.loads(out.read_text())["rows"]
    assert (row["hip"], row["metal"]) == ("timeout", "timeout")
    assert row["hip_error"] == "no answer in 1 s" and 1 <= row["hip_s"] < 20


def test_the_first_error_is_a_diagnostic_not_a_quoted_source_line():
    """hipcc's warnings quote their source line: `switch (error)` before the real error is no error."""
    sb = _scoreboard()
    out = ("h.hip:40:5: warning: enumeration value not handled in switch [-Wswitch]\n    switch (error)\n"
           "            ^~~~~\nu.hip:74:19: error: member access into incomplete type 'S'\n")
    assert sb.first_error(out) == "u.hip:74:19: error: member access into incomplete type 'S'"
    assert sb.first_error("a.cu(3): error: identifier x is undefined\n") == "a.cu(3): error: identifier x is undefined"
    assert sb.first_error("t.cu:2:1: error KP210 no\n") == "t.cu:2:1: error KP210 no"  # (no `:` form: said error)
    assert sb.first_error("nothing wrong\nhere\n") == "nothing wrong"


LIBRARY_FAKE = '''#!{python}
"""A stand-in kernelport whose HIP port includes a library header this machine lacks (as a
port of a thrust user includes <thrust/...>, rocThrust's); Metal refuses."""
import sys
from pathlib import Path
args = sys.argv[1:]
if args == ["--version"]:
    print("kernelport fake"); sys.exit(0)
src, backend, out = Path(args[1]), args[args.index("--to") + 1], Path(args[args.index("-o") + 1])
if backend == "metal":
    sys.stderr.write(f"{{src}}:1:1: error: KP209 no\\n"); sys.exit(1)
out.mkdir(parents=True, exist_ok=True)
(out / (src.stem + ".hip")).write_text("#include <hip/hip_runtime.h>\\n#include <kplib/scale.h>\\n"
                                       "__global__ void k(float* x) {{ x[threadIdx.x] = kplib::scale(1.0f); }}\\n")
'''


def test_hip_include_puts_a_librarys_headers_on_every_hipcc_path_and_says_so(tmp_path, monkeypatch):
    """--hip-include DIR (rocThrust's headers, which this machine's ROCm lacks): the port that
    includes the library compiles with it and fails without it (file not found), the table's
    header and the json name the dirs the hipcc runs had; a dir that does not exist is refused (a
    typo would measure without it while the header says with), and so is --reuse of rows measured
    with other dirs (a table of two environments)."""
    for tool in ("nvcc", "hipcc"):
        require_tool(tool)
    board = _scoreboard()
    monkeypatch.setattr(board, "NVCC_CACHE", tmp_path / "cache")
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "k.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
    lib = tmp_path / "rocm-lib"
    (lib / "kplib").mkdir(parents=True)
    (lib / "kplib" / "scale.h").write_text("namespace kplib { __device__ inline float scale(float v) { return 2 * v; } }\n")
    fake = tmp_path / "kernelport"
    fake.write_text(LIBRARY_FAKE.format(python=sys.executable))
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)

    def measure(*extra):
        out, buf = tmp_path / "rows.json", StringIO()
        with redirect_stdout(buf):
            assert board.main([str(tmp_path / "p"), "--kernelport", str(fake), "--no-project-mode",
                               "--json", str(out), *extra]) == 0
        data = json.loads(out.read_text())
        return data["rows"][0], data["hip_include"], buf.getvalue()

    row, dirs, text = measure()
    assert (row["hip"], row["hipcc"]) == ("written", "fail") and "'kplib/scale.h' file not found" in row["hipcc_error"]
    assert dirs == [] and "hipcc include dirs added (--hip-include): none" in text
    row, dirs, text = measure("--hip-include", str(lib))
    assert (row["hip"], row["hipcc"]) == ("written", "pass")
    assert dirs == [str(lib)] and f"hipcc include dirs added (--hip-include): {lib}" in text
    for bad in (["--hip-include", str(tmp_path / "nope")],  # a typo
                ["--reuse", str(tmp_path / "rows.json")]):  # rows measured with lib, a run without it
        with pytest.raises(SystemExit), redirect_stdout(StringIO()):
            board.main([str(tmp_path / "p"), "--kernelport", str(fake), *bad])


def test_a_kernelport_that_cannot_be_run_is_refused_before_any_file_not_a_traceback(tmp_path, capsys):
    """--kernelport naming nothing runnable (or no kernelport on PATH) is an argument error up front
    (exit 2, naming the way out); an executable given by path is taken (its missing tools aside)."""
    board = _scoreboard()
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "k.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
    for missing in (str(tmp_path / "no-such-kernelport"), "no-such-kernelport-on-path"):
        with pytest.raises(SystemExit) as exited:
            board.main([str(tmp_path / "p"), "--kernelport", missing, "--no-project-mode"])
        assert exited.value.code == 2
        assert f"--kernelport {missing}: no such executable" in capsys.readouterr().err
    plain = tmp_path / "not-executable"
    plain.write_text("#!/bin/sh\n")  # a file, but not runnable: refused the same way
    with pytest.raises(SystemExit):
        board.main([str(tmp_path / "p"), "--kernelport", str(plain), "--no-project-mode"])
    assert "no such executable" in capsys.readouterr().err
