"""Golden ports of every bundled example, and every port and original through real compilers.

The committed `examples/<name>.hip` files are the goldens.  Regenerate them after an intended
change with `kernelport translate examples/*.cu --to hip` and review the diff.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from kernelport import toolchains
from kernelport.source import SourceFile
from kernelport.translate import destination, port_file

from conftest import require_tool

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))
NAMES = [p.stem for p in EXAMPLES]


def test_there_are_at_least_twelve_examples():
    assert len(EXAMPLES) >= 12


@pytest.mark.parametrize("path", EXAMPLES, ids=NAMES)
def test_hip_golden(path):
    dest = destination(path, "hip")
    port, text = port_file(SourceFile.read(path), "hip", dest.parent)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert dest.exists(), f"missing golden: run kernelport translate {path.relative_to(ROOT)} --to hip"
    assert text == dest.read_text(), f"stale golden {dest.name}: run kernelport translate examples/*.cu --to hip"


@lru_cache(maxsize=None)
def _hip_builds(port: Path) -> dict:
    """arch -> CompileResult: one hipcc run builds every architecture (the two tests of a port run
    one after the other, on one worker); a failure is still reported per architecture."""
    return {r.target: r for r in toolchains.compile_hip_each(port, toolchains.HIP_ARCHS)}


@pytest.mark.parametrize("arch", toolchains.HIP_ARCHS)
@pytest.mark.parametrize("path", EXAMPLES, ids=NAMES)
def test_hip_port_compiles(path, arch):
    require_tool("hipcc")
    r = _hip_builds(destination(path, "hip"))[arch]
    assert r.ok, r.output


@pytest.mark.parametrize("path", EXAMPLES, ids=NAMES)
def test_cuda_original_compiles(path):
    require_tool("nvcc")
    r = toolchains.compile_cuda(path)
    assert r.ok, r.output


def test_port_is_built_for_the_wave_width_of_each_arch():
    require_tool("hipcc")
    port = destination(ROOT / "examples" / "warp_reduce.cu", "hip")
    assert toolchains.hip_wavefront_size(port, "gfx90a") == 64
    assert toolchains.hip_wavefront_size(port, "gfx1030") == 32


@pytest.mark.parametrize("name", ["transpose", "bitset", "matmul_tiled", "histogram", "block_reduce"])
def test_look_alike_and_plain_examples_keep_their_body(name):
    """Only the generated header and prologue differ: nothing in these kernels is about warps."""
    src = (ROOT / "examples" / f"{name}.cu").read_text()
    port = (ROOT / "examples" / f"{name}.hip").read_text()
    assert port.endswith(src)
