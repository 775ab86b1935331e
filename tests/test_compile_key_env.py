"""verify's compile verdicts are keyed by the environment each tool reads (toolchains.TOOL_ENV).

On main the key held each tool's path and version only: after `NVCC_APPEND_FLAGS=-DKP_BROKEN` (or
`HIPCC_COMPILE_FLAGS_APPEND`, which also steers the HIP PCHs) the next run gave the cached pass,
where a fresh compile fails.  A variable no tool reads must not miss the cache.
"""
from __future__ import annotations

from kernelport import backends
from kernelport.verify_cache import Cache, compile_group

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

BODY = """\
#ifdef KP_BROKEN
#error "KP_BROKEN is defined"
#endif
__global__ void k(float* x) { x[threadIdx.x] += 1.0f; }
"""


def _verdicts(cache, backend, path):
    """(ok, read from the cache) of each compile run of `path`."""
    be = backends.get(backend)
    return [(r.ok, ran is not None) for _, _, r, _, ran in compile_group(cache, (be, path, be.compile_runs()))]


def _setup(tmp_path, monkeypatch, name, text):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))  # the HIP PCHs live there too
    monkeypatch.delenv("KERNELPORT_COMPILE_CACHE", raising=False)  # every miss compiles
    for v in ("NVCC_APPEND_FLAGS", "HIPCC_COMPILE_FLAGS_APPEND", "KP_UNRELATED_SETTING"):
        monkeypatch.delenv(v, raising=False)
    path = tmp_path / name
    path.write_text(text)
    return Cache(root=tmp_path / "verify"), path


def test_nvcc_flags_from_the_environment_compile_again(tmp_path, monkeypatch):
    require_tool("nvcc")
    cache, path = _setup(tmp_path, monkeypatch, "k.cu", BODY)
    assert _verdicts(cache, "cuda", path) == [(True, False)]
    monkeypatch.setenv("KP_UNRELATED_SETTING", "1")  # read by no compiler: the stored verdict answers
    assert _verdicts(cache, "cuda", path) == [(True, True)]
    monkeypatch.setenv("NVCC_APPEND_FLAGS", "-DKP_BROKEN")
    assert _verdicts(cache, "cuda", path) == [(False, False)]  # main: [(True, True)], from the cache
    monkeypatch.delenv("NVCC_APPEND_FLAGS")
    assert _verdicts(cache, "cuda", path) == [(True, True)]


def test_hipcc_flags_from_the_environment_compile_again(tmp_path, monkeypatch):
    require_tool("hipcc")
    cache, path = _setup(tmp_path, monkeypatch, "k.hip", "#include <hip/hip_runtime.h>\n" + BODY)  # a PCH build
    runs = len(backends.get("hip").compile_runs())
    assert _verdicts(cache, "hip", path) == [(True, False)] * runs
    monkeypatch.setenv("KP_UNRELATED_SETTING", "1")
    assert _verdicts(cache, "hip", path) == [(True, True)] * runs
    monkeypatch.setenv("HIPCC_COMPILE_FLAGS_APPEND", "-DKP_BROKEN")
    assert _verdicts(cache, "hip", path) == [(False, False)] * runs  # main: all (True, True)
