"""A local's address passed to a helper (HeCBench's cfd: `Float3 velocity; compute_velocity(d, m,
&velocity);`): the helper writes the caller's variable through its pointer parameter.  The local,
a number, a vector-like struct (fields x, y, z of one type: a row of scalars) or a struct without
array fields, is copied into a per-lane temporary for the call and back when it returns
(emulator/addressed.py).  Each case against a scalar reference; the address taken anywhere else
(kept in a pointer variable) stays a located refusal.  And a buffer of such a struct that host
inference lays out as a struct (a numpy structured array) binds to the kernel's vector-like
pointer as its rows of scalars."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

SOURCE = r"""
typedef struct { float x; float y; float z; } Float3;
typedef struct { int hits; float total; } Tally;
__device__ inline void velocity(const float d, const Float3 mom, Float3* v) {
    v->x = mom.x / d; v->y = mom.y / d; v->z = mom.z / d;
}
__device__ void bump(int* c, float* acc, float w) { *c += 1; *acc = *acc + w; }
__device__ void count(Tally* t, float w) { t->hits = t->hits + 1; t->total += w; }
__global__ void k(const float* in, float* out, int* cnt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Float3 mom; mom.x = in[i]; mom.y = 2.0f * in[i]; mom.z = -in[i];
    Float3 v; velocity(2.0f, mom, &v);
    int c = 0; float acc = 1.0f;
    if (i % 2) bump(&c, &acc, v.y);
    bump(&c, &acc, v.x);
    Tally t; t.hits = 10; t.total = 0.5f;
    if (i % 3 == 0) count(&t, in[i]);
    out[4 * i] = v.x + v.y + v.z; out[4 * i + 1] = acc; out[4 * i + 2] = v.z; out[4 * i + 3] = t.total;
    cnt[2 * i] = c; cnt[2 * i + 1] = t.hits;
}
"""


def _run(src=SOURCE, n=64):
    x = np.linspace(-1, 1, n, dtype=np.float32)
    out = run_kernel(src, "k", args={"in": x, "out": np.zeros(4 * n, np.float32), "cnt": np.zeros(2 * n, np.int32),
                                     "n": np.int32(n)}, grid=(2,), block=(32,)).outputs
    return x, out


def test_helpers_write_the_callers_locals_through_their_addresses():
    x, out = _run()
    i = np.arange(x.size)
    v = np.stack([x / 2, x, -x / 2], 1)
    odd, third = i % 2, (i % 3 == 0)
    np.testing.assert_allclose(out["out"][0::4], v.sum(1), rtol=1e-6)
    np.testing.assert_allclose(out["out"][1::4], 1 + odd * v[:, 1] + v[:, 0], rtol=1e-6)
    np.testing.assert_allclose(out["out"][2::4], v[:, 2], rtol=1e-6)
    np.testing.assert_allclose(out["out"][3::4], 0.5 + third * x, rtol=1e-6)
    np.testing.assert_array_equal(out["cnt"][0::2], 1 + odd)
    np.testing.assert_array_equal(out["cnt"][1::2], 10 + third)


def test_an_address_kept_in_a_pointer_stays_refused():
    src = SOURCE.replace("int c = 0; float acc = 1.0f;", "int c = 0; float acc = 1.0f; int* pc = &c;")
    with pytest.raises(EmulatorError) as e:
        _run(src)
    assert "address of a local" in str(e.value) and ":" in str(e.value)


def test_a_struct_buffer_binds_to_a_vector_like_pointer():
    src = r"""
typedef struct { float x; float y; float z; } Float3;
__global__ void norm1(const Float3* p, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = p[i].x + 2.0f * p[i].y + 3.0f * p[i].z;
}
"""
    dt = np.dtype([("x", np.float32), ("y", np.float32), ("z", np.float32)], align=True)
    p = np.zeros(32, dt)
    p["x"], p["y"], p["z"] = np.arange(32), np.arange(32) * 10, np.arange(32) * 100
    out = run_kernel(src, "norm1", args={"p": p, "out": np.zeros(32, np.float32), "n": np.int32(32)},
                     grid=(1,), block=(32,)).outputs
    np.testing.assert_array_equal(out["out"], np.arange(32) * 321.0)
