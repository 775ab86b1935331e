"""An object in `constant` memory bound to a `const T&` parameter (cuFHE, heldout30: `r *= con_twd[i]`
with `FFP& operator*=(const FFP& a)`, `Pow(kRoot2e32_, n)` of a class's static constant).  MSL binds no
reference across address spaces: the port copies the argument into a thread temporary, `T(arg)`
(metal/constant_refs.py), which the const reference binds.  Two checker artefacts met on the way,
both valid MSL: a functional-cast copy out of `constant` of a class with other constructors of its own,
and (cuFHE's `ModP(val_)`) a data member of an unqualified member function's `this`, thread in MSL,
passed to a thread reference (check/thread_this.py).  Each snippet is written for the test; every case
here was KP224 on main."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from kernelport.emulator import run_kernel

from test_metal_port_causes46 import _port, _write

FIELD = {"k.cu": """
    #include <stdint.h>
    class Field {
      static const uint64_t kRoot_ = 7;
      uint64_t v_;
      __device__ void Reduce(uint64_t& x) { x = x % 1000003u; }
    public:
      __host__ __device__ Field() {}
      __host__ __device__ Field(uint64_t a) : v_(a) {}
      __device__ uint64_t val() const { return v_; }
      __device__ void Mul(const Field& a, const Field& b) { v_ = a.v_ * b.v_; Reduce(v_); }
      __device__ Field& operator*=(const Field& a) { this->Mul(*this, a); return *this; }
      friend __device__ Field operator*(const Field& a, const Field& b) { Field r; r.Mul(a, b); return r; }
      __device__ void Pow(uint32_t e) { Field a = *this; for (uint32_t i = 1; i < e; ++i) *this *= a; }
      __device__ static Field Pow(const Field& a, uint32_t e) { Field r = a; r.Pow(e); return r; }
      __device__ static Field Root(uint32_t n) { return Pow(kRoot_, n); }
    };
    __constant__ Field twiddle[64];
    __global__ void k(Field* out) {
      Field r = out[threadIdx.x];
      r *= twiddle[threadIdx.x];
      out[threadIdx.x] = r * twiddle[63 - threadIdx.x] * Field::Root(4);
    }
"""}


def test_constant_objects_bound_to_const_references_are_copied(tmp_path: Path):
    _write(tmp_path, FIELD)
    text = _port(tmp_path / "k.cu")
    assert "return Pow(Field(kRoot_), n);" in text  # the static constant, converted as the call did
    assert "r *= Field(twiddle[tid.x]);" in text
    assert "out[tid.x] = r * Field(twiddle[63 - tid.x]) * Field::Root(4);" in text
    assert "Field r = out[tid.x];" in text  # a copy from device memory: as written
    assert "Reduce(v_);" in text  # a member of a thread `this` to a thread reference: as written


COEF = {"k.cu": """
    struct Coef { float a, b; };
    __device__ float eval(const Coef& c, float x) { return c.a * x + c.b; }
    __constant__ Coef coefs[4] = {{1.0f, 2.0f}, {3.0f, 4.0f}, {5.0f, 6.0f}, {7.0f, 8.0f}};
    __global__ void k(const float* x, float* y) { y[threadIdx.x] = eval(coefs[threadIdx.x & 3], x[threadIdx.x]); }
"""}


def test_a_struct_of_a_constant_array_bound_to_a_const_reference_is_copied(tmp_path: Path):
    """(Also the checker's pointer-member test no longer reads `a * x` in a member's body as a member.)"""
    _write(tmp_path, COEF)
    text = _port(tmp_path / "k.cu")
    assert "eval(Coef(coefs[tid.x & 3]), x[tid.x])" in text


AXPB = """
__device__ float twice(const float& v) { return 2.0f * v; }
__device__ float axpb(const float& a, float x, const float& b) { return a * x + b; }
__constant__ float scale[4] = {0.5f, 1.5f, 2.5f, 3.5f};
__constant__ float offs[4] = {-1.0f, 1.0f, -2.0f, 2.0f};
__global__ void k(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = axpb(scale[i & 3], x[i], offs[i & 3]) + twice(x[i]);
}
"""


def test_the_copies_compute_what_the_original_computes(tmp_path: Path):
    """The copies run on the emulator beside the original (the emulator's word: no Metal GPU here); a
    device argument (`twice(x[i])`) is copied too: MSL binds no thread reference to device memory."""
    _write(tmp_path, {"k.cu": AXPB})
    text = _port(tmp_path / "k.cu")
    assert "axpb(float(scale[i & 3]), x[i], float(offs[i & 3])) + twice(float(x[i]))" in text
    x = np.linspace(-3, 3, 64, dtype=np.float32)
    args = {"x": x, "y": np.zeros(64, np.float32), "n": 64}
    want = run_kernel(AXPB, "k", args=args, grid=(1,), block=(64,), backend="cuda").outputs["y"]
    got = run_kernel(text, "k", args=args, grid=(1,), block=(64,), backend="metal").outputs["y"]
    i = np.arange(64)
    a = np.array([0.5, 1.5, 2.5, 3.5], np.float32)[i & 3]
    b = np.array([-1, 1, -2, 2], np.float32)[i & 3]
    np.testing.assert_allclose(want, a * x + b + 2 * x, rtol=1e-6)
    np.testing.assert_array_equal(got, want)


def test_a_reference_to_threadgroup_memory_stays_an_error():
    """Look-alike of the thread-`this` leniency: a threadgroup element passed to a thread reference is
    refused by Metal and by the checker (only a generic `this`'s member is let through)."""
    from kernelport.backends.metal.check import check_metal_source
    from conftest import require_tool
    require_tool("clang")
    text = """#include <metal_stdlib>
using namespace metal;
struct Acc {
  uint v;
  void bump(uint& x) { x += 1u; }
  void add() { bump(v); }
};
void inc(uint& x) { x += 1u; }
kernel void k(device uint* out [[buffer(0)]], uint t [[thread_position_in_threadgroup]]) {
  threadgroup uint s[64];
  s[t] = 0u;
  inc(s[t]);
  Acc a; a.v = 0u; a.add();
  out[t] = s[t] + a.v;
}
"""
    diags = [str(d) for d in check_metal_source(text, "t.metal")]
    assert len(diags) == 1 and "no matching function for call to 'inc'" in diags[0], diags
