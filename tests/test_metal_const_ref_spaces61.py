"""A helper's `const T&` parameter is a `thread` reference in MSL: Metal rejects `sum(in[i])` for
`float sum(const S &s)` with `in` a device buffer, and the same with threadgroup memory, an operator's
operands, a member function's parameter; it binds a temporary (`twice(1.0f)`) to it.  kernelport's
checker left const references generic (C++ for OpenCL's space that accepts all), so such ports passed;
it now writes `thread` on them too and lets through only clang's complaint about a temporary
(check/thread_temporaries.py).  Snippets written for the test (issue 11, Metal part)."""
from __future__ import annotations

import pytest

from conftest import require_tool

HEAD = ("#include <metal_stdlib>\nusing namespace metal;\n"
        "struct S { float a; float b; };\n"
        "struct V { float x, y;\n"
        "  float dot(const V &o) const { return x * o.x + y * o.y; }\n"
        "  float self() const { return dot(*this) + twice2(x); }\n"
        "  float twice2(const float &q) const { return q; } };\n"
        "V operator+(const V &a, const V &b) { V r; r.x = a.x + b.x; r.y = a.y + b.y; return r; }\n"
        "float3 scale(const float3 &v, const float &s) { return v * s; }\n"
        "float twice(const float &x) { return 2.0f * x; }\n"
        "float sum(const S &s) { return s.a + s.b; }\n"
        "float twod(const float &x, const float &d = 1.0f) { return x + d; }\n"
        "float mn(float x, float y) { return fmin(x, y); }\n"
        "float3 mn(const float3 &a, const float3 &b) { return fmin(a, b); }\n"
        "S mk() { S s; s.a = 1; s.b = 2; return s; }\n"
        "kernel void k(const device S *in [[buffer(0)]], device float *out [[buffer(1)]],\n"
        "              device V *vv [[buffer(2)]], device float3 *p [[buffer(3)]], uint i [[thread_position_in_grid]]) {\n"
        "  threadgroup float tg[4];\n"
        "  threadgroup V tv[4];\n"
        "  float t = 1.0f; S loc = in[0]; V w; w.x = 1; w.y = 2; int n = 3; float3 q = p[0];\n")
LINE = HEAD.count("\n") + 1


def _errors(body: str) -> list[tuple[int, str]]:
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    text = HEAD + body + "}\n"
    return [(d.line, d.message) for d in check_metal_source(text, "t.metal") if d.severity == "error"]


@pytest.mark.parametrize("call, space", [
    ("out[0] = sum(in[i]);", "device"),
    ("out[0] = twice(tg[0]);", "threadgroup"),
    ("out[0] = twice(out[1]);", "device"),
    ("V y = w + vv[0]; out[0] = y.x;", "device"),
    ("V y = tv[0] + w; out[0] = y.x;", "threadgroup"),
    ("out[0] = w.dot(vv[1]);", "device"),
    ("q = scale(p[1], t);", "device"),
    ("q = mn(q, p[0]);", "device"),
])
def test_device_or_threadgroup_memory_given_a_const_reference_is_an_error(call: str, space: str):
    errs = _errors("  " + call + "\n")
    assert [line for line, _ in errs] == [LINE], errs
    assert space in errs[0][1], errs


def test_temporaries_thread_locals_and_values_stay_quiet():
    body = ("  out[0] = twice(1.0f) + twice(t) + twice(t + 1.0f) + twice(n);\n"
            "  out[1] = sum(loc) + sum(mk()) + sum(S{1, 2}) + sum(S(in[i]));\n"
            "  V z = (w + w) + w; out[2] = z.dot(w + w) + w.self() + w.dot(w);\n"
            "  q = scale(q, 2.0f) + scale(q * 2.0f, t);\n"
            "  out[3] = twod(t) + twod(t, 2.0f) + twice(float(out[0]));\n"
            "  q = mn(q, mn(q, q * 2.0f)); out[4] = mn(t, 2.0f);\n")
    assert _errors(body) == []


def test_the_written_word_leaves_columns_as_the_files():
    errs = _errors("  out[0] = sum(in[i]);\n")
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    d = [d for d in check_metal_source(HEAD + "  out[0] = sum(in[i]);\n}\n", "t.metal") if d.severity == "error"]
    assert (d[0].line, d[0].column) == (LINE, 12), errs


def test_a_members_operands_in_a_method_stay_quiet_and_device_ones_do_not():
    # ScalarField.cu's `bounds[1] - bounds[0]` in a const method: `this` is thread in MSL (generic in
    # the checker's model), its members bind the operator's `const thread Vec3&`
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    text = ("#include <metal_stdlib>\nusing namespace metal;\n"
            "struct Vec3 { float x, y, z;\n"
            "  Vec3 operator-(const Vec3 &v) const { Vec3 r; r.x = x - v.x; r.y = y - v.y; r.z = z - v.z; return r; }\n"
            "  Vec3 operator-() const { Vec3 r; r.x = -x; r.y = -y; r.z = -z; return r; } };\n"
            "struct Box { Vec3 bounds[2];\n"
            "  Vec3 size() const { return bounds[1] - bounds[0]; } };\n"
            "kernel void k(device Vec3 *v [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
            "  Box b; b.bounds[0] = v[0]; b.bounds[1] = v[1];\n"
            "  Vec3 s = b.size(); Vec3 t = s - (s - s);\n"
            "  v[2] = s - v[1];\n"
            "}\n")
    errs = [(d.line, d.message) for d in check_metal_source(text, "t.metal") if d.severity == "error"]
    assert [line for line, _ in errs] == [11], errs
