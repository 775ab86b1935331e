"""verify's numeric cache is keyed by what the emulator reads a kernel with: its configured defines,
include dirs and the headers found there ([tool.kernelport] in a pyproject.toml, compile_commands.json).

On main the key held the file's bytes and its quoted headers beside it only: a changed `defines`
entry gave the old numeric verdict from the cache (a kernel scaling by SCALE=3 "matched" a
reference scaling by 2), where `--no-cache` failed it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from kernelport.lint import config
from kernelport.verify_cache import file_digest, kernel_digest
from port_support import scale_kernel

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool


def _project(tmp_path: Path, scale: str, offset: str) -> Path:
    (tmp_path / "inc").mkdir(exist_ok=True)
    (tmp_path / "inc" / "scale.h").write_text(f"#define OFFSET(v) ({offset})\n")
    (tmp_path / "pyproject.toml").write_text(f'[tool.kernelport]\ndefines = ["SCALE={scale}"]\ninclude-dirs = ["inc"]\n')
    src = tmp_path / "k.cu"
    src.write_text(scale_kernel("hip", "SCALE * OFFSET(x[i])", "#include <scale.h>\n"))
    config.clear_cache()  # a pyproject is read once per process: what the next `kernelport verify` reads
    return src


def _numeric(tmp_path: Path, src: Path) -> set[str]:
    """The numeric verdicts of `kernelport verify` (a process of its own, as a user runs it) on the cache home."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "HIP_PLATFORM": "amd"}
    env.pop("KERNELPORT_COMPILE_CACHE", None)
    proc = subprocess.run([sys.executable, "-P", "-m", "kernelport", "verify", str(src), "--format", "json"],
                          capture_output=True, text=True, env=env, cwd=tmp_path)
    (report,) = json.loads(proc.stdout)
    return {c["status"] for c in report["checks"] if c["kind"] == "numeric"}


def test_a_changed_define_runs_the_kernel_again(tmp_path):
    require_tool("gcc")
    src = _project(tmp_path, "2.0f", "v")
    assert _numeric(tmp_path, src) == {"pass"}
    _project(tmp_path, "3.0f", "v")  # what the emulator now reads: 3 * x, the reference 2 * x
    assert _numeric(tmp_path, src) == {"fail"}  # main: {"pass"}, from the cache


def test_the_kernel_digest_reads_the_configuration_and_the_compile_digest_does_not(tmp_path):
    src = _project(tmp_path, "2.0f", "v")
    kernel, compiled = kernel_digest(src), file_digest(src)
    assert kernel_digest(src) == kernel  # nothing changed
    _project(tmp_path, "3.0f", "v")
    assert kernel_digest(src) != kernel
    assert file_digest(src) == compiled  # the compile checks read no configuration: their key stays
    _project(tmp_path, "2.0f", "v")
    assert kernel_digest(src) == kernel
    _project(tmp_path, "2.0f", "v + 1.0f")  # the header found on the configured include dir (`<scale.h>`)
    assert kernel_digest(src) != kernel
    _project(tmp_path, "2.0f", "v")
    (tmp_path / "inc" / "unrelated.h").write_text("#define NOT_READ 1\n")  # a header no include names
    assert kernel_digest(src) == kernel
