"""The HIP compile check against a precompiled system-header prefix (kernelport.pch): the same
verdicts as one plain `hipcc -c` of every architecture, the headers parsed once per toolchain."""
from __future__ import annotations

import os
import shutil
import textwrap
from pathlib import Path

import pytest

from kernelport import pch, toolchains

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
    from .test_toolchains import HIP_KERNEL
except ImportError:  # pragma: no cover
    from conftest import require_tool
    from test_toolchains import HIP_KERNEL


@pytest.mark.parametrize("text, prefix", [
    ("#include <hip/hip_runtime.h>\nint x;\n", "#include <hip/hip_runtime.h>\n"),
    # the first system include only: a tree's ports share one PCH per target, whatever follows
    ("// a port\n// of k.cu\n\n  #  include <hip/hip_runtime.h>  // runtime\n#include <cstdint>\n"
     "__global__ void k() {}\n", "#include <hip/hip_runtime.h>\n"),
    ("#include <hip/hip_runtime.h>\n#define N 4\n#include <cstdint>\n", "#include <hip/hip_runtime.h>\n"),
    # a macro, a local header or a block comment first: nothing is precompiled
    ("#define __HIP_NO_HALF_OPERATORS__ 1\n#include <hip/hip_runtime.h>\n", ""),
    ('#include "k.h"\n#include <hip/hip_runtime.h>\n', ""),
    ("/* header */\n#include <hip/hip_runtime.h>\n", ""),
    ("__global__ void k() {}\n", ""),
])
def test_system_prefix(text, prefix):
    assert pch.system_prefix(text) == prefix


@pytest.fixture(scope="module")
def shared_pch(tmp_path_factory):
    """One PCH directory for the module's compiles (each PCH costs a parse of hip_runtime.h)."""
    return tmp_path_factory.mktemp("pch")


@pytest.fixture
def runs(monkeypatch, shared_pch):
    monkeypatch.setenv(pch.ENV, str(shared_pch))
    got = []
    real = toolchains._run_compile
    monkeypatch.setattr(toolchains, "_run_compile", lambda *a, **k: got.append((a[1], a[2])) or real(*a, **k))
    return got


def _file(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_a_port_is_built_per_target_against_its_pch(tmp_path, runs, shared_pch):
    """The host object and each architecture's code object, each against the PCH of its target;
    a second file with the same prefix reuses the PCHs."""
    require_tool("hipcc")
    ok = toolchains.compile_hip_each(_file(tmp_path, "k.hip", HIP_KERNEL), toolchains.HIP_ARCHS)
    assert [(r.target, r.ok, r.tool) for r in ok] == [("gfx90a", True, "hipcc"), ("gfx1030", True, "hipcc")]
    assert [t for t, _ in runs] == ["host", "gfx90a", "gfx1030"]
    host, *devices = [cmd for _, cmd in runs]
    assert "--cuda-host-only" in host and all("--cuda-device-only" in c for c in devices)
    pchs = [cmd[cmd.index("-include-pch") + 1] for _, cmd in runs]
    assert len(set(pchs)) == 3 and all(p.startswith(str(shared_pch)) for p in pchs)
    built = sorted(shared_pch.glob("*.pch"))
    runs.clear()
    other = _file(tmp_path, "other.hip", HIP_KERNEL.replace("warp_reduce", "other_reduce"))
    assert all(r.ok for r in toolchains.compile_hip_each(other, toolchains.HIP_ARCHS))
    assert [t for t, _ in runs] == ["host", "gfx90a", "gfx1030"] and sorted(shared_pch.glob("*.pch")) == built


def test_a_type_error_fails_per_arch_with_hipccs_message(tmp_path, runs, shared_pch):
    """A failure with the PCH is no verdict: the plain hipcc runs give it, as they always did."""
    require_tool("hipcc")
    bad = _file(tmp_path, "bad.hip", HIP_KERNEL.replace("int i = ", "int* kp_bad = 1.5f; int i = "))
    rs = toolchains.compile_hip_each(bad, toolchains.HIP_ARCHS)
    assert [(r.target, r.ok) for r in rs] == [("gfx90a", False), ("gfx1030", False)]
    assert all("cannot initialize a variable of type 'int *'" in r.output for r in rs)
    assert [t for t, _ in runs] == ["host", "gfx90a,gfx1030", "gfx90a", "gfx1030"]
    assert all("-include-pch" not in cmd for _, cmd in runs[1:])
    assert len(list(shared_pch.glob("*.pch"))) >= 1  # a failing port is no reason to drop a PCH


def test_an_rdna_only_error_still_fails_only_gfx1030(tmp_path, runs):
    require_tool("hipcc")
    rdna_only = _file(tmp_path, "rdna.hip", HIP_KERNEL + "#if defined(__gfx1030__)\n#error no RDNA build\n#endif\n")
    rs = toolchains.compile_hip_each(rdna_only, toolchains.HIP_ARCHS)
    assert [(r.target, r.ok) for r in rs] == [("gfx90a", True), ("gfx1030", False)]
    assert "no RDNA build" in rs[1].output


def test_a_pch_clang_refuses_is_built_again(tmp_path, monkeypatch, shared_pch):
    """A PCH clang refuses (corrupt here; headers changed since in life): the port still passes, by
    the plain build, and its PCHs are built again for the next compile."""
    require_tool("hipcc")
    mine = tmp_path / "pch"
    shutil.copytree(shared_pch, mine)
    monkeypatch.setenv(pch.ENV, str(mine))
    k = _file(tmp_path, "k.hip", HIP_KERNEL)
    toolchains.compile_hip_each(k, toolchains.HIP_ARCHS)
    for p in mine.glob("*.pch"):
        p.write_bytes(b"CPCH" + bytes(64))
    got = []
    real = toolchains._run_compile
    monkeypatch.setattr(toolchains, "_run_compile", lambda *a, **kw: got.append(a[1]) or real(*a, **kw))
    assert all(r.ok for r in toolchains.compile_hip_each(k, toolchains.HIP_ARCHS))
    assert got == ["host", "gfx90a,gfx1030"]
    got.clear()
    assert all(r.ok for r in toolchains.compile_hip_each(k, toolchains.HIP_ARCHS))
    assert got == ["host", "gfx90a", "gfx1030"]
    assert all(p.stat().st_size > 1 << 20 for p in mine.glob("*.pch"))


def test_a_file_that_defines_a_macro_first_is_built_the_plain_way(tmp_path, runs):
    require_tool("hipcc")
    k = _file(tmp_path, "k.hip", "#define KP_N 4\n" + HIP_KERNEL)
    assert all(r.ok for r in toolchains.compile_hip_each(k, toolchains.HIP_ARCHS))
    assert [t for t, _ in runs] == ["gfx90a,gfx1030"]


def test_pch_off(tmp_path, runs, monkeypatch):
    require_tool("hipcc")
    monkeypatch.setenv(pch.ENV, "off")
    assert all(r.ok for r in toolchains.compile_hip_each(_file(tmp_path, "k.hip", HIP_KERNEL), toolchains.HIP_ARCHS))
    assert [t for t, _ in runs] == ["gfx90a,gfx1030"]


def test_the_plain_check_and_the_pch_check_agree_on_a_host_error(tmp_path, runs):
    """Host code is compiled too: an error there fails both architectures, as `hipcc -c` does."""
    require_tool("hipcc")
    text = HIP_KERNEL + textwrap.dedent("""\
        void launch(float* x) {
            hipLaunchKernelGGL(warp_reduce, dim3(1), dim3(64), 0, 0, x, x, nullptr, 1, 2);
        }
        """)
    rs = toolchains.compile_hip_each(_file(tmp_path, "host.hip", text), toolchains.HIP_ARCHS)
    assert [r.ok for r in rs] == [False, False] and runs[0][0] == "host"


def _entry(root, key: str, used: float, size: int = 1000) -> None:
    for ext, n in (("pch", size), ("hip", 20), ("lock", 0)):
        p = root / f"{key}.{ext}"
        p.write_bytes(b"x" * n)
        os.utime(p, (used, used))


def test_prune_deletes_entries_unused_for_max_age_then_the_least_recently_used_beyond_the_size(tmp_path):
    day, now = 86400.0, 1_000_000_000.0
    _entry(tmp_path, "stale", now - 40 * day)
    _entry(tmp_path, "old", now - 10 * day)
    _entry(tmp_path, "older", now - 20 * day)
    _entry(tmp_path, "fresh", now - 60)
    (tmp_path / ".build-dead").mkdir()
    os.utime(tmp_path / ".build-dead", (now - 2 * day, now - 2 * day))
    (tmp_path / "notes.txt").write_text("not an entry")
    # 4 entries of 1020 bytes: past 30 days goes; over 2.5 kB the least recently used go, not one in the hour
    gone = pch.prune(tmp_path, now=now, max_age_days=30, max_bytes=2500, keep_recent_s=3600)
    assert gone == ["stale", "older"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fresh.hip", "fresh.lock", "fresh.pch", "notes.txt", "old.hip", "old.lock", "old.pch"]
    assert pch.prune(tmp_path, now=now, max_age_days=30, max_bytes=0, keep_recent_s=3600) == ["old"]  # fresh: in use


def test_a_reused_pch_counts_as_used_and_a_new_build_prunes(tmp_path, monkeypatch):
    """The .lock's date is the entry's last use (the .pch and .hip keep theirs: clang checks the
    source's); building a new PCH prunes the directory."""
    fake = tmp_path / "fakecc"
    fake.write_text('#!/bin/sh\nwhile [ "$1" != "-o" ]; do shift; done\necho pch > "$2"\n')
    fake.chmod(0o755)
    root = tmp_path / "pch"
    monkeypatch.setenv(pch.ENV, str(root))
    first = pch.build(str(fake), ["-x", "hip"], "#include <a.h>\n", dict(os.environ), 30)
    long_ago = 1_000_000.0
    for p in root.iterdir():
        os.utime(p, (long_ago, long_ago))
    assert pch.build(str(fake), ["-x", "hip"], "#include <a.h>\n", dict(os.environ), 30) == first  # reused
    assert first.with_suffix(".lock").stat().st_mtime > long_ago
    assert first.stat().st_mtime == long_ago and first.with_suffix(".hip").stat().st_mtime == long_ago
    for p in root.iterdir():
        os.utime(p, (long_ago, long_ago))
    second = pch.build(str(fake), ["-x", "hip"], "#include <b.h>\n", dict(os.environ), 30)
    assert second.is_file() and not first.exists() and not first.with_suffix(".hip").exists()


def test_a_ports_pchs_are_built_at_once_in_order(tmp_path, monkeypatch):
    # the first port's three PCHs (host, gfx90a, gfx1030) are built together: each build here waits for
    # the other two to have begun (built one after another, the first would wait alone and time out)
    import threading
    met = threading.Barrier(3, timeout=30)

    def build(exe, flags, *a, **k):
        met.wait()
        return Path("/pch/" + ("host" if "--cuda-host-only" in flags else
                               flags[flags.index("--cuda-device-only") - 1].split("=")[1]))

    monkeypatch.setattr(pch, "build", build)
    parts = []
    monkeypatch.setattr(toolchains, "_run_compile", lambda *a, **k: parts.append(a[1]) or
                        toolchains.CompileResult("hipcc", a[1], False, False, [], "", "stop here"))
    src = tmp_path / "k.hip"
    src.write_text("#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n")
    tc = toolchains.Toolchain("hipcc", "/opt/rocm/bin/hipcc", "5.2")
    fast, used = toolchains._compile_hip_parts(tc, src, ["gfx90a", "gfx1030"], [], (), 60)
    assert used == [Path("/pch/host"), Path("/pch/gfx90a"), Path("/pch/gfx1030")]  # in the targets' order
    assert fast is None and parts == ["host"]  # the parts are compiled after, against them


def test_a_failed_pch_build_among_them_still_sends_the_port_the_plain_way(tmp_path, monkeypatch):
    # the look-alike: one target's build fails (None) while the others build: no part is compiled
    # against a PCH, and the PCHs that were built are handed back (forgotten if the plain build passes)
    def build(exe, flags, *a, **k):
        name = "host" if "--cuda-host-only" in flags else flags[flags.index("--cuda-device-only") - 1].split("=")[1]
        return None if name == "gfx90a" else Path(f"/pch/{name}")

    monkeypatch.setattr(pch, "build", build)
    ran = []
    monkeypatch.setattr(toolchains, "_run_compile", lambda *a, **k: ran.append(a) or None)
    src = tmp_path / "k.hip"
    src.write_text("#include <hip/hip_runtime.h>\n__global__ void k(int *p) { p[0] = 1; }\n")
    tc = toolchains.Toolchain("hipcc", "/opt/rocm/bin/hipcc", "5.2")
    fast, used = toolchains._compile_hip_parts(tc, src, ["gfx90a", "gfx1030"], [], (), 60)
    assert fast is None and not ran
    assert used == [Path("/pch/host"), Path("/pch/gfx1030")]
