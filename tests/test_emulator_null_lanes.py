"""A pointer NULL in some lanes only (emulator.nulls): `p = 0;` (NULL, nullptr) in one branch and a buffer's
address in the other, merged after the divergence.  On main lanes.merge stopped with a Python traceback
("'Pointer' object has no attribute 'dtype'") where the null came second, and where it came first (or from
a ternary) every lane took the buffer's address: `p == NULL` was false in the null lanes and `*p` read
x[0] there, silently.  Now a null lane is a value: compared, tested and merged per lane, and a load or
store through it is a located fault naming the thread."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError, KernelFault

X = np.arange(8, dtype=np.float32) + 1
Y = 100 + np.arange(8, dtype=np.float32)
T = np.arange(8)


def _run(body, wave=32):
    src = ("__global__ void k(const float* x, const float* y, float* out) {\n"
           "    int t = threadIdx.x;\n" + body + "\n}")
    return run_kernel(src, "k", args=dict(x=X, y=Y, out=np.zeros(8, np.float32)), grid=(1,), block=(8,),
                      wave=wave).outputs["out"]


FORMS = {  # (body with NUL for the null spelling, the threads whose pointer is null)
    "null second": ("const float* p = x + t;\n    if (t & 1) p = NUL;", T & 1 == 1),
    "null first": ("const float* p = NUL;\n    if (t % 3 == 0) p = &x[t];", T % 3 != 0),
    "if else": ("const float* p;\n    if (t < 3) p = NUL; else p = x + t;", T < 3),
    "ternary": ("const float* p = (t < 5) ? x + t : NUL;", T >= 5),
    "ternary null first": ("const float* p = (t < 5) ? NUL : x + t;", T < 5),
    "loop exit": ("const float* p = x + t;\n    for (int j = 0; j < 4; ++j) { if (j == t) { p = NUL; break; } }",
                  T < 4),
}


@pytest.mark.parametrize("spelling", ["0", "NULL", "nullptr"])
@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("test", ["p == NUL ? -1.0f : *p", "p != NUL ? p[0] : -1.0f", "!p ? -1.0f : *p",
                                  "p ? *p : -1.0f"])
def test_a_pointer_null_in_some_lanes_is_compared_per_lane(form, spelling, test):
    body, null = FORMS[form]
    got = _run((body + f"\n    out[t] = {test};").replace("NUL", spelling), wave=64 if spelling == "NULL" else 32)
    assert list(got) == list(np.where(null, -1.0, X))


@pytest.mark.parametrize("access, what", [("out[t] = *p;", "read"), ("out[t] = p[0] + 1.0f;", "read"),
                                          ("*q = 2.0f;", "write"), ("atomicAdd(q, 1.0f);", "atomic access")])
def test_a_dereference_of_a_lane_s_null_is_a_located_fault(access, what):
    body = ("const float* p = x + t;\n    float* q = out + t;\n    if (t == 6) { p = 0; q = NULL; }\n    " + access)
    with pytest.raises(KernelFault, match=rf"<kernel>:6:\d+: {what} through a null pointer .*thread \(6, 0, 0\)"):
        _run(body)


def test_a_null_lane_guarded_is_never_dereferenced():
    got = _run("float* q = out + t;\n    if (t == 6) q = 0;\n    if (q) *q = x[t] * 2.0f;")
    assert list(got) == list(np.where(T == 6, 0.0, X * 2))


def test_a_pointer_null_in_the_other_lanes_may_take_another_buffer():
    # x's pointer is null in every lane; the branch aims some lanes at y: one buffer, null elsewhere
    got = _run("const float* p = (t < 0) ? x : 0;\n    if (t < 4) p = y + t;\n    out[t] = p ? *p : -5.0f;")
    assert list(got) == list(np.where(T < 4, Y, -5.0))


# Look-alikes that must not change.
def test_a_pointer_moved_in_some_lanes_keeps_its_buffer():
    got = _run("const float* p = x + t;\n    if (t & 1) p = x;\n    out[t] = p != 0 ? *p : -1.0f;")
    assert list(got) == list(np.where(T & 1, X[0], X))


def test_a_pointer_null_in_every_lane_stays_false():
    got = _run("const float* p = 0;\n    out[t] = p ? *p : -7.0f;")
    assert list(got) == [-7.0] * 8


def test_two_live_buffers_under_divergence_stay_refused():
    with pytest.raises(EmulatorError, match="different buffers"):
        _run("const float* p = x + t;\n    if (t < 2) p = y + t;\n    out[t] = *p;")


def test_an_integer_that_is_not_null_in_some_lanes_is_refused_not_a_traceback():
    with pytest.raises(EmulatorError, match=r"<kernel>:4:\d+: an integer converted to a pointer"):
        _run("const float* p = x + t;\n    if (t & 1) p = (const float*)16;\n    out[t] = *p;")


@pytest.mark.parametrize("schedule", ["block", "warp", "thread"])
def test_null_lanes_through_a_call_a_struct_member_and_the_heap(schedule):
    src = """struct Node { float v; int k; };
__device__ float get(const float* p) { return p ? *p : -1.0f; }
__global__ void k(const Node* nodes, const float* x, float* out, float* got) {
    int t = threadIdx.x;
    const Node* n = (t & 1) ? &nodes[t] : NULL;
    out[t] = n ? n->v : -1.0f;
    got[t] = get((t % 3) ? x + t : nullptr);
    float* b = NULL;
    if (t < 4) b = (float*)malloc(16);
    if (b) { b[0] = 2.0f * x[t]; got[t] += b[0]; }
    free(b);
    if (t == 2 && NODE) out[t] = n->v;
}"""
    nodes = np.zeros(8, dtype=[("v", "f4"), ("k", "i4")])
    nodes["v"] = 10 + T
    args = lambda: dict(nodes=nodes, x=X, out=np.zeros(8, np.float32), got=np.zeros(8, np.float32))  # noqa: E731
    r = run_kernel(src.replace("NODE", "0"), "k", args=args(), grid=(1,), block=(8,), schedule=schedule).outputs
    assert list(r["out"]) == list(np.where(T & 1, 10 + T, -1.0))
    assert list(r["got"]) == list(np.where(T % 3 != 0, X, -1.0) + np.where(T < 4, 2 * X, 0.0))
    # (one thread at a time, thread 2's pointer is NULL in every lane of its group: the integer 0)
    fault = r"<kernel>:12:\d+: (read through|member -> of) a null pointer .*thread \(2, 0, 0\)"
    with pytest.raises(KernelFault, match=fault):
        run_kernel(src.replace("NODE", "1"), "k", args=args(), grid=(1,), block=(8,), schedule=schedule)


@pytest.mark.parametrize("body, what", [("const float* p = 0; out[t] = *p;", "dereference"),
                                        ("const float* p = NULL; out[t] = p[1];", "subscript"),
                                        ("float* q = nullptr; *q = 1.0f;", "dereference"),
                                        ("float* q = 0; q[t] = 1.0f;", "subscript"),
                                        ("float* q = NULL; atomicAdd(q, 1.0f);", "atomic access")])
def test_a_pointer_null_in_every_lane_dereferenced_is_a_located_fault(body, what):
    # on main: an EmulatorError "dereference of a non-pointer" (the emulator's limit, not the kernel's fault)
    with pytest.raises(KernelFault, match=rf"<kernel>:3:\d+: {what} of a null pointer .*thread \(0, 0, 0\)"):
        _run(body)


def test_a_lane_s_null_as_an_integer_address_and_back():
    # (uintptr)p is 0 where p is NULL; (T *)n maps n = 0 to NULL and the other lanes into their buffer (on main
    # a located "not the address of one buffer" error for the mix)
    got = _run("unsigned long long u = (t & 1) ? (unsigned long long)(x + t) : 0;\n"
               "    const float* p = (const float*)u;\n"
               "    const float* q = (t < 3) ? 0 : y + t;\n"
               "    out[t] = (p ? *p : -1.0f) + ((unsigned long long)q == 0ull ? 1000.0f : 0.0f);")
    assert list(got) == list(np.where(T & 1, X, -1.0) + np.where(T < 3, 1000.0, 0.0))


def test_an_address_in_every_lane_round_trips_unchanged():
    got = _run("unsigned long long u = (unsigned long long)(x + t);\n    out[t] = *(const float*)u;")
    assert list(got) == list(X)
