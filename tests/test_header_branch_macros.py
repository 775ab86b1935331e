"""A header that spells its keywords for several frameworks in one conditional (`#ifdef CUDA ...
#elif defined(FW_OPENCL) ...`, a phylogenetics likelihood library's kernel keywords): the macros a
file sees from it are those of the branch the run's -D takes, not the last branch's text.  Before,
`macros.definitions` read every branch and the last definition won, so under -DCUDA an empty
`KW_GLOBAL_VAR` read as OpenCL's `__global` and `KW_GLOBAL_VAR REAL* d` stopped the parse
(heldout26: a parse error).  A branch is left out only where a defined name decides its test
(includewalk.Scan.decided_out): a name that nothing defines decides nothing here, so a header's
`#ifdef USE_GPU #define HD __host__ __device__ #else #define HD #endif` keeps its device spelling."""
from __future__ import annotations

import textwrap
from pathlib import Path

from kernelport import macros

from conftest import hip_compiles
from trust_support import kp_inproc

DEFS = """\
    #ifndef DEFS_H
    #define DEFS_H
    #ifdef DOUBLE_PRECISION
        #define REAL double
    #else
        #define REAL float
    #endif
    #ifdef CUDA
        #define KW_GLOBAL_KERNEL __global__
        #define KW_GLOBAL_VAR
        #define KW_LOCAL_ID_0 threadIdx.x
    #elif defined(FW_OPENCL)
        #define KW_GLOBAL_KERNEL __kernel
        #define KW_GLOBAL_VAR __global
        #define KW_LOCAL_ID_0 get_local_id(0)
    #endif
    #endif
    """

KERNEL = """\
    #ifdef CUDA
        #include "defs.h"
        extern "C" {
    #endif

    KW_GLOBAL_KERNEL void scale(KW_GLOBAL_VAR REAL* d, KW_GLOBAL_VAR int* idx, int n) {
        int i = KW_LOCAL_ID_0;
        if (i < n) d[idx[i]] = 2 * d[idx[i]];
    }

    #ifdef CUDA
    } // extern "C"
    #endif
    """


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    d = tmp_path / "proj"
    d.mkdir()
    for name, text in files.items():
        (d / name).write_text(textwrap.dedent(text))
    return d


def test_the_runs_branch_of_a_headers_keywords_is_the_one_seen(tmp_path):
    d = _project(tmp_path, {"defs.h": DEFS, "kernels.cu": KERNEL})
    rc, out, err = kp_inproc("translate", d / "kernels.cu", "--to", "hip", "-DCUDA", "-o", d / "out")
    assert rc == 0, err
    port = (d / "out" / "kernels.hip").read_text()
    assert "KW_GLOBAL_KERNEL void scale(KW_GLOBAL_VAR REAL* d" in port  # the user's spelling kept
    hip_compiles(d / "out", port, "kernels.hip", extra_args=("-DCUDA",))  # in place: it includes "../defs.h"


def test_definitions_leave_out_only_the_skipped_lines():
    text = textwrap.dedent(DEFS)
    every = macros.definitions(text, "defs.h")
    assert every["KW_GLOBAL_VAR"].body == "__global"  # read alone, the last branch's text (as before)
    # the rows of `#elif defined(FW_OPENCL)` .. its last definition: what a walk under -DCUDA skips
    first = text.split("\n").index("#elif defined(FW_OPENCL)")
    seen = macros.definitions(text, "defs.h", skip=[(first, first + 3)])
    assert seen["KW_GLOBAL_VAR"].body == "" and seen["KW_LOCAL_ID_0"].body == "threadIdx.x"
    assert seen["KW_GLOBAL_KERNEL"].body == "__global__" and seen["REAL"].body == "float"


def test_a_name_nothing_defines_decides_no_branch_of_a_headers_macros(tmp_path):
    # look-alike: no -DUSE_GPU, so the header's `#else` (HD empty) is not chosen over its device spelling
    hd = """\
        #ifdef USE_GPU
        #define HD __host__ __device__
        #else
        #define HD
        #endif
        """
    code = """\
        #include "hd.h"
        HD inline float twice(float x) { return 2 * x; }
        __global__ void k(float* p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
        """
    d = _project(tmp_path, {"hd.h": hd, "k.cu": code})
    rc, out, err = kp_inproc("translate", d / "k.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    from kernelport.project import Project
    seen = Project().macro_defs(d / "k.cu")  # what the macro-aware parse of k.cu is given
    assert seen["HD"].body == "__host__ __device__"  # the GPU spelling, as before this change
    # (the project's GPU build passes -DUSE_GPU)
    hip_compiles(d / "out", (d / "out" / "k.hip").read_text(), "k.hip",
                 extra_args=("-DUSE_GPU",))
