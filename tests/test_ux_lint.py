"""`kernelport lint` conventions through the CLI: fixes never add a finding and keep comments
aligned, --show-fixes, `-` with --stdin-filename, --output-file, --config, --statistics in every
format, short messages with the hardware explanation in `--format full` and `kernelport rule`,
and a summary that counts the files with findings."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HARDWARE = "on AMD CDNA (gfx9, MI100-MI300: 64-wide waves)"
# examples/softmax.cu with its lane and warp taken from warpSize: its rows are then the hardware wave,
# so the ladders from 16 are hazards with fixes (the example splits rows of 32 itself: lint's advice)
WAVE_SOFTMAX = (EXAMPLES / "softmax.cu").read_text().replace("tid % 32", "tid % warpSize").replace(
    "tid / 32", "tid / warpSize")


@pytest.fixture(scope="module")
def softmax(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("wave") / "softmax.cu"
    p.write_text(WAVE_SOFTMAX)
    return p


def kp(*args, cwd=None, stdin=None):
    r = subprocess.run([sys.executable, "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, timeout=600, input=stdin)
    assert "Traceback" not in r.stderr, r.stderr
    return r


def codes_per_file(path: Path) -> dict[str, Counter]:
    r = kp("lint", path, "--format", "json", "--exit-zero")
    out: dict[str, Counter] = {}
    for f in json.loads(r.stdout):
        out.setdefault(Path(f["path"]).name, Counter())[f["code"]] += 1
    return out


@pytest.fixture(scope="module")
def fixed_examples(tmp_path_factory):
    d = tmp_path_factory.mktemp("examples")
    for p in EXAMPLES.iterdir():
        if p.is_file() and p.suffix in (".cu", ".hip", ".metal"):
            shutil.copy(p, d / p.name)
    before = codes_per_file(d)
    r = kp("lint", d, "--fix", "--show-fixes", "--format", "concise")
    return d, before, codes_per_file(d), r


def test_fix_never_adds_a_finding_in_any_example(fixed_examples):
    d, before, after, r = fixed_examples
    assert "Fixed " in r.stderr
    for name in ("stream_compact.cu", "warp_vote.cu"):  # ballots: hazards at 64 with safe fixes
        assert (d / name).read_text() != (EXAMPLES / name).read_text(), f"{name}: nothing was fixed"
    for name in ("softmax.cu", "warp_reduce.cu"):  # rows of 32 correct at 64: advice, nothing to fix
        assert (d / name).read_text() == (EXAMPLES / name).read_text(), f"{name}: advice was 'fixed'"
    for name, codes in after.items():
        added = codes - before.get(name, Counter())
        assert not added, f"{name}: --fix added {dict(added)}"
    assert "WS016" not in after["stream_compact.cu"] and "WS016" not in after["warp_vote.cu"]
    assert sum(c.total() for c in after.values()) < sum(c.total() for c in before.values())


def test_show_fixes_lists_the_fixes_per_file(fixed_examples):
    d, before, after, r = fixed_examples
    lines = [x for x in r.stderr.splitlines() if x.startswith("Fixed in ")]
    compact = next(x for x in lines if "stream_compact.cu" in x)
    assert compact.endswith("2 × WS009")
    assert not any("softmax.cu" in x for x in lines)
    fixed = sum(int(part.split(" × ")[0]) for x in lines for part in x.split(": ", 1)[1].split(", "))
    assert f"Fixed {fixed} finding" in r.stderr
    assert "not applied: each would add a finding" in r.stderr


def test_fix_keeps_trailing_comments_aligned(tmp_path):
    f = tmp_path / "c.cu"
    f.write_text("__global__ void k(float* out)\n{\n"
                 "    int lane = threadIdx.x % 32;        // lane in the warp\n"
                 "    int idx = threadIdx.x;              // element of this thread\n"
                 "    float v = out[idx];\n"
                 "    v += __shfl_down_sync(0xffffffff, v, 1);\n"
                 "    if (lane == 0) out[idx] = v;        // leader writes\n}\n")
    kp("lint", f, "--fix")
    lines = f.read_text().splitlines()
    assert lines[2] == "    int lane = threadIdx.x % warpSize;  // lane in the warp"
    assert len({x.index("//") for x in lines if "//" in x}) == 1


def test_stdin_with_stdin_filename(tmp_path, softmax):
    text = WAVE_SOFTMAX
    r = kp("lint", "-", "--stdin-filename", "kernels/softmax.cu", "--format", "concise", stdin=text)
    assert r.returncode == 1
    assert all(line.startswith("kernels/softmax.cu:") for line in r.stdout.splitlines())
    assert r.stdout == kp("lint", softmax, "--format", "concise").stdout.replace(str(softmax), "kernels/softmax.cu")
    fixed = kp("lint", "-", "--stdin-filename", "softmax.cu", "--fix", stdin=text)
    assert "for (int mask = warpSize / 2;" in fixed.stdout and fixed.stdout.count("\n") == text.count("\n")
    bad = kp("lint", "-", stdin=text)
    assert bad.returncode == 2 and "--stdin-filename" in bad.stderr


def test_output_file(tmp_path, softmax):
    out = tmp_path / "report.json"
    r = kp("lint", softmax, "--format", "json", "--output-file", out)
    assert r.returncode == 1 and r.stdout == ""
    # WS001 (WARP_SIZE 32 sizes nwarps) and WS004; `red[32]` indexed by tid / warpSize is no WS011 since
    # h/kp219 (laneslots: a warp index from warpSize never passes 31)
    assert {f["code"] for f in json.loads(out.read_text())} >= {"WS001", "WS004"}


def test_config_path_and_toml_errors(tmp_path, softmax):
    cfg = tmp_path / "ci.toml"
    cfg.write_text('[tool.kernelport]\nselect = ["WS004"]\n')
    r = kp("lint", softmax, "--config", cfg, "--format", "json")
    assert {f["code"] for f in json.loads(r.stdout)} == {"WS004"}
    cfg.write_text('[tool.kernelport]\nselect = ["WS004"\n')
    r = kp("lint", softmax, "--config", cfg)
    assert r.returncode == 2 and r.stderr.startswith(f"{cfg}:2:1: error: invalid TOML")
    r = kp("lint", softmax, "--config", tmp_path / "missing.toml")
    assert r.returncode == 2 and "no such file" in r.stderr


@pytest.mark.parametrize("fmt", ["full", "concise", "json", "sarif", "github"])
def test_statistics_in_every_format(fmt, softmax):
    r = kp("lint", softmax, "--statistics", "--format", fmt)
    assert r.returncode == 1
    if fmt == "json":
        rows = {x["code"]: x for x in json.loads(r.stdout)}
        assert rows["WS004"] == {"code": "WS004", "name": "shuffle-ladder-from-16", "count": 2, "fixable": 2}
    elif fmt == "sarif":
        notes = json.loads(r.stdout)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        assert {"descriptor": {"id": "WS004"}, "level": "note",
                "message": {"text": "2 WS004 shuffle-ladder-from-16 (2 fixable)"}} in notes
    elif fmt == "github":
        assert "::notice title=kernelport WS004::2 WS004 shuffle-ladder-from-16" in r.stdout.splitlines()
    else:
        assert "    2\tWS004\t[*] shuffle-ladder-from-16" in r.stdout.splitlines()


def test_short_messages_and_where_the_explanation_lives(softmax):
    concise = kp("lint", softmax, "--format", "concise").stdout.splitlines()
    ladder = next(x for x in concise if " WS004 " in x)
    assert ladder.endswith("WS004 a shuffle ladder starts at 16 and folds only 32 lanes; start at `warpSize / 2` "
                           "(unrolled: add a guarded step at 32 first)")
    assert all(HARDWARE not in x for x in concise)
    assert max(len(x.split(": ", 1)[1]) for x in concise) < 300
    full = kp("lint", softmax).stdout
    assert f"   = why: {HARDWARE} and on Metal" in full
    assert full.count("lanes 32-63 are never combined with lanes 0-31") == 2
    rule = kp("rule", "WS004").stdout
    assert "64" in rule and "lanes" in rule


def test_summary_counts_files_with_findings_and_files_checked(tmp_path):
    shutil.copy(EXAMPLES / "softmax.cu", tmp_path / "a.cu")
    (tmp_path / "clean.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 0.0f; }\n")
    r = kp("lint", tmp_path)
    n = sum(1 for x in kp("lint", tmp_path, "--format", "concise").stdout.splitlines())
    assert f"Found {n} findings in 1 file (2 checked): " in r.stderr
