"""The emulator runs a struct's member functions (emulator/frontend/plain_classes.py, classdata.py; metal66 item 4).

`struct S { float a; __device__ float f() const { return a * 2; } ... };` used in a kernel could not lower
("cannot lower for the emulator: before: s"): verify skipped such kernels on every backend.  A plain class is
now a class template's instance with no arguments: const members take the object by value, the others by
pointer (`s.add(v)` is `S__kpd0__add(&s, v)`, its store lands in `s`), implicit members and `this->` read
the object, a member's call of another member is made on the same object; `S s{x}` is `S s = {x}`."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from port_support import ported

CUDA = """struct S {
    float a;
    int hits;
    __device__ float f() const { return a * 2; }
    __device__ float g(float x) const { return f() + x * this->a; }
    __device__ void add(float v) { a += v; hits++; }
    __device__ void twice() { add(f() - a); }
};
struct Plain { float w; };
__global__ void k(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    S s{in[i], 0};
    S t = {in[(i + 1) % n], 5};
    s.add(1.0f);
    t.twice();
    Plain p{0.5f};
    out[i] = s.f() + s.g(in[i]) + t.a + s.hits + t.hits + p.w;
}
"""


def _model(x: np.ndarray) -> np.ndarray:
    a = x + np.float32(1)
    t = np.roll(x, -1)
    t = t + (t * 2 - t)  # twice: add(f() - a), a becomes 2a
    return (a * 2 + (a * 2 + x * a) + t + 1 + 6 + 0.5).astype(np.float32)


def _args(n: int = 96):
    return {"out": np.zeros(n, np.float32), "in": np.linspace(-1, 2, n).astype(np.float32), "n": n}


@pytest.mark.parametrize("backend", ["cuda", "hip"])
def test_members_const_or_not_run_as_cuda_runs_them(backend):
    src = CUDA if backend == "cuda" else ported(CUDA, to="hip", dedent=False)[1]
    got = run_kernel(src, "k", args=_args(), grid=(3,), block=(32,), backend=backend).outputs["out"]
    np.testing.assert_allclose(got, _model(_args()["in"]), rtol=1e-6)


def test_the_metal_port_runs_at_32_as_the_original():
    metal = ported(CUDA, to="metal", dedent=False)[1]
    want = run_kernel(CUDA, "k", args=_args(), grid=(3,), block=(32,), backend="cuda").outputs["out"]
    got = run_kernel(metal, "k", args=_args(), grid=(3,), block=(32,), backend="metal").outputs["out"]
    np.testing.assert_array_equal(got, want)


def test_look_alikes_are_left_as_written():
    from kernelport.emulator.frontend.items import Item
    from kernelport.emulator.frontend.plain_classes import list_initialised, plain_class, read_as_instances
    # a class with a virtual member, one with constructors only, a struct of data: no plain class
    for text in ("struct V { float a; __device__ virtual float f() const { return a; } };",
                 "struct C { float a; __device__ C(float x) : a(x) {} };", "struct D { float a; int b; };"):
        assert plain_class(Item(text, "k.cu", 1, "decl", None)) is None, text
    # a member named like the class, `struct S` and `S<...>` keep their text; an array's list is no aggregate's
    it = Item("void h(T* p) { S x; p->S = x.S; struct S y; S<int> z; float w{1.0f}; S u{2.0f}; }", "k.cu", 1,
              "device", "h")
    list_initialised([it], {"S"})
    read_as_instances([it], {"S"})
    assert it.text == "void h(T* p) { S<> x; p->S = x.S; struct S y; S<int> z; float w{1.0f}; S<> u = {2.0f}; }", \
        it.text
