"""Member calls resolved by the object's class (metal/member_callees.py; issue 11, Metal part; stop 63's note:
"sliding-puzzle's member resolved by name only"; snippets written for the test).

Two classes each with a member of one name: main followed `w.put(q)` to the first function of that name
the file defines.  Where that was a `put` writing nothing beside one writing through `q`, a const member
calling the writer was copied into the thread (`C(*c).get(&c->v)`: CUDA returns the new `v`, the copy the
old one: a wrong port that compiles), and defined the other way round it was refused.  A device member
whose name a host class shares (sliding-puzzle's `get_hash_value`) and two classes' same-named members
given pointers of different spaces were refused (the call was not resolved: no signature, no copy).
"""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

READER = "struct R { __device__ void put(float *q) const { } };\n"
WRITER = "struct W { __device__ void put(float *q) const { q[0] = 1.0f; } };\n"
GETTER = """class C { public: float v; __device__ float get(float *q) const; };
__device__ float C::get(float *q) const { OBJ; return v; }
__global__ void k(C *c, float *out) { R r; r.put(out); out[1] = c->get(&c->v); }
"""


def _metal(code: str, tmp_path, name: str = "k.cu"):
    require_tool("clang")
    port, text = translate(SourceFile.from_text(code, str(tmp_path / name)), "metal")
    return port, text


@pytest.mark.parametrize("first_writer", [False, True])
def test_a_const_member_calling_a_writing_member_of_a_same_named_pair_is_no_copy(tmp_path, first_writer):
    """`W w; w.put(q)` writes through q (which points into the device object): no copy, in either order (the
    member runs on the device object: its `const device` twin, operator_calls.py)."""
    classes = WRITER + READER if first_writer else READER + WRITER
    port, text = _metal(classes + GETTER.replace("OBJ", "W w; w.put(q)"), tmp_path)
    assert port.ok and "C(*c).get" not in text, port.diagnostics
    assert "out[1] = c->get(&c->v);" in text and "float C::get(device float *q) const device {" in text


@pytest.mark.parametrize("first_writer", [False, True])
def test_a_const_member_calling_the_reading_member_of_a_pair_is_copied(tmp_path, first_writer):
    """Look-alike: `R r2; r2.put(q)` writes nothing: the object is copied, whichever class comes first."""
    classes = WRITER + READER if first_writer else READER + WRITER
    port, text = _metal(classes + GETTER.replace("OBJ", "R r2; r2.put(q)"), tmp_path)
    assert port.ok, port.diagnostics
    assert "out[1] = C(*c).get(&c->v);" in text


HOST_TWIN = """class H { public: int v; unsigned int get(const char *inv); };
unsigned int H::get(const char *inv) { return v + inv[0]; }
class D { public: __device__ unsigned int get(const char *inv); };
__device__ unsigned int D::get(const char *inv) { return inv[0] * 2; }
__global__ void k(D *d, const char *inv, unsigned int *out) { out[0] = CALL; }
"""


def test_a_device_member_whose_name_a_host_class_shares_is_resolved_by_the_object(tmp_path):
    """sliding-puzzle's shape: `d->get(inv)` runs D::get (a copy of the device object), not H::get."""
    port, text = _metal(HOST_TWIN.replace("CALL", "d->get(inv)"), tmp_path)
    assert port.ok, port.diagnostics
    assert "out[0] = D(*d).get(inv);" in text and "H::get" not in text.split("host code")[-1]


def test_an_object_of_unknown_class_stays_unresolved(tmp_path):
    """Look-alike: `d[0].get(inv)` (a subscript: its class is not read) is not resolved: refused as before."""
    port, _ = _metal(HOST_TWIN.replace("CALL", "d[0].get(inv)"), tmp_path)
    assert not port.ok and [d.location.line for d in port.diagnostics if d.severity == "error"] == [5]


SPACES = """struct A { float s; __device__ float load(const float *p) { return s * p[0]; } };
struct B { float t; __device__ float load(const float *p) { return t + p[1]; } };
__global__ void k(A a, B b, const float *x, float *out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = a.load(x) + b.load(tile);
}
"""


def test_two_classes_same_named_members_get_their_own_spaces(tmp_path):
    """A::load is given device memory, B::load threadgroup memory: each signature from its own calls."""
    port, text = _metal(SPACES, tmp_path)
    assert port.ok, port.diagnostics
    assert "float load(const device float *p) { return s * p[0]; }" in text
    assert "float load(const threadgroup float *p) { return t + p[1]; }" in text


def test_one_class_given_both_spaces_keeps_two_signatures(tmp_path):
    """Look-alike: one class's member called with both spaces is still planned from both calls."""
    code = SPACES.replace("b.load(tile)", "a.load(tile)")
    port, text = _metal(code, tmp_path)
    assert port.ok, port.diagnostics
    assert "load(const device float *p)" in text and "load(const threadgroup float *p)" in text
