"""A file's forced includes (compile_commands.json's `-include cfg.h`) and the macros only the
project's HIP build defines (`[tool.kernelport] hip-defines`) reach the compilers whose build reads
them (Backend.build_reads: nvcc's original and hipcc's port), in the compile key with the forced
header's bytes; a port is compiled and emulated with its original's configuration (a
compile_commands.json entry names the original, never the port).

On main a project whose SCALE came from `-include cfg.h` failed the nvcc and both hipcc checks
("identifier SCALE is undefined") and every numeric run ("unknown name `SCALE`"); one whose
`-DSCALE=2.0f` came from compile_commands.json failed every check of its HIP port the same way.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kernelport import backends
from kernelport.lint import config
from kernelport.verify_cache import Cache, compile_group

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import require_tool
except ImportError:  # pragma: no cover
    from conftest import require_tool

KERNEL = """\
__global__ void scale(float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = SCALE * x[i];
}
"""
TEXTS = {"cuda": ("nvcc", "k.cu", KERNEL), "hip": ("hipcc", "k.hip", "#include <hip/hip_runtime.h>\n" + KERNEL)}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("KERNELPORT_COMPILE_CACHE", raising=False)
    config.clear_cache()
    yield Cache(root=tmp_path / "verify")
    config.clear_cache()


def _project(root: Path, flags: list[str], cfg: str = "#define SCALE 2.0f\n") -> Path:
    """k.cu, built by compile_commands.json's `nvcc FLAGS -c k.cu`, and cfg.h; the original's path."""
    (root / "cfg.h").write_text(cfg)
    (root / "k.cu").write_text(KERNEL)
    (root / "compile_commands.json").write_text(json.dumps(
        [{"directory": str(root), "file": "k.cu", "arguments": ["nvcc", *flags, "-c", "k.cu"]}]))
    config.clear_cache()
    return root / "k.cu"


def _verdicts(cache, backend, path, origin):
    """(ok, read from the cache) of each compile run of `path`, compiled as the port of `origin`."""
    be = backends.get(backend)
    job = (be, path, be.compile_runs()) + ((origin,) if origin != path else ())  # (the original: as on main)
    return [(r.ok, ran is not None) for _, _, r, _, ran in compile_group(cache, job)]


@pytest.mark.parametrize("backend", sorted(TEXTS))
def test_forced_include_reaches_the_compiler_and_its_bytes_the_key(tmp_path, cache, backend):
    tool, name, text = TEXTS[backend]
    require_tool(tool)
    origin = _project(tmp_path, ["-include", "cfg.h"])
    path = tmp_path / name
    path.write_text(text)  # the original itself (cuda), or its port beside it (hip)
    runs = len(backends.get(backend).compile_runs())
    assert _verdicts(cache, backend, path, origin) == [(True, False)] * runs  # main: every run failed
    assert _verdicts(cache, backend, path, origin) == [(True, True)] * runs
    _project(tmp_path, ["-include", "cfg.h"], cfg="#define SCALE (2.0f +\n")  # an edited forced include
    assert _verdicts(cache, backend, path, origin) == [(False, False)] * runs  # not the stale verdict
    _project(tmp_path, ["-include", "cfg.h"])
    assert _verdicts(cache, backend, path, origin) == [(True, True)] * runs
    _project(tmp_path, ["-I", "."])  # the look-alike: cfg.h beside the file but never included
    assert _verdicts(cache, backend, path, origin) == [(False, False)] * runs


def test_a_port_is_compiled_with_its_originals_compile_commands_entry(tmp_path, cache):
    require_tool("hipcc")
    origin = _project(tmp_path, ["-DSCALE=2.0f"])
    port = tmp_path / "k.hip"
    port.write_text(TEXTS["hip"][2])
    assert _verdicts(cache, "hip", port, origin) == [(True, False)] * 2  # main: the port's own (none)
    assert _verdicts(cache, "hip", port, port) == [(False, False)] * 2  # read as itself: no entry names it


def test_metal_is_not_given_the_forced_include(tmp_path, cache):
    """A Metal port stands alone (translate splices what its device code needs): the checker's
    command never names the original's CUDA header."""
    require_tool("clang")
    origin = _project(tmp_path, ["-include", "cfg.h", "-DOTHER=1"])
    port = tmp_path / "k.metal"
    port.write_text("#include <metal_stdlib>\nusing namespace metal;\n"
                    "kernel void scale(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
                    "{\n    x[i] = OTHER * x[i];\n}\n")
    be = backends.get("metal")
    (_, _, r, _, _), = compile_group(cache, (be, port, be.compile_runs(), origin))
    assert r.ok and "-DOTHER=1" in r.command  # its -D, from the original's entry
    assert not any("cfg.h" in a for a in r.command)


HIP_ONLY = """\
#ifndef MYPROJ_AMD
#error built only by the project's HIP configuration
#endif
"""


@pytest.mark.parametrize("backend,ok", [("hip", True), ("cuda", False)])
def test_hip_defines_reach_hipcc_only(tmp_path, cache, backend, ok):
    tool, name, text = TEXTS[backend]
    require_tool(tool)
    path = tmp_path / name
    path.write_text(text.replace("__global__", HIP_ONLY + "__global__").replace("SCALE", "2.0f"))
    (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\nhip-defines = ["MYPROJ_AMD"]\n')
    config.clear_cache()
    runs = len(backends.get(backend).compile_runs())
    assert _verdicts(cache, backend, path, path) == [(ok, False)] * runs  # main: hipcc failed too


def test_the_emulator_reads_a_port_with_its_originals_forced_include(tmp_path, cache):
    from kernelport.emulator import EmulatorError, run_kernel
    origin = _project(tmp_path, ["-include", "cfg.h"])
    port = tmp_path / "k.hip"
    port.write_text(TEXTS["hip"][2])
    x = np.arange(64, dtype=np.float32)
    kw = dict(args={"x": x.copy(), "n": 64}, grid=(1,), block=(64,), wave=64, backend="hip", path=str(port))
    got = run_kernel(port.read_text(), "scale", configured_as=str(origin), **kw).outputs["x"]
    assert np.array_equal(got, 2.0 * x)  # main: no `configured_as`, and no forced include read at all
    with pytest.raises(EmulatorError, match="SCALE"):  # the look-alike: read as itself, nothing configures it
        run_kernel(port.read_text(), "scale", **kw)


def test_a_portable_port_gives_each_compiler_what_its_build_reads(tmp_path, cache, monkeypatch):
    """One portable port, built by nvcc and by hipcc: both read the forced include, only hipcc the
    HIP build's own macros (compile_group keeps what either reads; each compile takes its own)."""
    from kernelport import toolchains
    from kernelport.toolchains import CompileResult
    seen = {}

    def fake(tool):
        def compile_(path, arch, *, extra_args=(), forced=(), timeout=0):
            seen[tool] = (list(extra_args), list(forced))
            ok = CompileResult(tool, str(arch), True, False)
            return [ok] * len(arch) if tool == "hipcc" else ok
        return compile_
    monkeypatch.setattr(toolchains, "compile_cuda", fake("nvcc"))
    monkeypatch.setattr(toolchains, "compile_hip_each", fake("hipcc"))
    origin = _project(tmp_path, ["-include", "cfg.h"])
    (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\nhip-defines = ["MYPROJ_AMD"]\n')
    config.clear_cache()
    port = tmp_path / "k.kp.cu"
    port.write_text(KERNEL)
    be = backends.get("portable")
    assert all(r.ok for _, _, r, _, _ in compile_group(cache, (be, port, be.compile_runs(), origin)))
    forced = [str(tmp_path / "cfg.h")]
    assert seen == {"nvcc": ([], forced), "hipcc": (["-DMYPROJ_AMD=1"], forced)}


def test_an_original_read_as_itself_shares_its_lowering(tmp_path, cache):
    """verify names every run's configuration; the original's, its own, is the lowering every other
    reader of the file (inference, the wave-64 look) makes: one lowering, one preprocessor run."""
    from kernelport.emulator.frontend.parse import lower
    origin = _project(tmp_path, ["-include", "cfg.h"])
    assert lower(KERNEL, path=str(origin), kernel="scale") is lower(KERNEL, path=str(origin), kernel="scale",
                                                                    configured_as=str(origin))


@pytest.mark.parametrize("backend,want", [("hip", 2.0), ("cuda", 1.0)])
def test_the_emulator_gives_a_port_what_its_build_reads(tmp_path, cache, backend, want):
    """The HIP build's own macros reach the HIP port's run, as hipcc is given them; never the
    original's (nvcc's build has none of them)."""
    from kernelport.emulator import run_kernel
    (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\nhip-defines = ["MYPROJ_AMD"]\n')
    config.clear_cache()
    text = "#ifdef MYPROJ_AMD\n#define SCALE 2.0f\n#else\n#define SCALE 1.0f\n#endif\n" + KERNEL
    path = tmp_path / "k.cu"
    path.write_text(text)
    x = np.arange(32, dtype=np.float32)
    got = run_kernel(text, "scale", args={"x": x.copy(), "n": 32}, grid=(1,), block=(32,), backend=backend,
                     path=str(tmp_path / "k.port"), configured_as=str(path)).outputs["x"]
    assert np.array_equal(got, want * x)


def test_the_emulator_reads_no_forced_include_into_a_metal_port(tmp_path, cache):
    """A Metal port stands alone (the checker is not given it either): its run fails at the name."""
    from kernelport.emulator import EmulatorError, run_kernel
    origin = _project(tmp_path, ["-include", "cfg.h"])
    port = tmp_path / "k.metal"
    port.write_text("#include <metal_stdlib>\nusing namespace metal;\n"
                    "kernel void scale(device float* x [[buffer(0)]], uint i [[thread_position_in_grid]])\n"
                    "{\n    x[i] = SCALE * x[i];\n}\n")
    with pytest.raises(EmulatorError, match="SCALE"):
        run_kernel(port.read_text(), "scale", args={"x": np.ones(32, np.float32)}, grid=(1,), block=(32,),
                   backend="metal", path=str(port), configured_as=str(origin))
