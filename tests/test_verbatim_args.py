"""A macro argument its macro only stringifies (`#T`) or pastes (`run_##T`) keeps the CUDA spelling
(kernelport/verbatim_args.py).

`DECLARE(__nv_bfloat16)` whose macro defines `run_##T` made `run___nv_bfloat16` in the CUDA build, the name the
launch beside it calls; main's port renamed the argument (`DECLARE(hip_bfloat16)`: `run_hip_bfloat16`), and
hipcc stopped at the launch ("use of undeclared identifier 'run___nv_bfloat16'"); `#T` gave another string.
Both the parsed argument (translate's concept renames) and a masked one (masked_types) are kept now, through a
macro that passes the parameter on whole.  Look-alikes: a parameter the body also reads as a type
(`INSTANTIATE(f, __nv_bfloat16)` whose body instantiates `scale<T>`) and one the body does not use are renamed
as before (test_masked_types)."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import port_text

from kernelport import macros
from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """#include <cuda_bf16.h>
#include <cstdio>
#define DECLARE(T) __global__ void run_##T(float* x) { x[threadIdx.x] = 1.0f; }
#define NAME_OF(T) #T
#define DECLARE_NAMED(T) DECLARE(T)
template <typename T> __global__ void scale(T* x, int n) { if ((int)threadIdx.x < n) x[threadIdx.x] = x[threadIdx.x]; }
#define INSTANTIATE(T) template __global__ void scale<T>(T*, int); void use_##T(T* x) { scale<T><<<1, 1>>>(x, 1); }
DECLARE(__nv_bfloat16)
DECLARE_NAMED(__half)
INSTANTIATE(__nv_bfloat16)
void launch(float* x, __nv_bfloat16* y)
{
    run___nv_bfloat16<<<1, 32>>>(x);
    run___half<<<1, 32>>>(x);
    printf("%s\\n", NAME_OF(__nv_bfloat16));
}
"""


def test_a_pasted_or_stringified_argument_keeps_the_cuda_spelling(tmp_path):
    text = port_text(CODE, dedent=False)
    for line in ("DECLARE(__nv_bfloat16)", "DECLARE_NAMED(__half)", 'printf("%s\\n", NAME_OF(__nv_bfloat16));',
                 "INSTANTIATE(hip_bfloat16)", "void launch(float* x, hip_bfloat16* y)"):
        assert line in text, (line, text)
    hip_compiles(tmp_path, text, "pasted.hip")


HEADER = """\
#pragma once
#include <cuda_bf16.h>
#define LABEL(name, T) extern "C" const char* name() { return #T; }
#define LABEL2(name, T) LABEL(name, T)
#define TYPED(name, T) extern "C" int name(T* p) { return p != 0; }
"""


def test_a_masked_use_keeps_what_its_macro_spells():
    unit = '#include "l.cuh"\n\nLABEL(l_bf16, __nv_bfloat16)\nLABEL2(l2_bf16, __nv_bfloat16)\nTYPED(t_bf16, __nv_bfloat16)\n'
    src = SourceFile.from_text(unit, "unit.cu", macros=macros.definitions(HEADER, "l.cuh"))
    lines = translate(src, "hip")[0].body.splitlines()
    assert "LABEL(l_bf16, __nv_bfloat16)" in lines and "LABEL2(l2_bf16, __nv_bfloat16)" in lines, lines
    assert "TYPED(t_bf16, hip_bfloat16)" in lines, lines


def test_a_name_pasted_from_a_renamed_argument_is_respelled_where_the_file_uses_it(tmp_path):
    """`BOTH(__nv_bfloat16)` whose body reads T as a type (renamed: `hip_bfloat16`) and pastes it (`kk_##T`)
    declares `kk_hip_bfloat16` in the port; the launch that names `kk___nv_bfloat16` (the CUDA build's name)
    was left as written: hipcc "use of undeclared identifier".  Look-alike: a use of `k___nv_bfloat16`, which a
    macro that only pastes its argument declares (the argument keeps its CUDA spelling), keeps its text."""
    code = """#include <cuda_bf16.h>
#define DECL(T) __global__ void k_##T(float* p) { p[0] = 1.0f; }
#define BOTH(T) __global__ void kk_##T(T* p) { p[0] = p[1]; }
DECL(__nv_bfloat16)
BOTH(__nv_bfloat16)
void launch(float* p, __nv_bfloat16* q)
{
    k___nv_bfloat16<<<1, 1>>>(p);
    kk___nv_bfloat16<<<1, 1>>>(q);
}
"""
    text = port_text(code, dedent=False)
    assert "DECL(__nv_bfloat16)" in text and "BOTH(hip_bfloat16)" in text, text
    assert "    k___nv_bfloat16<<<" in text and "    kk_hip_bfloat16<<<" in text, text
    hip_compiles(tmp_path, text, "pasted.hip")
