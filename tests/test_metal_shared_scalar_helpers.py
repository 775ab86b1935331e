"""A `__shared__` scalar a helper uses, in a Metal port (heldout55: sliding-puzzle's idas_dynamic.cu,
`__shared__ unsigned int input_i_shared;` at file scope, `input_i = atomicInc(&input_i_shared, UINT_MAX);`
in its helper): the kernel declares the threadgroup variable and the helper receives it by reference,
`threadgroup unsigned int& name` (kernelport/backends/metal/prototype_extras.py), so its assignments
and `&name` mean what CUDA's do.  Before: a `threadgroup unsigned int*` parameter the kernel passed the
value to (KP224 "no matching function", "incompatible integer to pointer conversion").  The same for a
scalar a helper declares itself.  Look-alike: a helper's array stays a pointer parameter."""
from __future__ import annotations

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked
except ImportError:  # pragma: no cover
    from conftest import metal_checked

FILE_SCOPE = """__shared__ unsigned int next;
__device__ unsigned int take(void) { return atomicInc(&next, 1000u); }
__device__ void reset(void) { if (threadIdx.x == 0) next = 0; }
__global__ void k(unsigned int *o) {
    reset();
    __syncthreads();
    o[threadIdx.x] = take();
}
"""


def test_a_file_scope_scalar_is_the_kernels_passed_by_reference():
    out = metal_checked(FILE_SCOPE)
    assert "unsigned int take(threadgroup unsigned int& next) { return kp_atomic_inc(&next, 1000u); }" in out
    assert "void reset(threadgroup unsigned int& next, uint3 tid) { if (tid.x == 0) next = 0; }" in out
    assert "threadgroup unsigned int next;  // file scope" in out and "take(next)" in out


def test_a_helpers_own_scalar_too_and_an_array_stays_a_pointer():
    out = metal_checked("""__device__ unsigned int take(void) {
    __shared__ unsigned int next;
    __shared__ float buf[32];
    if (threadIdx.x == 0) next = 0;
    buf[threadIdx.x] = 1.0f;
    __syncthreads();
    return atomicInc(&next, 1000u) + (unsigned int)buf[0];
}
__global__ void k(unsigned int *o) { o[threadIdx.x] = take(); }
""")
    assert "take(threadgroup unsigned int& next, threadgroup float* buf, uint3 tid)" in out
