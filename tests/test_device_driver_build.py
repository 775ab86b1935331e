"""`verify --device cuda`'s GPU driver builds what the emulator ran (stop 60).

The stop-60 device run over tests/realcorpus (bench/device/oracle_device_h100_60.txt) had 8 kernels fail with
"nvcc failed on the GPU driver", none for the kernel's sake: host code that does not compile (rodinia's
gaussian.cu reads `cudaDeviceProp::clockRate`, which CUDA 13 removed; polybench's doitgen.cu calls an
undeclared `rtclock`; hotspot3D's opt1.cu and hybridsort's histogram1024_kernel.cu are fragments whose host
code uses what their includer declares), device code that needs its includer's lines (hecbench's sobel
kernels.cu: `uchar` is sobel.h's, included by main.cu first), a header not installed (llm.c's
nccl_all_reduce.cu: <mpi.h>).  The driver now tries the file as it is, then the file with its host-only
function bodies left out, then with its includer's lines first; a missing header is a located skip.
Built with the real nvcc for sm_90 (no GPU needed to compile and link).
"""
from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace as NS

import numpy as np
import pytest

from kernelport import device, device_source, model
from kernelport.source import SourceFile
from kernelport.verify_oracle import includer_context

KERNEL = "__global__ void k(float* y) { y[threadIdx.x] = 2.0f; }\n"

# host code CUDA 13 does not compile (a removed cudaDeviceProp member, an undeclared timer), beside the
# look-alikes that must stay verbatim: a host-device function, a constexpr size, a class member
HOST_BROKEN = """\
#include <cstdio>
__host__ __device__ inline float twice(float v) { return 2.0f * v; }
constexpr int lanes(int n) { return n / 2; }
constexpr int N = lanes(8);
struct Timer { double start() { return 1.5; } };
__global__ void k(float* y) { __shared__ float s[N]; s[threadIdx.x % 4] = 1.0f; y[threadIdx.x] = twice(s[0]); }
double elapsed() {
    return rtclock() - 1.0;
}
int main() {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    std::printf("%d\\n", p.clockRate);
    return 0;
}
"""


def _nvcc() -> str:
    nvcc = shutil.which("nvcc")
    assert nvcc, "nvcc is needed (CI installs it)"
    return nvcc


def _kernel(name="k"):
    kernel = NS(name=name, params=[NS(name="y", type="float")], template_params=[])
    spec = NS(dims=lambda what: (1,) if what == "grid" else (4,), shared_bytes=lambda: 0)
    return kernel, spec, {"y": np.zeros(4, np.float32)}


def _build(d: Path, source: Path, variants=()):
    kernel, spec, args = _kernel()
    out = d / "build"
    out.mkdir(exist_ok=True)
    return device.build_driver(_nvcc(), "sm_90", (), out, source, kernel, spec, args, None, variants)


def _variants(path: Path, includer=includer_context):
    return device_source.variants(SourceFile.read(path), model.build, includer)


def test_host_only_bodies_are_left_out_and_nothing_else():
    src = SourceFile.from_text(HOST_BROKEN, "h.cu")
    text = device_source.without_host_bodies(model.build(src))
    assert text.count("\n") == HOST_BROKEN.count("\n"), "every line stays where it was"
    assert "rtclock" not in text and "clockRate" not in text
    for kept in ("{ return 2.0f * v; }", "{ return n / 2; }", "{ return 1.5; }", "y[threadIdx.x] = twice(s[0]); }"):
        assert kept in text, kept
    assert text.count("{ kp_left_out(__func__); ") == 2


def test_host_code_that_does_not_compile_is_left_out_of_the_driver(tmp_path):
    f = tmp_path / "h.cu"
    f.write_text(HOST_BROKEN)
    with pytest.raises(RuntimeError, match="nvcc failed on the GPU driver"):
        _build(tmp_path, f)  # as it is: rtclock, clockRate
    exe = _build(tmp_path, f, _variants(f))
    assert exe.exists()
    assert f'#line 1 "{f.resolve()}"\n' in (tmp_path / "build" / "original.cu").read_text()


def test_a_left_out_body_that_runs_after_all_says_so(tmp_path):
    """A file-scope initializer calls a host function before the driver's main: the left-out body says
    which and stops (run_cuda makes that a skip); it runs before any CUDA call, so no GPU is needed here."""
    import subprocess
    f = tmp_path / "init.cu"
    f.write_text(HOST_BROKEN + "static double t0 = elapsed();\n")
    exe = _build(tmp_path, f, _variants(f))
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and f"the host function elapsed, {device_source.LEFT_OUT}" in r.stderr, r.stderr


def test_a_file_that_builds_is_included_as_it_is(tmp_path):
    f = tmp_path / "ok.cu"
    f.write_text(KERNEL + "int helper() { return 3; }\n")
    assert _build(tmp_path, f, _variants(f)).exists()
    assert not (tmp_path / "build" / "original.cu").exists()
    assert str(f) in (tmp_path / "build" / "driver.cu").read_text()


def test_a_missing_header_is_a_located_skip_that_says_what_to_install(tmp_path):
    """A declaration the driver keeps (file scope) needs the header: the skip at the include."""
    f = tmp_path / "m.cu"
    f.write_text("#include <cuda_runtime.h>\n#include <mpi.h>\nMPI_Comm world;\n" + KERNEL)
    if shutil.which("mpicc"):
        pytest.skip("MPI is installed here")
    with pytest.raises(device.Unbuildable) as e:
        _build(tmp_path, f, _variants(f))
    assert f"{f}:2:10: <mpi.h> is not installed" in str(e.value) and "libopenmpi-dev" in str(e.value)


def test_a_header_not_installed_that_only_host_code_needs_is_left_out(tmp_path):
    """rodinia's cfd euler3d.cu includes cuda-samples' <helper_cuda.h> and <helper_timer.h> for its host code
    (checkCudaErrors, StopWatchInterface): 9 kernels with host-filled constant memory did not build once the
    driver copied the constants in.  The emulator never read them (its preprocessor drops a header it cannot
    read): the variant with host bodies left out leaves those includes out too, lines kept."""
    f = tmp_path / "h.cu"
    f.write_text("#include <cuda_runtime.h>\n#include <kp_absent_helper.h>\n#include <kp_absent_timer.h>\n"
                 "void host() { StopWatch* t = nullptr; sdkStart(&t); }\n" + KERNEL)
    with pytest.raises(device.Unbuildable, match=r"h.cu:2:10: <kp_absent_helper.h> is not installed"):
        _build(tmp_path, f)  # no variant: the file as it is stops at the first
    assert _build(tmp_path, f, _variants(f)).exists()
    text = (tmp_path / "build" / "original.cu").read_text()
    assert "kp_absent" not in text and text.split('h.cu"\n')[1].startswith("#include <cuda_runtime.h>\n\n\n")


def test_an_error_in_device_code_still_fails_the_build(tmp_path):
    """The look-alike: an undeclared name in the kernel is no environment's fault (every variant fails)."""
    f = tmp_path / "bad.cu"
    f.write_text("__global__ void k(float* y) { y[threadIdx.x] = undeclared_thing; }\n")
    with pytest.raises(RuntimeError, match="also with the original's host-only function bodies") as e:
        _build(tmp_path, f, _variants(f))
    assert not isinstance(e.value, device.Unbuildable)


FRAGMENT = """\
__device__ float lift(uchar v) { return (float)v * SCALE; }
__global__ void k(float* y) { y[threadIdx.x] = lift((uchar)3); }
"""


def test_a_fragment_builds_with_its_includers_lines(tmp_path):
    """sobel's kernels.cu: its device code needs the type main.cu's sobel.h declares."""
    (tmp_path / "types.h").write_text("typedef unsigned char uchar;\n")
    (tmp_path / "main.cu").write_text('#include "types.h"\n#include "k.cu"\nint main() { return 0; }\n')
    f = tmp_path / "k.cu"
    f.write_text("#ifndef SCALE\n#define SCALE 2.0f\n#endif\n" + FRAGMENT)
    assert _build(tmp_path, f, _variants(f)).exists()
    text = (tmp_path / "build" / "original.cu").read_text()
    assert f'#line 1 "{(tmp_path / "main.cu").resolve()}"\n#include "types.h"' in text


def test_includer_lines_that_define_the_files_macros_are_not_used(tmp_path):
    """The look-alike: the includer's header sets SCALE, which the emulator's run of the file alone took as
    2.0f; the GPU would run another kernel, so the row is a skip that names the macro."""
    (tmp_path / "types.h").write_text("typedef unsigned char uchar;\n#define SCALE 3.0f\n")
    (tmp_path / "main.cu").write_text('#include "types.h"\n#include "k.cu"\n')
    f = tmp_path / "k.cu"
    f.write_text("#ifndef SCALE\n#define SCALE 2.0f\n#endif\n" + FRAGMENT)
    with pytest.raises(device.Unbuildable, match=r"define SCALE, which the emulator's run"):
        _build(tmp_path, f, _variants(f))


def test_unbuildable_is_a_skip_row_never_a_fail(tmp_path, monkeypatch):
    from kernelport.verify_device import gpu_outputs

    def unbuildable(*a, **k):
        raise device.Unbuildable("x.cu:2:10: <mpi.h> is not installed where the GPU driver is built")
    monkeypatch.setattr(device, "run_cuda", unbuildable)
    f = tmp_path / "k.cu"
    f.write_text(KERNEL)
    kernel, spec, args = _kernel()
    got, why, status = gpu_outputs("cuda", SourceFile.read(f), kernel, spec, args, None)
    assert (got, status) == (None, "skip") and why.startswith("not run on the GPU: x.cu:2:10: <mpi.h>")
