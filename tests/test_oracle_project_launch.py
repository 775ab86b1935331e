"""verify's oracle for a kernel launched from another directory of its project (alien, cuNSearch):
the launch is searched for in the project of the nearest pyproject.toml's [tool.kernelport], also
through a launch macro (`KERNEL_CALL(k, ...)`), and the note names the file it was read from."""
from __future__ import annotations

import json

from kernelport.infer_inputs import CommandLine, NotRun, infer
from kernelport.model import build
from kernelport.source import SourceFile
from trust_support import kp_inproc

SAXPY = """#include "saxpy.cuh"
__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""
HEADER = "#pragma once\n__global__ void saxpy(int n, float a, const float* x, float* y);\n"
HOST = """#include "saxpy.cuh"
{define}
int main() {{
    int n = 1000;
    float *dx, *dy;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemset(dy, 0, n * sizeof(float));
    const int threads = 128;
    {launch};
    return 0;
}}
"""
DIRECT = "saxpy<<<(n + threads - 1) / threads, threads>>>(n, 2.0f, dx, dy)"


def _project(tmp_path, launch=DIRECT, define="", config=True):
    """root/lib/gpu/kernels/saxpy.cu, its header, and root/app/main.cu launching it: beyond the
    kernel's directory and the one above."""
    kdir, app = tmp_path / "lib" / "gpu" / "kernels", tmp_path / "app"
    kdir.mkdir(parents=True)
    app.mkdir()
    if config:
        (tmp_path / "pyproject.toml").write_text('[tool.kernelport]\ninclude-dirs = ["lib/gpu/kernels"]\n')
    (kdir / "saxpy.cu").write_text(SAXPY)
    (kdir / "saxpy.cuh").write_text(HEADER)
    (app / "main.cu").write_text(HOST.format(define=define, launch=launch))
    return kdir / "saxpy.cu"


def _verify(f):
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--format", "json", "--no-cache")
    checks = json.loads(out)[0]["checks"] if out.lstrip().startswith("[") else []
    return rc, checks, out + err


def test_a_kernel_launched_from_another_directory_of_the_project(tmp_path):
    rc, checks, text = _verify(_project(tmp_path))
    assert rc == 0, text
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "pass", text
    assert "the launch read from" in oracle[0]["detail"] and "app/main.cu:10" in oracle[0]["detail"]
    assert "y: inout float[1000] constant(0)" in oracle[0]["detail"]
    ports = [c for c in checks if c["kind"] == "numeric"]
    assert ports and all(c["status"] == "pass" for c in ports) and {c["wave"] for c in ports} == {32, 64}


def test_a_wrong_port_of_a_kernel_launched_elsewhere_fails(tmp_path):
    f = _project(tmp_path)
    assert kp_inproc("translate", f, "--to", "hip")[0] == 0
    hip = next(f.parent.glob("saxpy.hip*"))
    hip.write_text(hip.read_text().replace("a * x[i] + y[i]", "a * x[i] + y[i] + 1.0f"))
    rc, checks, text = _verify(f)
    assert rc == 1, text
    bad = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "hip"]
    assert bad and all(c["status"] == "fail" and "the original at wave 32 gives" in c["detail"] for c in bad)


def test_a_kernel_launched_through_a_launch_macro_of_another_file(tmp_path):
    define = "#define KERNEL_CALL(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)"
    rc, checks, text = _verify(_project(tmp_path, "KERNEL_CALL(saxpy, (n + threads - 1) / threads, threads, n, 2.0f, dx, dy)",
                                        define))
    assert rc == 0, text
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "pass" and "app/main.cu" in oracle[0]["detail"], text


def test_look_alikes_elsewhere_are_no_launch(tmp_path):
    # another kernel whose name starts alike, the name in a comment: no launch of saxpy
    rc, checks, text = _verify(_project(tmp_path, "saxpy_v2<<<1, 32>>>(n, 2.0f, dx, dy); // saxpy here"))
    assert not [c for c in checks if c["kind"] == "oracle" and c["status"] == "pass"], text
    assert "no launch of 'saxpy'" in text


def test_without_a_project_configuration_the_search_stays_near(tmp_path):
    rc, checks, text = _verify(_project(tmp_path, config=False))
    assert "no launch of 'saxpy'" in text


def test_a_launch_macro_with_its_own_geometry_is_a_located_refusal():
    src = SAXPY.replace('#include "saxpy.cuh"\n', "") + HOST.format(
        define="#define KERNEL_CALL(k, ...) k<<<blocks, 64>>>(__VA_ARGS__)",
        launch="KERNEL_CALL(saxpy, n, 2.0f, dx, dy)").replace('#include "saxpy.cuh"\n', "")
    got = infer(build(SourceFile.from_text(src, "k.cu")), "saxpy", given=CommandLine())
    assert isinstance(got, NotRun) and "gives no grid and block of its own" in got.reason, got
    assert got.loc is not None and got.loc.line > 1
