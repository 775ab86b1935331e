"""A struct object in memory passed to a device function's struct parameter (heldout59's merge sort:
`compareEdgeByWeightGPU(const MSTedge &a, const MSTedge &b)` called with `data[i]` of an `MSTedge*`): the
argument is loaded into registers as `S s = d[i];` loads it (by value and by reference alike; a non-const
reference's changes are stored back to the element).  Before, the callee's `a.weight` read the memory
reference itself and verify ended in an internal error (AttributeError: 'tuple' object has no attribute
'get').  Look-alike: a struct local passed to the same functions keeps working, and a field of the element
read directly (no call) is unchanged."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

KERNEL = r"""
struct Edge { int from; int to; float w; };
__device__ bool lighter(const Edge &a, const Edge &b) { return a.w < b.w; }
__device__ float weight_of(Edge e) { return e.w + e.from; }
__device__ void heavier(Edge &e, float by) { e.w = e.w + by; e.to = e.to * 2; }
__global__ void k(Edge *d, int *less, float *wt, int n) {
  int i = threadIdx.x;
  if (i + 1 < n) less[i] = ARG_A ? 1 : 0;
  wt[i] = weight_of(d[i]);
  heavier(d[i], 0.5f);
}
"""

EDGE_DT = np.dtype([("from", "i4"), ("to", "i4"), ("w", "f4")], align=True)


def _run(call):
    d = np.zeros(8, EDGE_DT)
    d["from"] = np.arange(8)
    d["to"] = np.arange(8) + 10
    d["w"] = np.array([3, 1, 4, 1, 5, 9, 2, 6], np.float32)
    res = run_kernel(KERNEL.replace("ARG_A", call), "k",
                     args={"d": d, "less": np.zeros(8, np.int32), "wt": np.zeros(8, np.float32), "n": np.int32(8)},
                     grid=(1,), block=(8,))
    return d, res.outputs


def test_struct_elements_bind_to_struct_parameters():
    d, out = _run("lighter(d[i], d[i + 1])")  # elements of a struct buffer: was the crash
    w = d["w"]
    np.testing.assert_array_equal(out["less"][:7], (w[:-1] < w[1:]).astype(np.int32))
    np.testing.assert_array_equal(out["wt"], w + np.arange(8))  # by value: the element's fields
    np.testing.assert_array_equal(out["d"]["w"], w + 0.5)  # a non-const reference: stored back
    np.testing.assert_array_equal(out["d"]["to"], (np.arange(8) + 10) * 2)
    np.testing.assert_array_equal(out["d"]["from"], np.arange(8))


def test_struct_locals_passed_as_before():
    """The look-alike: the same functions given struct locals (loaded from the elements, stored back)."""
    src = KERNEL.replace("ARG_A", "lighter(a, b)").replace("if (i + 1 < n)", "Edge a = d[i]; Edge b = d[(i + 1) % n]; "
                                                           "if (i + 1 < n)")
    src = src.replace("weight_of(d[i])", "weight_of(a)").replace("heavier(d[i], 0.5f);", "heavier(a, 0.5f); d[i] = a;")
    d = np.zeros(8, EDGE_DT)
    d["from"] = np.arange(8)
    d["w"] = np.arange(8)[::-1].astype(np.float32)
    out = run_kernel(src, "k", args={"d": d, "less": np.zeros(8, np.int32), "wt": np.zeros(8, np.float32),
                                     "n": np.int32(8)}, grid=(1,), block=(8,)).outputs
    np.testing.assert_array_equal(out["less"][:7], 0)
    np.testing.assert_array_equal(out["wt"], d["w"] + np.arange(8))
    np.testing.assert_array_equal(out["d"]["w"], d["w"] + 0.5)
