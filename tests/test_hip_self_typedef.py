"""`typedef cudaStream_t cudaStream_t;` (a lattice-QCD library's accelerator header, held-out set 90) redeclares
CUDA's type under its own name: it declares nothing of the project's (kernelport/declared_names.py,
_redeclares_itself).  Main took `cudaStream_t` for the project's own name and kept it as written in every HIP
port of the unit: hipcc knows no `cudaStream_t` ("unknown type name"), so every port including the header failed."""
from __future__ import annotations

import subprocess
import sys

KERNEL = "__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n"


def _port(tmp_path, typedef: str) -> str:
    (tmp_path / "k.cu").write_text(f"#include <cstdio>\n{typedef}\n{KERNEL}"
                                   "void f(float* x, cudaStream_t s) { k<<<1, 64, 0, s>>>(x); }\n")
    run = subprocess.run([sys.executable, "-m", "kernelport", "translate", str(tmp_path / "k.cu"), "--to", "hip",
                          "--stdout"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_a_typedef_of_a_cuda_type_to_itself_leaves_the_name_cudas(tmp_path):
    port = _port(tmp_path, "typedef cudaStream_t cudaStream_t;")
    assert "typedef hipStream_t hipStream_t;" in port, port
    assert "void f(float* x, hipStream_t s)" in port, port
    assert "cudaStream_t" not in port, port


def test_a_projects_own_definition_of_the_name_stays_its_own(tmp_path):
    """The look-alike: `typedef int cudaStream_t;` (a stand-in where no toolkit is) gives the name a type of
    the project's making: kept as written, uses and all."""
    port = _port(tmp_path, "typedef int cudaStream_t;")
    assert "typedef int cudaStream_t;" in port, port
    assert "void f(float* x, cudaStream_t s)" in port, port


def test_an_alias_under_another_name_renames_only_the_cuda_side(tmp_path):
    """`typedef cudaStream_t stream_t;` declares the project's `stream_t`: the aliased CUDA type is renamed."""
    port = _port(tmp_path, "typedef cudaStream_t stream_t;")
    assert "typedef hipStream_t stream_t;" in port, port
