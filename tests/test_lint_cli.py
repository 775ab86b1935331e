"""`kernelport lint` and `kernelport rule` end to end: exit codes, options, config, inputs, --fix."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HAZARDS = {"warp_reduce", "stream_compact", "warp_scan", "softmax", "warp_vote"}
CLEAN_CU = {"transpose", "bitset", "block_reduce", "histogram", "matmul_tiled", "dynamic_shared",
            "template_reduce", "vector_add", "saxpy"}

K = ("__global__ void k(float* x) {\n"
     "    int lane = threadIdx.x % 32;\n"
     "    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + (lane == 0);\n"
     "}\n")


def kp(*args, cwd=None):
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd or ROOT, timeout=300, env={"PATH": "/usr/bin:/bin"})
    assert "Traceback" not in r.stderr, r.stderr
    return r


def lint_json(*args, cwd=None):
    r = kp("lint", "--format", "json", *args, cwd=cwd)
    return r, json.loads(r.stdout)


def test_examples_originals_have_hazards_ports_and_look_alikes_are_clean():
    r, data = lint_json(*sorted(EXAMPLES.glob("*.cu")), *sorted(EXAMPLES.glob("*.hip")))
    assert r.returncode == 1
    by_file = {}
    for f in data:
        by_file.setdefault(Path(f["path"]).stem + Path(f["path"]).suffix, set()).add(f["code"])
    assert {Path(p).stem for p in by_file} == HAZARDS, by_file
    assert all(p.endswith(".cu") for p in by_file)
    assert {"WS002", "WS003", "WS004", "WS011"} <= by_file["warp_reduce.cu"]
    assert {"WS008", "WS009", "WS010"} <= by_file["stream_compact.cu"]
    assert {"WS005", "WS006"} <= by_file["warp_scan.cu"]
    assert {"WS008", "WS009"} <= by_file["warp_vote.cu"]
    # warp_reduce, softmax and warp_scan split the block into 32-lane rows that compute the same at 64
    # (`kernelport verify --wave-invariance`: invariant); their 32s are advice.  The ballots of
    # stream_compact and warp_vote change at 64 (their verify differs): hazards.  WS007 stays a warning.
    sev = {}
    for f in data:
        if f["code"] != "WS007":
            sev.setdefault(Path(f["path"]).stem, set()).add(f["severity"])
    assert {n for n, s in sev.items() if s == {"info"}} == {"warp_reduce", "softmax", "warp_scan"}, sev
    assert "info" not in sev["stream_compact"] | sev["warp_vote"], sev
    for f in data:
        assert set(f) >= {"path", "line", "column", "code", "name", "severity", "message"}
        assert f["line"] >= 1 and f["column"] >= 1


def test_lint_examples_directory():
    r = kp("lint", "examples", "--format", "concise")
    assert r.returncode == 1
    found = {line.split(":")[0] for line in r.stdout.splitlines()}
    for name in HAZARDS:
        assert f"examples/{name}.cu" in found
    for name in CLEAN_CU:
        assert f"examples/{name}.cu" not in found
    assert not any(p.endswith(".hip") for p in found)
    assert "Found" in r.stderr


def test_exit_codes_and_fail_levels(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(K)
    assert kp("lint", f).returncode == 1
    assert kp("lint", f, "--exit-zero").returncode == 0
    # WS007 alone is a warning with HIP targets, info without: --fail-on decides.
    assert kp("lint", f, "--select", "WS007").returncode == 1
    assert kp("lint", f, "--select", "WS007", "--fail-on", "error").returncode == 0
    assert kp("lint", f, "--select", "WS007", "--targets", "metal").returncode == 0
    assert kp("lint", f, "--select", "WS007", "--targets", "metal", "--fail-on", "info").returncode == 1
    (tmp_path / "ok.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0.0f; }\n")
    r = kp("lint", tmp_path / "ok.cu")
    assert r.returncode == 0 and "All checks passed" in r.stderr
    for bad in (["--format", "xml"], ["--select", "XX9"], ["--targets", "cuda,nv"], ["--fail-on", "fatal"]):
        r = kp("lint", f, *bad)
        assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (bad, r.stderr)
    r = kp("lint", tmp_path / "missing.cu")
    assert r.returncode == 2 and "no such file" in r.stderr


def test_select_ignore_prefixes_and_targets(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(K)
    _, data = lint_json(f)
    assert {d["code"] for d in data} == {"WS002", "WS007"}
    _, data = lint_json(f, "--select", "WS", "--ignore", "WS007")
    assert [d["code"] for d in data] == ["WS002"]
    _, data = lint_json(f, "--select", "WS", "--ignore", "WS002,WS007")
    assert data == []
    _, data = lint_json(f, "--select", "WS002,WS007", "--ignore", "WS")  # the more specific selector wins
    assert len(data) == 2
    _, data = lint_json(f, "--targets", "hip-rdna")
    assert {d["code"]: d["severity"] for d in data} == {"WS002": "warning", "WS007": "warning"}
    _, data = lint_json(f, "--targets", "cuda")
    assert data == []  # 32 is the warp size on NVIDIA


def test_statistics(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(K)
    r = kp("lint", f, "--statistics")
    assert r.returncode == 1
    assert r.stdout == "    1\tWS002\t[*] lane-index-from-32\n    1\tWS007\t    full-mask-32-bit\n"


def test_parse_error_is_a_finding_and_exit_2(tmp_path):
    f = tmp_path / "bad.cu"
    f.write_text("__global__ void k(float* x) {\n    int lane = threadIdx.x % 32;\n"
                 "    float v = __shfl_down_sync(0xffffffff, x[0], 1);\n    if (lane == 0) x[0] = v;\n}\n"
                 "__global__ void j(float* x) {\n    x[0] = (1 + ;\n}\n")
    r, data = lint_json(f)
    assert r.returncode == 2
    codes = [(d["code"], d["line"]) for d in data]
    assert ("KP001", 7) in codes and ("WS002", 2) in codes  # still linted where it parses
    assert kp("lint", f, "--exit-zero").returncode == 0
    latin = tmp_path / "latin1.cu"
    latin.write_bytes(b'__device__ const char* s = "caf\xe9";\n__global__ void k() {}\n')  # in a literal
    r, data = lint_json(latin)
    assert r.returncode == 2 and data[0]["code"] == "KP002" and (data[0]["line"], data[0]["column"]) == (1, 32)
    latin.write_bytes(b"// caf\xe9\n__global__ void k() {}\n")  # in a comment, which nvcc does not read
    assert lint_json(latin)[0].returncode == 0


def test_fix_and_diff(tmp_path):
    plain = tmp_path / "rows.cu"
    shutil.copy(EXAMPLES / "softmax.cu", plain)
    # softmax's 32-lane rows compute the same at 64 (advice, no fix): fixing its ladders alone would
    # make each row's leader store the whole wave's sum
    r = kp("lint", plain, "--diff")
    assert r.returncode == 0 and r.stdout == "" and plain.read_text() == (EXAMPLES / "softmax.cu").read_text()
    f = tmp_path / "softmax.cu"
    # a kernel without rows of its own calls the same helpers: their ladders fold half its wave
    f.write_text((EXAMPLES / "softmax.cu").read_text() + "\n__global__ void row_max(float* x)\n{\n"
                 "    x[threadIdx.x] = warpReduceMax(x[threadIdx.x]);\n}\n")
    before = f.read_text()
    r = kp("lint", f, "--diff")
    assert r.returncode == 1 and f.read_text() == before
    assert "+    for (int mask = warpSize / 2; mask > 0; mask >>= 1) {" in r.stdout
    r = kp("lint", f, "--fix", "--format", "concise")
    # `tid % 32` -> `% warpSize` beside the WARP_SIZE that must stay 32 would add WS016 (two wave
    # widths in one function): a fix never adds a finding, so only the ladders are fixed.
    assert "Fixed 2 findings in 1 file; 2 fixes not applied: each would add a finding." in r.stderr
    after = f.read_text()
    assert after == before.replace("int mask = 16", "int mask = warpSize / 2")
    # what remains has no safe fix (compile-time 32s, the macro, the masks, the withheld fixes)
    assert {line.split(" ")[1] for line in r.stdout.splitlines()} == {"WS001", "WS002", "WS003", "WS007", "WS011"}
    assert kp("lint", f, "--diff").returncode == 0  # nothing left to fix


def test_fix_only_selected_and_never_on_a_syntax_error(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(K)
    kp("lint", f, "--fix", "--select", "WS007")
    assert f.read_text() == K
    f.write_text(K + "void broken( {\n")
    kp("lint", f, "--fix")
    assert f.read_text() == K + "void broken( {\n"
    f.write_text(K.replace("% 32;", "% 32;  // kernelport: ignore[WS002] NVIDIA-only"))
    kp("lint", f, "--fix")
    assert "% 32;" in f.read_text()  # a suppressed finding is not fixed


def test_inline_suppressions_and_unused_ones(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float* x) {\n"
                 "    // kernelport: ignore[WS002] lane of an NVIDIA-only debug path\n"
                 "    int lane = threadIdx.x % 32;\n"
                 "    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + (lane == 0);  // NOLINT(WS007)\n"
                 "    x[0] = 1.0f;  // kernelport: ignore[WS003]\n"
                 "    x[1] = 2.0f;  // NOLINT(WS0077, bugprone-foo)\n"
                 "}\n")
    _, data = lint_json(f)
    assert [(d["code"], d["line"]) for d in data] == [("KP003", 5), ("KP004", 5), ("KP005", 6)]


def test_config_in_pyproject(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.kernelport]\ntargets = ["cuda", "hip-rdna"]\nignore = ["WS007"]\nportable-macros = ["WARP"]\n'
        'per-file-ignores = { "legacy/*.cu" = ["WS002"] }\nfail-on = "error"\n')
    (tmp_path / "legacy").mkdir()
    (tmp_path / "legacy" / "old.cu").write_text(K)
    (tmp_path / "new.cu").write_text(K + "#define WARP 32\n__global__ void j(float* x) { x[threadIdx.x % WARP] = "
                                     "__shfl_sync(0xffffffff, x[0], 0); }\n")
    r, data = lint_json(".", cwd=tmp_path)
    assert [(d["path"], d["code"], d["severity"]) for d in data] == [("new.cu", "WS002", "warning")]
    assert r.returncode == 0  # fail-on = error, and hip-rdna makes WS a warning
    assert kp("lint", ".", "--fail-on", "warning", cwd=tmp_path).returncode == 1
    (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\ntargest = ["cuda"]\n')
    r = kp("lint", ".", cwd=tmp_path)
    assert r.returncode == 2 and "unknown key 'targest'" in r.stderr


def test_directories_gitignore_python_and_metal(tmp_path):
    (tmp_path / ".gitignore").write_text("build/\n*.gen.cu\n")
    for p in ("build/a.cu", "src/b.gen.cu", "src/c.cu", "node_modules/d.cu"):
        (tmp_path / p).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / p).write_text(K)
    (tmp_path / "src" / "host.h").write_text("int add(int a, int b);\n")
    (tmp_path / "src" / "ops.py").write_text(
        'import cupy\nk = cupy.RawKernel(r"""\n__global__ void k(float* x) {\n    int lane = threadIdx.x % 32;\n'
        '    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[0], 1) + (lane == 0);\n}\n""", "k")\n'
        'from torch.utils.cpp_extension import load_inline\n'
        'm = load_inline("m", cpp_sources="", cuda_sources=["__global__ void j(float* x) { x[0] = '
        '__shfl_sync(0xffffffff, x[0], threadIdx.x & 31); }"])\n')
    (tmp_path / "src" / "k.metal").write_text(
        "kernel void k(device float* x [[buffer(0)]], uint tid [[thread_position_in_threadgroup]]) {\n"
        "    float v = x[tid];\n    for (ushort o = 16; o > 0; o /= 2) v += simd_shuffle_down(v, o);\n"
        "    x[tid] = v;\n}\n")
    r, data = lint_json(".", "--select", "WS002,WS004", cwd=tmp_path)
    got = sorted((d["path"], d["line"], d["column"], d["code"]) for d in data)
    col = (tmp_path / "src" / "ops.py").read_text().splitlines()[8].index("& 31") + 3
    assert got == [("src/c.cu", 2, 30, "WS002"), ("src/k.metal", 3, 21, "WS004"),
                   ("src/ops.py", 4, 30, "WS002"), ("src/ops.py", 9, col, "WS002")]


def test_parallel_output_is_deterministic(tmp_path):
    for i in range(12):
        (tmp_path / f"k{i:02}.cu").write_text(K)
    one = kp("lint", ".", "--format", "json", "-j", "1", cwd=tmp_path).stdout
    many = kp("lint", ".", "--format", "json", "-j", "2", cwd=tmp_path).stdout
    assert one == many and len(json.loads(one)) == 24


def test_rule_command():
    r = kp("rule")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert any(l.startswith("WS002  lane-index-from-32") for l in lines) and len(lines) >= 25
    r = kp("rule", "WS004")
    assert r.returncode == 0 and r.stdout.startswith("WS004 shuffle-ladder-from-16 (fixable)")
    assert "warpSize / 2" in r.stdout and "Not flagged" in r.stdout
    assert kp("rule", "barrier-in-divergent-code").stdout.startswith("SY001")
    r = kp("rule", "WS999")
    assert r.returncode == 2 and "unknown rule" in r.stderr
