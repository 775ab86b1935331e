"""The Metal checker reads its metal_stdlib.h precompiled (backends/metal/check/stdlib_pch.py): the
same diagnostics, at the same file:line:col, as with the header read whole; a PCH of other bytes
is never used."""
from __future__ import annotations

import os
import shutil
import uuid

import pytest

from kernelport import pch
from kernelport.backends.metal.check import clang as checker_clang
from kernelport.backends.metal.check import run_check

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

PROLOGUE = "#include <metal_stdlib>\nusing namespace metal;\n"
CASES = {
    "clean": PROLOGUE + "kernel void k(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
                        "{ a[i] = fast::sin(a[i]) + simd_sum(a[i]); }\n",
    "double": PROLOGUE + "kernel void k(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
                         "{\n    double d = a[i];\n    a[i] = d;\n}\n",
    # an error reported inside the header, attributed to the port's line that led there
    "threadgroup float atomic": PROLOGUE + "kernel void k(device float* a [[buffer(0)]])\n{\n"
                                           "    threadgroup atomic_float s;\n"
                                           "    atomic_fetch_add_explicit(&s, 1.0f, memory_order_relaxed);\n}\n",
    "address space": PROLOGUE + "void helper(device float* p) { p[0] = 1.0f; }\n"
                                "kernel void k(device float* a [[buffer(0)]])\n{\n"
                                "    threadgroup float t[4];\n    helper(t);\n    a[0] = t[0];\n}\n",
    "unknown name": PROLOGUE + "kernel void k(device float* a [[buffer(0)]])\n{ a[0] = not_declared(a[0]); }\n",
    "template instance": PROLOGUE + "template <typename T>\nkernel void k(device T* a [[buffer(0)]])\n"
                                    "{ a[0] = undeclared_t(a[0]); }\n"
                                    "template [[host_name(\"k_f\")]] kernel void k<float>(device float*);\n",
}


def _diags(report) -> list:
    return [(str(d), d.notes) for d in report.diagnostics]


def _uses_pch(report) -> str | None:
    cmd = report.command
    return cmd[cmd.index("-include-pch") + 1] if "-include-pch" in cmd else None


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_diagnostics_are_the_same_with_and_without_the_pch(name, monkeypatch, tmp_path):
    require_tool("clang")
    text = CASES[name] + f"// {uuid.uuid4().hex}\n"  # bytes no other check answered in this process
    path = str(tmp_path / "k.metal")
    monkeypatch.setenv(pch.ENV, str(tmp_path / "pch"))
    fast = run_check(text, path, include_warnings=True)
    assert _uses_pch(fast) is not None
    monkeypatch.setenv(pch.ENV, "off")
    whole = run_check(text, path, include_warnings=True)
    assert _uses_pch(whole) is None and str(checker_clang.HEADER_PATH) in whole.command
    assert _diags(fast) == _diags(whole)
    assert (fast.ok, fast.returncode) == (whole.ok, whole.returncode)
    assert name == "clean" or any(d.path == path and d.line > 2 for d in whole.diagnostics)


def test_the_ports_defines_are_built_into_their_own_pch(monkeypatch, tmp_path):
    """-D is read before the header: a check with defines uses a PCH built with them."""
    require_tool("clang")
    monkeypatch.setenv(pch.ENV, str(tmp_path / "pch"))
    text = PROLOGUE + "kernel void k(device float* a [[buffer(0)]]) { a[0] = WIDTH; }\n"
    plain, defined = run_check(text, "k.metal"), run_check(text + "\n", "k.metal", defines=[("WIDTH", "4")])
    assert not plain.ok and defined.ok
    assert _uses_pch(plain) and _uses_pch(defined) and _uses_pch(plain) != _uses_pch(defined)


@pytest.fixture
def header_copy(monkeypatch, tmp_path):
    """The checker pointed at a copy of its header, and a PCH directory of its own."""
    copy = tmp_path / "shim" / "metal_stdlib.h"
    copy.parent.mkdir()
    shutil.copyfile(checker_clang.HEADER_PATH, copy)
    monkeypatch.setattr(checker_clang, "HEADER_PATH", copy)
    monkeypatch.setenv(pch.ENV, str(tmp_path / "pch"))
    return copy


USES_ADDED = PROLOGUE + "kernel void k(device float* a [[buffer(0)]]) {{ kp_added_t v = 2; a[0] = v; }} // {}\n"


def test_a_changed_header_is_never_read_from_a_stale_pch(header_copy):
    require_tool("clang")
    before = run_check(USES_ADDED.format(1), "k.metal")
    assert not before.ok and "kp_added_t" in before.diagnostics[0].message and _uses_pch(before)
    text = header_copy.read_text()
    header_copy.write_text(text + "typedef int kp_added_t;\n")
    after = run_check(USES_ADDED.format(2), "k.metal")
    assert after.ok, [str(d) for d in after.diagnostics]  # the old PCH has no kp_added_t
    assert _uses_pch(after) and _uses_pch(after) != _uses_pch(before)


def test_a_pch_clang_refuses_gives_no_verdict_and_is_built_again(header_copy):
    """The same bytes with a new date (clang refuses the PCH: its source was modified since): the
    check runs with the header, and the next check has a PCH again."""
    require_tool("clang")
    first = run_check(USES_ADDED.format(3), "k.metal")
    built = _uses_pch(first)
    made = os.stat(built)
    st = os.stat(header_copy)
    os.utime(header_copy, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    refused = run_check(USES_ADDED.format(4), "k.metal")
    assert _uses_pch(refused) is None and _diags(refused) == _diags(first)
    again = run_check(USES_ADDED.format(5), "k.metal")
    assert _uses_pch(again) == built and (os.stat(built).st_ino, os.stat(built).st_mtime_ns) != (
        made.st_ino, made.st_mtime_ns)  # the refused one dropped, a new one made
    assert _diags(again) == _diags(first)


def test_a_damaged_pch_is_built_again(header_copy, tmp_path):
    require_tool("clang")
    built = _uses_pch(run_check(USES_ADDED.format(6), "k.metal"))
    with open(built, "r+b") as f:
        f.write(b"CPCH" + bytes(64))
    report = run_check(USES_ADDED.format(7), "k.metal")
    assert _uses_pch(report) is None and not report.ok and "kp_added_t" in report.diagnostics[0].message
    assert _uses_pch(run_check(USES_ADDED.format(8), "k.metal")) == built
