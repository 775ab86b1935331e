"""verify's oracle on a configured project outside any git work tree (a release tarball, a held-out
copy): its headers beside the sources (`#include "../shared/util.hpp"`, tigr's timer.hpp) are the
project's own, read by the emulator, where before the include policy's project was the kernel
file's directory and every kernel of the file was "the emulator cannot run the original"."""
from __future__ import annotations

import json

from kernelport import includes
from trust_support import kp_inproc

UTIL = "#pragma once\n#define SCALE 2.0f\n__device__ inline float twice(float v) { return SCALE * v; }\n"
KERNEL = """#include "../shared/util.hpp"
__global__ void scale(int n, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = twice(x[i]);
}

int main() {
    int n = 1000;
    float *dx, *dy;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    scale<<<(n + 127) / 128, 128>>>(n, dx, dy);
    return 0;
}
"""


def _project(tmp_path, table="[tool.kernelport]\ninclude-dirs = []\n"):
    (tmp_path / "shared").mkdir()
    (tmp_path / "app").mkdir()
    (tmp_path / "pyproject.toml").write_text(table)
    (tmp_path / "shared" / "util.hpp").write_text(UTIL)
    (tmp_path / "app" / "k.cu").write_text(KERNEL)
    return tmp_path / "app" / "k.cu"


def _verify(f):
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--format", "json", "--no-cache")
    checks = json.loads(out)[0]["checks"] if out.lstrip().startswith("[") else []
    return rc, checks, out + err


def test_the_configured_project_is_the_include_root_outside_git(tmp_path):
    f = _project(tmp_path)
    assert includes.project_root(f) == tmp_path
    rc, checks, text = _verify(f)
    assert rc == 0, text
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "pass", text
    ports = [c for c in checks if c["kind"] == "numeric"]
    assert ports and all(c["status"] == "pass" for c in ports) and {c["wave"] for c in ports} == {32, 64}


def test_a_wrong_port_in_a_configured_project_fails(tmp_path):
    f = _project(tmp_path)
    assert kp_inproc("translate", f, "--to", "hip")[0] == 0
    hip = next(f.parent.glob("k.hip*"))
    hip.write_text(hip.read_text().replace("if (i < n) y[i]", "if (i < n && i % 64 < 32) y[i]"))
    rc, checks, text = _verify(f)
    assert rc == 1, text
    bad = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "hip"]
    assert bad and all(c["status"] == "fail" for c in bad), text


def test_look_alikes_keep_the_files_directory(tmp_path):
    # a pyproject.toml without kernelport's table configures nothing: still refused, located
    f = _project(tmp_path, table="[tool.black]\nline-length = 100\n# [tool.kernelport] in a comment\n")
    assert includes.project_root(f) == tmp_path / "app"
    rc, checks, text = _verify(f)
    assert "outside the project" in text and not [c for c in checks if c["kind"] == "oracle" and c["status"] == "pass"]
    # a git work tree inside the configured project is still the boundary it always was
    (tmp_path / "pyproject.toml").write_text("[tool.kernelport]\n")
    (tmp_path / "app" / ".git").mkdir()
    assert includes.project_root(f) == tmp_path / "app"
