"""`verify --device cuda` on a kernel whose oracle is the original at wave 32 (no annotated reference).

Before stop 45 the device ran only annotated kernels: on a file without `// @kp reference` verify said
nothing about the GPU at all (the device run of every test kernel stop 44's helpers asked for showed no
device row).  Now the original runs on the GPU with the oracle's inputs and is compared with the
emulator's run of it; host-filled constant memory is given the contents the emulator's run had (stop 61; a
skip before).  The GPU is a stand-in here (kernelport.device.run_cuda
replaced in this process); bench/device/run_pending_h100.sh runs the real one.
"""
from __future__ import annotations

import numpy as np
import pytest

from trust_support import kp_inproc

SCALE = """\
// @kp kernel  scale
// @kp grid    2
// @kp block   64
// @kp arg     x    in   float[128]  uniform(-1, 1)
// @kp arg     y    out  float[128]
__global__ void scale(const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * x[i] + 1.0f;
}
"""

# the same kernel reading constant memory its host code would fill (cudaMemcpyToSymbol)
FILLED = SCALE.replace("__global__", "__constant__ float w[4];\n__global__").replace(
    "y[i] = 2.0f * x[i] + 1.0f;", "y[i] = w[i % 4] * x[i];")


def _device_rows(tmp_path, monkeypatch, src, gpu, config=""):
    import json
    from kernelport import device
    calls = []

    def stand_in(source, kernel, spec, args, targs, arch="native", flags=(), variants=(), symbols=None,
                 redefine=None, alone=True):
        calls.append((kernel.name, spec.dims("grid"), spec.dims("block"), flags, symbols))
        return gpu(args, symbols) if gpu.__code__.co_argcount == 2 else gpu(args)
    monkeypatch.setattr(device, "run_cuda", stand_in)
    f = tmp_path / "k.cu"
    f.write_text(src)
    if config:
        (tmp_path / "pyproject.toml").write_text(config)
    assert kp_inproc("translate", f, "--to", "hip,metal,portable")[0] == 0
    rc, out, err = kp_inproc("verify", f, "--device", "cuda", "--schedules", "block", "--format", "json",
                             "--no-cache", "-j", "1")
    checks = json.loads(out)[0]["checks"]
    return rc, [c for c in checks if c["kind"] == "device"], calls, out + err


def test_the_original_runs_on_the_gpu_against_the_emulators_run(tmp_path, monkeypatch):
    rc, dev, calls, text = _device_rows(tmp_path, monkeypatch, SCALE, lambda a: {"y": 2.0 * a["x"] + 1.0})
    assert calls and calls[0][0] == "scale", text
    assert [(c["status"], c["backend"], c["wave"]) for c in dev] == [("pass", "cuda", 32)], text
    assert "GPU vs the emulator's original at wave 32" in dev[0]["detail"] and dev[0]["seconds"] > 0
    assert rc == 0, text


def test_a_gpu_that_computes_something_else_fails_the_run(tmp_path, monkeypatch):
    def wrong(a):
        y = (2.0 * a["x"] + 1.0).astype(np.float32)
        y[77] += 0.5
        return {"y": y}
    rc, dev, calls, text = _device_rows(tmp_path, monkeypatch, SCALE, wrong)
    assert [c["status"] for c in dev] == ["fail"] and "y[77]" in dev[0]["detail"], text
    assert rc == 1, text


def test_host_filled_constant_memory_gets_the_contents_the_emulator_gave_it(tmp_path, monkeypatch):
    """Stop 60's H100 run skipped 12 kernels for it (rodinia's cfd, mriQ's `ck`): the driver now copies the
    emulator's contents in (cudaMemcpyToSymbol, kernelport/device_inputs.py), so both runs read the same w."""
    rc, dev, calls, text = _device_rows(tmp_path, monkeypatch, FILLED,
                                        lambda a, sym: {"y": sym["w"][np.arange(128) % 4] * a["x"]})
    assert calls and set(calls[0][4]) == {"w"} and calls[0][4]["w"].dtype == np.float32, text
    assert np.any(calls[0][4]["w"] != 0), "seeded contents, as the emulator's run had them"
    assert [c["status"] for c in dev] == ["pass"], text
    rc, dev, calls, text = _device_rows(tmp_path, monkeypatch, FILLED,  # the GPU given other constants
                                        lambda a, sym: {"y": (sym["w"][np.arange(128) % 4] + 0.5) * a["x"]})
    assert [c["status"] for c in dev] == ["fail"], text


def test_the_gpu_driver_renames_the_files_own_main():
    from kernelport.device import DRIVER
    head = DRIVER.split("#include <cstdio>")[0]
    assert "#define main kp_original_main" in head and head.rstrip().endswith("#undef main")


def test_the_projects_include_dirs_and_defines_reach_the_gpu_build(tmp_path, monkeypatch):
    (tmp_path / "inc").mkdir()
    cfg = '[tool.kernelport]\ninclude-dirs = ["inc"]\ndefines = ["SCALE=2"]\n'
    rc, dev, calls, text = _device_rows(tmp_path, monkeypatch, SCALE, lambda a: {"y": 2.0 * a["x"] + 1.0}, cfg)
    flags = calls[0][3]
    assert f"-I{(tmp_path / 'inc').resolve()}" in flags and "-DSCALE=2" in flags, (flags, text)


def test_struct_arguments_are_passed_or_a_skip_never_an_internal_error():
    """rsc-cuda's and binomial's buffers of structs, Mandelbrot's struct by value: the GPU device run of
    the oracle over tests/realcorpus (bench/device/oracle_device_h100_45.txt) raised KeyError / TypeError;
    since stop 61 the driver passes them (tests/test_device_inputs.py builds them), and what it cannot give
    as the emulator had it is a skip naming the argument."""
    from types import SimpleNamespace as NS
    from kernelport.device import Unpassable, passable
    pt = np.dtype([("x", "<i4"), ("y", "<i4")], align=True)
    for name, ctype, value in [("p", "Point*", np.zeros(4, pt)), ("c", "Complex", {"re": 1.0, "im": 0.0})]:
        passable(NS(name="k", params=[NS(name=name, type=ctype)]), {name: value})
    for name, ctype, value in [("q", "Quad", np.zeros(4, np.complex64)), ("s", "Strange", object()),
                               ("t", "Tagged", {"n": 1, "tag": {"name": "x"}})]:
        with pytest.raises(Unpassable, match=f"`{name}` is a"):
            passable(NS(name="k", params=[NS(name=name, type=ctype)]), {name: value})


def _built(tmp_path, source: str, params, args):
    """The driver of kernel `k` of `source` for these args, built with nvcc for sm_80 (no GPU needed)."""
    import shutil
    import subprocess
    from types import SimpleNamespace as NS
    from kernelport.device import build_command, write_driver
    nvcc = shutil.which("nvcc")
    assert nvcc, "nvcc is needed (CI installs it)"
    (tmp_path / "src.cu").write_text(source)
    kernel = NS(name="k", params=[NS(name=n, type=t) for n, t in params], template_params=[])
    spec = NS(dims=lambda what: (1,) if what == "grid" else (4,), shared_bytes=lambda: 0)
    driver = write_driver(tmp_path, tmp_path / "src.cu", kernel, spec, args, None)
    r = subprocess.run(build_command(nvcc, "sm_80", (), tmp_path / "drv", driver), capture_output=True, text=True,
                       timeout=600)
    return r, driver.read_text()


def test_host_code_the_driver_never_runs_need_not_link(tmp_path):
    """llm.c's dev/cuda files call cuBLAS from host code, kmeans' cluster.cu a function of another file: the
    driver failed to link for 52 of the device run's kernels.  Built here for sm_80 (no GPU needed to link)."""
    r, _ = _built(tmp_path, "void elsewhere(float*);\n__global__ void k(float* y) { y[threadIdx.x] = 1.0f; }\n"
                            "int main(int argc, char** argv) { elsewhere(0); return 3; }\n",
                  [("y", "float")], {"y": np.zeros(4, np.float32)})
    assert r.returncode == 0 and (tmp_path / "drv").exists(), r.stderr


def test_a_bfloat16_buffer_given_as_floats_is_converted_not_reinterpreted(tmp_path):
    """The oracle's inputs hold a bfloat16 buffer as float32 (the emulator's values); the driver cast the
    float bytes to `__nv_bfloat16*`, so llm.c's bf16 kernels (14 on the first device run) read garbage and
    the GPU 'disagreed' with the emulator.  The driver now loads the kernel's element type, converting each
    value as the host does, and saves it back as floats."""
    r, text = _built(tmp_path, "#include <cuda_bf16.h>\ntypedef __nv_bfloat16 floatX;\n"
                               "__global__ void k(floatX* y, const floatX* x) { y[threadIdx.x] = x[threadIdx.x]; }\n",
                     [("y", "floatX"), ("x", "floatX")], {"y": np.zeros(4, np.float32), "x": np.ones(4, np.float32)})
    assert r.returncode == 0, r.stderr
    assert "::load<::elem_t<floatX, float>, float>" in text and "::save<::elem_t<floatX, float>, float>" in text


def test_a_vector_buffer_over_the_files_floats_is_its_bytes(tmp_path):
    """A float4 buffer the inputs hold as 4n floats (saxpy, nms, haversine's double4 on the second device
    run) is the file's bytes, never a float-to-float4 conversion (which does not compile)."""
    r, _ = _built(tmp_path, "__global__ void k(float4* y, const double4* x) { y[threadIdx.x].x = x[threadIdx.x].y; }\n",
                  [("y", "float4"), ("x", "double4")], {"y": np.zeros(16, np.float32), "x": np.ones(16, np.float64)})
    assert r.returncode == 0, r.stderr


def test_apis_cuda_13_removed_are_spelled_as_what_they_were(tmp_path):
    """polybench's originals call `cudaThreadSynchronize` (38 of the first device run's build failures),
    mf-sgd's `__shfl`: CUDA 13 has neither.  The driver defines them as their successors before the source."""
    r, _ = _built(tmp_path, "__global__ void k(float* y) { float v = y[threadIdx.x];\n"
                            "  v += __shfl_down(v, 1); v += __shfl(v, 0, 16); if (__any(v > 0)) y[threadIdx.x] = v; }\n"
                            "void host() { cudaThreadSynchronize(); }\n",
                  [("y", "float")], {"y": np.zeros(4, np.float32)})
    assert r.returncode == 0, r.stderr
