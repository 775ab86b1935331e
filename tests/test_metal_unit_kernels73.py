"""A unit of host code only whose included file defines its kernels, reached through function pointers
and never launched by name (heldout73: fastgrid's StandardKernels.cu is `#include "StandardKernels.h"`
and `#include "Kernels.inl"`; the .inl's template kernels are returned as `CudaKernelProc` and launched
as `kernel<<<grid, block, stream>>>()`).  nvcc compiles those kernels in that unit, so they are its
device code: the Metal port now splices the file that defines them (kernelport/backends/metal/headers.py,
`host_only`).  Before, nothing was spliced and KP227 said "the file has no device code".  The look-alikes:
an included file of `__device__` helpers only, or of kernel prototypes, still gives KP227 (no kernel of
this unit); a kernel file whose kernels nothing names (no launch, no address taken) is still not spliced
(test_metal_realcode.py's look-alike); a unit with device code of its own splices no unlaunched kernel file.

Also `cudaMemcpyToSymbol(::sym, ...)`: the global-scope name is the symbol `sym`, so KP213 says what the
copy is (its source is not a cudaMalloc'd pointer), not that no copy fills the constant."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

KERNELS_INL = """
    #include "api.h"
    template <int K>
    static __global__ void scale(float *y, int n)
    {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] *= K;
    }
    Proc pick(bool twice) { return twice ? (Proc)scale<2> : (Proc)scale<3>; }
    void call(Proc k, float *y, int n) { k<<<(n + 63) / 64, 64>>>(y, n); }
"""
API_H = """
    #pragma once
    typedef void (*Proc)(float *, int);
    Proc pick(bool twice);
"""
HELPERS_INL = """
    __device__ float twice(float x) { return 2.0f * x; }
"""
PROTOS_H = """
    #pragma once
    __global__ void scale_elsewhere(float *y, int n);
"""


def _write(root, files):
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text).lstrip())


def _metal(path):
    return translate(SourceFile.read(path), "metal")


def test_a_unit_whose_included_file_defines_its_kernels_is_ported(tmp_path):
    _write(tmp_path, {"api.h": API_H, "Kernels.inl": KERNELS_INL,
                      "Standard.cu": '#include "api.h"\n#include "Kernels.inl"\n'})
    port, text = _metal(tmp_path / "Standard.cu")
    assert port.ok and not port.empty, [d.format() for d in port.diagnostics]
    assert not [d for d in port.diagnostics if d.code == "KP227"]
    assert '"Kernels.inl", spliced' in text
    assert 'template [[host_name("scale_2")]] kernel void scale<2>' in text
    assert 'template [[host_name("scale_3")]] kernel void scale<3>' in text


def test_an_included_file_of_device_helpers_only_still_has_no_port(tmp_path):
    """The look-alike: no kernel in what the unit includes (helpers, prototypes): KP227 as before."""
    _write(tmp_path, {"helpers.inl": HELPERS_INL, "protos.h": PROTOS_H,
                      "host.cu": '#include "helpers.inl"\n#include "protos.h"\n'
                                 'void run(float *y) { scale_elsewhere<<<1, 64>>>(y, 64); }\n'})
    port, _ = _metal(tmp_path / "host.cu")
    assert port.ok and port.empty
    assert [d.code for d in port.diagnostics] == ["KP227"]


def test_a_kernel_file_nothing_names_is_not_spliced(tmp_path):
    _write(tmp_path, {"api.h": API_H, "Kernels.inl": KERNELS_INL.replace("Proc pick", "Proc unused_pick")
                      .replace("(Proc)scale<2> : (Proc)scale<3>", "(Proc)0 : (Proc)0"),
                      "quiet.cu": '#include "api.h"\n#include "Kernels.inl"\n'})
    port, text = _metal(tmp_path / "quiet.cu")
    assert port.ok and port.empty and [d.code for d in port.diagnostics] == ["KP227"]


def test_a_unit_with_its_own_kernels_splices_no_unlaunched_kernel_file(tmp_path):
    """The other look-alike: the unit has device code, so only what it needs or launches is spliced."""
    _write(tmp_path, {"api.h": API_H, "Kernels.inl": KERNELS_INL,
                      "own.cu": '#include "api.h"\n#include "Kernels.inl"\n'
                                '__global__ void own(float *y) { y[threadIdx.x] = 1.0f; }\n'})
    port, text = _metal(tmp_path / "own.cu")
    assert port.ok and not port.empty, [d.format() for d in port.diagnostics]
    assert "kernel void own" in text and "scale" not in text.split("kernel void own")[0].split("spliced")[-1]
    assert '"Kernels.inl", spliced' not in text


CONST = """
    static __constant__ float *dptr;
    __global__ void k(float *y) { y[threadIdx.x] = dptr[threadIdx.x]; }
    void set(float **p) { cudaMemcpyToSymbol(SYM, p, sizeof(float *)); }
"""


def _kp213(sym: str) -> str:
    port, _ = translate(SourceFile.from_text(textwrap.dedent(CONST.replace("SYM", sym)), "t.cu"), "metal")
    return next(d.message for d in port.diagnostics if d.code == "KP213")


def test_a_global_scope_symbol_is_the_copy_s_symbol():
    assert "the cudaMemcpyToSymbol at line 4 copies pointers this file does not cudaMalloc" in _kp213("::dptr")
    assert _kp213("::dptr") == _kp213("dptr")


def test_a_namespace_qualified_symbol_is_another_symbol():
    """The look-alike: `other::dptr` names another variable, so no copy fills this `dptr`."""
    assert "no cudaMemcpyToSymbol in this file fills it" in _kp213("other::dptr")
