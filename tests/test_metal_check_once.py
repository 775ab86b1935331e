"""A Metal port is type-checked once per verify run, not twice.

Translate type-checks the port it writes (KP224, backends/metal/selfcheck.py) and verify's
compile check type-checks the committed port again: the same bytes, the same clang command (the
port's directory is given to clang only where the port includes or imports something), so the
second answer is the first one's (compile_cache.run(..., memo=True), by the same key as the
compile cache: clang's identity, the command with the file's path taken out, the bytes of the
port and of the checker's header).  The self-check now reads the port as written (sealed), so a
KP224 message's "port line" is the written file's line.
"""
from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

from kernelport import compile_cache, subproc
from kernelport.source import SourceFile
from kernelport.translate import port_file
from port_support import scale_kernel

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool


def _metal_checks(monkeypatch) -> list[list[str]]:
    """The Metal checker's clang runs from now on (not its probes, which read stdin)."""
    runs: list[list[str]] = []
    real = subproc.run

    def counted(cmd, **kw):
        if "-cl-std=clc++2021" in cmd and "-fsyntax-only" in cmd and cmd[-1] != "-":
            runs.append(list(cmd))
        return real(cmd, **kw)
    monkeypatch.setattr(subproc, "run", counted)
    monkeypatch.delenv(compile_cache.ENV, raising=False)  # the session's compile cache would answer both
    return runs


def test_verify_type_checks_a_metal_port_once(tmp_path, monkeypatch):
    require_tool("clang")
    require_tool("gcc")
    src = tmp_path / "scale.cu"
    # bytes no other test checked in this process
    src.write_text(scale_kernel("metal", head=f"// {uuid.uuid4().hex}\n"))
    subprocess.run([sys.executable, "-P", "-m", "kernelport", "translate", str(src), "--to", "metal"],
                   check=True, capture_output=True, cwd=tmp_path)
    runs = _metal_checks(monkeypatch)
    from kernelport.verify import verify_paths
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (report,) = verify_paths([src], jobs=1, cache=False)
    compile_checks = [c for c in report.checks if c.kind == "compile" and c.backend == "metal"]
    assert [(c.status, c.detail) for c in compile_checks] == [("pass", "clang metal: ok")]
    assert len(runs) == 1, runs  # main: 2 (the drift check's translation, then the compile check)


def test_a_port_that_includes_a_header_is_checked_with_its_directory(tmp_path):
    require_tool("clang")
    from kernelport.backends.metal.check import run_check
    (tmp_path / "twice.h").write_text("inline float twice(float v) { return 2.0f * v; }\n")
    text = textwrap.dedent("""\
        #include <metal_stdlib>
        #include "twice.h"
        using namespace metal;
        kernel void k(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]])
        {
            x[i] = twice(x[i]);
        }
    """)
    assert run_check(text, str(tmp_path / "k.metal")).ok
    alone = run_check(text, "<metal port>")  # the same bytes, no directory: another answer, not the first's
    assert not alone.ok and any("twice.h" in d.message for d in alone.errors)


def test_the_answer_is_the_same_bytes_only_and_names_each_file(tmp_path):
    require_tool("clang")
    from kernelport.backends.metal.check import run_check
    body = textwrap.dedent("""\
        #include <metal_stdlib>
        using namespace metal;
        kernel void k(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]])
        {{
            x[i] = {value};
        }}
    """)
    tag = uuid.uuid4().hex
    good = f"// {tag}\n" + body.format(value="2.0f * x[i]")
    bad = f"// {tag}\n" + body.format(value="undefined_name")
    assert run_check(good, str(tmp_path / "a.metal")).ok
    first = run_check(bad, str(tmp_path / "a.metal"))
    second = run_check(bad, str(tmp_path / "b.metal"))
    assert not first.ok and not second.ok
    assert [d.path for d in first.errors] == [str(tmp_path / "a.metal")]
    assert [d.path for d in second.errors] == [str(tmp_path / "b.metal")]
    assert [(d.line, d.column, d.message) for d in first.errors] == [(d.line, d.column, d.message)
                                                                     for d in second.errors]


def test_a_kp224_port_line_is_the_written_files_line(tmp_path):
    require_tool("clang")
    src = tmp_path / "t.cu"
    src.write_text(textwrap.dedent("""\
        __global__ void k(unsigned int *a)
        {
            __shared__ unsigned int s[4 * CTA_SIZE];
            s[threadIdx.x] = a[threadIdx.x];
            __syncthreads();
            a[threadIdx.x] = s[threadIdx.x ^ 1];
        }
    """))
    port, text = port_file(SourceFile.read(src), "metal", tmp_path, allow_unported=True)
    (d,) = [d for d in port.diagnostics if d.code == "KP224"]
    line = int(re.search(r"\(port line (\d+)\)", d.message).group(1))
    assert "CTA_SIZE" in text.splitlines()[line - 1]  # main: the line above it (the text before its checksum line)
