"""The HIP check's precompiled headers hold the header's own template instantiations.

clang's -fpch-instantiate-templates (kernelport.pch.BUILD_FLAGS) makes the instantiations a header
leaves pending once, when its PCH is built, instead of at the end of every port built against it
(about a third of each part's CPU with ROCm 5.2's hip_runtime.h).  The objects are the same bytes:
each part of an example port built against the PCH made with it and against one made without.
"""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from kernelport import pch, toolchains

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")
PREFIX = "#include <hip/hip_runtime.h>\n"
PARTS = [("host", ["--offload-arch=gfx90a", "--offload-arch=gfx1030", "--cuda-host-only"]),
         ("gfx90a", ["--offload-arch=gfx90a", "--cuda-device-only"]),
         ("gfx1030", ["--offload-arch=gfx1030", "--cuda-device-only"])]


def _flags(target_flags):
    return ["-x", "hip", toolchains.HIP_DEFAULT_STD, *target_flags]


@pytest.fixture(scope="module")
def pchs(tmp_path_factory):
    """{(part, "with"/"without"): the PCH of that part's target built with / without BUILD_FLAGS}."""
    tc = require_tool("hipcc")
    got, flags = {}, pch.BUILD_FLAGS
    try:
        for tag, build_flags in (("with", flags), ("without", ())):
            pch.BUILD_FLAGS = build_flags
            root = tmp_path_factory.mktemp(f"pch-{tag}")
            with pch.directory(root):
                for name, target_flags in PARTS:
                    got[name, tag] = pch.build(tc.path, _flags(target_flags), PREFIX, toolchains._hip_env(), 600)
    finally:
        pch.BUILD_FLAGS = flags
    return tc, got


def test_the_pch_leaves_no_instantiation_pending(pchs):
    analyzer = shutil.which("llvm-bcanalyzer-15") or shutil.which("llvm-bcanalyzer")
    if analyzer is None:
        pytest.skip("llvm-bcanalyzer not found (apt-get install llvm-15)")
    _, got = pchs
    dumps = {tag: subprocess.run([analyzer, "-dump", str(got["gfx90a", tag])], capture_output=True, text=True).stdout
             for tag in ("with", "without")}
    assert "<PENDING_IMPLICIT_INSTANTIATIONS" in dumps["without"]  # hip_runtime.h leaves them to each port (main)
    assert "<PENDING_IMPLICIT_INSTANTIATIONS" not in dumps["with"]


@pytest.mark.parametrize("example", ["softmax.hip", "warp_scan.hip"])
def test_each_part_builds_the_same_object_with_or_without_the_instantiations(tmp_path, pchs, example):
    tc, got = pchs
    src = os.path.abspath(os.path.join(EXAMPLES, example))
    for name, target_flags in PARTS:
        objects = []
        for tag in ("with", "without"):
            assert got[name, tag] is not None
            out = tmp_path / f"{name}-{tag}.o"
            proc = subprocess.run([tc.path, *_flags(target_flags), "-include-pch", str(got[name, tag]), "-c", src,
                                   "-o", str(out)], env=toolchains._hip_env(), capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr
            objects.append(out.read_bytes())
        assert objects[0] == objects[1], name


def test_the_pch_key_names_its_build_flags(pchs):
    """A PCH made without them (an older kernelport's) is not taken for one made with them."""
    _, got = pchs
    assert got["gfx1030", "with"].name != got["gfx1030", "without"].name
