"""A `__constant__ double` table that no device code reads is left out of the Metal port, with no KP214
(heldout102 LBMProject: lattice_d3q19.h declares `extern __constant__ double w_double[19];` beside the float
tables, and boundary_conditions.cu's kernels read only the float ones; main refused the unit for that one
double).  The look-alikes: the same table read by a kernel, by a device function a kernel calls, or through
a macro a kernel names is still KP214, as is a double `__device__` variable device code writes.  The snippets
are written for the test."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write

HEADER = """
    #pragma once
    extern __constant__ int ex[19];
    extern __constant__ float w[19];
    extern __constant__ double w_double[19];
"""

UNREAD = {"lattice.h": HEADER, "k.cu": """
    #include "lattice.h"
    __constant__ double cs2_double[2], nu_double;
    __global__ void bounce(float* f, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) f[i] = w[i % 19] * (float)ex[i % 19];
    }
    void set(const double* h) { cudaMemcpyToSymbol(w_double, h, 19 * sizeof(double)); }
"""}


def test_an_unread_double_table_is_left_out(tmp_path: Path):
    _write(tmp_path, UNREAD)
    text = _port(tmp_path / "k.cu")
    said = [ln for ln in text.splitlines() if "double" in ln and ln.lstrip().startswith("/*")]
    assert len(said) == 2, said  # w_double's, and one for `cs2_double[2], nu_double` (bind_constants' comment)
    assert [ln for ln in text.splitlines() if "double" in ln and not ln.lstrip().startswith(("/*", "//"))] == []
    assert "constant float* w [[buffer(" in text and "w_double [[" not in text


def _refused(tmp_path: Path, files: dict[str, str]) -> list[str]:
    _write(tmp_path, files)
    port, _ = translate(SourceFile.read(tmp_path / "k.cu"), "metal")
    return [f"{d.code} {d.line}" for d in port.diagnostics if d.severity == "error"]


def test_a_table_a_kernel_reads_is_still_refused(tmp_path: Path):
    assert "KP214 4" in _refused(tmp_path, {"lattice.h": HEADER, "k.cu": """
        #include "lattice.h"
        __global__ void k(double* f, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) f[i] = w_double[i % 19];
        }
    """})


@pytest.mark.parametrize("reader", [
    "__device__ float weight(int q) { return (float)wd[q]; }",  # a device function the kernel calls
    "#define weight(q) ((float)wd[(q)])",  # a macro the kernel names
])
def test_a_table_a_called_function_or_a_macro_reads_is_still_refused(tmp_path: Path, reader: str):
    got = _refused(tmp_path, {"k.cu": f"""
        __constant__ double wd[19];
        {reader}
        __global__ void k(float* f, int n) {{
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) f[i] = weight(i % 19);
        }}
    """})
    assert "KP214 1" in got, got


def test_a_double_device_variable_device_code_writes_is_still_refused(tmp_path: Path):
    got = _refused(tmp_path, {"k.cu": """
        __device__ double total;
        __global__ void k(const float* f, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i == 0) total = 0.0;
        }
    """})
    assert any(g.startswith("KP214 1") or g.startswith("KP213 1") for g in got), got
