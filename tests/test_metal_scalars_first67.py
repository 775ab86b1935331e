"""A declaration that opens with non-pointers and goes on with pointers into device memory (gputools'
granger.cu, `float sum, invnorm, *X, *Y;`; mi.cu, `float prob, logp, mi = 0.f, *x_bins = ...;`): main refused
it (KP215, "declared after the non-pointer"); the Metal port now splits it where it turns from non-pointers to
pointers or back, in order, each run of pointers with its address space (kernelport/backends/metal/spaces.py,
_split_scalar_declarators).  A for's one declaration cannot be split and stays refused
(test_metal_declarators_and_locations.py); pointers into thread memory need no split (the look-alike)."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked
except ImportError:  # pragma: no cover
    from conftest import metal_checked


def test_pointers_after_scalars_get_their_own_declaration():
    out = metal_checked("""
    __global__ void k(float *a, float *out)
    {
        float sum = 0.0f, invnorm,
          * X = a + threadIdx.x, * Y;
        Y = out;
        invnorm = 2.0f;
        sum += X[0] * invnorm;
        Y[threadIdx.x] = sum;
    }
    """)
    assert "float sum = 0.0f, invnorm; device float * X = a + tid.x, * Y;" in " ".join(out.split()), out


def test_runs_of_scalars_and_pointers_keep_their_order_and_qualifiers():
    out = metal_checked("""
    __device__ float head(float *a, int n)
    {
        const float lo = 1.0f, *p = a + n, hi = 2.0f, *q = a;
        return lo * p[0] + hi * q[0];
    }
    __global__ void k(float *a, float *out) { out[threadIdx.x] = head(a, 1); }
    """)
    assert "const float lo = 1.0f; device const float *p = a + n; const float hi = 2.0f; " \
           "device const float *q = a;" in out, out


def test_thread_pointers_after_scalars_stay_in_one_declaration():
    """The look-alike: `q` points into thread memory, so `thread` qualifies the whole declaration as before."""
    out = metal_checked("__global__ void k(float *out) { float s = 3.0f, *q = &s; out[0] = *q + s; }\n")
    assert "thread float s = 3.0f, *q = &s;" in out, out
