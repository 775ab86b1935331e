"""The Metal checker models constructors as calls, and goes on past a converted temporary (issue 11, Metal
part; snippets written for the test).

MSL makes a constructor's unqualified reference parameter a `thread` one: `V(const V &a, const float &s)`
given `out[0]` (device) is rejected by Metal however the construction is written (`V z(w, out[0])`,
`V{..}`, `V z = {..}`, `return {..}`, a user-written copy constructor given a device object).  The checker
wrote `thread` on functions only (check/thread_constructors.py now on constructors too) and let all of
these pass.  A temporary converted for a `const float&` (`two(n, t)`, n an int) stopped the check of the
call and hid the call around it (`two(two(n, t), out[0])` passed): the wrap now names the type.
"""
from __future__ import annotations

import pytest

from conftest import require_tool

HEAD = ("#include <metal_stdlib>\nusing namespace metal;\n"
        "struct V { float x, y;\n"
        "  V() : x(0), y(0) {}\n"
        "  V(const V &a, const float &s) : x(a.x * s), y(a.y * s) {}\n"
        "  V(const float &a, const float &b, const float &c) { x = a + c; y = b; }\n"
        "};\n"
        "struct C { float x; C(float v) : x(v) {} C(const C &o) : x(o.x) {} };\n"
        "struct P { float x; P(const float *p); };\n"
        "P::P(const float *p) : x(*p) {}\n"
        "struct A { float x, y; };\n"
        "template <class T> struct W { T x; W(const T &a, const float &s) : x(a * s) {} };\n"
        "struct D { float x; D(const float &a, const float &s = 1.0f); };\n"
        "D::D(const float &a, const float &s) : x(a * s) {}\n"
        "float two(const float &a, const float &b) { return a + b; }\n"
        "V mk(thread float *o) { return {V(), o[0]}; }\n"
        "kernel void k(device float *out [[buffer(0)]], device V *vv [[buffer(1)]], device C *cc [[buffer(2)]],\n"
        "              device A *aa [[buffer(3)]], uint i [[thread_position_in_grid]]) {\n"
        "  threadgroup float tg[4];\n"
        "  float t = 1.0f; int n = 2; V w;\n")
LINE = HEAD.count("\n") + 1


def _errors(text: str) -> list[tuple[int, int, str]]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    return [(d.line, d.column, d.message) for d in check_metal_source(text, "t.metal") if d.severity == "error"]


def _body(stmt: str) -> list[tuple[int, int, str]]:
    return _errors(HEAD + "  " + stmt + "\n}\n")


@pytest.mark.parametrize("stmt, column", [
    ("V z(w, out[0]); out[1] = z.x;", 5),          # a declaration's arguments
    ("V z(w, tg[0]); out[1] = z.x;", 5),           # threadgroup memory
    ("V z = V(w, out[0]); out[1] = z.x;", 9),       # a functional cast
    ("V z{w, out[0]}; out[1] = z.x;", 5),           # braced
    ("V z = {w, out[0]}; out[1] = z.x;", 5),        # copy-list-initialisation
    ("out[1] = V{w, out[0]}.x;", 12),
    ("out[1] = V(1.0f, 2.0f, out[0]).x;", 12),      # temporaries first
    ("out[1] = V(n, t, out[0]).x;", 12),            # a converted int first
    ("C c = cc[0]; out[0] = c.x;", 5),              # a user-written copy constructor given a device object
    ("C c(cc[0]); out[0] = c.x;", 5),
    ("P p(out); out[0] = p.x;", 5),                 # declared in the class, defined out of it (pointer)
    ("W<float> q(t, out[0]); out[0] = q.x;", 12),   # a class template's constructor
    ("D d(out[0]); out[0] = d.x;", 5),              # out of class, a default argument after it
])
def test_a_device_or_threadgroup_argument_of_a_constructor_is_an_error(stmt: str, column: int):
    errs = _body(stmt)
    assert [(line, col) for line, col, _ in errs] == [(LINE, column)], errs
    assert "constructor" in errs[0][2] or "conversion" in errs[0][2], errs


def test_thread_arguments_temporaries_and_implicit_copies_pass():
    body = ("  V a(w, t); V b = V(w, 2.0f * t); V c{w, t}; V d = {w, t + 1.0f};\n"
            "  out[1] = V(1.0f, t, 3.0f).x + V(n, t, 3.0f).x + a.x + b.x + c.x + d.x;\n"
            "  C e(out[0]); C f = out[1]; V g = vv[0]; A h = aa[0]; A j = {out[0], out[1]};\n"  # values, implicit copies
            "  P p(&t); W<float> q(t, 2.0f); D r(t); t += mk(&t).x;\n"
            "  out[2] = e.x + f.x + g.x + h.x + j.x + p.x + q.x + r.x;\n")
    assert _body(body) == []


def test_a_returned_braced_init_of_device_memory_is_an_error():
    text = HEAD.replace("V mk(thread float *o)", "V mk(device float *o)") + "  out[0] = mk(out).x;\n}\n"
    errs = _errors(text)
    assert [(line, col) for line, col, _ in errs] == [(text.splitlines().index(
        "V mk(device float *o) { return {V(), o[0]}; }") + 1, 32)], errs


@pytest.mark.parametrize("stmt, column", [
    ("out[1] = two(two(n, t), out[0]);", 12),      # main: the inner conversion hid the outer call
    ("out[1] = two(V(w, n).x, tg[0]);", 12),
])
def test_a_converted_temporary_no_longer_stops_the_check(stmt: str, column: int):
    errs = _body(stmt)
    assert [(line, col) for line, col, _ in errs] == [(LINE, column)], errs


def test_converted_temporaries_with_thread_arguments_pass():
    assert _body("  out[1] = two(two(n, t), t) + two(n, 1) + V(w, n).x;\n") == []
