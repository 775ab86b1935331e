"""Generated launchers through the real compilers, and the Rust crates through `cargo check`.

Bindings are generated into a temporary directory (with the ports bind writes beside them),
exactly as a user gets them; nothing here needs a GPU.
"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from kernelport import toolchains
from kernelport.bind.hosts import HOSTS

from bind_support import EXAMPLES, NAMES, generate
from conftest import assert_hip_file_compiles, require_tool

# Crates checked with cargo: one with scalars and several buffers (matmul_tiled), a scalar
# taken from a buffer's length (saxpy), four buffers and float scalars (warp_vote), a keyword
# parameter and dynamic shared memory (dynamic_shared), a template instance (template_reduce).
CRATES = ["saxpy", "matmul_tiled", "warp_vote", "dynamic_shared", "template_reduce"]


@pytest.fixture(scope="module")
def bound(tmp_path_factory):
    out = tmp_path_factory.mktemp("bind")
    for p in EXAMPLES:
        generate(p, out, rust=True, swift=False)
    return out


@pytest.fixture(scope="module")
def cuda_built(bound):
    """Every launcher through nvcc: one run for all, each compiled alone only if that run fails."""
    require_tool("nvcc")
    return dict(zip(NAMES, toolchains.compile_cuda_many([bound / f"{n}_launch.cu" for n in NAMES])))




@pytest.mark.parametrize("name", NAMES)
def test_cuda_launcher_compiles(cuda_built, name):
    r = cuda_built[name]
    assert r.ok, r.output


@pytest.mark.parametrize("name", NAMES)
def test_hip_launcher_compiles_for_both_arches(bound, name):
    """Each launcher alone, as verify compiles a port (conftest.assert_hip_file_compiles: against the
    session's precompiled HIP runtime header, ~7 CPU s for the 14 where one hipcc run of all 14, which
    parses the header three times a file, took ~32 s); a failure is hipcc's own, named by its file."""
    assert_hip_file_compiles(bound / f"{name}_launch.hip", archs=toolchains.HIP_ARCHS)


def test_header_is_plain_c(bound):
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    for p in EXAMPLES:
        r = subprocess.run([cc, "-std=c99", "-Wall", "-Werror", "-pedantic", "-fsyntax-only", "-x", "c",
                            str(bound / f"{p.stem}_launch.h")], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr


def _cargo(args, crate, env=None, timeout=600):
    cargo = require_tool("cargo")
    e = dict(os.environ, **(env or {}))
    e.setdefault("CARGO_TARGET_DIR", str(crate.parent / "target"))
    return subprocess.run([cargo.path, *args], cwd=crate, capture_output=True, text=True, env=e, timeout=timeout)


@pytest.mark.parametrize("name", CRATES)
def test_crate_passes_cargo_check_offline(bound, name):
    """build.rs runs under `cargo check` too: the launcher is really compiled with nvcc."""
    require_tool("nvcc")
    r = _cargo(["check", "--offline", "--quiet"], bound / f"{name}_rs")
    assert r.returncode == 0, r.stderr
    assert "warning" not in r.stderr, r.stderr


def test_crate_hip_feature_passes_cargo_check_offline(bound):
    require_tool("hipcc")
    r = _cargo(["check", "--offline", "--quiet", "--no-default-features", "--features", "hip"],
               bound / "matmul_tiled_rs")
    assert r.returncode == 0, r.stderr


def test_crate_refuses_two_runtimes(bound):
    r = _cargo(["check", "--offline", "--quiet", "--features", "hip"], bound / "saxpy_rs")
    assert r.returncode != 0 and "enable exactly one runtime feature" in r.stderr


def test_build_rs_uses_the_host_table(bound):
    text = (bound / "saxpy_rs" / "build.rs").read_text()
    for h in HOSTS.values():
        assert f'compiler: "{h.compiler}"' in text and f'runtime_lib: "{h.runtime_lib}"' in text
