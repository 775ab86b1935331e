"""Local reference variables in device code (`const EphemerisParams& eph = params[sid];`, heldout86's gnss
kernels: "cannot lower for the emulator: Invalid declaration") run as pointers to what they are bound to.
A store through a non-const reference lands in the buffer; a member named like the reference (`p.e`) and a
name declared again in an inner block are left alone; a reference bound to a call's result (a temporary)
stays a located refusal."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel
from kernelport.emulator.frontend.items import Item
from kernelport.emulator.frontend.local_refs import lower_local_references

KERNEL = r"""
struct P { float a; float e; };
__device__ void bump(float* c, int i) {
  float& slot = c[i];
  slot += 1.0f;
}
__global__ void k(const P* params, float* y, float* counts) {
  int i = threadIdx.x;
  const P& e = params[i];
  float& c = counts[i];
  c = e.a * 2.0f + e.e;
  bump(counts, i);
  y[i] = e.a + c;
}
"""

TEMPORARY = r"""
struct P { float a; float e; };
__device__ P make(float v) { P p; p.a = v; p.e = v; return p; }
__global__ void k(const P* params, float* y, float* counts) {
  int i = threadIdx.x;
  const P& t = make(params[i].a);
  y[i] = t.a;
}
"""

P = np.dtype([("a", np.float32), ("e", np.float32)])


def _run(src):
    params = np.zeros(8, P)
    params["a"], params["e"] = np.arange(8), 10 * np.arange(8)
    r = run_kernel(src, "k", args={"params": params, "y": np.zeros(8, np.float32), "counts": np.zeros(8, np.float32)},
                   grid=(1,), block=(8,))
    return r.outputs["y"], r.outputs["counts"]


def test_a_local_reference_reads_and_writes_what_it_is_bound_to():
    y, counts = _run(KERNEL)
    a = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(counts, a * 2 + 10 * a + 1)
    np.testing.assert_array_equal(y, a + counts)


def _lowered(text, kind="device"):
    it = Item(text, "x.cu", 1, kind, "f")
    lower_local_references(it)
    return it.text


def test_the_rewrite_leaves_look_alikes():
    assert _lowered("void f(P* q, int i) {\n  P& e = q[i];\n  e.e = q->e + e.a;\n}") == \
        "void f(P* q, int i) {\n  P *e = &(q[i]);\n  (*e).e = q->e + (*e).a;\n}"
    # declared again in an inner block: as written (never rewritten wrongly)
    shadowed = "void f(P* q, int i) {\n  P& e = q[i];\n  { float e = 1.0f; q[0].a = e; }\n}"
    assert _lowered(shadowed) == shadowed
    # bound to a call's result or a literal (a temporary): as written
    for init in ("make(1.0f)", "1.0f", "a + b"):
        text = "void f() {\n  const float& t = " + init + ";\n  g(t);\n}"
        assert _lowered(text) == text
    # `a & b == c` and `x &= y` are no declarations; host code is not rewritten
    assert _lowered("void f() {\n  ok = a & b == c; x &= y;\n}") == "void f() {\n  ok = a & b == c; x &= y;\n}"
    assert _lowered("void f() {\n  P& e = q[0];\n}", kind="plain") == "void f() {\n  P& e = q[0];\n}"


def test_a_reference_to_a_temporary_stays_a_located_refusal():
    with pytest.raises(EmulatorError, match=r":6.*cannot lower"):
        _run(TEMPORARY)
