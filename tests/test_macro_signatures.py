"""`extern "C" SIGNATURE(name) { ... }`: a host function whose whole signature a project macro spells
(MonoAlg3D's `extern "C" SET_ODE_INITIAL_CONDITIONS_GPU(name) {`, ode_solver.h's `#define
SET_ODE_INITIAL_CONDITIONS_GPU(name) size_t name (...)`).  With `extern "C"` the grammar read a type and a
parenthesised declarator, no function, so the Metal port refused the host runtime calls in the body
(KP202) instead of leaving the host function out.  The linkage words are blanked for the grammar where
the macro (here an included header's) is a signature and a body follows (kernelport/macro_signatures.py).
Look-alikes: the same without `extern "C"` (already read as a function), a declaration
`extern "C" SIGNATURE(name);`, and a macro that is not a signature."""
from __future__ import annotations

import subprocess
import sys

from kernelport import macros as mac
from kernelport.source import SourceFile

from conftest import hip_compiles

HEADER = """\
#pragma once
#include <stddef.h>
struct solver { float *sv; int n; };
#define SET_INIT_GPU(name) size_t name (struct solver *s, int extra)
#define SOLVE_GPU(name) void name (struct solver *s, float t)
#define NOT_A_SIGNATURE(x) (x + 1)
"""

MODEL = """\
#include "sig.h"
__constant__ size_t pitch;

__global__ void init_kernel(float *sv, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) sv[i] = 1.0f;
}

extern "C" SET_INIT_GPU(set_init) {
    size_t p = s->n;
    cudaMalloc((void **)&s->sv, p * sizeof(float));
    cudaMemcpyToSymbol(pitch, &p, sizeof(size_t));
    init_kernel<<<(s->n + 63) / 64, 64>>>(s->sv, s->n);
    return p;
}

extern "C" SOLVE_GPU(solve) {
    cudaDeviceSynchronize();
    init_kernel<<<1, 64>>>(s->sv, s->n);
}
"""


def _translate(tmp_path, text: str, to: str, *extra: str):
    (tmp_path / "sig.h").write_text(HEADER)
    f = tmp_path / "model.cu"
    f.write_text(text)
    return subprocess.run([sys.executable, "-P", "-m", "kernelport", "translate", "--to", to, "--stdout", *extra, str(f)],
                          capture_output=True, text=True, timeout=300)


def _parse(text: str) -> SourceFile:
    return SourceFile.from_text(text, "model.cu", macros=mac.definitions(HEADER, "sig.h"))


def test_the_definition_is_read_as_a_function_and_the_linkage_words_are_a_mask():
    s = _parse(MODEL)
    linkage = [m for m in s.masks if m.name == 'extern "C"']
    assert [s.data[m.start:m.end] for m in linkage] == [b'extern "C"'] * 2
    defs = [n for n in s.root.children if n.type == "function_definition"]
    assert [n.child_by_field_name("declarator").type for n in defs] == ["function_declarator"] * 3
    assert s.text == MODEL  # the user's text is untouched


def test_metal_writes_the_kernel_and_leaves_the_host_functions_out(tmp_path):
    r = _translate(tmp_path, MODEL, "metal")
    assert r.returncode == 0, r.stderr
    assert "kernel void init_kernel(" in r.stdout
    assert "cudaMalloc" not in r.stdout and "cudaMemcpyToSymbol" not in r.stdout
    assert 'extern "C"' not in r.stdout and "SET_INIT_GPU" in r.stdout  # (the comment left in its place)
    assert r.stdout.count("is a host launcher: left out") == 2


def test_hip_keeps_the_text_and_compiles(tmp_path):
    r = _translate(tmp_path, MODEL, "hip")
    assert r.returncode == 0, r.stderr
    assert 'extern "C" SET_INIT_GPU(set_init) {' in r.stdout and "hipMalloc(" in r.stdout
    assert "hipMemcpyToSymbol(HIP_SYMBOL(pitch)" in r.stdout or "hipMemcpyToSymbol(" in r.stdout
    hip_compiles(tmp_path, r.stdout, "model.hip")


def test_without_extern_c_nothing_is_masked_and_metal_still_leaves_it_out(tmp_path):
    text = MODEL.replace('extern "C" ', "")
    assert not [m for m in _parse(text).masks if m.name == 'extern "C"']
    r = _translate(tmp_path, text, "metal")
    assert r.returncode == 0, r.stderr
    assert "cudaMalloc" not in r.stdout and "kernel void init_kernel(" in r.stdout


def test_a_declaration_and_a_macro_that_is_no_signature_are_left_alone():
    s = _parse('#include "sig.h"\nextern "C" SOLVE_GPU(solve);\nextern "C" NOT_A_SIGNATURE(y) { }\n')
    assert not [m for m in s.masks if m.name == 'extern "C"']
    assert [c.type for c in s.root.children if c.type != "preproc_include"] == ["linkage_specification"] * 2


def test_without_the_macro_known_nothing_is_masked():
    s = SourceFile.from_text(MODEL, "model.cu")
    assert not [m for m in s.masks if m.name == 'extern "C"']


def test_metal_still_refuses_a_host_call_in_a_definition_whose_macro_is_no_signature(tmp_path):
    text = MODEL.replace("#define SET_INIT_GPU", "#define UNUSED_X")
    r = _translate(tmp_path, text.replace('extern "C" SET_INIT_GPU(set_init)', 'extern "C" NOT_A_SIGNATURE(set_init)'), "metal")
    assert r.returncode == 1 and "KP202 cudaMalloc" in r.stderr, r.stderr


def test_two_definitions_through_one_macro_are_both_left_out_of_metal(tmp_path):
    text = MODEL.replace('extern "C" SOLVE_GPU(solve) {', 'extern "C" SOLVE_GPU(release) {\n    cudaFree(s->sv);\n}\n\nextern "C" SOLVE_GPU(solve) {')
    r = _translate(tmp_path, text, "metal")
    assert r.returncode == 0, r.stderr
    assert "cudaFree" not in r.stdout and 'extern "C"' not in r.stdout and "kernel void init_kernel(" in r.stdout
