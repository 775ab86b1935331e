"""SY002's advice names the barrier that orders the steps' threads (kernelport/lint/onewarp.py), and a
kernel's local pointer into its own `__shared__` array is shared memory (kernelport/lint/sharedptrs.py).

heldout72's HinesGPU: steps in a loop under `threadIdx.x < nNeuronsGroup` (a neuron group, more than one
warp) were told to use `__syncwarp()`, which orders one warp only; the fix there is `__syncthreads()`.  The
classic last-warp tree under `tid < 32` keeps its `__syncwarp()` advice; look-alikes that span warps
(`tid < 64`, `threadIdx.x % 2 == 0` over the block, a bound from a parameter, a lane test) get advice that holds
either way: `__syncwarp()` only where each warp reads its own slots (hecbench's per-warp scanwarp), else
`__syncthreads()` or shuffles.
"""
from __future__ import annotations

from kernelport.lint.engine import lint_text

TREE = """\
__global__ void k(const float* x, float* out, int n) {
    DECL
    int tid = threadIdx.x;
    int lin = threadIdx.y * blockDim.x + threadIdx.x;
    int row = threadIdx.y;
    s[tid] = x[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    if (GUARD) {
        s[tid] += s[tid + 32];
        s[tid] += s[tid + 16];
        s[tid] += s[tid + 8];
    }
    if (tid == 0) out[blockIdx.x] = s[0];
}
"""
SHARED = "__shared__ float s[256];"
ONE_WARP = "put `__syncwarp()` between the read and the write of every step"
SPANS = "orders them only where each warp reads its own slots"


def _sy002(src: str) -> list[str]:
    return [f.message for f in lint_text(src, "k.cu") if f.code == "SY002"]


def _tree(guard: str, decl: str = SHARED) -> list[str]:
    return _sy002("#define HALF 16\n#define TWO_WARPS 64\n" + TREE.replace("GUARD", guard).replace("DECL", decl))


def test_steps_inside_one_warp_keep_the_syncwarp_advice():
    for guard in ("tid < 32", "threadIdx.x < 32", "lin < 32", "threadIdx.y * blockDim.x + threadIdx.x < 32", "32 > tid", "tid <= 31", "n > 0 && tid < 16", "tid < warpSize", "tid < HALF"):
        got = _tree(guard)
        assert len(got) == 1 and ONE_WARP in got[0] and SPANS not in got[0], (guard, got)


def test_steps_that_may_span_warps_are_told_to_use_syncthreads():
    for guard in ("tid < 64", "tid <= 32", "row < 32", "threadIdx.y * 8 + threadIdx.x < 32", "tid < TWO_WARPS", "tid <= warpSize", "tid < n", "tid % 2 == 0", "threadIdx.x % 32 < 16", "n > 0"):
        got = _tree(guard)
        assert len(got) == 1 and SPANS in got[0] and "__syncthreads()" in got[0] and ONE_WARP not in got[0], \
            (guard, got)


def test_a_loop_step_under_a_group_bound_is_told_to_use_syncthreads():
    src = """\
__global__ void k(int* out, int group) {
    __shared__ int s[1024];
    s[threadIdx.x] = out[threadIdx.x];
    for (int i = 1; i < blockDim.x; i++) {
        if (threadIdx.x < GUARD)
            s[threadIdx.x] += s[i * group + threadIdx.x];
    }
    out[threadIdx.x] = s[threadIdx.x];
}
"""
    wide, narrow = _sy002(src.replace("GUARD", "group")), _sy002(src.replace("GUARD", "32"))
    assert len(wide) == 1 and SPANS in wide[0], wide
    assert len(narrow) == 1 and "separate reads and writes with `__syncwarp()`" in narrow[0], narrow


def test_a_kernel_local_pointer_into_its_shared_array_is_shared_memory():
    """HinesGPU's form: `ftype *currentList = freemem;` (freemem dynamic shared memory), then straight-line
    steps under `threadIdx.x % K == 0` tests.  The look-alike: the same pointer set from a global buffer,
    or moved onto one later, is no shared memory (no finding)."""
    steps = """\
    if (threadIdx.x % 2 == 0) s[threadIdx.x + 1] += s[threadIdx.x];
    if (threadIdx.x % 4 == 0) s[threadIdx.x + 3] += s[threadIdx.x + 1];
    if (threadIdx.x % 8 == 0) s[threadIdx.x + 7] += s[threadIdx.x + 3];
    if (threadIdx.x == 0) out[blockIdx.x] = s[7];
}
"""
    head = "__global__ void k(float* g, float* out) {\n    extern __shared__ float mem[];\n"
    shared = head + "    float* s = mem + 8;\n" + steps
    got = _sy002(shared)
    assert len(got) == 1 and SPANS in got[0], got
    assert _sy002(head + "    float* s = g;\n" + steps) == []
    assert _sy002(head + "    float* s = mem;\n    if (out) s = g;\n" + steps) == []
