"""SY001 and a helper's return tag per call: max(what it makes thread-dependent by itself, the tags
of the arguments at that call), never above the join over all its calls (kernelport/lint/return_tags.py).
hecbench prna's `j = wrap(jtmp, n)` at a block-uniform jtmp read THREAD because another call
passes a thread-dependent `ktmp`: five false errors at the uniform `continue` before a barrier."""
from __future__ import annotations

from kernelport.lint.engine import lint_text


def _lines(src: str) -> set[int]:
    return {f.line for f in lint_text(src, "k.cu") if f.code == "SY001"}


def _barrier(src: str) -> set[int]:
    """The line of the kernel's own barrier (the one reported)."""
    lines = {i for i, t in enumerate(src.splitlines(), 1) if t.strip() == "__syncthreads();"}
    assert len(lines) == 1
    return lines


def _kernel(helper: str, call: str, other: str = "wrap(threadIdx.x + 1, n)") -> str:
    """The barrier under `if (CALL > 0)`; another call elsewhere passes a thread-dependent value."""
    return helper + f"""__global__ void k(int* v, int n) {{
    __shared__ int s[256];
    v[threadIdx.x] = {other};
    if ({call} > 0)
        __syncthreads();
    s[threadIdx.x] = v[blockIdx.x];
}}
"""


WRAP = """__device__ int wrap(int i, int n) {
    return i >= n ? i - n : i;
}
"""


def test_a_uniform_call_of_a_helper_another_call_passes_thread_values_stays_quiet():
    assert _lines(_kernel(WRAP, "wrap(blockIdx.x, n)")) == set()
    # through a second helper that passes its own (uniform here) parameter on
    two = WRAP + """__device__ int twice(int i, int n) {
    return wrap(wrap(i, n), n);
}
"""
    assert _lines(_kernel(two, "twice(blockIdx.x, n)", "twice(threadIdx.x, n)")) == set()
    # a loop exit, as prna: a uniform `continue` before a helper's barrier
    loop = WRAP + """__device__ void reduce(int* s) { __syncthreads(); }
__global__ void k(int* v, int n) {
    __shared__ int s[256];
    v[threadIdx.x] = wrap(threadIdx.x + 1, n);
    for (int i = 0; i < n; i++) {
        if (wrap(i + blockIdx.x, n) == 0)
            continue;
        reduce(s);
    }
}
"""
    assert _lines(loop) == set()


def test_the_argument_thread_dependent_at_that_call_is_still_reported():
    assert _lines(src := _kernel(WRAP, "wrap(threadIdx.x, n)")) == _barrier(src)
    assert _lines(src := _kernel(WRAP, "wrap(__shfl_down_sync(0xffffffff, n, 1), n)")) == _barrier(src)
    # a pointer argument that points at thread-dependent values
    first = WRAP + """__device__ int first(const int* p) {
    return p[0];
}
"""
    src = first + """__global__ void k(int* v, int n) {
    int buf[2];
    buf[0] = threadIdx.x;
    v[threadIdx.x] = wrap(threadIdx.x, n);
    if (first(buf) > 0)
        __syncthreads();
}
"""
    assert _lines(src) == _barrier(src)


def test_a_helper_that_makes_its_result_thread_dependent_itself_is_still_reported():
    own = """__device__ int wrap(int i, int n) {
    return i + threadIdx.x >= n ? i - n : i;
}
"""
    assert _lines(src := _kernel(own, "wrap(blockIdx.x, n)")) == _barrier(src)
    # a load through a pointer parameter at a thread-dependent index of its own
    load = """__device__ int wrap(const int* p, int n) {
    return p[threadIdx.x % n];
}
"""
    assert _lines(src := _kernel(load, "wrap(v, n)", "wrap(v + threadIdx.x, n)")) == _barrier(src)
    # a thread-dependent early return
    early = """__device__ int wrap(int i, int n) {
    if (threadIdx.x == 0) return 0;
    return i;
}
"""
    assert _lines(src := _kernel(early, "wrap(blockIdx.x, n)")) == _barrier(src)
    # a callee that reads threadIdx, reached with uniform arguments
    callee = """__device__ int lane(int i) { return (threadIdx.x + i) & 31; }
__device__ int wrap(int i, int n) { return lane(i) < n ? i : 0; }

"""
    assert _lines(src := _kernel(callee, "wrap(blockIdx.x, n)")) == _barrier(src)


def test_a_global_some_function_writes_is_not_taken_as_uniform():
    glob = """__device__ int g;
__device__ int wrap(int i, int n) { return g + i; }
__device__ void set(int x) { g = x; }
"""
    src = _kernel(glob, "wrap(blockIdx.x, n)", "(set(threadIdx.x), 0)")
    assert _lines(src) == _barrier(src)
