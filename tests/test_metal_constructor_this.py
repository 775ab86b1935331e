"""A constructor (or destructor) that calls a member function of its own object: valid Metal, which the
checker refused (heldout102 LBMProject laser_source.h: `LaserSource(...) : power(P), ... {
updateDerivedParameters(); }`, KP224 "cannot initialize object parameter of type 'thread LaserSource' with
an expression of type '__generic LaserSource'").  The checker writes `thread` after every member function's
parameters but leaves constructors and destructors (they have no object to qualify), so C++ for OpenCL gives
their `this` the generic space; MSL gives it the thread space.  The look-alikes: a device or threadgroup
object calling the same `thread` member is still refused.  The snippets are written for the test."""
from __future__ import annotations

from pathlib import Path

from kernelport.backends.metal.check import check_metal_source
from kernelport.backends.metal.check.thread_this import is_thread_member_binding

from conftest import require_tool
from test_metal_port_causes46 import _port, _write

CONSTRUCTOR_CALLS = {"k.cu": """
    class Beam {
    public:
        float power, radius, factor;
        __host__ __device__ Beam(float p = 100.0f, float r = 5e-5f) : power(p), radius(r) { update(); }
        __host__ __device__ void update() { factor = 2.0f * power / (radius * radius); }
        __device__ float at(float x) const { return factor * x; }
    };
    struct Wide : Beam {
        __host__ __device__ Wide(float p) : Beam(p, 1e-4f) { update(); this->update(); }
        __host__ __device__ ~Wide() { update(); }
    };
    __global__ void heat(const Beam beam, float* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        Wide w(3.0f);
        if (i < n) out[i] = beam.at((float)i) + w.factor;
    }
"""}


def test_a_constructor_calling_its_own_member_passes_the_checker(tmp_path: Path):
    _write(tmp_path, CONSTRUCTOR_CALLS)
    text = _port(tmp_path / "k.cu")
    assert "update();" in text and "kernel void heat(" in text


DEVICE_OBJECT = """
#include <metal_stdlib>
using namespace metal;
struct L {
    float p, b;
    L(float q) : p(q) { upd(); }
    void upd() { b = 2.0f * p; }
};
kernel void k(device L* q [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup L* t = (threadgroup L*)nullptr;
    q[i].upd();
    if (i == 1000000u) t->upd();
}
struct M {
    float b;
    M() { upd(); }
    void upd() { b = 1.0f; }
    void upd() device { b = 1.0f; }
};
kernel void m(device M* q [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    threadgroup M* t = (threadgroup M*)nullptr;
    M own;
    q[i].upd();
    if (i == 1000000u) t->upd();
    q[i].b += own.b;
}
"""


def test_a_device_or_threadgroup_object_calling_a_thread_member_is_still_refused():
    require_tool("clang")
    diags = [d for d in check_metal_source(DEVICE_OBJECT.lstrip(), "t.metal") if d.severity == "error"]
    assert [(d.line, "device L" in d.message, "threadgroup L" in d.message) for d in diags] == \
        [(10, True, False), (11, False, True), (23, False, False)], [str(d) for d in diags]


def test_only_a_generic_object_is_let_through():
    let = "cannot initialize object parameter of type '__private L' with an expression of type '__generic L'"
    assert is_thread_member_binding(let, [])
    assert is_thread_member_binding(let.replace("'__generic L'", "'const __generic Wide'")
                                    .replace("'__private L'", "'const __private L'"), [])
    for other in ("__global", "__local", "__constant"):
        assert not is_thread_member_binding(let.replace("__generic", other), [])
    assert not is_thread_member_binding(let.replace("__private", "__global"), [])
    # a member with a `device` twin: clang lists both candidates, each failing on `this`
    call = "no matching member function for call to 'upd'"
    this = ("candidate function not viable: 'this' object is in address space '{}', but method expects object "
            "in address space '{}'")
    assert is_thread_member_binding(call, [this.format("__generic", "__private"), this.format("__generic", "__global")])
    assert not is_thread_member_binding(call, [this.format("__local", "__private"), this.format("__local", "__global")])
    base = "candidate function not viable: no known conversion from '{} Wide' to '{} Beam' for object argument"
    assert is_thread_member_binding(call, [base.format("__generic", "__private"), base.format("__generic", "__global")])
    assert not is_thread_member_binding(call, [base.format("__global", "__private"), base.format("__global", "__global")])
    assert not is_thread_member_binding(call, [this.format("__generic", "__private"),
                                               "candidate function not viable: requires 2 arguments, but 1 was provided"])
