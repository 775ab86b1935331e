"""A macro device code reaches whose value is an attribute (QuickSES's CudaSurf.h, heldout73: `#define API
__attribute__((visibility("default")))` on its Apple branch, the one a Metal compile takes, on the
`extern "C"` prototypes a spliced header declares): `visibility` is an attribute's name, not a call a
header must define, so no KP223 (kernelport/backends/metal/unported.py, `_without_attributes`).  Main
refused the whole unit at the macro.  The look-alike: a macro that calls what nothing defines is still
refused at the macro."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate

HEADER = """
    #if defined(__APPLE__) || defined(__MACH__)
    #define OS_OSX
    #endif
    #if defined(OS_OSX)
    #define API __attribute__((visibility("default")))
    #else
    #define API
    #endif
    #define NB 64
    extern "C" {
        API void API_compute(float *y, unsigned int n);
    }
"""
UNIT = """
    #include "surf.h"
    __global__ void k(float *y) { y[threadIdx.x] = NB; }
    extern "C" {
    API void API_compute(float *y, unsigned int n) { k<<<1, NB>>>(y); }
    }
"""


def _metal(tmp_path, header: str, unit: str):
    (tmp_path / "surf.h").write_text(textwrap.dedent(header).lstrip())
    (tmp_path / "surf.cu").write_text(textwrap.dedent(unit).lstrip())
    return translate(SourceFile.read(tmp_path / "surf.cu"), "metal")


def test_an_attribute_macro_is_no_undefined_call(tmp_path):
    port, text = _metal(tmp_path, HEADER, UNIT)
    assert port.ok and not port.empty, [d.format() for d in port.diagnostics]
    assert "kernel void k" in text


def test_a_macro_calling_an_undefined_function_is_still_refused(tmp_path):
    port, _ = _metal(tmp_path, HEADER.replace("#define NB 64", "#define NB lookup_nb(0)"), UNIT)
    assert [(d.code, "lookup_nb" in d.message) for d in port.diagnostics if d.severity == "error"] == [("KP223", True)]
