"""The project model end to end: a kernel file, a `.cuh` of warp steps, a `common.h` that defines
WARP_SIZE, a host-only header, an include dir reached by -I (or compile_commands.json), vendored
headers outside the sources.  Ports of headers, rewritten includes, lint across files, KP222, and
what -D, -I, [tool.kernelport] and compile_commands.json each change."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import require_tool
from trust_support import kp_inproc

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "project"


@pytest.fixture
def proj(tmp_path) -> Path:
    d = tmp_path / "proj"
    shutil.copytree(FIXTURE, d)
    return d


def _files(d: Path) -> list[str]:
    return sorted(str(p.relative_to(d)) for p in d.rglob("*") if p.is_file())


def _lint(*args) -> list[tuple[str, int, str]]:
    rc, out, err = kp_inproc("lint", "--format", "json", *map(str, args))
    assert rc in (0, 1), err
    return [(Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(out)]


def test_a_directory_ports_its_sources_and_the_headers_they_include(proj):
    before = {p: p.read_bytes() for p in proj.rglob("*") if p.is_file()}
    rc, out, err = kp_inproc("translate", proj / "src", "--to", "hip", "-o", proj / "out")
    assert rc == 0, err
    # compile_commands.json in build/ gives sort.cu -I inc: lane_ops.cuh is part of the project;
    # the output mirrors the tree below the common root of src/ and inc/
    assert _files(proj / "out") == ["inc/lane_ops.hip.h", "src/common.hip.h", "src/sort.hip", "src/vendored.hip",
                                    "src/warp_sort.hip.h", "vendor/vendor_warp.hip.h"]
    sort = (proj / "out/src/sort.hip").read_text()
    assert '#include "common.hip.h"' in sort and '#include "warp_sort.hip.h"' in sort
    assert "#include <lane_ops.hip.h>" in sort  # an angled include keeps its form: -I names the ports' tree
    assert '#include "../../src/host_util.h"' in sort  # left alone: still reached from where the port is
    assert "#define WARP_SIZE KP_WAVE_SIZE" in (proj / "out/src/common.hip.h").read_text()
    assert "#define TILE 32" in (proj / "out/src/common.hip.h").read_text()  # the look-alike stays
    warp = (proj / "out/src/warp_sort.hip.h").read_text()
    assert "warpSize / 2" in warp and "__shfl_xor(v, offset)" in warp and '#include "common.hip.h"' in warp
    assert "Regenerate: kernelport translate ../../src/sort.cu --to hip -o ..\n" in warp  # run from out/src
    assert {p: p.read_bytes() for p in before} == before  # no input touched, the host header included
    # the ports are fresh; a hand-edited header port is drift
    assert kp_inproc("translate", proj / "src", "--to", "hip", "-o", proj / "out", "--check")[0] == 0
    edited = proj / "out/src/common.hip.h"
    edited.write_text(edited.read_text().replace("KP_WAVE_SIZE\n", "64\n"))
    rc, out, err = kp_inproc("translate", proj / "src", "--to", "hip", "-o", proj / "out", "--check")
    assert rc == 1 and "common.hip.h" in out + err


def test_header_ports_compile_with_hipcc(proj):
    hipcc = require_tool("hipcc")
    assert kp_inproc("translate", proj / "src" / "sort.cu", "--to", "hip", "-o", proj / "out")[0] == 0
    res = subprocess.run([str(hipcc.path), "-x", "hip", "--offload-arch=gfx90a", "--offload-arch=gfx1030",
                          "-I", str(proj / "out/inc"), "-c", str(proj / "out/src/sort.hip"), "-o",
                          str(proj / "sort.o")], capture_output=True, text=True, env={"HIP_PLATFORM": "amd",
                                                                                       "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr


def test_lint_finds_a_header_macro_used_in_the_kernel_file(proj):
    found = _lint(proj / "src" / "sort.cu")
    assert ("sort.cu", 11, "WS001") in found  # lane = threadIdx.x % WARP_SIZE, WARP_SIZE from common.h
    assert not [f for f in found if f[1] == 10]  # __shared__ float partial[TILE]: TILE is a tile (look-alike)
    # the same file without the include: no header macro, nothing at line 11
    k = proj / "src" / "sort.cu"
    k.write_text(k.read_text().replace('#include "common.h"\n', '#define WARP_SIZE warpSize\n#define TILE 32\n'))
    assert not [f for f in _lint(k) if f[1] == 11]


def test_define_and_config_and_include_dirs_change_the_result(proj):
    k = proj / "src" / "sort.cu"
    # -D WARP_SIZE=...: the build defines it, common.h's #ifndef default is not what is used
    assert ("sort.cu", 11, "WS001") in _lint(k)
    assert not [f for f in _lint(k, "-D", "WARP_SIZE=warpSize") if f[2] == "WS001"]
    (proj / "pyproject.toml").write_text('[tool.kernelport]\ndefines = ["WARP_SIZE=warpSize"]\n')
    assert not [f for f in _lint(k) if f[2] == "WS001"]
    (proj / "pyproject.toml").unlink()
    # -I: without compile_commands.json, <lane_ops.cuh> is a system header (not ported) ...
    shutil.rmtree(proj / "build")
    assert kp_inproc("translate", k, "--to", "hip", "-o", proj / "o1")[0] == 0
    assert "#include <lane_ops.cuh>" in (proj / "o1/sort.hip").read_text()
    assert "lane_ops.hip.h" not in _files(proj / "o1")
    # ... with -I inc it is ported, and so with include-dirs in [tool.kernelport]
    assert kp_inproc("translate", k, "--to", "hip", "-o", proj / "o2", "-I", proj / "inc")[0] == 0
    assert "#include <lane_ops.hip.h>" in (proj / "o2/src/sort.hip").read_text()
    (proj / "pyproject.toml").write_text('[tool.kernelport]\ninclude-dirs = ["inc"]\n')
    assert kp_inproc("translate", k, "--to", "hip", "-o", proj / "o3")[0] == 0
    assert "inc/lane_ops.hip.h" in _files(proj / "o3")


def test_compile_commands_given_or_found(proj, tmp_path):
    k = proj / "src" / "sort.cu"
    moved = tmp_path / "cc.json"
    shutil.move(proj / "build" / "compile_commands.json", moved)
    data = json.loads(moved.read_text())
    for e in data:
        e["directory"] = str(proj)
    moved.write_text(json.dumps(data))
    assert kp_inproc("translate", k, "--to", "hip", "-o", proj / "o1")[0] == 0
    assert "lane_ops.hip.h" not in " ".join(_files(proj / "o1"))  # nothing found: no -I
    assert kp_inproc("translate", k, "--to", "hip", "-o", proj / "o2", "--compile-commands", moved)[0] == 0
    assert "inc/lane_ops.hip.h" in _files(proj / "o2")
    # a broken database names its file and the entry's line
    moved.write_text('[\n  {"directory": ".", "file": "a.cu", "arguments": ["nvcc"]},\n  {"file": 3}\n]\n')
    rc, out, err = kp_inproc("translate", k, "--to", "hip", "--compile-commands", moved)
    assert rc == 2 and f"{moved}:3:1: error:" in err
    moved.write_text("[{,]")
    rc, out, err = kp_inproc("translate", k, "--to", "hip", "--compile-commands", moved)
    assert rc == 2 and f"{moved}:1:" in err and "invalid JSON" in err


def test_a_header_beside_its_includer_outside_the_inputs_is_ported_a_host_header_is_not(proj):
    """`#include "../vendor/vendor_warp.cuh"` from src/: a local header the sources reach is the
    project's even outside the inputs (a port that included it unported would keep its shuffles);
    the host-only header beside it needs no port and is reached from where the port is."""
    rc, out, err = kp_inproc("translate", proj / "src", "--to", "hip", "-o", proj / "out")
    assert rc == 0 and "KP222" not in err, err
    assert "vendor/vendor_warp.hip.h" in _files(proj / "out")
    assert "vendor/vendor_host.hip.h" not in _files(proj / "out")
    vendored = (proj / "out/src/vendored.hip").read_text()
    assert '#include "../vendor/vendor_warp.hip.h"' in vendored
    assert '#include "../../vendor/vendor_host.h"' in vendored
    # vendor/ as an input too: the same ports
    rc, out, err = kp_inproc("translate", proj / "src", proj / "vendor", "--to", "hip", "-o", proj / "out2")
    assert rc == 0 and "KP222" not in err
    assert "vendor/vendor_warp.hip.h" in _files(proj / "out2")
    assert "vendor/vendor_host.hip.h" not in _files(proj / "out2")


def test_a_header_reached_through_an_unchanged_header_is_ported_with_it(tmp_path):
    """cudahandbook's scan: scan/int/a.cu includes wrap.cuh (whose own port would not differ), which
    includes `../policy.cuh`, outside the inputs, with the shuffles: policy.cuh is ported, so
    wrap.cuh's port differs (it includes a ported header) and is written too; a host header beside
    them is not ported, and nothing is left for KP222."""
    (tmp_path / "scan" / "int").mkdir(parents=True)
    (tmp_path / "scan" / "policy.cuh").write_text(
        "#pragma once\n__device__ inline int scan_step(int v) { return v + __shfl_up_sync(0xffffffffu, v, 1); }\n")
    (tmp_path / "scan" / "plain.h").write_text("#pragma once\ninline int twice(int v) { return 2 * v; }\n")
    (tmp_path / "scan" / "int" / "wrap.cuh").write_text(
        '#pragma once\n#include "../plain.h"\n#include "../policy.cuh"\n'
        "template <class T> __device__ T wrapped(T v) { return scan_step(v); }\n")
    for name in ("a.cu", "b.cu"):
        (tmp_path / "scan" / "int" / name).write_text(
            '#include "wrap.cuh"\n__global__ void k(int* x) { x[threadIdx.x] = wrapped(x[threadIdx.x]); }\n')
    rc, out, err = kp_inproc("translate", tmp_path / "scan" / "int", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP222" not in err, err
    assert _files(tmp_path / "out") == ["int/a.hip", "int/b.hip", "int/wrap.hip.h", "policy.hip.h"]
    wrap = (tmp_path / "out/int/wrap.hip.h").read_text()
    assert '#include "../policy.hip.h"' in wrap and '#include "../../scan/plain.h"' in wrap
    assert "__shfl_up(v, 1)" in (tmp_path / "out/policy.hip.h").read_text()


def test_a_books_common_header_outside_the_chapter_is_ported(tmp_path):
    """A book's examples: chapter01/hello.cu includes `../common/common.h`, whose CHECK macro names
    `cudaError_t`, and `../common/inc.h`, which includes <cuda_runtime.h>: both are ported with the
    chapter (the HIP port that included them as they are would not compile); a plain host header
    (with a project function named like the CUDA API) is not."""
    (tmp_path / "common").mkdir()
    (tmp_path / "chapter01").mkdir()
    (tmp_path / "common" / "common.h").write_text(
        "#pragma once\n// cudaMalloc in a comment is no use\n#define CHECK(call) { const cudaError_t e = call; "
        "if (e != cudaSuccess) printf(\"%s\\n\", cudaGetErrorString(e)); }\n")
    (tmp_path / "common" / "host.h").write_text("#pragma once\ninline int twice(int v) { return 2 * v; }\n"
                                                "inline int cudaCheck(int e) { return e; }  // the project's own\n")
    (tmp_path / "common" / "inc.h").write_text("#pragma once\n#include <cuda_runtime.h>\n")
    (tmp_path / "chapter01" / "hello.cu").write_text(
        '#include "../common/common.h"\n#include "../common/host.h"\n#include "../common/inc.h"\n#include <cstdio>\n'
        "__global__ void k(int* x) { x[threadIdx.x] = twice(1); }\n"
        "int main() { CHECK(cudaDeviceReset()); return 0; }\n")
    rc, out, err = kp_inproc("translate", tmp_path / "chapter01" / "hello.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP222" not in err, err
    assert _files(tmp_path / "out") == ["chapter01/hello.hip", "common/common.hip.h", "common/inc.hip.h"]
    assert "hipError_t" in (tmp_path / "out/common/common.hip.h").read_text()
    hello = (tmp_path / "out/chapter01/hello.hip").read_text()
    assert '#include "../common/common.hip.h"' in hello and '#include "../common/inc.hip.h"' in hello
    assert '#include "../../common/host.h"' in hello


def test_missing_headers_and_include_cycles_never_crash(tmp_path):
    (tmp_path / "a.cuh").write_text('#pragma once\n#include "b.cuh"\n__device__ int fa(int v) { return v; }\n')
    (tmp_path / "b.cuh").write_text('#pragma once\n#include "a.cuh"\n#include "gone.h"\n'
                                    '__device__ int fb(int v) { return __shfl_down_sync(0xffffffff, v, 1); }\n')
    (tmp_path / "k.cu").write_text('#include "a.cuh"\n__global__ void k(int* x) { x[0] = fb(fa(x[0])); }\n')
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip")
    assert rc == 0, err
    assert "b.cuh:3:1: note: 'gone.h' not found" in err
    assert '#include "b.hip.h"' in (tmp_path / "a.hip.h").read_text()  # a.cuh includes a ported header
    assert '#include "a.hip.h"' in (tmp_path / "b.hip.h").read_text()
    assert _lint(tmp_path / "k.cu") is not None


def test_verify_drift_covers_the_header_ports_a_port_includes(tmp_path):
    src = tmp_path / "saxpy.cu"
    text = (Path(__file__).resolve().parent.parent / "examples" / "saxpy.cu").read_text()
    src.write_text('#include "lanes.cuh"\n' + text)
    (tmp_path / "lanes.cuh").write_text("#pragma once\n__device__ inline float lane_sum(float v) {\n"
                                        "    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
                                        "    return v;\n}\n")
    assert kp_inproc("translate", src, "--to", "hip,metal")[0] == 0
    assert (tmp_path / "lanes.hip.h").exists() and '#include "lanes.hip.h"' in (tmp_path / "saxpy.hip").read_text()

    def drift():
        rc, out, err = kp_inproc("verify", src, "--format", "json", "--schedules", "block", "--no-cache")
        return [c for f in json.loads(out) for c in f["checks"] if c["kind"] == "drift"]
    assert all(c["status"] == "pass" for c in drift()) and any("lanes.hip.h" in c["detail"] for c in drift())
    port = tmp_path / "lanes.hip.h"
    port.write_text(port.read_text().replace("warpSize / 2", "32"))
    failed = [c for c in drift() if c["status"] == "fail"]
    assert len(failed) == 1 and "lanes.hip.h" in failed[0]["detail"]


def test_a_header_that_does_not_parse_is_left_alone_and_said_at_its_include(tmp_path):
    (tmp_path / "bad.cuh").write_text("#pragma once\n__device__ int f(int v { return __shfl_down_sync(0xffffffff, v, 1); }\n")
    (tmp_path / "ok.h").write_text("#pragma once\ninline int twice(int v) { return 2 * v; }\n")
    (tmp_path / "k.cu").write_text('#include "bad.cuh"\n#include "ok.h"\n__global__ void k(int* x) { x[0] = twice(x[0]); }\n')
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip")
    assert rc == 0, err
    assert "k.cu:1:1: warning: KP222 'bad.cuh' is not ported" in err and "syntax error" in err
    assert "'ok.h'" not in err and _files(tmp_path) == ["bad.cuh", "k.cu", "k.hip", "ok.h"]
    # host C the grammar cannot read (polybench includes its polybench.c) needs no port: no KP222
    (tmp_path / "util.c").write_text("static int f(int v {\n  return v;\n}\n")
    (tmp_path / "k.cu").write_text('#include "util.c"\n__global__ void k(int* x) { x[0] = 1; }\n')
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip")
    assert rc == 0 and "KP222" not in err, err


def test_lint_in_parallel_sees_header_macros_too(proj):
    for i in range(4):  # enough files for the worker pool
        shutil.copy(proj / "src" / "sort.cu", proj / "src" / f"sort{i}.cu")
    found = _lint(proj / "src", "-j", "2")
    assert {(f"sort{i}.cu", 11, "WS001") for i in range(4)} <= set(found)


def test_a_source_found_in_a_directory_that_does_not_parse_is_an_error_for_that_file(tmp_path):
    (tmp_path / "good.cu").write_text("__global__ void k(float* x) { x[threadIdx.x % 32] = 0.0f; }\n")
    (tmp_path / "bad.cu").write_text("__global__ void k(float* x { x[0] = 0.0f; }\n")
    rc, out, err = kp_inproc("translate", tmp_path, "--to", "hip")
    assert rc == 1 and "bad.cu:1:" in err and "not translated" in err and "nothing written" in err
    assert _files(tmp_path) == ["bad.cu", "good.cu"]  # a run writes all of its ports or none
    rc, out, err = kp_inproc("translate", tmp_path / "bad.cu", "--to", "hip")
    assert rc == 2  # named on the command line: bad input, as before


def test_macros_from_a_header_reach_the_kernel_files_model(tmp_path):
    """`HD` defined in a header as `__host__ __device__`: the helper is device code (the Metal port
    keeps it); without the header's definition it reads as a host function (left out)."""
    (tmp_path / "defs.h").write_text("#pragma once\n#define HD __host__ __device__\n")
    (tmp_path / "k.cu").write_text('#include "defs.h"\nHD inline float sq(float v) { return v * v; }\n'
                                   "__global__ void k(float* x) { x[threadIdx.x] = sq(x[0]); }\n")
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "metal", "--stdout")
    assert rc == 0, err  # (the port passes the Metal self-check: HD is defined there, as nothing)
    assert "float sq(float v)" in out and "#define HD \n" in out
    (tmp_path / "j.cu").write_text((tmp_path / "k.cu").read_text().replace('#include "defs.h"\n', ""))
    rc, out, err = kp_inproc("translate", tmp_path / "j.cu", "--to", "metal", "--stdout")
    assert "float sq(float v) {" not in out


def test_lint_goes_on_when_the_include_analysis_fails(tmp_path, monkeypatch):
    from kernelport import project
    k = tmp_path / "k.cu"
    k.write_text('#include "h.cuh"\n__global__ void k(float* x) { x[threadIdx.x % 32] = __shfl_down_sync(0xffffffff, x[0], 1); }\n')
    (tmp_path / "h.cuh").write_text("#define WARP_SIZE 32\n")
    assert not [f for f in _lint(k) if f[2] == "KP006"]  # the look-alike: the analysis works, no KP006

    def broken(self, path, opts=None):
        raise RecursionError("include chain too deep")
    monkeypatch.setattr(project.Project, "visible", broken)
    found = _lint(k)
    assert ("k.cu", 1, "KP006") in found and any(f[2] == "WS007" for f in found)  # the rules still ran


def test_a_header_macro_is_decided_once_for_every_file_of_the_run(tmp_path):
    (tmp_path / "common.h").write_text("#pragma once\n#define WARP_SIZE 32\n")
    (tmp_path / "a.cu").write_text('#include "common.h"\n__global__ void k(float* x) {\n'
                                   "    int lane = threadIdx.x % WARP_SIZE;\n"
                                   "    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[0], lane);\n}\n")
    (tmp_path / "b.cu").write_text('#include "common.h"\nint warps_for(int n) { return n / WARP_SIZE; }\n')
    rc, out, err = kp_inproc("translate", tmp_path / "b.cu", "--to", "hip", "--stdout")
    # alone: nothing says it is the warp, so it stays as written (lint's WS001 on the header's
    # `#define WARP_SIZE 32` judges the name, not a computation the port keeps: no KP225)
    assert rc == 0 and "n / WARP_SIZE" in out and "common.hip.h" not in out and "KP225" not in err
    rc, out, err = kp_inproc("translate", tmp_path, "--to", "hip")
    assert rc == 0, err
    assert "#define WARP_SIZE KP_WAVE_SIZE" in (tmp_path / "common.hip.h").read_text()
    b = (tmp_path / "b.hip").read_text()  # a.cu decided it: b.cu's host code asks the device
    assert '#include "common.hip.h"' in b and "n / kp_device_warp_size()" in b


def test_a_construct_with_no_safe_rewrite_in_a_header_stops_the_run(tmp_path):
    """A header's construct with no safe rewrite stops the whole run (nothing written), located in the header.
    Re-pinned (stop 43, h/match43): the construct was `__match_any_sync`, which HIP now ports with the full
    mask (tests/test_match_sync.py); `__nanosleep` (sm_70's back-off, which ROCm's HIP lacks) still has none."""
    (tmp_path / "h.cuh").write_text("#pragma once\n__device__ int f(int v) { __nanosleep(v); return v; }\n")
    (tmp_path / "k.cu").write_text('#include "h.cuh"\n__global__ void k(int* x) { x[0] = f(x[0]); }\n')
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip")
    assert rc == 1 and "h.cuh:2:" in err and "KP202" in err and "nothing written" in err
    assert _files(tmp_path) == ["h.cuh", "k.cu"]
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "--allow-unported")
    assert rc == 0 and "KERNELPORT-UNPORTED KP202" in (tmp_path / "h.hip.h").read_text()


def test_o_mirrors_the_tree_below_the_directory_given(tmp_path):
    (tmp_path / "p" / "cuda" / "a").mkdir(parents=True)
    (tmp_path / "p" / "cuda" / "a" / "k.cu").write_text("__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }\n")
    assert kp_inproc("translate", tmp_path / "p", "--to", "hip", "-o", tmp_path / "out")[0] == 0
    assert _files(tmp_path / "out") == ["cuda/a/k.hip"]  # below p/, not below the files' own common root


def test_metal_ports_of_a_project_splice_their_headers_and_write_no_header_ports(proj):
    # Metal's header_extension is None: each port is one file with the headers its device code
    # needs spliced in (a quoted one beside the file, an angled one from -I), none written alone
    rc, out, err = kp_inproc("translate", proj / "src", "-I", proj / "inc", "--to", "metal", "-o", proj / "out")
    assert rc == 0, err
    assert _files(proj / "out") == ["src/sort.metal", "src/sort.metal.json", "src/vendored.metal",
                                    "src/vendored.metal.json"]
    sort = (proj / "out/src/sort.metal").read_text()
    assert '// ---- "warp_sort.cuh", spliced' in sort and "// ---- <lane_ops.cuh>, spliced" in sort
    assert '// #include "host_util.h": device code uses nothing of it' in sort  # the look-alike: not spliced
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_file
    for f in ("sort.metal", "vendored.metal"):
        assert [str(d) for d in check_metal_file(proj / "out/src" / f)] == []
    assert kp_inproc("translate", proj / "src", "-I", proj / "inc", "--to", "metal", "-o", proj / "out",
                     "--check")[0] == 0
    assert "not ported to metal on its own" not in out + err  # every header is in a source's port
    # a header that no source of the run includes is in no Metal port: said, not silence
    rc, out, err = kp_inproc("translate", proj / "src/warp_sort.cuh", "--to", "metal", "-o", proj / "out2")
    assert rc == 0 and "warp_sort.cuh:1:1: note: not ported to metal on its own" in out + err
    assert not (proj / "out2").exists()


def test_every_target_of_a_project_in_one_run(proj):
    rc, out, err = kp_inproc("translate", proj / "src", "-I", proj / "inc", "--to", "hip,metal,portable",
                             "-o", proj / "out")
    assert rc == 0, err
    got = _files(proj / "out")
    assert "src/common.hip.h" in got and "src/common.portable.cuh" in got  # the other backends port headers
    assert not [f for f in got if ".metal." in f and not f.endswith(".metal.json")]
    assert kp_inproc("translate", proj / "src", "-I", proj / "inc", "--to", "hip,metal,portable", "-o",
                     proj / "out", "--check")[0] == 0


def test_a_model_of_another_text_is_not_used_by_the_translator():
    # project mode hands the translator the model of the file as read; Metal splices headers into
    # another text, whose nodes the model's are not (was a KeyError, exit 3)
    from kernelport.model import build
    from kernelport.source import SourceFile
    from kernelport.translate import Translator
    a = SourceFile.from_text("__global__ void k(float* x) { x[0] = 1; }\n", "a.cu")
    b = SourceFile.from_text("__global__ void k(float* x) { x[0] = 1; }\n", "b.cu")
    m = build(a)
    assert Translator(a, "hip", module=m).module is m  # the look-alike: its own model is kept
    assert Translator(b, "hip", module=m).module.source is b


def test_a_macro_comment_is_not_code_for_the_metal_port(tmp_path):
    # `(` after a word in a macro's comment is no call of an undefined function (was KP223)
    (tmp_path / "k.cu").write_text(
        "#define TILE 32  // slots of the per-block partials (a look-alike)\n"
        "#define BAD 32 + missing_fn(1)\n"
        "__global__ void k(float* x) { __shared__ float p[TILE]; p[0] = x[0]; x[1] = p[0]; }\n")
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "metal", "-o", tmp_path / "out")
    assert rc == 0, err
    (tmp_path / "j.cu").write_text(
        "#define TILE 32 + missing_fn(1)  // partials (a look-alike)\n"
        "__global__ void k(float* x) { x[0] = TILE; }\n")
    rc, out, err = kp_inproc("translate", tmp_path / "j.cu", "--to", "metal", "-o", tmp_path / "out2")
    assert rc == 1 and "KP223 'missing_fn'" in out + err and "'partials'" not in out + err


def test_a_ports_regenerate_command_regenerates_it_from_where_it_lies(proj, monkeypatch):
    """The command a port's second line gives, run from the port's directory, writes the same ports
    in the same places: in a mirrored -o tree `-o` names the output root as seen from there (it
    said `-o .`, which wrote a second tree below the port), and a port written in place needs no -o."""
    assert kp_inproc("translate", proj / "src", "--to", "hip", "-o", proj / "out")[0] == 0
    for port in ("out/src/warp_sort.hip.h", "out/inc/lane_ops.hip.h", "out/vendor/vendor_warp.hip.h"):
        command = (proj / port).read_text().splitlines()[1].removeprefix("// Regenerate: kernelport ").split()
        monkeypatch.chdir((proj / port).parent)
        before = _files(proj)
        rc, out, err = kp_inproc(*command, "--check")
        assert rc == 0 and _files(proj) == before, (port, command, out, err)
    monkeypatch.chdir(proj)
    assert kp_inproc("translate", proj / "src" / "vendored.cu", "--to", "hip")[0] == 0  # in place
    line = (proj / "vendor/vendor_warp.hip.h").read_text().splitlines()[1]
    assert line == "// Regenerate: kernelport translate ../src/vendored.cu --to hip", line


def test_a_fragment_included_inside_a_body_is_reached_and_one_with_warp_code_is_refused(tmp_path):
    """cusph's kernels splice their neighbour loop, `{ ... #include "../methods/interactions/x.cuh" }`,
    inside the body: the include walk follows it as the compiler does, so the port in another tree
    still reaches the fragment (rewritten relative to the port); one under an inactive `#ifdef` is not
    followed; a fragment with a shuffle is refused at its include (KP234: alone it cannot be judged), and
    on Metal (one file a port) every active fragment is (it was left out as unused: a silent wrong port)."""
    (tmp_path / "frag").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "frag" / "loop.cuh").write_text("for (int i = 0; i < n; ++i)\n    acc += v[i];\n")
    (tmp_path / "frag" / "other.cuh").write_text("acc = -acc;\n")
    (tmp_path / "frag" / "warp.cuh").write_text("acc += __shfl_down_sync(0xffffffff, acc, 16);\n")
    body = ("__global__ void k(const float* v, float* o, int n) {{\n    float acc = 0.0f;\n"
            '    #include "../frag/loop.cuh"\n#ifdef USE_OTHER\n    #include "../frag/other.cuh"\n#endif\n'
            "{warp}    o[threadIdx.x] = acc;\n}}\n")
    (tmp_path / "sub" / "k.cu").write_text(body.format(warp=""))
    rc, out, err = kp_inproc("translate", tmp_path / "sub" / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP" not in err, err
    port = (tmp_path / "out" / "sub" / "k.hip").read_text()
    assert '    #include "../../frag/loop.cuh"\n' in port  # reached from where the port lies
    assert (tmp_path / "out" / "sub" / "../../frag/loop.cuh").resolve() == (tmp_path / "frag" / "loop.cuh").resolve()
    assert '#include "../frag/other.cuh"' in port  # an inactive branch's include: not followed, as at file scope
    (tmp_path / "sub" / "k.cu").write_text(body.format(warp='    #include "../frag/warp.cuh"\n'))
    rc, out, err = kp_inproc("translate", tmp_path / "sub" / "k.cu", "--to", "hip", "-o", tmp_path / "out2")
    assert rc == 1 and "k.cu:7:5: error: KP234 '../frag/warp.cuh' is included inside a body" in err, err
    assert not (tmp_path / "out2").exists()
    # Metal: a port is one file, and a fragment's statements are the kernel's: never "unused", left out
    # (which dropped the loop from the kernel); refused at each active include, the inactive one is quiet
    (tmp_path / "sub" / "k.cu").write_text(body.format(warp=""))
    rc, out, err = kp_inproc("translate", tmp_path / "sub" / "k.cu", "--to", "metal", "-o", tmp_path / "out3")
    assert rc == 1 and 'k.cu:3:5: error: KP234 "../frag/loop.cuh" is included inside a body' in err, err
    assert "other.cuh" not in err and not (tmp_path / "out3").exists()
