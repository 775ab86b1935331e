"""Struct locals with array fields, by value (packed42: llm.c's `Packed128`, whose payload is an array
field, and hecbench daphne's `point.data`; before, "struct variables with array fields are not supported
by the emulator").  Each such field is a per-lane buffer of the variable's own: a declaration from a
value, a whole-struct assignment and a by-value parameter copy the elements (kernelport/emulator/
structs.py assign_struct), for the lanes that run them; verify's oracle then runs the kernel and a HIP
port with a wave-64 hazard fails at 64 only."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from trust_support import assert_a_lane_hazard_fails_only_at_64, assert_the_oracle_runs_and_ports_match

PACKED = r"""
struct P { float v[4]; int tag; };
__device__ P make(float x) { P r; for (int k = 0; k < 4; ++k) r.v[k] = x + k; r.tag = 7; return r; }
__device__ float sum(P p) { float s = 0.0f; for (int k = 0; k < 4; ++k) s += p.v[k]; p.v[0] = -100.0f; return s; }
"""

COPIES = PACKED + r"""
__global__ void kern(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    P a = make(in[i]);
    P b = a;
    b.v[1] = 0.0f;
    float s = sum(a);
    if (threadIdx.x % 2) a = b;
    out[5 * i] = a.v[1]; out[5 * i + 1] = s; out[5 * i + 2] = a.v[0];
    out[5 * i + 3] = b.v[threadIdx.x % 4]; out[5 * i + 4] = a.tag;
  }
}"""


def test_copies_assignments_and_parameters_have_value_semantics_per_lane():
    n = 8
    x = np.arange(n, dtype=np.float32) * 10
    res = run_kernel(COPIES, "kern", args={"in": x, "out": np.zeros(5 * n, np.float32), "n": n},
                     grid=(1,), block=(32,))
    got = res.outputs["out"].reshape(n, 5)
    i = np.arange(n)
    odd = i % 2 == 1
    np.testing.assert_array_equal(got[:, 0], np.where(odd, 0, x + 1))  # b's store reached a only where a = b ran
    np.testing.assert_array_equal(got[:, 1], 4 * x + 6)                  # sum's p.v[0] = -100 is its own copy's
    np.testing.assert_array_equal(got[:, 2], x)
    np.testing.assert_array_equal(got[:, 3], np.where(i % 4 == 1, 0, x + i % 4))  # b.v[1] = 0 is b's, not a's
    np.testing.assert_array_equal(got[:, 4], 7)



def test_a_nested_struct_field_assigned_whole_gets_its_own_elements():
    src = r"""
struct P { float v[2]; };
struct O { P in; int k; };
__global__ void k(float *out) {
  P a; a.v[0] = 1.0f; a.v[1] = 2.0f;
  O o; o.in = a;
  a.v[0] = 5.0f;
  if (threadIdx.x % 2) { o.in.v[1] = 9.0f; }
  O o2 = o; o2.in.v[0] = -1.0f;
  out[3 * threadIdx.x] = o.in.v[0]; out[3 * threadIdx.x + 1] = o.in.v[1]; out[3 * threadIdx.x + 2] = o2.in.v[0];
}"""
    got = run_kernel(src, "k", args={"out": np.zeros(12, np.float32)}, grid=(1,), block=(4,)).outputs["out"]
    assert got.reshape(4, 3).tolist() == [[1, 2, -1], [1, 9, -1], [1, 2, -1], [1, 9, -1]]  # a's 5 and o2's -1 stay theirs

def test_a_brace_initialiser_of_a_struct_with_array_fields_is_a_located_refusal():
    src = PACKED + "__global__ void k(float *out) { P p = {1.0f}; out[threadIdx.x] = p.v[0]; }"
    with pytest.raises(EmulatorError, match=r":5:\d+: struct variable `p` has array fields"):
        run_kernel(src, "k", args={"out": np.zeros(4, np.float32)}, grid=(1,), block=(4,))


SOURCE = PACKED + r"""
__global__ void scale(const float *x, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (4 * i < n) {
        P p;
        for (int k = 0; k < 4; ++k) p.v[k] = x[4 * i + k];
        P q = p;
        for (int k = 0; k < 4; ++k) q.v[k] *= (i % 32 < 32 ? 2.0f : -3.0f);
        out[i] = sum(q) - sum(p);
    }
}

int main() {
    int n = 1024;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, n / 4 * sizeof(float));
    scale<<<n / 4 / 128, 128>>>(x, out, n);
}
"""


def test_the_oracle_runs_a_struct_with_an_array_field_and_a_wave_64_hazard_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(SOURCE)
    assert_the_oracle_runs_and_ports_match(f)
    assert_a_lane_hazard_fails_only_at_64(f)
