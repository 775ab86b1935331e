"""A member function's parameter named like a data member (review66a of metal66's plain classes in the emulator).

`void set(float a) { this->a = a; }`, `float scaled(float a) const { return a * this->a; }` and a class template's
`P(T v) { this->v = v; }`: the frontend read every bare member name as the object's (`self->a = self->a`), so the
store was lost and `scaled` squared the member: the emulator computed something else than CUDA, for the original
and the port alike (verify compared two wrong runs).  A bare name a parameter declares is the parameter."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

CUDA = """struct S {
    float a;
    float b;
    __device__ void set(float a, float bb) { this->a = a; b = bb; }
    __device__ float scaled(float a) const { return a * this->a + b; }
};
template <typename T> struct P {
    T v;
    __device__ P(T v) { this->v = v; }
    __device__ T twice() const { return v + v; }
};
__global__ void k(float* out, const float* in) {
    int i = threadIdx.x;
    S s = {0.0f, 0.0f};
    s.set(in[i], 1.0f);
    P<float> p = P<float>(in[i] + 1.0f);
    out[i] = s.scaled(2.0f) + p.twice();
}
"""


def _run(src: str, x: np.ndarray) -> np.ndarray:
    return run_kernel(src, "k", args={"out": np.zeros(32, np.float32), "in": x}, grid=(1,), block=(32,),
                      backend="cuda").outputs["out"]


def test_a_plain_class_members_parameter_named_like_a_member_is_the_parameter():
    x = np.linspace(-1, 2, 32).astype(np.float32)
    plain = CUDA.replace("    P<float> p = P<float>(in[i] + 1.0f);\n", "").replace(" + p.twice()", "")
    # main: 1 + x * x (the store of set lost, scaled read its member for the parameter)
    # look-alike: `b` (no parameter of that name) is still the object's member
    np.testing.assert_allclose(_run(plain, x), (2 * x + 1).astype(np.float32), rtol=1e-6)


def test_a_class_templates_constructor_parameter_named_like_a_member_is_the_parameter():
    x = np.linspace(-1, 2, 32).astype(np.float32)
    np.testing.assert_allclose(_run(CUDA, x), (2 * x + 1 + 2 * (x + 1)).astype(np.float32), rtol=1e-6)
