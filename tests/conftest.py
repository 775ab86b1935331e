"""Shared test helpers.  Keep each section small and delimited; add new fixtures below."""
from __future__ import annotations

import os

import pytest


# --- toolchain policy (kernelport.toolchains) -------------------------------------------------
# In CI (CI=true) a missing compiler is a FAILURE: the gate must never pass by skipping what it
# was meant to check.  Locally a missing compiler skips the test with the install hint.
def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


# Host tools the bind tests need besides kernelport.toolchains' compilers: name -> (candidates, hint).
_HOST_TOOLS = {
    "cargo": (("cargo", "~/.cargo/bin/cargo", "/root/.cargo/bin/cargo"),
              "cargo not found (install: rustup, https://rustup.rs, or apt-get install cargo)"),
    "g++": (("g++",), "g++ not found (install: apt-get install g++)"),
    "chromium": (("chromium-headless-shell", "chromium"),
                 "headless Chromium not found (install: apt-get install chromium-headless-shell)"),
}


def _find_host_tool(name: str):
    import shutil
    import subprocess

    from kernelport.toolchains import Toolchain

    for c in _HOST_TOOLS[name][0]:
        path = shutil.which(os.path.expanduser(c))
        if path:
            r = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
            if r.returncode == 0:
                first = (r.stdout.splitlines() or ["? unknown"])[0].split()
                return Toolchain(name, path, first[1] if name == "cargo" else first[-1])
    return None


def require_tool(name: str):
    """The Toolchain for "nvcc", "hipcc", "clang", "xcrun", "cargo", "g++" or "chromium", or the path of the C
    compiler the reference is built with for "cc"/"gcc"; fail (CI) or skip (locally) if absent."""
    from kernelport import toolchains

    if name in ("cc", "gcc"):
        from kernelport import reference

        tool = reference.c_compiler()
        hint = "no C compiler for the reference (install: apt-get install gcc)"
    elif name in _HOST_TOOLS:
        tool = _find_host_tool(name)
        hint = _HOST_TOOLS[name][1]
    else:
        tool = toolchains.find_tool(name)
        hint = toolchains.install_hint(name) if tool is None else ""
    if tool is None:
        if in_ci():
            pytest.fail(f"required toolchain missing in CI: {hint}", pytrace=False)
        pytest.skip(hint)
    return tool
# --- end toolchain policy ------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _private_verify_cache(tmp_path_factory, monkeypatch):
    """Each test verifies with an empty result cache of its own: a verdict cached by another test
    (or by the user's runs) must never stand in for the code path a test exercises."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg")))


# --- one compile of identical bytes per session (kernelport.compile_cache) ----------------------
# The same port is compiled by several tests (its goldens, verify, the CLI's end-to-end runs): the
# first run's result is the compiler's answer for those bytes, flags and headers, so the others
# read it.  One directory for the whole session: xdist's workers inherit the controller's
# environment.  A directory given in $KERNELPORT_COMPILE_CACHE is used and kept.
def pytest_configure(config):
    import tempfile

    import cpu_profile

    cpu_profile.configure(config)

    from kernelport import compile_cache

    if os.environ.get(compile_cache.ENV) is None and not hasattr(config, "workerinput"):
        config._kp_compile_cache = tempfile.mkdtemp(prefix="kp-compile-cache-")
        os.environ[compile_cache.ENV] = config._kp_compile_cache
    # The HIP check's precompiled headers (kernelport.pch), one directory for the session: each test
    # has a cache home of its own (_private_verify_cache), which would otherwise build them per test.
    from kernelport import pch

    if os.environ.get(pch.ENV) is None and not hasattr(config, "workerinput"):
        config._kp_pch_dir = tempfile.mkdtemp(prefix="kp-pch-")
        os.environ[pch.ENV] = config._kp_pch_dir


def pytest_unconfigure(config):
    import shutil

    import cpu_profile

    cpu_profile.unconfigure(config)

    d = getattr(config, "_kp_compile_cache", None)
    if d:
        shutil.rmtree(d, ignore_errors=True)
    d = getattr(config, "_kp_pch_dir", None)
    if d:
        shutil.rmtree(d, ignore_errors=True)
# --- end compile cache ---------------------------------------------------------------------------


def gfx90a_assembly(path) -> str:
    """`hipcc --cuda-device-only -S` of a HIP port for gfx90a (64-wide waves): the device assembly,
    for tests that check which instructions a port's accesses became (LDS, nontemporal)."""
    import os
    import subprocess
    s = subprocess.run(["hipcc", "-x", "hip", "-std=c++17", "--offload-arch=gfx90a", "--cuda-device-only", "-O2",
                        "-S", "-o", "-", str(path)], capture_output=True, text=True,
                       env={**os.environ, "HIP_PLATFORM": "amd"})
    assert s.returncode == 0, s.stderr[-2000:]
    return s.stdout


def metal_port(code: str):
    """(port, text) of a dedented CUDA snippet translated to Metal as `t.cu`."""
    import textwrap
    from kernelport.source import SourceFile
    from kernelport.translate import translate
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "metal")


def metal_checked(code: str) -> str:
    """The Metal port's text, asserted written and clean under kernelport's Metal checker."""
    port, text = metal_port(code)
    assert port.ok, [d.format() for d in port.diagnostics]
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert diags == [], "\n".join(diags) + "\n" + text
    return text


def run_host_check(tmp_path, name: str, source: str) -> None:
    """Build a host C++ check with g++ and run it: it must print `0 failures` and exit 0."""
    import subprocess
    require_tool("g++")
    src = tmp_path / f"{name}.cpp"
    src.write_text(source)
    exe = tmp_path / name
    r = subprocess.run(["g++", "-std=c++20", "-O1", "-pthread", "-Wno-unknown-pragmas", str(src), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "0 failures" in r.stdout, r.stdout + r.stderr


def hip_compiles(tmp_path, text: str, name: str = "t.hip", extra_args=()):
    """Write a HIP port as `name` and assert it compiles with hipcc for gfx90a (wave 64) and gfx1030
    (wave 32), the HIP done-when's two targets; the file's path (for gfx90a_assembly)."""
    f = tmp_path / name
    f.write_text(text)
    assert_hip_file_compiles(f, extra_args=extra_args)
    return f


def assert_hip_file_compiles(f, archs=("gfx90a", "gfx1030"), extra_args=()) -> None:
    """hipcc compiles the HIP file `f` for each of `archs`, as verify's compile check does
    (toolchains.compile_hip_each): against the session's precompiled HIP runtime header where the
    file opens with it (kernelport.pch: ~0.7 s CPU a file where `hipcc -c` parses the header three
    times, ~2.3 s); a file that fails there is built by `hipcc -c` itself, whose verdict and message
    stand, so a failure here is hipcc's.  A PCH is keyed by the flags: one for a test's own defines or
    include directories (anything but `-std=`) would be built for that one compile and cost more than
    it saves (~1 s CPU a part, three parts), so such a compile is `hipcc -c`'s."""
    from kernelport import toolchains
    require_tool("hipcc")
    args = tuple(str(a) for a in extra_args)
    results = (toolchains.compile_hip_each(f, archs, extra_args=args) if all(a.startswith("-std=") for a in args)
               else [toolchains.compile_hip(f, archs, extra_args=args)])
    bad = [f"{f} {r.target}: {(r.output or r.reason)[-3000:]}" for r in results if not r.ok]
    assert not bad, "\n".join(bad)
