"""The portable port's device pass (stop 52): one text that nvcc and hipcc both build, so `#ifdef __CUDA_ARCH__`
and the pass split of `#if __CUDA_ARCH__ >= N` in code both passes compile (kernelport/pass_branches.py) test
`KP_DEVICE_PASS`, which kp_warp.h defines from each compiler's own device-pass macro (nvcc's `__CUDA_ARCH__`,
hipcc's `__HIP_DEVICE_COMPILE__`: the portable backend's `device_pass_macros`, the HIP backend's).  On main the
portable backend had none: the conditional was kept, hipcc compiled the host's branch for the GPU, and `verify
--oracle original` failed the portable rows at 64 (gfx90a) and 32 (gfx1030) of bench/device/pass_branches52.cu."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import require_tool
from test_pass_branches import DEFINE, HD, MIXED, WARP_LADDER, _floats
from kernelport import backends
from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

IFDEF = HD.replace("#if __CUDA_ARCH__ >= 700", "#ifdef __CUDA_ARCH__")
SHAPES = {"host-device": (HD, "v * 2.0f", "v + 1.0f"), "define": (DEFINE, "v * 2.0f", "v * 1.0f"),
          "mixed-test": (MIXED, "SHM = 48", "SHM = 16"), "ifdef": (IFDEF, "v * 2.0f", "v + 1.0f")}
ROOT = Path(__file__).resolve().parents[1]


def _port(tmp_path, text: str) -> Path:
    """The portable port of `text` written with its kp_warp.h; its path."""
    port, out = translate(SourceFile.from_text(text, "t.cu"), "portable")
    assert port.ok, [d.format() for d in port.diagnostics]
    for name, t in backends.get("portable").extra_files().items():
        (tmp_path / name).write_text(t)
    f = tmp_path / "t.portable.cu"
    f.write_text(out)
    return f


def _same_on_each_run(original: str, f: Path, args: dict) -> None:
    """The port, read as each of the portable backend's runs reads it (CUDA at 32, HIP at 64 and 32, kp_warp.h
    from beside it), computes what the original computes at 32."""
    grid, block = (4, 1, 1), (256, 1, 1)
    want = run_kernel(original, "k", args=args, grid=grid, block=block, wave=32).outputs
    for run in backends.get("portable").runs:
        got = run_kernel(f.read_text(), "k", args=args, grid=grid, block=block, wave=run.wave, backend=run.dialect,
                         port_of="portable", path=str(f)).outputs
        for name in want:
            assert np.allclose(got[name], want[name], rtol=1e-6), (run.arch, name, got[name][:4], want[name][:4])


def _hipcc_pass(f: Path, which: str) -> str:
    r = subprocess.run(["hipcc", "-x", "hip", "--offload-arch=gfx90a", f"--cuda-{which}-only", "-E", str(f)],
                       capture_output=True, text=True, timeout=300, env={**os.environ, "HIP_PLATFORM": "amd"})
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_compilers_device_pass_takes_the_device_branch(tmp_path, shape):
    text, dev, host = SHAPES[shape]
    f = _port(tmp_path, text)
    body = f.read_text()
    assert "__CUDA_ARCH__" not in body and "KP_DEVICE_PASS" in body, body
    _same_on_each_run(text, f, _floats())
    require_tool("hipcc")
    device, host_pass = _hipcc_pass(f, "device"), _hipcc_pass(f, "host")
    assert dev in device and host not in device
    assert host in host_pass and dev not in host_pass


def test_the_port_builds_with_nvcc_and_hipcc_for_each_run(tmp_path):
    """verify's compile check of the portable backend: nvcc (sm_80) and hipcc (gfx90a, gfx1030)."""
    require_tool("hipcc")
    require_tool("nvcc")
    f = _port(tmp_path, HD)
    be = backends.get("portable")
    results = be.compile_all(f, list(be.runs))
    assert [r.ok for r in results] == [True] * len(be.runs), [(r.output or r.reason)[-800:] for r in results]


def test_nvccs_device_pass_takes_the_device_branch_and_its_host_pass_the_hosts(tmp_path):
    """nvcc's kept intermediates: `.cpp1.ii` is its device pass's preprocessed text, `.cpp4.ii` its host pass's."""
    require_tool("nvcc")
    f = _port(tmp_path, HD)
    keep = tmp_path / "keep"
    keep.mkdir()
    r = subprocess.run(["nvcc", "-x", "cu", "-arch=sm_80", "-c", "-keep", "-keep-dir", str(keep), str(f),
                        "-o", str(keep / "t.o")], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    device, host = (keep / "t.portable.cpp1.ii").read_text(), (keep / "t.portable.cpp4.ii").read_text()
    assert "v * 2.0f" in device and "v + 1.0f" not in device
    assert "v + 1.0f" in host and "v * 2.0f" not in host


def test_the_header_spells_the_test_from_each_dialects_device_pass_macro():
    header = backends.get("portable").extra_files()["kp_warp.h"]
    assert "#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)\n#define KP_DEVICE_PASS 1\n#endif" in header
    assert backends.get("portable").device_pass_spellings() == {
        "KP_DEVICE_PASS": ["__CUDA_ARCH__", backends.get("hip").device_pass_macros["__CUDA_ARCH__"]]}


def test_a_device_pass_macro_read_as_a_value_in_code(tmp_path):
    f = _port(tmp_path, WARP_LADDER)
    assert "#ifdef KP_DEVICE_PASS\n#define WARP 32\n#else\n#define WARP 1\n#endif" in f.read_text()
    x = (np.arange(1024) % 7).astype(np.float32)
    _same_on_each_run(WARP_LADDER, f, {"x": x, "out": np.zeros(1024, np.float32), "n": 1024})


@pytest.mark.parametrize("text, kept", [
    (DEFINE.replace("#if __CUDA_ARCH__ >= 700", "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600"),
     "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600"),  # both passes take one branch
    (HD.replace("__host__ __device__ float scale", "__host__ float host_scale") + "\n__device__ float scale(float v) "
     "{ return v; }\n", "#if __CUDA_ARCH__ >= 700"),  # a host function: only the host pass runs it
    (DEFINE.replace("__CUDA_ARCH__ >= 700", "__CUDA_ARCH__ >= SM_MIN"), "#if __CUDA_ARCH__ >= SM_MIN"),
    (DEFINE.replace("__CUDA_ARCH__ >= 700", "defined(FAST)"), "#if defined(FAST)"),
])
def test_look_alikes_keep_their_conditional(text, kept):
    port, _ = translate(SourceFile.from_text(text, "t.cu"), "portable")
    assert kept in port.body and "#else" in port.body and "KP_DEVICE_PASS" not in port.body, port.body


def test_verify_passes_the_probe_at_each_width(tmp_path):
    """bench/device/pass_branches52.cu with a portable target: `verify --oracle original` (main: 7 of 22 failed,
    the portable rows at 64 and 32 computing `(v + 1) * 1 + 16`)."""
    from trust_support import kp_inproc
    probe = tmp_path / "probe.cu"
    probe.write_text((ROOT / "bench/device/pass_branches52.cu").read_text()
                     .replace("// @kp targets hip", "// @kp targets portable"))
    rc, out, err = kp_inproc("translate", probe, "--to", "portable", "-o", tmp_path)
    assert rc == 0, err
    rc, out, err = kp_inproc("verify", probe, "--oracle", "original", "--no-cache", "--format", "json")
    assert rc == 0, out[-3000:] + err[-2000:]
    import json
    checks = [c for f in json.loads(out) for c in f["checks"] if c["backend"] == "portable"]
    assert checks and all(c["status"] == "pass" for c in checks), checks
    assert {(c["target"], c["wave"]) for c in checks if c["kind"] == "numeric"} == \
        {("sm_80", 32), ("gfx90a", 64), ("gfx1030", 32)}
    assert {c["target"] for c in checks if c["kind"] == "compile"} == {"sm_80", "gfx90a", "gfx1030"}
