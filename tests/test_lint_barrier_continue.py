"""SY001 and a thread-dependent `continue`: it skips the rest of that turn only, so a barrier it can
skip is one after it in the loop body; a barrier before it is reached by every thread in every turn
(hecbench prna's `reduce(...); if (tid != 0) continue; write(...)`: five false errors once its
`DEV` macro's `__device__` definition was read).  A `break` or `return` still leaves the loop."""
from __future__ import annotations

from kernelport.lint.engine import lint_text


def _lines(src: str) -> set[int]:
    return {f.line for f in lint_text(src, "k.cu") if f.code == "SY001"}


HELPER = """__device__ void reduce(float* x, int tid, int nt) {
    __shared__ float buf[256];
    buf[tid] = *x;
    for (nt /= 2, __syncthreads(); nt > 0; nt /= 2, __syncthreads())
        if (tid < nt) buf[tid] += buf[tid + nt];
    if (tid == 0) *x = buf[0];
}
"""


def test_a_barrier_before_a_thread_dependent_continue_is_reached_every_turn():
    src = HELPER + """__global__ void k(float* v, int n) {
    for (int i = blockIdx.x; i < n; i += gridDim.x) {
        float x = v[i * blockDim.x + threadIdx.x];
        reduce(&x, threadIdx.x, blockDim.x);
        if (threadIdx.x != 0)
            continue;
        v[i] = x;
    }
}
"""
    assert _lines(src) == set()


def test_a_barrier_after_a_thread_dependent_continue_or_break_is_reported():
    after = HELPER + """__global__ void k(float* v, int n) {
    for (int i = blockIdx.x; i < n; i += gridDim.x) {
        float x = v[i * blockDim.x + threadIdx.x];
        if (x < 0)
            continue;
        reduce(&x, threadIdx.x, blockDim.x);
        v[i] = x;
    }
}
"""
    assert _lines(after) == {13}
    broken = after.replace("continue;", "break;")
    assert _lines(broken) == {13}
    before = HELPER + """__global__ void k(float* v, int n) {
    for (int i = blockIdx.x; i < n; i += gridDim.x) {
        float x = v[i * blockDim.x + threadIdx.x];
        reduce(&x, threadIdx.x, blockDim.x);
        if (threadIdx.x != 0)
            break;
        v[i] = x;
    }
}
"""
    assert _lines(before) == {11}  # a thread that left misses the next turn's barriers
