"""An X-macro that continues an expression (kernelport.operand_macros): heldout48's cuda_newton_fractal
counts its registry with `return 0 #define COUNT(...) + 1 / ENTRIES(COUNT) #undef COUNT ;`, the header
did not parse (KP222), its port was never written, and its `#if defined(__CUDACC__)` host-device macro
kept the CUDA test: hipcc called its functions host-only ("call to __host__ function from __device__
function").  The repair blanks such a use, and the directives around it, where it stops the parse."""
from __future__ import annotations

import os
import subprocess

from conftest import require_tool
from trust_support import kp_inproc
from kernelport.macros import definitions
from kernelport.operand_macros import leads_with_operator
from kernelport.source import SourceFile

_RULES = """\
#pragma once
#if defined(__CUDACC__)
#define RULES_HD __host__ __device__
#else
#define RULES_HD
#endif

#define REGISTRY_ENTRIES(X) \\
    X(ripple, 0.15f, 0) \\
    X(splice, 0.5f, 1) \\
    X(vortex, 0.3f, 2)

inline constexpr int RegistrySourceEntryCount() {
    return 0
#define COUNT_ENTRY(name, value, slot) + 1
        REGISTRY_ENTRIES(COUNT_ENTRY)
#undef COUNT_ENTRY
        ;
}

RULES_HD inline bool HasPerturbation(const float* p) { return p[RegistrySourceEntryCount() - 1] != 0.0f; }
"""
_KERNEL = """\
#include "rules.h"
__global__ void k(const float* p, int* out) { out[threadIdx.x] = HasPerturbation(p) ? 1 : 0; }
"""


def test_the_x_macro_s_header_parses_is_ported_and_compiles_with_hipcc(tmp_path):
    (tmp_path / "rules.h").write_text(_RULES)
    (tmp_path / "k.cu").write_text(_KERNEL)
    rc, out, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP222" not in err, err
    header = (tmp_path / "out/rules.hip.h").read_text()
    assert "#if defined(__HIPCC__)" in header and "REGISTRY_ENTRIES(COUNT_ENTRY)" in header, header
    hipcc = require_tool("hipcc")
    r = subprocess.run([str(hipcc.path), "-x", "hip", "--offload-arch=gfx90a", "--offload-arch=gfx1030", "-c",
                        str(tmp_path / "out/k.hip"), "-o", os.devnull], capture_output=True, text=True,
                       env=dict(os.environ, HIP_PLATFORM="amd"))
    assert r.returncode == 0, r.stderr[-3000:]


def test_the_use_is_blanked_for_the_grammar_only():
    src = SourceFile.from_text(_RULES, "rules.h")
    assert not src.root.has_error
    (mask,) = [m for m in src.masks if m.reason == "operands"]
    assert mask.name == "REGISTRY_ENTRIES" and src.text[mask.start:mask.end].split()[0] == "#define"
    assert "REGISTRY_ENTRIES(COUNT_ENTRY)" in src.text  # the user's text, offsets and all


def test_which_expansions_continue_an_expression():
    macros = definitions(SourceFile.from_text(
        "#define PLUS1(a) + 1\n#define TABLE(X) X(a) X(b)\n#define GROUP(a) (a)\n#define CALL(a) f(a)\n"
        "#define PASTE(a) + a##1\n#define OR(a) || a\n#define NEST(X) TABLE(X)\n#define ITEM(a) , a\n", "m.h"))
    assert leads_with_operator(macros["PLUS1"], "x", macros)
    assert leads_with_operator(macros["TABLE"], "PLUS1", macros)  # through the X-macro's argument
    assert leads_with_operator(macros["NEST"], "OR", macros)  # through a macro the body starts by calling
    assert not leads_with_operator(macros["TABLE"], "GROUP", macros)  # `(a) (b)`: no operator leads
    assert not leads_with_operator(macros["CALL"], "x", macros)
    assert not leads_with_operator(macros["PASTE"], "x", macros)  # pastes: not evaluated here
    assert not leads_with_operator(macros["TABLE"], "ITEM", macros)  # a list's `,` is no binary operator here
    assert not leads_with_operator(macros["PLUS1"], "x, y", macros)  # arity


def test_look_alikes_are_not_blanked():
    """A statement macro after a condition and an operator-led macro after `return` (a unary minus):
    the file parses as it did, with no `operands` mask."""
    text = ("#define NEG(a) -(a)\n#define LOG(a) printf(\"%d\", a)\n"
            "__device__ int f(int a) { if (a) LOG(a); return NEG(a); }\n")
    src = SourceFile.from_text(text, "t.cu")
    assert not src.root.has_error and not [m for m in src.masks if m.reason == "operands"]
