"""A name whose only definition sits under a build macro the run does not define (kernelport/hidden_defines.py).

gpuATTRACT (heldout28) builds with `-DCUDA`; its macros.h defines `cudaVerifyKernel(x)` only under `#ifdef CUDA`.
A user who runs `kernelport translate src/model/transform.cu --to hip` without the build's defines got KP210 "HIPIFY
has no such name ... if it is your own name, declare it": the refusal now names the header line that defines it and
the macro that hides it (bench/defines_noflags47.txt measures the held-out sets)."""
from __future__ import annotations

from trust_support import kp_inproc

MACROS = """#pragma once
#ifdef CUDA
#define cudaVerifyKernel(x) do { x; (void)cudaGetLastError(); } while (0)
#else
#define cudaVerifyKernel(x) x
#endif
"""
SOURCE = """#include "macros.h"
__global__ void k(float* x) { x[threadIdx.x] = 1.0f; }
void run(float* x) { cudaVerifyKernel((k<<<1, 32>>>(x))); }
"""


def _run(tmp_path, monkeypatch, macros: str, *flags: str):
    (tmp_path / "macros.h").write_text(macros)
    (tmp_path / "k.cu").write_text(SOURCE)
    monkeypatch.chdir(tmp_path)
    return kp_inproc("translate", "k.cu", "--to", "hip", "-o", "hip", *flags)


def test_a_name_defined_only_under_an_undefined_build_macro_is_said_where(tmp_path, monkeypatch):
    only = MACROS.replace("#else\n#define cudaVerifyKernel(x) x\n", "")
    rc, _, err = _run(tmp_path, monkeypatch, only)
    assert rc != 0
    assert "k.cu:3:22: error: KP210 `cudaVerifyKernel` has no HIP equivalent (HIPIFY has no such name; macros.h:3 " \
           "defines it only where `CUDA` is defined (line 2), which this run does not: translate with `-D CUDA`" in err, err
    rc, _, err = _run(tmp_path, monkeypatch, only, "-D", "CUDA")
    assert rc == 0, err  # the build's define: the macro is the project's, its body ported


def test_the_macros_other_branches_and_the_compilers_macros_are_no_hidden_define(tmp_path, monkeypatch):
    rc, _, err = _run(tmp_path, monkeypatch, MACROS)
    assert rc == 0, err  # the `#else` branch defines it without CUDA
    for test in ("#ifndef CUDA", "#ifdef __CUDA_ARCH__", "#if 0"):
        only = MACROS.replace("#else\n#define cudaVerifyKernel(x) x\n", "").replace("#ifdef CUDA", test)
        rc, _, err = _run(tmp_path, monkeypatch, only)
        assert "defines it only where" not in err, (test, err)
