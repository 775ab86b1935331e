"""Sites where a virtual call's dynamic type differs from the static one without a pointer or reference to a
class of the hierarchy being written (review of stop 65's kernelport/backends/metal/device_virtuals.py).

Main ported each of these as a direct call of the static type's member, which compiles and computes something
else: a base member handing on its own object (`auto self = this; self->area()`, `h(*this)` with a template
taking `const T&`, `(*this)(x)`, `*this += x`) on a derived object calls the derived override in CUDA; an
explicit template argument (`g<Shape>(&c)`) or a template deriving from its parameter (`Mix<Shape>`) forms the
pointer or the override inside the template; a typedef or `using` of a class (`S& p = c;`) and `decltype(sh)& p`
name the reference's type without the class's name.  Each is refused at its site (KP254); copies of the static
type (`return *this;`, `Shape g = *this;`, a typedef'd by-value local) and member reads through `this` still port."""
from __future__ import annotations

import pytest

from conftest import require_tool
from port_support import metal_checker, ported, refusal

BASE = """struct Shape {
    float s;
    __device__ virtual float area() const { return s * s; }
    __device__ float twice() const { %s }
};
struct Circle : public Shape {
    __device__ float area() const override { return 3.14f * s * s; }
};
"""
KERNEL = "__global__ void k(float* out, float r) {\n%s\n}\n"
OVERRIDE_CALL = "Circle c; c.s = r; out[threadIdx.x] = c.twice();"


@pytest.mark.parametrize("code, line, what", [
    (BASE % "auto self = this; return 2.0f * self->area();" + KERNEL % OVERRIDE_CALL, 4, "'this' of a 'Shape'"),
    (BASE % "auto& me = *this; return 2.0f * me.area();" + KERNEL % OVERRIDE_CALL, 4, "'this' of a 'Shape'"),
    (BASE % "return 2.0f * this[0].area();" + KERNEL % OVERRIDE_CALL, 4, "'this' of a 'Shape'"),
    ("template<class T> __device__ float h(const T& t) { return t.area(); }\n" +
     BASE % "return 2.0f * h(*this);" + KERNEL % OVERRIDE_CALL, 5, "'this' of a 'Shape'"),
    (BASE % "return s;" + "template<class T> __device__ float g(const T* p) { return p->area(); }\n" +
     KERNEL % "Circle c; c.s = r; out[threadIdx.x] = g<Shape>(&c);", 11, "'Shape' as a template argument"),
    (BASE % "return 2.0f * area();".replace("2.0f * area()", "s") +
     "template<class B> struct Mix : B { __device__ float area() const { return 7.0f; } };\n" +
     KERNEL % "Mix<Shape> m; m.s = r; out[threadIdx.x] = m.twice();", 11, "'Shape' as a template argument"),
    (BASE % "return s;" + "typedef Shape S;\n" + KERNEL % "Circle c; c.s = r; S& p = c; out[threadIdx.x] = p.area();",
     11, "a pointer or reference to 'S'"),
    (BASE % "return s;" + "using S = Shape;\n" + KERNEL % "Circle c; c.s = r; S& p = c; out[threadIdx.x] = p.area();",
     11, "a pointer or reference to 'S'"),
    (BASE % "return s;" + KERNEL % "Circle c; c.s = r; Shape sh; decltype(sh)& p = c; out[threadIdx.x] = p.area();",
     10, "declared with decltype"),
])
def test_a_dynamic_type_hidden_from_the_written_types_is_refused(code, line, what):
    errors = refusal(code, to="metal", dedent=False, expect="KP254")
    assert any(e.code == "KP254" and e.line == line and what in e.message for e in errors), \
        [e.format() for e in errors]


@pytest.mark.parametrize("head, body", [
    ("struct Shape { float s; __device__ virtual float operator()(float x) const { return s * x; }\n"
     "    __device__ float twice() const { return (*this)(2.0f); } };\n"
     "struct Circle : Shape { __device__ float operator()(float x) const override { return 3 * s * x; } };\n",
     "Circle c; c.s = r; out[threadIdx.x] = c.twice();"),
    ("struct Shape { float s; __device__ virtual void operator+=(float x) { s += x; }\n"
     "    __device__ void twice() { *this += 2.0f; } };\n"
     "struct Circle : Shape { __device__ void operator+=(float x) override { s += 3 * x; } };\n",
     "Circle c; c.s = r; c.twice(); out[threadIdx.x] = c.s;"),
])
def test_an_overridden_operator_called_on_this_is_refused(head, body):
    errors = refusal(head + KERNEL % body, to="metal", dedent=False, expect="KP254")
    assert any(e.code == "KP254" and e.line == 2 for e in errors), [e.format() for e in errors]


def test_copies_of_the_static_type_and_member_reads_through_this_still_port():
    require_tool("clang")
    code = ("struct Shape { float s; __device__ virtual float area() const { return s; }\n"
            "    __device__ Shape self() const { return *this; }\n"
            "    __device__ float get() const { Shape g = *this; return this->s + (*this).s + g.s; } };\n"
            "struct Circle : Shape { __device__ float area() const override { return 3 * s; } };\n"
            "typedef Shape S;\n" +
            KERNEL % "Circle c; c.s = r; S p = c; out[threadIdx.x] = c.self().area() + c.get() + c.area() + p.area();")
    text = ported(code, to="metal", dedent=False)[1]
    assert "virtual" not in text and metal_checker(text) == [], text


@pytest.mark.parametrize("kernel", [
    "__global__ void k(float* out, H h) {\n    Circle c = h.c; out[threadIdx.x] = c.area() + h.k;\n}\n",
    "__global__ void k(float* out, const H* hs) {\n    Circle c = hs[threadIdx.x].c; out[threadIdx.x] = c.area();\n}\n",
    "__global__ void k(float* out, G g) {\n    Circle c = g.h.c; out[threadIdx.x] = c.area();\n}\n",  # G holds an H
])
def test_a_kernel_argument_of_a_class_holding_an_object_of_the_hierarchy_is_refused(kernel):
    # the host's H holds the host's Circle, vtable pointer first: main's port read `h.c.s` and `h.k` elsewhere
    code = BASE % "return s;" + "struct H { Circle c; float k; };\nstruct G { float w; H h; };\n" + kernel
    errors = refusal(code, to="metal", dedent=False, expect="KP254")
    assert any(e.code == "KP254" and e.line == 11 and "holds a 'Circle'" in e.message for e in errors), \
        [e.format() for e in errors]


def test_a_local_of_a_class_holding_an_object_of_the_hierarchy_still_ports():
    require_tool("clang")
    code = BASE % "return s;" + "struct H { Circle c; float k; };\n" + KERNEL % \
        "H h; h.c.s = r; h.k = r; Circle c = h.c; out[threadIdx.x] = c.area() + h.k;"
    text = ported(code, to="metal", dedent=False)[1]
    assert "virtual" not in text and metal_checker(text) == [], text
