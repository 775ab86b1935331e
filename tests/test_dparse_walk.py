"""The run's -D in the include walk of a file whose plain parse stops: a kernel file that includes
its keyword header and opens `extern "C" {` under `#ifdef CUDA` (closed under another), with a
second error further on (a loop head written twice under `#ifdef IS_POW2`).  The grammar's
recovery may then drop the whole `#ifdef CUDA` block, include and all, so the walk never read the
header: its macros never reached the repair and the model saw no kernels (heldout26 beagle-lib
kernelsX.cu: Metal said KP227, no device code, and the HIP text was kept as written, unanalysed).
Now the walk reads such a file through the branches the run's -D decides
(macro_groups.decided_spans, includewalk._decided).  Without -D nothing changes."""
from __future__ import annotations

import textwrap
from pathlib import Path

from kernelport.project import Options, Project

from trust_support import kp_inproc

DEFS = """\
    #pragma once
    #ifdef CUDA
        #define KW_GLOBAL_KERNEL __global__
        #define KW_GLOBAL_VAR
        #define KW_RESTRICT __restrict__
        #define KW_LOCAL_ID_0 threadIdx.x
    #elif defined(FW_OPENCL)
        #define KW_GLOBAL_KERNEL __kernel
        #define KW_GLOBAL_VAR __global
        #define KW_RESTRICT restrict
        #define KW_LOCAL_ID_0 get_local_id(0)
    #endif
    """

KERNEL = """\
    #ifdef CUDA
        #include "defs.h"
        extern "C" {
    #endif

    KW_GLOBAL_KERNEL void count(KW_GLOBAL_VAR int* KW_RESTRICT in,
                                KW_GLOBAL_VAR unsigned* KW_RESTRICT out,
                                int n) {
        int t = KW_LOCAL_ID_0;
        unsigned b = __ballot_sync(0xffffffffu, t < n && in[t] > 0);
        if (t % 32 == 0) out[t / 32] = __popc(b);
    }

    KW_GLOBAL_KERNEL void sum0(KW_GLOBAL_VAR REAL* KW_RESTRICT dResult,
                              KW_GLOBAL_VAR REAL* KW_RESTRICT dRoot,
                              int count,
                              int takeLog) {
    #ifdef FW_OPENCL_CPU
        SUM_CPU();
    #else
        SUM_GPU();
        #ifdef IS_POW2
        for (int i = KW_LOCAL_ID_0; i < count; i += 2) {
        #else
        for (int i = KW_LOCAL_ID_0; i < count; i++) {
        #endif
            dResult[i] += dRoot[i];
        }
    #endif
    }

    #ifdef CUDA
    } // extern "C"
    #endif
    """


def _project(tmp_path: Path) -> Path:
    d = tmp_path / "proj"
    d.mkdir()
    (d / "defs.h").write_text(textwrap.dedent(DEFS))
    (d / "k.cu").write_text(textwrap.dedent(KERNEL))
    return d


def test_the_plain_parse_drops_the_include_the_run_compiles(tmp_path):
    """The shape holds what it is about: the plain parse stops and holds no #include."""
    d = _project(tmp_path)
    p = Project(lambda q: Options())
    src = p.file(d / "k.cu").src
    assert src.root.has_error and "preproc_include" not in str(src.root)


def test_under_the_runs_define_the_walk_reads_the_header(tmp_path):
    d = _project(tmp_path)
    p = Project(lambda q: Options((), (("CUDA", "1"),)))
    assert (d / "defs.h").resolve() in p.scan(d / "k.cu").order
    defs = p.macro_defs(d / "k.cu")
    assert defs["KW_LOCAL_ID_0"].body == "threadIdx.x"  # the CUDA branch's, not OpenCL's


def test_without_a_define_nothing_changes(tmp_path):
    d = _project(tmp_path)
    p = Project(lambda q: Options())
    assert p.scan(d / "k.cu").order == [(d / "k.cu").resolve()]


def test_metal_sees_the_kernels_under_the_runs_define(tmp_path):
    """Before, Metal said KP227 (no device code): the kernels' KW_GLOBAL_KERNEL was never read."""
    d = _project(tmp_path)
    rc, out, err = kp_inproc("translate", d / "k.cu", "--to", "metal", "-DCUDA", "-o", d / "out")
    assert "KP227" not in err, err
