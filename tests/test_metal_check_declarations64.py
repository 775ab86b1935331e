"""The Metal checker models default arguments, declarations and out-of-class members' parameters as `thread`
(check/thread_params.py, thread_declarations.py, thread_constructors.py; issue 11, Metal part; stop 63's note:
"constructor parameters with default arguments, ... and out-of-class ordinary members' parameters unchecked").

MSL's unqualified reference parameter is `thread`: Metal rejects device memory given to one.  Main's checker
left C++ for OpenCL's generic parameter (which takes every space) on a `const T&` with a default argument (of
a function or a constructor, declared in the class or not), on a prototype (a second, generic overload the
call then bound) and on a member defined out of its class, so each of these passed.  Look-alikes, thread
values and temporaries given to the same parameters, the defaults themselves, and a variable initialised with
a product inside a body (`W q(w * c)`, no declaration) still pass.
"""
from __future__ import annotations

import pytest

from conftest import require_tool

HEAD = "#include <metal_stdlib>\nusing namespace metal;\n"
KERNEL = "kernel void k(device float *b [[buffer(0)]]) { float w = 2; float c = b[1];\n  "
ENDK = "\n}\n"

FUNCTION_DEFAULT = "float f(const float &x, const float &s = 1.0f) { return x * s; }\n"
CTOR_DEFAULT_IN = "struct V { float a, b; V(const float &x, const float &y = 0.0f) : a(x), b(y) {} };\n"
CTOR_DEFAULT_OUT = ("struct V { float a, b; V(const float &x, const float &y = 0.0f); };\n"
                    "V::V(const float &x, const float &y) : a(x), b(y) {}\n")
MEMBER_OUT = "struct V { float a; float get(const float &s) const; };\nfloat V::get(const float &s) const { return a * s; }\n"
PROTOTYPE = "float g(const float &x);\n"
PROTOTYPE_DEF = "float g(const float &x) { return x + 1; }\n"


def _errors(decls: str, body: str, after: str = "") -> list[tuple[int, str]]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    text = HEAD + decls + KERNEL + body + ENDK + after
    return [(d.line, d.message) for d in check_metal_source(text, "t.metal") if d.severity == "error"]


def _kernel_line(decls: str) -> int:
    return (HEAD + decls).count("\n") + 2


@pytest.mark.parametrize("decls, body, after", [
    (FUNCTION_DEFAULT, "b[0] = f(w, b[1]);", ""),
    (CTOR_DEFAULT_IN, "V v(w, b[1]); b[0] = v.a;", ""),
    (CTOR_DEFAULT_OUT, "V v(w, b[1]); b[0] = v.a;", ""),
    (MEMBER_OUT, "V v; v.a = 1; b[0] = v.get(b[1]);", ""),
    (PROTOTYPE, "b[0] = g(b[1]);", PROTOTYPE_DEF),
    (PROTOTYPE, "b[0] = g(b[1]);", ""),
], ids=["function-default", "ctor-default-in-class", "ctor-default-out-of-class", "member-out-of-class",
        "prototype", "declaration-only"])
def test_device_memory_given_to_such_a_thread_reference_is_rejected(decls, body, after):
    errors = _errors(decls, body, after)
    assert [line for line, _ in errors] == [_kernel_line(decls)], errors


@pytest.mark.parametrize("decls, body, after", [
    (FUNCTION_DEFAULT, "b[0] = f(w) + f(w, 2.0f) + f(c, w);", ""),
    (CTOR_DEFAULT_IN, "V v(w); V u(w, c); V t(1.0f); b[0] = v.a + u.b + t.a;", ""),
    (CTOR_DEFAULT_OUT, "V v(w); V u(w, c); b[0] = v.a + u.b;", ""),
    (MEMBER_OUT, "V v; v.a = 1; b[0] = v.get(w) + v.get(2.0f) + v.get(c);", ""),
    (PROTOTYPE, "b[0] = g(c) + g(3.0f);", PROTOTYPE_DEF),
    ("struct W { float a; W(float x) : a(x) {} };\n"
     "struct U { float s; float m(const float &x, const U &o = U{1.0f}) const { return x + o.s; } };\n",
     "W q(w * c); W r(w * 2); U u{c}; b[0] = q.a + r.a + u.m(w) + u.m(2.0f, u);", ""),
], ids=["function-default", "ctor-default-in-class", "ctor-default-out-of-class", "member-out-of-class",
        "prototype", "bodies-and-class-defaults"])
def test_thread_values_temporaries_and_defaults_pass(decls, body, after):
    assert _errors(decls, body, after) == []


def test_a_default_on_a_device_reference_parameter_is_left_to_clang():
    """A parameter naming its space (`const device float &x = ...`) is not written: no wrap, no `thread`."""
    errors = _errors("constant float one = 1.0f;\nfloat h(const constant float &x = one) { return x; }\n",
                     "b[0] = h();")
    assert errors == [], errors


LOCALS = "struct S { float v[4]; float *slot(int i); };\n"


@pytest.mark.parametrize("body", ["float *z = b; *z = 2;", "float &r = b[0]; r = 1;",
                                  "for (float *p = b; p != b + 2; ++p) *p = 0;", "const float *q = b + 1; b[0] = *q;",
                                  "const float &t = b[1]; b[0] = t;"])
def test_an_unqualified_local_pointer_or_reference_to_device_memory_is_rejected(body):
    """check/thread_locals.py: Metal's unqualified local is `thread` (the checker's was generic)."""
    errors = _errors("", body)
    assert errors and all(line == _kernel_line("") for line, _ in errors), errors


@pytest.mark.parametrize("body", [
    "float t[4]; float *p = t; p[1] = c; float &r = w; r += 1; b[0] = p[1] + w;",
    "device float *z = b; auto *y = b; auto &x = b[1]; *z = *y + x;",
    "S s; float *e = &s.v[1]; *e = c; b[0] = s.v[1];",
    "float a2 = w * c; b[0] = a2;",
    "const float &u = b[0] * 2.0f; const float &v = w; b[1] = u + v;"])
def test_thread_locals_spaced_locals_and_deduced_ones_pass(body):
    assert _errors(LOCALS, body) == []


def test_a_template_parameter_local_is_left_to_its_deduced_type():
    decls = "template <class T> void put(T *p) { T *q = p; *q = 1; }\n"
    assert _errors(decls, "put(b);") == []
