"""Lint's per-function tables are keyed as C++ names functions (kernelport/fnscopes.py), not by the
bare name: two helpers of one name in two namespaces (or classes, or overloads) never get each
other's facts.  Each case has a pair of same-named helpers where only one holds the fact; the call
of the other must stay quiet (before: a false finding) and a qualified call of the one must be
found (before: missed, or found only when the definitions came in one order)."""
from __future__ import annotations

from kernelport.lint.engine import lint_text


def _lines(src: str, code: str) -> set[int]:
    return {f.line for f in lint_text(src, "k.cu") if f.code == code}


def test_divergence_barrier_helpers_by_key():
    """SY001: only a::step executes a barrier; b's kernel calls its own step (no barrier) under a
    thread-dependent condition, k2 calls a::step there."""
    src = """namespace b {
__device__ void step(float* s) { s[threadIdx.x] = 1; }
}
namespace a {
__device__ void step(float* s) { s[threadIdx.x] = 0; __syncthreads(); }
}
namespace b {
__global__ void k(float* s, int n) {
    if (threadIdx.x < n) step(s);
}
}
__global__ void k2(float* s, int n) {
    if (threadIdx.x < n) a::step(s);
}
"""
    assert _lines(src, "SY001") == {13}


def test_divergence_full_mask_helpers_by_key():
    """WS012: only a::reduce runs a full-mask shuffle."""
    src = """namespace b {
__device__ float reduce(float v) { return v * 2.0f; }
}
namespace a {
__device__ float reduce(float v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }
}
namespace b {
__global__ void k(float* x, int n) {
    float v = x[threadIdx.x];
    if (threadIdx.x < n) v = reduce(v);
    x[threadIdx.x] = v;
}
}
__global__ void k2(float* x, int n) {
    float v = x[threadIdx.x];
    if (threadIdx.x < n) v = a::reduce(v);
    x[threadIdx.x] = v;
}
"""
    assert _lines(src, "WS012") == {16}


def test_divergence_returns_by_key():
    """SY001 through a helper's return: a::pick returns the thread's index (thread-dependent), b::pick
    a uniform value; a barrier under `if (pick() < n)` hangs only with a's."""
    src = """namespace a {
__device__ int pick() { return threadIdx.x; }
}
namespace b {
__device__ int pick() { return blockIdx.x; }
__global__ void k(float* s, int n) {
    if (pick() < n) __syncthreads();
    s[threadIdx.x] = 0;
}
}
__global__ void k2(float* s, int n) {
    if (a::pick() < n) __syncthreads();
    s[threadIdx.x] = 0;
}
"""
    assert _lines(src, "SY001") == {12}


def test_divergence_parameters_by_key():
    """A thread-dependent argument reaches only the parameter of the overload called: f(int, int)'s
    barrier under `if (v < n)` hangs only when v is the thread's index."""
    src = """__device__ void f(int v) { if (v < 4) __syncthreads(); }
__device__ void f(int v, int n) { if (v < n) __syncthreads(); }
__global__ void k(float* s, int n) {
    f((int)blockIdx.x);
    f((int)threadIdx.x, n);
}
"""
    assert _lines(src, "SY001") == {2}
