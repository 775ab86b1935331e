"""The emulator runs a struct's copy construction `S(x)` (emulator/frontend/struct_copies.py): the copy a
Metal port makes of device memory given to a `const S&` (metal/constant_refs.py) could not be lowered
("cannot lower for the emulator: Invalid expression"), and verify skipped those ports.  Snippets written
for the test (issue 11, Metal part)."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

CUDA = """
struct S { float a; float b; };
__device__ float sum(const S& s) { return s.a + s.b; }
__device__ float keep(const S& s, S* p) { p->a = 7.0f; return s.a; }
__global__ void k(S* io, const S* in, float* out, float* both) {
    int i = threadIdx.x;
    float first = keep(S(io[i]), io + i);   // a copy: the old value, whatever keep writes after
    out[i] = first + sum(S(in[(i + 3) & 63]));
    both[i] = sum(in[i]);
}
"""


def _args():
    rng = np.random.default_rng(62)
    s = np.zeros(64, dtype=[("a", np.float32), ("b", np.float32)])
    s["a"], s["b"] = rng.standard_normal(64), rng.standard_normal(64)
    io = s.copy()
    io["a"] = rng.standard_normal(64)
    return {"io": io, "in": s, "out": np.zeros(64, np.float32), "both": np.zeros(64, np.float32)}, s, io


def test_a_structs_copy_construction_runs_as_a_copy():
    args, s, io = _args()
    got = run_kernel(CUDA, "k", args=args, grid=(1,), block=(64,), backend="cuda").outputs
    j = (np.arange(64) + 3) & 63
    want = io["a"] + (s["a"][j] + s["b"][j])
    np.testing.assert_allclose(got["out"], want, rtol=1e-6)
    np.testing.assert_array_equal(got["io"]["a"], np.full(64, 7.0, np.float32))
    np.testing.assert_allclose(got["both"], s["a"] + s["b"], rtol=1e-6)


def test_a_metal_ports_copies_run_as_the_original():
    metal = CUDA.replace("__global__ void k(S* io, const S* in, float* out, float* both)",
                         "kernel void k(device S* io, const device S* in, device float* out, device float* both, "
                         "uint3 tid [[thread_position_in_threadgroup]])").replace("threadIdx", "tid").replace(
        "__device__ ", "").replace("S* p)", "device S* p)").replace("sum(in[i])", "sum(S(in[i]))")
    args, _, _ = _args()
    want = run_kernel(CUDA, "k", args=args, grid=(1,), block=(64,), backend="cuda").outputs
    args, _, _ = _args()
    got = run_kernel(metal, "k", args=args, grid=(1,), block=(64,), backend="metal").outputs
    for name in ("out", "both"):
        np.testing.assert_array_equal(got[name], want[name])


def test_a_class_with_its_own_constructor_and_other_calls_are_left_alone():
    from kernelport.emulator.frontend.items import Item
    from kernelport.emulator.frontend.struct_copies import copy_structs
    s = Item("struct S { float a; float b; };", "k.cu", 1)
    p = Item("struct P { float a; P(float x) : a(x) {} };", "k.cu", 2)
    f = Item("float f(const S* in, float x) { return sum(S(in[0])) + g(P(x)) + h(S(in[0]), 1) + S2(x) + mk(S(1, 2)); }",
             "k.cu", 3, kind="device", name="f")
    copy_structs([s, p, f], [(s, "S"), (p, "P")])
    assert "sum(__kp_copy_S(in[0]))" in f.text and "h(__kp_copy_S(in[0]), 1)" in f.text
    assert "g(P(x))" in f.text and "S2(x)" in f.text and "mk(S(1, 2))" in f.text
    assert s.text.endswith("static S __kp_copy_S(S __kp_v) { return __kp_v; }") and "__kp_copy" not in p.text
