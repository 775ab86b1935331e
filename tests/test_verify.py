"""`kernelport verify`: the CI gate fails on a stale, hand-edited, non-compiling or wrong port."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def kp(*args, cwd=None):
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", *map(str, args)], capture_output=True, text=True,
                       cwd=cwd, timeout=600)
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.fixture
def example(tmp_path):
    def copy(name: str) -> Path:
        for suffix in (".cu", ".hip", ".metal", ".metal.json"):
            if (EXAMPLES / f"{name}{suffix}").exists():
                shutil.copy(EXAMPLES / f"{name}{suffix}", tmp_path / f"{name}{suffix}")
        return tmp_path / f"{name}.cu"
    return copy


def checks(r) -> list[dict]:
    return [c for f in json.loads(r.stdout) for c in f["checks"]]


def failed(r) -> list[dict]:
    return [c for c in checks(r) if c["status"] == "fail"]


def test_examples_pass_at_every_width_and_schedule(example):
    r = kp("verify", example("warp_reduce"), example("stream_compact"), "--format", "json")
    assert r.returncode == 0, failed(r)
    cs = checks(r)
    numeric = {(c["backend"], c["wave"], c["schedule"]) for c in cs if c["kind"] == "numeric" and c["status"] == "pass"}
    for backend, wave in (("cuda", 32), ("hip", 64), ("hip", 32), ("metal", 32)):
        for schedule in ("block", "warp", "thread"):
            assert (backend, wave, schedule) in numeric
    kinds = {c["kind"] for c in cs}
    assert {"lint", "drift", "compile", "numeric", "races", "reference"} <= kinds
    for c in cs:  # the JSON contract (DESIGN §6)
        assert {"backend", "wave", "kind", "status", "detail"} <= set(c)


def test_stale_port_fails_drift(example):
    src = example("saxpy")
    src.write_text(src.read_text().replace("y[i] = a * x[i] + y[i];", "y[i] = y[i] + a * x[i];"))
    r = kp("verify", src, "--format", "json", "--schedules", "block")
    assert r.returncode == 1
    drift = [c for c in failed(r) if c["kind"] == "drift"]
    assert drift and "stale" in drift[0]["detail"] and "kernelport translate" in drift[0]["detail"]


def test_hand_edited_port_fails_drift(example):
    src = example("saxpy")
    port = src.with_suffix(".hip")
    port.write_text(port.read_text().replace("// nvcc contracts", "// my tweak: nvcc contracts"))
    r = kp("verify", src, "--format", "json", "--schedules", "block")
    assert r.returncode == 1
    assert any(c["kind"] == "drift" and "edited by hand" in c["detail"] for c in failed(r))


@pytest.mark.parametrize("broken", ["c[i] = a[i] + b[i]",  # a syntax error
                                    "c[i] = a + b[i];"],  # a type error (a pointer plus a float), which
                         ids=["syntax", "type"])  # the precompiled-header build must fail as hipcc does
def test_port_that_does_not_compile_fails(example, broken):
    src = example("vector_add")
    port = src.with_suffix(".hip")
    port.write_text(port.read_text().replace("c[i] = a[i] + b[i];", broken))
    r = kp("verify", src, "--format", "json", "--schedules", "block")
    assert r.returncode == 1
    bad = [c for c in failed(r) if c["kind"] == "compile"]
    assert {c["target"] for c in bad} == {"gfx90a", "gfx1030"} and "error" in bad[0]["detail"]


def test_numerically_wrong_port_fails_with_the_first_differing_element(example):
    """The classic hazard put back by hand: a ladder from 16 is right at 32 lanes, wrong at 64."""
    src = example("warp_reduce")
    port = src.with_suffix(".hip")
    port.write_text(port.read_text().replace("offset = warpSize / 2", "offset = 16"))
    r = kp("verify", src, "--format", "json", "--schedules", "block")
    assert r.returncode == 1
    wrong = [c for c in failed(r) if c["kind"] == "numeric"]
    assert [(c["backend"], c["wave"]) for c in wrong] == [("hip", 64)]
    assert wrong[0]["detail"].startswith("out[0] = ") and "reference" in wrong[0]["detail"]
    assert wrong[0]["explain"]["index"] == 0


def test_divergent_barrier_is_reported_with_its_line(example, tmp_path):
    src = example("block_reduce")
    text = src.read_text()
    src.write_text(text.replace("        __syncthreads();   // outside", "        if (tid < s) __syncthreads();   // outside", 1))
    assert src.read_text() != text
    kp("translate", src, "--to", "hip,metal", "--force")
    r = kp("verify", src, "--format", "json", "--schedules", "block")
    assert r.returncode == 1
    msgs = [c["detail"] for c in failed(r) if c["kind"] == "numeric"]
    assert msgs and all("barrier" in m for m in msgs) and all(":" in m.split()[0] for m in msgs)
    assert any(c["kind"] == "lint" and "SY001" in c["detail"] for c in failed(r))  # the lint gate too


def test_table_and_junit_formats(example):
    src = example("vector_add")
    r = kp("verify", src, "--schedules", "block")
    assert r.returncode == 0 and "vector_add" in r.stdout and "0 failed" in r.stdout
    r = kp("verify", src, "--format", "junit", "--schedules", "block")
    suites = ET.fromstring(r.stdout)
    cases = suites.findall(".//testcase")
    assert cases and not suites.findall(".//failure")


def test_bad_annotation_and_usage_errors_exit_2(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("// @kp kernel k\n// @kp grid 1\n__global__ void k(float* x) { }\n")
    r = kp("verify", f, "--format", "json")
    assert r.returncode == 2 and "no block size" in r.stdout
    assert kp("verify", f, "--format", "yaml").returncode == 2
    assert kp("verify", tmp_path / "none.cu").returncode == 2


@pytest.mark.parametrize("have_nvcc", [False, True], ids=["no-nvcc", "nvcc-but-no-driver"])
def test_device_mode_without_a_gpu_fails_with_the_reason(example, tmp_path, have_nvcc):
    """No GPU, whatever the machine has: PATH holds at most a stand-in nvcc and never nvidia-smi."""
    import os
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if have_nvcc:
        (bin_dir / "nvcc").write_text("#!/bin/sh\nexit 1\n")
        (bin_dir / "nvcc").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PATH": str(bin_dir)}
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "verify", str(example("vector_add")), "--device",
                        "cuda", "--format", "json", "--schedules", "block"], capture_output=True, text=True,
                       timeout=600, env=env)
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 1
    dev = [c for c in checks(r) if c["kind"] == "device"]
    want = "no NVIDIA GPU driver (nvidia-smi not found)" if have_nvcc else "nvcc not found"
    assert [(c["status"], c["detail"].split(": ", 1)[0]) for c in dev] == [("fail", "--device cuda")]
    assert want in dev[0]["detail"]
