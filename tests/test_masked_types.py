"""A type named in a macro use the parse saw as blanks (a file-scope instantiation macro of a header,
`INSTANTIATE(f_bf16, __nv_bfloat16)` without `;`) is renamed as the target spells it, as in parsed
code (kernelport/masked_types.py); the same word in a comment or a string there and a name that is
no type (a runtime call, still reported by KP230) stay as written."""
from __future__ import annotations

from kernelport import macros
from kernelport.source import SourceFile
from kernelport.translate import translate

HEADER = """\
#pragma once
#include <cuda_bf16.h>
template <typename T> __global__ void scale(T* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = x[i]; }
#define INSTANTIATE(name, T) \\
  extern "C" void name(T* x, int n, cudaStream_t s) { scale<T><<<(n + 255) / 256, 256, 0, s>>>(x, n); }
#define NAMED(name, T, label) extern "C" const char* name() { return label; }
"""
UNIT = """\
#include "inst.cuh"

INSTANTIATE(scale_f16, __half)
INSTANTIATE(scale_bf16, __nv_bfloat16)  // __nv_bfloat16 in a comment
NAMED(label_bf16, __nv_bfloat16, "__nv_bfloat16")
"""


def _port(unit: str, backend: str = "hip"):
    src = SourceFile.from_text(unit, "unit.cu", macros=macros.definitions(HEADER, "inst.cuh"))
    port, _ = translate(src, backend)
    return port


def test_a_type_in_a_masked_instantiation_is_renamed():
    port = _port(UNIT)
    lines = port.body.splitlines()
    assert "INSTANTIATE(scale_bf16, hip_bfloat16)  // __nv_bfloat16 in a comment" in lines, port.body
    assert 'NAMED(label_bf16, hip_bfloat16, "__nv_bfloat16")' in lines, port.body  # the string stays
    assert "INSTANTIATE(scale_f16, __half)" in lines  # HIP spells __half as CUDA does
    assert not any(d.code == "KP230" and "__nv_bfloat16" in d.message for d in port.diagnostics), port.diagnostics


def test_a_runtime_call_in_a_masked_use_stays_and_is_still_reported():
    port = _port(UNIT.replace("INSTANTIATE(scale_f16, __half)", "NAMED(label_f16, float, cudaGetErrorString(e))"))
    assert "NAMED(label_f16, float, cudaGetErrorString(e))" in port.body.splitlines(), port.body
    assert any(d.code == "KP230" and "cudaGetErrorString" in d.message for d in port.diagnostics), port.diagnostics


def test_parsed_code_is_unchanged():
    port = _port('#include "inst.cuh"\n\nvoid f(__nv_bfloat16* p) {}\nINSTANTIATE(scale_bf16, float);\n')
    assert "void f(hip_bfloat16* p) {}" in port.body.splitlines(), port.body
    assert "INSTANTIATE(scale_bf16, float);" in port.body.splitlines()



def _cli_port(tmp_path, unit: str) -> list[str]:
    import subprocess
    import sys
    (tmp_path / "inst.cuh").write_text(HEADER)
    (tmp_path / "unit.cu").write_text(unit)
    run = subprocess.run([sys.executable, "-m", "kernelport", "translate", str(tmp_path / "unit.cu"), "--to", "hip",
                          "--stdout"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_the_files_own_macro_of_a_type_name_stays_in_the_masked_use_as_in_parsed_code(tmp_path):
    """`#define __nv_bfloat16 float` (a file's stand-in for the type): parsed code keeps the name, the macro's
    (model.build, own_macros.shadowed), so a masked `INSTANTIATE(scale_bf16, __nv_bfloat16)` keeps it too: renamed,
    the extern "C" `scale_bf16` took `hip_bfloat16*` while its callers pass floats (the merge of h/heldout91)."""
    lines = _cli_port(tmp_path, UNIT.replace('#include "inst.cuh"\n', '#include "inst.cuh"\n'
                                             '#define __nv_bfloat16 float\nvoid g(__nv_bfloat16* p) {}\n'))
    assert "void g(__nv_bfloat16* p) {}" in lines, lines
    assert "INSTANTIATE(scale_bf16, __nv_bfloat16)  // __nv_bfloat16 in a comment" in lines, lines


def test_a_macro_of_the_name_after_the_use_leaves_the_use_renamed(tmp_path):
    """The look-alike: a `#define __nv_bfloat16 float` below the masked use is not in force there."""
    lines = _cli_port(tmp_path, UNIT + "#define __nv_bfloat16 float\n")
    assert "INSTANTIATE(scale_bf16, hip_bfloat16)  // __nv_bfloat16 in a comment" in lines, lines
