"""verify's compile checks are given each file's configured -D / -I ([tool.kernelport], as the emulator
reads the file: kernelport.compile_flags), and their cache key holds them and the headers found there.

On main nvcc, hipcc and the Metal checker got neither: a kernel whose SCALE comes only from
`defines = ["SCALE=2.0f"]` and whose <scale.h> only from `include-dirs = ["inc"]` failed every compile
check ("scale.h: No such file or directory") while its numeric checks passed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport import backends
from kernelport.lint import config
from kernelport.verify_cache import Cache, compile_group

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

CUDA = """\
#include <scale.h>
__global__ void scale(int n, float* x)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = SCALE * OFFSET(x[i]);
}
"""
HIP = "#include <hip/hip_runtime.h>\n" + CUDA
METAL = """\
#include <metal_stdlib>
#include <scale.h>
using namespace metal;
kernel void scale(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    x[i] = SCALE * OFFSET(x[i]);
}
"""
CASES = {"cuda": ("nvcc", "k.cu", CUDA), "hip": ("hipcc", "k.hip", HIP), "metal": ("clang", "k.metal", METAL)}


def _project(root: Path, defines: str, offset: str = "v") -> None:
    (root / "inc").mkdir(exist_ok=True)
    (root / "inc" / "scale.h").write_text(f"#define OFFSET(v) ({offset})\n")
    (root / "pyproject.toml").write_text(f'[tool.kernelport]\ndefines = [{defines}]\ninclude-dirs = ["inc"]\n')
    config.clear_cache()  # a pyproject is read once per process


def _verdicts(cache, backend, path):
    """(ok, read from the cache) of each compile run of `path`."""
    be = backends.get(backend)
    return [(r.ok, ran is not None) for _, _, r, _, ran in compile_group(cache, (be, path, be.compile_runs()))]


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("KERNELPORT_COMPILE_CACHE", raising=False)
    yield Cache(root=tmp_path / "verify")
    config.clear_cache()


@pytest.mark.parametrize("backend", sorted(CASES))
def test_compile_checks_get_the_configured_defines_and_include_dirs(tmp_path, env, backend):
    tool, name, text = CASES[backend]
    require_tool(tool)
    path = tmp_path / name
    path.write_text(text)
    _project(tmp_path, '"SCALE=2.0f"')
    runs = len(backends.get(backend).compile_runs())
    assert _verdicts(env, backend, path) == [(True, False)] * runs  # main: every run failed
    assert _verdicts(env, backend, path) == [(True, True)] * runs
    _project(tmp_path, '"SCALE=2.0f"', offset="v +")  # a header found on the include dir: in the key
    assert _verdicts(env, backend, path) == [(False, False)] * runs
    _project(tmp_path, '"SCALE=2.0f"')
    assert _verdicts(env, backend, path) == [(True, True)] * runs
    _project(tmp_path, '"OTHER=1"')  # the look-alike: no SCALE configured, the compile fails (not from the cache)
    assert _verdicts(env, backend, path) == [(False, False)] * runs
