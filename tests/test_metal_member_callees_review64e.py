"""Review of stop 64's Metal merge (issue 11): a member call's object resolved by scope (member_arrays.py's
_declaration; metal/member_callees.py reads it).  Snippets written for the test.

A lambda's parameter hides a local of the function around it inside the lambda only.  Main took the function's
local (`R w;` before `[&](W w) { w.put(q); }`): the call ran R::put, which writes nothing, and a const member
calling it was copied into the thread (`C(*c).get(&c->v)`: CUDA returns the new `v`, the copy the old one, a
wrong port that compiles).
"""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

CODE = """struct R { __device__ void put(float *q) const { } };
struct W { __device__ void put(float *q) const { q[0] = 1.0f; } };
class C { public: float v; __device__ float get(float *q) const; };
__device__ float C::get(float *q) const { OUTER w; auto f = [&](INNER w) { w.put(q); }; f(INNER()); return v; }
__global__ void k(C *c, float *out) { out[1] = c->get(&c->v); }
"""


def _metal(code: str, tmp_path):
    require_tool("clang")
    return translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")


def test_a_lambda_parameter_hides_the_outer_local_inside_the_lambda(tmp_path):
    """`[&](W w) { w.put(q); }` runs W::put, which writes through q (into the device object): no copy."""
    port, text = _metal(CODE.replace("OUTER", "R").replace("INNER", "W"), tmp_path)
    assert "C(*c).get" not in text, text
    assert not port.ok and [d.location.line for d in port.diagnostics if d.severity == "error"] == [5]


def test_a_lambda_parameter_of_a_reading_class_is_copied(tmp_path):
    """Look-alike: `W w;` outside, `[&](R w) { w.put(q); }` runs R::put, which writes nothing: a thread copy
    (main took the outer W and refused the call)."""
    port, text = _metal(CODE.replace("OUTER", "W").replace("INNER", "R"), tmp_path)
    assert port.ok, port.diagnostics
    assert "out[1] = C(*c).get(&c->v);" in text


def test_a_call_outside_the_lambda_keeps_the_outer_local(tmp_path):
    """Look-alike: the lambda's `R w` is not seen after the lambda: `w.put(q)` there runs the outer W::put."""
    code = CODE.replace("OUTER", "W").replace("INNER", "R").replace("f(R());", "f(R()); w.put(q);")
    port, text = _metal(code, tmp_path)
    assert "C(*c).get" not in text, text
    assert not port.ok


HIDDEN = """struct B { __device__ void put(float *q) const { q[0] = 1.0f; } };
struct D : B { __device__ void put(float *q) const { } };
class C { public: float v; __device__ float get(float *q) const; };
__device__ float C::get(float *q) const { D d; CALL; return v; }
__global__ void k(C *c, float *out) { out[1] = c->get(&c->v); }
"""


def test_a_qualified_member_call_runs_the_named_class_s_member(tmp_path):
    """`d.B::put(q)` runs B::put (which writes through q), not D's, which hides it: no copy (main resolved it by
    d's class, D, and copied the object: a wrong port, once the checker read the call as a call)."""
    port, text = _metal(HIDDEN.replace("CALL", "d.B::put(q)"), tmp_path)
    assert port.ok, port.diagnostics
    assert "out[1] = c->get(&c->v);" in text and "C(*c).get" not in text


def test_the_hiding_member_is_run_unqualified(tmp_path):
    """Look-alike: `d.put(q)` runs D::put, which writes nothing: the object is copied."""
    port, text = _metal(HIDDEN.replace("CALL", "d.put(q)"), tmp_path)
    assert port.ok, port.diagnostics
    assert "out[1] = C(*c).get(&c->v);" in text
