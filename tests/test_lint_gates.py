"""The cheap gates in front of lint's costly passes (the divergence fixpoint, SY002's statement
walks) skip only code that cannot produce a finding: each case here must still be reported, each
look-alike must stay silent."""
from __future__ import annotations

from kernelport.lint.engine import lint_text


def codes(src: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint_text(src) if f.code in ("SY001", "SY002", "WS012")]


def test_a_hazard_in_the_first_of_two_same_named_functions_is_reported():
    # overloads share a name: the gate must not read "has a barrier / full-mask op" by name only
    src = """
__device__ float k(float v, int n) {
    if (threadIdx.x < n) v += __shfl_sync(0xffffffff, v, 0);
    return v;
}
__device__ float k(float v) { return v; }
__device__ void s(float* x, int n) {
    if (threadIdx.x < n) __syncthreads();
}
__device__ void s(float* x) { x[0] = 1.0f; }
"""
    assert codes(src) == [("WS012", 3), ("SY001", 8)]


def test_a_call_of_a_helper_that_holds_the_barrier_is_reported_where_it_is_called():
    src = """
__global__ void k(float* x, int n) {
    if (threadIdx.x < n) stage(x);
}
__device__ void stage(float* s) { __syncthreads(); }
"""
    assert codes(src) == [("SY001", 3)]


def test_thread_dependent_control_without_barriers_or_full_masks_is_silent():
    src = """
__device__ float half(float v) { return v * 0.5f; }
__global__ void k(float* x, int n) {
    if (threadIdx.x < n) x[threadIdx.x] = half(x[threadIdx.x]);
    for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] += __shfl_sync(__activemask(), x[i], 0);
}
"""
    assert codes(src) == []


def test_lockstep_steps_behind_nested_ifs_are_found_and_reads_alone_are_not():
    src = """
template <int N>
__global__ void k(float* y) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = y[tid];
    __syncthreads();
    if (tid < 32) {
        if (N > 16) { s[tid] += s[tid + 16]; }
        if (N > 8) { s[tid] += s[tid + 8]; }
    }
    float a = s[tid + 16], b = s[tid + 8];
    y[tid] = a + b;
}
"""
    assert codes(src) == [("SY002", 9)]
    reads_only = """
__global__ void k(float* y) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    float a = s[tid + 16];
    float b = s[tid + 8];
    y[tid] = a + b;
}
"""
    assert codes(reads_only) == []
