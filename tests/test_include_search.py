"""A project header no -I names (kernelport/include_search.py): a user runs `kernelport translate
lib/k.cu --to hip -o hip/` in the project's tree without the build's `-I include`; gr-cuda's
`#include <gnuradio/cuda/cuda_error.h>` (in include/) and TurboTransformers'
`#include "turbo_transformers/layers/kernels/gpu_utils.h"` (from the root) were left unported, so the
port included a header that still uses the CUDA runtime (hipcc: `'cuda.h' file not found`, `unknown
type name 'cudaStream_t'`).  The header is looked for under the tree: the one file the include's
name reaches is ported with the source and reached from the port by a relative path (a note and
--statistics say so, with the -I to name); several are a note naming them and -I, the include left as
written.  Never searched: toolkit headers, an angled name without a directory, a name -I reaches."""
from __future__ import annotations

import subprocess

from conftest import require_tool
from trust_support import kp_inproc

HEADER = """#pragma once
#include <cuda_runtime.h>
inline void check(cudaError_t e) { if (e != cudaSuccess) { (void)cudaGetErrorString(e); } }
"""
SOURCE = """#include <proj/cuda/err.h>
#include "proj/util.cuh"
__global__ void k(float* x) { x[threadIdx.x] = twice(1.0f); }
void run(float* x) { k<<<1, 32>>>(x); check(cudaDeviceSynchronize()); }
"""
UTIL = "#pragma once\n__device__ inline float twice(float v) { return 2.0f * v; }\n"


def _tree(root):
    (root / "lib").mkdir(parents=True)
    (root / "include" / "proj" / "cuda").mkdir(parents=True)
    (root / "include" / "proj" / "cuda" / "err.h").write_text(HEADER)
    (root / "include" / "proj" / "util.cuh").write_text(UTIL)
    (root / "lib" / "k.cu").write_text(SOURCE)


def test_a_header_no_include_dir_names_is_found_in_the_tree_and_ported(tmp_path, monkeypatch):
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)  # the user's place: the project's root
    rc, _, err = kp_inproc("translate", "lib/k.cu", "--to", "hip", "-o", "hip", "--statistics")
    assert rc == 0, err
    port = (tmp_path / "hip" / "lib" / "k.hip").read_text()
    assert '#include "../include/proj/cuda/err.hip.h"' in port  # (ported: it uses the CUDA runtime)
    assert '#include "../../include/proj/util.cuh"' in port  # (its port would equal it: the original, reached)
    assert "hipError_t" in (tmp_path / "hip" / "include" / "proj" / "cuda" / "err.hip.h").read_text()
    assert "lib/k.cu:1:1: note: 'proj/cuda/err.h' is not on the include path: found by searching" in err, err
    assert "(hint: say so with -I include)" in err
    assert "headers searched         2  (found 2, ambiguous 0" in err, err


def test_the_port_compiles_without_an_include_dir(tmp_path, monkeypatch):
    require_tool("hipcc")
    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert kp_inproc("translate", "lib/k.cu", "--to", "hip", "-o", "hip")[0] == 0
    r = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-c", "hip/lib/k.hip", "-o", str(tmp_path / "k.o")],
                       capture_output=True, text=True, env={"HIP_PLATFORM": "amd", "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0, r.stderr


def test_a_name_several_files_answer_is_a_note_naming_them(tmp_path, monkeypatch):
    _tree(tmp_path)
    (tmp_path / "vendor" / "proj").mkdir(parents=True)
    (tmp_path / "vendor" / "proj" / "util.cuh").write_text(UTIL)
    monkeypatch.chdir(tmp_path)
    rc, _, err = kp_inproc("translate", "lib/k.cu", "--to", "hip", "-o", "hip")
    assert "'proj/util.cuh' is not on the include path and names 2 files under ." in err, err
    assert "include/proj/util.cuh" in err and "vendor/proj/util.cuh" in err and "with -I DIR" in err
    assert "not found beside the file" not in err  # (one note, not two)
    assert rc == 0 and '#include "proj/util.cuh"' in (tmp_path / "hip" / "lib" / "k.hip").read_text()


def test_the_nearest_directory_that_holds_one_decides(tmp_path, monkeypatch):
    """A monorepo: the includer's own project holds one `proj/util.cuh`, a sibling project another."""
    _tree(tmp_path / "a")
    (tmp_path / "b" / "proj").mkdir(parents=True)
    (tmp_path / "b" / "proj" / "util.cuh").write_text(UTIL)
    monkeypatch.chdir(tmp_path)
    rc, _, err = kp_inproc("translate", "a/lib/k.cu", "--to", "hip", "-o", "hip")
    assert rc == 0 and "found by searching a (the one file that name reaches): a/include/proj/util.cuh" in err, err


def test_look_alikes_are_not_searched(tmp_path, monkeypatch):
    """An include dir that reaches it (no note), a toolkit header the tree vendors, an angled name
    without a directory (`<omp.h>`), and a tree the run is not in (the cwd elsewhere, no git)."""
    _tree(tmp_path)
    (tmp_path / "include" / "cuda_runtime.h").write_text("#error vendored\n")
    (tmp_path / "include" / "omp.h").write_text("#error vendored\n")
    (tmp_path / "lib" / "k.cu").write_text("#include <omp.h>\n" + SOURCE)
    monkeypatch.chdir(tmp_path)
    rc, _, err = kp_inproc("translate", "lib/k.cu", "--to", "hip", "-o", "hip", "-I", "include")
    assert rc == 0 and "searching" not in err and "not on the include path" not in err, err
    rc, _, err = kp_inproc("translate", "lib/k.cu", "--to", "hip", "-o", "hip2")
    assert rc == 0 and "'omp.h'" not in err and "'cuda_runtime.h'" not in err, err
    elsewhere = tmp_path / "lib"
    monkeypatch.chdir(elsewhere)
    rc, _, err = kp_inproc("translate", "k.cu", "--to", "hip", "-o", tmp_path / "hip3")
    assert "found by searching" not in err and "not found beside the file" in err, err
