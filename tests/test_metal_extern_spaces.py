"""Cross-file address spaces in a Metal project run: a device function one source defines (-rdc) and
others only declare, called with pointers into device, threadgroup and constant memory.  MSL has no
generic pointer: each caller's port declares one prototype per address space it passes, and the defining
source's port defines one overload per space the whole run uses (metal/extern_spaces.py; the run's
union: project_ports._serve_extern_calls).  On main the threadgroup caller was refused (KP224: no
matching function for call to 'sum'), and a file declaring a helper before calling it with two spaces
had one declaration only."""
from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

from conftest import require_tool
from trust_support import kp_inproc

HEADER = "#pragma once\n__device__ float sum(const float* p, int n);\n"
DEFINITION = """#include "sum.cuh"
__device__ float sum(const float* p, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; ++i) s += p[i];
    return s;
}
"""
CALLERS = {
    "a.cu": """#include "sum.cuh"
__global__ void ka(const float* x, float* out, int n) { out[threadIdx.x] = sum(x + threadIdx.x * n, n); }
""",
    "b.cu": """#include "sum.cuh"
__global__ void kb(const float* x, float* out) {
    __shared__ float tile[256];
    tile[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = sum(tile, blockDim.x);
}
""",
    "c.cu": """#include "sum.cuh"
__constant__ float weights[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__global__ void kc(float* out) { out[threadIdx.x] = sum(weights, 4); }
""",
}


def _project(tmp_path: Path, callers: dict[str, str]) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "sum.cuh").write_text(HEADER)
    (src / "sum.cu").write_text(DEFINITION)
    for name, text in callers.items():
        (src / name).write_text(text)
    return src


def _ports(tmp_path: Path, src: Path) -> dict[str, str]:
    require_tool("clang")  # translate's Metal checker passes every port written
    rc, out, err = kp_inproc("translate", src, "--to", "metal", "-o", tmp_path / "out")
    assert rc == 0, out + err
    return {p.name: p.read_text() for p in (tmp_path / "out").glob("*.metal")}


def _declared(text: str) -> list[str]:
    return re.findall(r"^float sum\((.*)\);$", text, re.M)


def _defined(text: str) -> list[str]:
    return re.findall(r"^float sum\((.*)\) \{$", text, re.M)


def test_each_caller_declares_its_space_and_the_definition_serves_every_space(tmp_path: Path):
    ports = _ports(tmp_path, _project(tmp_path, CALLERS))
    assert _declared(ports["a.metal"]) == ["const device float* p, int n"]
    assert _declared(ports["b.metal"]) == ["const threadgroup float* p, int n"]
    assert _declared(ports["c.metal"]) == ["const constant float* p, int n"]
    spaces = ["const device float* p, int n", "const threadgroup float* p, int n", "const constant float* p, int n"]
    assert sorted(_defined(ports["sum.metal"])) == sorted(spaces)
    assert sorted(_declared(ports["sum.metal"])) == sorted(spaces)  # the spliced header declares each
    side = json.loads((tmp_path / "out" / "sum.metal.json").read_text())
    # what regenerates it names the sources whose calls it serves
    assert side["regenerate"] == "kernelport translate ../src/sum.cu ../src/a.cu ../src/b.cu ../src/c.cu --to metal -o ."


def test_a_run_of_device_callers_only_keeps_one_definition(tmp_path: Path):
    """Look-alike: every caller passes device memory: one declaration, one definition, as before."""
    ports = _ports(tmp_path, _project(tmp_path, {"a.cu": CALLERS["a.cu"]}))
    assert _defined(ports["sum.metal"]) == ["const device float* p, int n"]
    assert _declared(ports["sum.metal"]) == ["const device float* p, int n"]
    assert "--to metal -o ." in ports["sum.metal"] and "../src/a.cu" not in ports["sum.metal"].split("\n")[1]


def test_a_prototype_before_calls_with_two_spaces_declares_both(tmp_path: Path):
    """One file: the prototype is what the kernel above the definition sees; it declared only the first
    overload, so the threadgroup call had no declaration to match (KP224 on main)."""
    (tmp_path / "p.cu").write_text(textwrap.dedent("""\
        __device__ float sum(const float* p, int n);
        __global__ void k(const float* x, float* out, int n) {
            __shared__ float tile[256];
            tile[threadIdx.x] = x[threadIdx.x];
            __syncthreads();
            if (threadIdx.x == 0) out[0] = sum(tile, 256) + sum(x, n);
        }
        """) + DEFINITION.split("\n", 1)[1])
    require_tool("clang")
    rc, out, err = kp_inproc("translate", tmp_path / "p.cu", "--to", "metal", "-o", tmp_path / "out")
    assert rc == 0, out + err
    text = (tmp_path / "out" / "p.metal").read_text()
    assert sorted(_declared(text)) == ["const device float* p, int n", "const threadgroup float* p, int n"]
    assert len(_defined(text)) == 2


HEADER_HELPER = "#pragma once\n" + DEFINITION.split("\n", 1)[1]  # the body in the header itself
ANNOTATED = {
    "a.cu": """#include "sum.cuh"
// @kp kernel ka
// @kp grid   1
// @kp block  64
// @kp arg    x   in  float[64 * 4] uniform(-1, 1)
// @kp arg    out out float[64]
// @kp scalar n = 4
// @kp targets metal
__global__ void ka(const float* x, float* out, int n) { out[threadIdx.x] = sum(x + threadIdx.x * n, n); }
""",
    "b.cu": """#include "sum.cuh"
// @kp kernel kb
// @kp grid   4
// @kp block  64
// @kp arg    x   in  float[256] uniform(-1, 1)
// @kp arg    out out float[4]
// @kp targets metal
__global__ void kb(const float* x, float* out) {
    __shared__ float tile[64];
    tile[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = sum(tile, blockDim.x);
}
""",
}


def test_a_header_helper_called_from_device_and_threadgroup_memory_ports_and_verifies(tmp_path: Path):
    """The helper defined in the header: each includer's port has it, spliced, in the space it uses;
    both pass the checker and verify's Metal numeric check runs them beside the originals."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "sum.cuh").write_text(HEADER_HELPER)
    for name, text in ANNOTATED.items():
        (src / name).write_text(text)
    require_tool("clang")
    rc, out, err = kp_inproc("translate", src, "--to", "metal")
    assert rc == 0, out + err
    assert _defined((src / "a.metal").read_text()) == ["const device float* p, int n"]
    assert _defined((src / "b.metal").read_text()) == ["const threadgroup float* p, int n"]
    rc, out, err = kp_inproc("verify", src / "a.cu", src / "b.cu", "--schedules", "block", "--format", "json",
                             "--no-cache")
    checks = [c for f in json.loads(out) for c in f["checks"] if c["backend"] == "metal"]
    numeric = [c for c in checks if c["kind"] == "numeric"]
    assert len(numeric) == 2 and all(c["status"] == "pass" for c in numeric), checks
