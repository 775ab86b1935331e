"""`__cplusplus` in the include walk and the platform guards (kernelport/includewalk.py, guards.py), read from
the data the parse repair reads (the CUDA backend's `language_macros`, macro_groups.builtin_macros): every
compile of CUDA is C++, so a header's `#else` of `#ifdef __cplusplus` (its C side) is compiled by no pass.
On main the walk followed the C side's includes (a note that `c_only.h` is not found) and the guards called
its code "under a test only some builds compile" (KP210 warnings for code no build reads).  Look-alikes: a
compiler's own name the run cannot decide (`__CUDA_ARCH__`) and a user's macro keep their reading."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate


def _run(tmp_path, header: str, unit: str):
    from trust_support import kp_inproc
    (tmp_path / "side.cuh").write_text(header)
    (tmp_path / "k.cu").write_text(unit)
    rc, out, err = kp_inproc("translate", str(tmp_path / "k.cu"), "--to", "hip", "--stdout")
    assert rc == 0, err
    return out, err


HEADER = """\
#ifndef SIDE_CUH
#define SIDE_CUH
#ifdef __cplusplus
#define SCALE 3.0f
#else
#include "c_only.h"
#define SCALE 1.0f
#endif
#endif
"""
UNIT = '#include "side.cuh"\n__global__ void k(float *o) { o[threadIdx.x] *= SCALE; }\n'


def test_the_walk_does_not_follow_a_headers_c_side(tmp_path):
    out, err = _run(tmp_path, HEADER, UNIT)
    assert "c_only.h" not in err, err
    assert "o[threadIdx.x] *= SCALE;" in out


def test_a_test_the_run_cannot_decide_is_still_walked(tmp_path):
    for test in ("#ifdef __CUDA_ARCH__", "#if !defined(__CUDACC_RTC__)"):
        _, err = _run(tmp_path, HEADER.replace("#ifdef __cplusplus", test), UNIT)
        assert "'c_only.h' not found" in err, (test, err)


C_SIDE = """\
#include <cuda_runtime.h>
TEST
static const int invalid_host_pointer = cudaErrorInvalidHostPointer;
#else
static const int invalid_value = cudaErrorInvalidValue;
#endif
__global__ void k(float *o) { o[threadIdx.x] *= 2.0f; }
"""


def test_code_no_cpp_compile_reads_is_left_as_written_without_a_warning():
    port, _ = translate(SourceFile.from_text(C_SIDE.replace("TEST", "#ifndef __cplusplus"), "t.cu"), "hip")
    assert port.ok and not [d for d in port.diagnostics if d.code == "KP210"], [d.format() for d in port.diagnostics]
    assert "= cudaErrorInvalidHostPointer;" in port.body and "= hipErrorInvalidValue;" in port.body


def test_a_users_test_keeps_its_warning():
    port, _ = translate(SourceFile.from_text(C_SIDE.replace("TEST", "#ifndef USE_CPP_API"), "t.cu"), "hip")
    assert port.ok
    warn = [d for d in port.diagnostics if d.code == "KP210"]
    assert len(warn) == 1 and "only some builds compile" in warn[0].message
