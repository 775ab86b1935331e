"""What the generated host code does, WITHOUT a GPU: the launcher against a fake CUDA runtime.

tests/bind_fake/ holds a test-only cuda_runtime.h and its implementation: they log every runtime
call, validate geometry like CUDA, can fail the next launch or synchronise, and count frees.
The saxpy launcher bind generates (and the kernel source it includes) is compiled with g++
against it; a launch hook runs the kernel on the host, so argument marshalling is checked too.
This proves the generated logic (checks, error codes, ownership), not the CUDA runtime; the
real runtime is exercised on the H200 (see the bind section of the README).
"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from bind_support import ROOT, generate
from conftest import require_tool

FAKE = ROOT / "tests" / "bind_fake"
SCENARIOS = ["ok_run", "override_geometry", "bad_geometry", "sync_fault", "pending_error", "free_once"]


@pytest.fixture(scope="module")
def saxpy(tmp_path_factory):
    out = tmp_path_factory.mktemp("bind")
    generate(ROOT / "examples" / "saxpy.cu", out, rust=True, swift=False)
    return out


def _driver(out, launcher, exe):
    gxx = require_tool("g++")
    r = subprocess.run([gxx.path, "-std=c++14", "-Wall", "-Werror", "-I", str(FAKE), "-I", str(out), "-x", "c++",
                        str(launcher), "-x", "none", str(FAKE / "fake_runtime.cpp"), str(FAKE / "saxpy_driver.cpp"),
                        "-o", str(exe)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return exe


@pytest.fixture(scope="module")
def driver(saxpy):
    return _driver(saxpy, saxpy / "saxpy_launch.cu", saxpy / "driver")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_launcher_against_the_fake_runtime(driver, scenario):
    r = subprocess.run([str(driver), scenario], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == f"{scenario}: ok", r.stdout + r.stderr


def test_a_launcher_without_the_sync_check_fails_the_test(saxpy, tmp_path):
    """The sync scenario can fail: with the synchronise unchecked, the fault is lost."""
    text = (saxpy / "saxpy_launch.cu").read_text()
    mutated = text.replace("status = cudaDeviceSynchronize();", "(void)cudaDeviceSynchronize(); status = cudaSuccess;")
    assert mutated != text
    (tmp_path / "saxpy_launch.cu").write_text(mutated.replace('#include "', f'#include "{saxpy}/', 1))
    (tmp_path / "saxpy_launch.h").write_text((saxpy / "saxpy_launch.h").read_text())
    exe = _driver(tmp_path, tmp_path / "saxpy_launch.cu", tmp_path / "driver")
    r = subprocess.run([str(exe), "sync_fault"], capture_output=True, text=True)
    assert r.returncode == 1 and "sync_fault: FAIL" in r.stdout


def test_rust_crate_against_the_fake_runtime(saxpy, tmp_path):
    """`cargo test` of the generated crate, linked with the launcher built against the fake."""
    gxx = require_tool("g++")
    cargo = require_tool("cargo")
    objs = []
    for src, obj in ((saxpy / "saxpy_launch.cu", "launch.o"), (FAKE / "fake_runtime.cpp", "fake.o")):
        r = subprocess.run([gxx.path, "-std=c++14", "-fPIC", "-I", str(FAKE), "-I", str(saxpy), "-x", "c++", "-c",
                            str(src), "-o", str(tmp_path / obj)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        objs.append(str(tmp_path / obj))
    lib = tmp_path / "libkp_fake_saxpy.a"
    subprocess.run([shutil.which("ar") or "ar", "crs", str(lib), *objs], check=True)
    crate = tmp_path / "saxpy_rs"
    shutil.copytree(saxpy / "saxpy_rs", crate)
    (crate / "tests").mkdir()
    shutil.copy(FAKE / "saxpy_fake.rs", crate / "tests" / "saxpy_fake.rs")
    env = dict(os.environ, KERNELPORT_LAUNCHER_LIB=str(lib), KERNELPORT_LINK="stdc++",
               CARGO_TARGET_DIR=str(tmp_path / "target"))
    r = subprocess.run([cargo.path, "test", "--offline", "--test", "saxpy_fake"], cwd=crate, capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    for name in ("a_bad_geometry_returns_the_launch_error", "a_fault_in_the_kernel_is_reported_by_the_sync_check",
                 "a_device_buffer_is_freed_exactly_once", "a_launch_passes_the_buffers_and_scalars_in_order",
                 "lengths_are_checked_before_launching"):
        assert f"test {name} ... ok" in r.stdout, r.stdout
