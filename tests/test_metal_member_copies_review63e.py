"""Review of h/metal63's member copies (metal/own_object_writes.py, object_copies.py; issue 11, Metal part;
snippets written for the test).

A non-const member that writes none of its object is called on a thread copy.  Two writes were not seen,
and the copy lost them (a port that compiles and computes something else): a write to a field inherited
from a base class (only the class's own fields were collected), and a call of a writing member spelled
with its class (`D::bump(k)`: only a bare `bump(k)` was followed); a base whose fields are not known (a
template) now keeps the member refused.  Look-alikes stay copied: a member
that only reads an inherited field, one that calls a namespace's free function `m::clampi(k)`.
"""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

CUDA = """
namespace m { __device__ int clampi(int v) { return v < 0 ? 0 : v; } }
class Base { public: int b; };
class D : public Base {
public:
  int n;
  __device__ int bump(int k);
  __device__ int inherited(int k);
  __device__ int qualified(int k);
  __device__ int viaBase(int k);
  __device__ int readsBase(int k);
  __device__ int freeCall(int k);
};
__device__ int D::bump(int k) { n += k; return n; }
__device__ int D::inherited(int k) { b += k; return b; }
__device__ int D::qualified(int k) { return D::bump(k) * 2; }
__device__ int D::viaBase(int k) { return Base::b + inherited(k); }
__device__ int D::readsBase(int k) { return b + k; }
__device__ int D::freeCall(int k) { return m::clampi(k) + n; }
__global__ void k(D *c, int *out) {
  out[0] = c->inherited(1);
  out[1] = c->qualified(2);
  out[2] = c->viaBase(3);
  out[3] = c->readsBase(4);
  out[4] = c->freeCall(5);
}
"""


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    require_tool("clang")
    p, _ = translate(SourceFile.from_text(CUDA, str(tmp_path_factory.mktemp("m") / "k.cu")), "metal")
    return p


def _row(call: str) -> int:
    return CUDA.splitlines().index(f"  {call};") + 1


def test_a_member_writing_an_inherited_field_or_calling_a_writer_by_its_class_is_no_copy(port):
    """Stop 64: such members run on the device object itself (a `device` twin: operator_calls.py); a writer
    called by its class name (`D::bump(k)`) is not followed into a twin and stays refused, at the member."""
    errors = [(d.location.line, d.code) for d in port.diagnostics if d.severity == "error"]
    row = CUDA.splitlines().index("__device__ int D::qualified(int k) { return D::bump(k) * 2; }") + 1
    assert errors == [(row, "KP224")], [d.format() for d in port.diagnostics]
    assert "int D::inherited(int k) device { b += k; return b; }" in port.body
    assert "out[0] = c->inherited(1);" in port.body and "out[2] = c->viaBase(3);" in port.body


def test_a_member_reading_an_inherited_field_or_calling_a_free_function_is_copied(port):
    for call in ("D(*c).readsBase(4)", "D(*c).freeCall(5)"):
        assert call in port.body, port.body


def test_a_base_whose_fields_are_not_known_keeps_the_member_refused():
    """A template base (`Holder<int>`): its fields are not collected, so a write to one cannot be ruled out."""
    require_tool("clang")
    text = CUDA.replace("class Base { public: int b; };", "template <class T> class Holder { public: T b; };").replace(
        "public Base", "public Holder<int>").replace("Base::b", "b")
    p, _ = translate(SourceFile.from_text(text, "k.cu"), "metal")
    assert "D(*c).readsBase(4)" not in p.body and "D(*c).freeCall(5)" not in p.body, p.body


POINTERS = """
class P {
public:
  int a[4];
  int *data;
  __device__ int *slot(int i);
  __device__ const int *cslot(int i) const;
  __device__ int *row(int i);
  __device__ int get(int i) const;
};
__device__ int *P::slot(int i) { return a + i; }
__device__ const int *P::cslot(int i) const { return &a[i]; }
__device__ int *P::row(int i) { return data + i; }
__device__ int P::get(int i) const { return *cslot(i); }
__global__ void k(P *d, int *out) {
  *d->slot(1) = 5;
  auto q = d->cslot(2);
  out[0] = *q + d->get(1);
  *d->row(1) = 7;
}
"""


def test_a_member_returning_a_pointer_into_its_object_is_not_called_on_a_copy():
    """`*d->slot(1) = 5` on a copy wrote the temporary (lost); `auto q = d->cslot(2)` dangled.  A member
    returning a pointer member's value (`data + i`), or one that only reads through such a pointer, is copied."""
    require_tool("clang")
    p, _ = translate(SourceFile.from_text(POINTERS, "k.cu"), "metal")
    errors = [(d.location.line, d.code) for d in p.diagnostics if d.severity == "error"]
    lines = POINTERS.splitlines()
    assert errors == [(lines.index("  *d->slot(1) = 5;") + 1, "KP224"), (lines.index("  auto q = d->cslot(2);") + 1, "KP224")], \
        [d.format() for d in p.diagnostics]
    p, _ = translate(SourceFile.from_text(POINTERS.replace("  *d->slot(1) = 5;\n  auto q = d->cslot(2);\n", "").replace(
        "*q + ", ""), "k.cu"), "metal")
    assert "P(*d).get(1)" in p.body and "*P(*d).row(1) = 7;" in p.body, [d.format() for d in p.diagnostics]


def test_a_local_of_an_inner_block_hides_the_member_only_inside_it():
    """`{ int n = 0; n++; } n += k;`: the second `n` is the member (a write lost on a copy); a local declared
    before the write in the same block still hides it (`int n = k; n += 1;`: copied)."""
    require_tool("clang")
    text = """
class S {
public:
  int n;
  __device__ int outer(int k);
  __device__ int inner(int k);
};
__device__ int S::outer(int k) { { int n = 0; n++; } n += k; return n; }
__device__ int S::inner(int k) { int n = k; { n += 1; } return n; }
__global__ void k(S *d, int *out) {
  out[0] = d->outer(1);
  out[1] = d->inner(1);
}
"""
    p, _ = translate(SourceFile.from_text(text, "k.cu"), "metal")
    assert p.ok, [d.format() for d in p.diagnostics]  # stop 64: the writer runs on the device object (a twin)
    assert "int S::outer(int k) device {" in p.body and "out[0] = d->outer(1);" in p.body, p.body
    p, _ = translate(SourceFile.from_text(text.replace("  out[0] = d->outer(1);\n", ""), "k.cu"), "metal")
    assert "S(*d).inner(1)" in p.body, [d.format() for d in p.diagnostics]
