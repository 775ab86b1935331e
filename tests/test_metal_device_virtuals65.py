"""Virtual member functions whose objects' dynamic types the code shows (kernelport/backends/metal/device_virtuals.py).

MSL has no virtual functions, so main refused every port with one (KP224 at `virtual`).  Where every object of
the hierarchy in device code is one of the class itself (a local, a `__shared__` or local array element, a
helper's by-value parameter), the call CUDA's dispatch makes is the static type's member: the port drops
`virtual`/`override` and C++ resolves each call as CUDA does.  Anything that could make a dynamic type differ
from the declared one (a pointer or reference to a class of the hierarchy, a member calling a virtual member on
its own object that a derived class overrides, a kernel's by-value argument with the host's vtable pointer) is
refused at that site, KP254.  A pure virtual member is left out (no object of an abstract class exists:
cuda-samples' SharedMemory primary template, tests/realcorpus, keeps its pinned outcome)."""
from __future__ import annotations

import re

import pytest

from conftest import require_tool
from port_support import metal_checker, ported, refusal

CLASSES = """struct Shape {
    float s;
    __device__ virtual float area() const { return s * s; }
    __device__ float side() const { return s; }
};
struct Circle : public Shape {
    __device__ float area() const override { return 3.14f * s * s + Shape::area(); }
};
"""
KERNEL = CLASSES + """__device__ float of(Circle c) { return c.area(); }
__global__ void k(float* out, float r) {
    int i = threadIdx.x;
    Circle c; c.s = r;
    Shape sq; sq.s = r;
    Circle cs[2]; cs[0] = c; cs[1] = c;
    Shape sliced = c;
    out[i] = c.area() + sq.area() + of(c) + cs[i & 1].area() + sliced.area() + c.side();
}
"""


def test_objects_of_the_class_itself_port_as_direct_calls():
    require_tool("clang")
    text = ported(KERNEL, to="metal", dedent=False)[1]
    assert "virtual" not in text and "override" not in text, text
    assert "float area() const { return s * s; }" in text and "return 3.14f * s * s + Shape::area();" in text
    assert metal_checker(text) == [], text
    # main's refusal: the members as written
    wrong = text.replace("float area() const { return s * s; }", "virtual float area() const { return s * s; }")
    assert any("virtual" in d for d in metal_checker(wrong)), metal_checker(wrong)


@pytest.mark.parametrize("body, line, what", [
    ("Circle c; c.s = r; Shape* p = &c; out[threadIdx.x] = p->area();", 10, "a pointer or reference to 'Shape'"),
    ("Circle c; c.s = r; const Shape& p = c; out[threadIdx.x] = p.area();", 10, "a pointer or reference to 'Shape'"),
    ("Circle c; c.s = r; out[threadIdx.x] = c.twice();", 4, "'area' called on a 'Shape' object's own member"),
    ("typedef Shape* SP; Circle c; c.s = r; SP p = &c; out[threadIdx.x] = p->area();", 10,
     "a pointer or reference to 'Shape'"),
    ("Circle c; c.s = r; out[threadIdx.x] = static_cast<Shape&>(c).area();", 10, "a pointer or reference to 'Shape'"),
])
def test_a_dynamic_type_the_code_does_not_show_is_refused_at_its_site(body, line, what):
    code = CLASSES.replace("__device__ float side() const { return s; }",
                           "__device__ float twice() const { return 2.0f * area(); }") + \
        "__global__ void k(float* out, float r) {\n" + body + "\n}\n"
    errors = refusal(code, to="metal", dedent=False, expect="KP254")
    assert any(e.code == "KP254" and e.line == line and what in e.message for e in errors), \
        [e.format() for e in errors]


def test_a_kernel_argument_and_a_helper_reference_are_refused_a_pure_member_left_out():
    arg = CLASSES + "__global__ void k(float* out, Circle c) { out[threadIdx.x] = c.area(); }\n"
    assert any(e.code == "KP254" and e.line == 9 and "kernel's argument" in e.message
               for e in refusal(arg, to="metal", dedent=False, expect="KP254"))
    ref = CLASSES + ("__device__ float get(const Shape& x) { return x.area(); }\n"
                     "__global__ void k(float* out, float r) { Circle c; c.s = r; out[threadIdx.x] = get(c); }\n")
    assert any(e.line == 9 for e in refusal(ref, to="metal", dedent=False, expect="KP254"))
    pure = KERNEL.replace("virtual float area() const { return s * s; }", "virtual float area() const = 0;") \
        .replace(" + Shape::area()", "").replace("    Shape sq; sq.s = r;\n", "").replace(" + sq.area()", "") \
        .replace("    Shape sliced = c;\n", "").replace(" + sliced.area()", "")
    require_tool("clang")
    text = ported(pure, to="metal", dedent=False)[1]  # an abstract base's pure member: left out (no object of it)
    assert "virtual float area() const = 0; a pure virtual member: left out" in text, text
    assert "virtual" not in re.sub(r"/\*.*?\*/|//[^\n]*", "", text) and metal_checker(text) == [], text
    # look-alike: a member of the abstract base calling the pure member through `this` stays refused
    assert any(e.code == "KP254" and e.line == 4 for e in refusal(
        pure.replace("__device__ float side() const { return s; }", "__device__ float side() const { return area(); }"),
        to="metal", dedent=False, expect="KP254"))


def test_a_member_calling_a_virtual_no_derived_class_overrides_ports():
    require_tool("clang")
    code = KERNEL.replace("__device__ float side() const { return s; }",
                          "__device__ virtual float edge() const { return s; }\n"
                          "    __device__ float twice() const { return 2.0f * edge(); }").replace(
        "c.side()", "c.twice()")
    text = ported(code, to="metal", dedent=False)[1]
    assert "virtual" not in text and metal_checker(text) == [], text
