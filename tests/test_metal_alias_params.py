"""A kernel's buffer of a class template instance, named directly (`BigT<4>*`) or through an alias
(`typedef BigT<4> Big;`, `using Big2 = BigT<2>;`), ports to Metal and passes the Metal checker.

Found by heldout45 in kryc/cuda-primefac (primefactors.cu:366, `const Div* n` with `Div` an alias of
`BigUInt<kDivLimbs>`): the port's text was right (`const device Div* n [[buffer(0)]]`), but the
checker's clang (C++ for OpenCL) tests a kernel pointee for standard layout, and an instance not yet
instantiated at the kernel has no definition to test, so it refused the parameter (KP224) and the
port was never written.  Metal makes no such test; the checker's model now says so.  The snippets
are written for the test."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

CUDA = """\
template <int N>
class BigT {
public:
    unsigned int w[N];
    __device__ unsigned int low() const { return w[0]; }
};
typedef BigT<4> Big;
using Big2 = BigT<2>;
struct Plain { unsigned int a, b; };
typedef unsigned int word;

__global__ void k1(const Big* n, Big* out, unsigned int* r) {
    int i = threadIdx.x;
    r[i] = n[i].low();
    out[i] = n[i];
}

__global__ void k2(const Big2* n, Big2 m, unsigned int* r) {
    int i = threadIdx.x;
    r[i] = n[i].low() + m.low();
}

__global__ void k3(const BigT<8>* n, const Plain* p, word* w, unsigned int* r) {
    int i = threadIdx.x;
    r[i] = n[i].low() + p[i].a;
    w[i] = p[i].b;
}
"""


def _port(tmp_path: Path):
    require_tool("clang")
    return translate(SourceFile.from_text(CUDA, str(tmp_path / "k.cu")), "metal")


def test_a_buffer_of_an_aliased_template_instance_passes_the_checker(tmp_path: Path):
    port, text = _port(tmp_path)
    assert [str(d) for d in port.diagnostics if d.severity == "error"] == []
    assert "kernel void k1(const device Big* n [[buffer(0)]], device Big* out [[buffer(1)]]" in text
    assert "kernel void k2(const device Big2* n [[buffer(0)]], constant Big2& m [[buffer(1)]]" in text
    assert "kernel void k3(const device BigT<8>* n [[buffer(0)]]" in text


def test_a_plain_struct_and_a_scalar_alias_keep_their_spellings(tmp_path: Path):
    _, text = _port(tmp_path)
    assert "const device Plain* p [[buffer(1)]], device word* w [[buffer(2)]]" in text


HEAD = "#include <metal_stdlib>\nusing namespace metal;\ntemplate <int N> struct BigT { uint w[N]; };\n" \
       "typedef BigT<4> Big;\n"


def _errors(text: str) -> list[str]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    return [d.message for d in check_metal_source(text, "t.metal") if d.severity == "error"]


@pytest.mark.parametrize("param", ["const device BigT<4>* n", "device Big* n", "constant Big& n"])
def test_the_checker_accepts_a_template_instance_buffer(param: str):
    text = HEAD + f"kernel void k({param} [[buffer(0)]], device uint* r [[buffer(1)]]) {{ r[0] = n" + \
        ("." if "&" in param else "->") + "w[0]; }\n"
    assert _errors(text) == []


@pytest.mark.parametrize("param, words", [
    ("Big* n", "address space"),                  # a kernel pointer with no address space
    ("device Big* thread* n", "reside"),           # a pointer to a thread pointer
])
def test_the_checker_still_refuses_a_buffer_metal_refuses(param: str, words: str):
    text = HEAD + f"kernel void k({param} [[buffer(0)]], device uint* r [[buffer(1)]]) {{ r[0] = 0; }}\n"
    errs = _errors(text)
    assert errs and any(words in e for e in errs), errs
