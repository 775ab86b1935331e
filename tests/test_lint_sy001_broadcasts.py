"""SY001 after a shared array broadcast: a read of any slot of a shared array every slot of which holds one value
(a doubling copy ladder, `s[t] = s[0]` then a barrier; in a helper, for its pointer argument or through the aliasing
of `extern __shared__` arrays of one element type) is the block's one value (kernelport/lint/broadcasts.py;
pade-laplace's taylor_slae.cu, heldout53).  Each quiet case has look-alikes that must flag: a ladder or copy that
covers part of the slots, a read before the barrier, a write after the broadcast, no barrier before it, another
element type."""
from __future__ import annotations

import pytest
from test_lint_overwrites import _line, _sy001  # (the lines SY001 flags in one file)


# taylor_slae.cu's shape: a tree sum into data[0], then a doubling ladder copies it into every slot; the caller
# reads its own extern array (the same storage) at its thread's slot and leaves a loop on it
LADDER = """\
__device__ void spread(int n) {
    extern __shared__ double data[];
    for (int id = 512; id; id >>= 1) {
        if (threadIdx.x + id < n && threadIdx.x < id) data[threadIdx.x] += data[threadIdx.x + id];
        __syncthreads();
    }
    for (int id = 1; id < blockDim.x; id <<= 1) {
        if (threadIdx.x < id && threadIdx.x + id < blockDim.x)
            data[threadIdx.x + id] = data[threadIdx.x];
        __syncthreads();
    }
}
__global__ void k(const double* x, double* out, int n, int iters) {
    extern __shared__ double norm[];
    norm[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    spread(n);
    double e = norm[threadIdx.x];
    while (iters--) {
        if (e < 1e-9) break;
        __syncthreads();  // the barrier
        out[threadIdx.x] += e;
    }
}
"""

# the same in one kernel on a static array, with `tid` for threadIdx.x and the `s[t] = s[0]` copy
COPY = """\
__global__ void k(const float* x, float* out, int n) {
    __shared__ float s[256];
    const unsigned tid = threadIdx.x;
    if (tid == 0) s[0] = x[blockIdx.x];
    __syncthreads();
    s[tid] = s[0];
    __syncthreads();
    float v = s[tid];
    for (int i = 0; i < (int)v; ++i) {
        __syncthreads();  // the barrier
        out[i] += 1.0f;
    }
}
"""

# a helper that broadcasts the array it is given
PARAM = """\
__device__ void fill(float* a) {
    for (unsigned h = 1; h < blockDim.x; h *= 2) {
        if (threadIdx.x < h) a[threadIdx.x + h] = a[threadIdx.x];
        __syncthreads();
    }
}
__global__ void k(const float* x, float* out) {
    __shared__ float s[1024];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    fill(s);
    float v = s[threadIdx.x];
    if (v > 0.0f) {
        __syncthreads();  // the barrier
        out[threadIdx.x] = v;
    }
}
"""


@pytest.mark.parametrize("src", [LADDER, COPY, PARAM], ids=["ladder-extern-alias", "copy", "ladder-param"])
def test_a_read_of_a_broadcast_array_is_uniform(src):
    assert _sy001(src) == set()


@pytest.mark.parametrize("src, change", [
    (LADDER, ("id < blockDim.x; id <<= 1", "id < blockDim.x / 2; id <<= 1")),  # the ladder fills half the slots
    (LADDER, ("if (threadIdx.x < id && threadIdx.x + id < blockDim.x)",
              "if (threadIdx.x + id < blockDim.x)")),                            # copies slots not yet filled
    (LADDER, ("if (threadIdx.x < id && threadIdx.x + id < blockDim.x)",
              "if (threadIdx.x < id && threadIdx.x % 2 == 0)")),                 # a partial ladder
    (LADDER, ("    spread(n);\n", "    spread(n);\n    norm[threadIdx.x] += x[n];\n")),  # a write after it
    (LADDER, ("    spread(n);\n", "    spread(n);\n    bump(norm);\n")),         # a call that may write it
    (LADDER, ("    __syncthreads();\n    spread(n);", "    spread(n);")),        # no barrier before the call
    (LADDER, ("extern __shared__ double norm[];", "extern __shared__ float norm[];")),  # other slots
    (LADDER, ("        __syncthreads();\n    }\n}", "    }\n}")),                   # the ladder without its barrier
    (COPY, ("    s[tid] = s[0];\n    __syncthreads();\n    float v = s[tid];\n",
            "    s[tid] = s[0];\n    float v = s[tid];\n    __syncthreads();\n")),  # the read before the barrier
    (COPY, ("    s[tid] = s[0];\n", "    if (tid < 128) s[tid] = s[0];\n")),      # half the slots
    (COPY, ("    s[tid] = s[0];\n", "    s[tid] = s[tid ^ 1];\n")),               # from the thread's own slot
    (COPY, ("    __syncthreads();\n    float v", "    __syncthreads();\n    s[tid] += 1.0f;\n    float v")),
    (COPY, ("    __syncthreads();\n    float v", "    __syncthreads();\n    float& r = s[5];\n    r = 2.0f;\n    float v")),
    (COPY, ("    __syncthreads();\n    float v", "    __syncthreads();\n    for (float& r : s) r = tid;\n    float v")),
    (COPY, ("    __syncthreads();\n    float v",
            "    __syncthreads();\n    asm volatile(\"st.shared.f32 [%0], %1;\" :: \"r\"(tid * 4), \"f\"(1.0f));\n    float v")),
    (PARAM, ("    fill(s);\n", "    fill(s + 1);\n")),                             # not the array's slots
    (PARAM, ("if (threadIdx.x < h)", "if (threadIdx.x <= h)")),
])
def test_a_look_alike_keeps_the_finding(src, change):
    assert change[0] in src
    changed = src.replace(*change)
    changed = "__device__ void bump(double* p) { p[threadIdx.x] = 0; }\n" + changed if "bump(" in changed else changed
    assert _line(changed, "// the barrier") in _sy001(changed)


def test_a_write_later_in_a_loop_reaches_an_earlier_read():
    # the read comes first in the text, but the loop's next turn reads after the write
    changed = LADDER.replace("    double e = norm[threadIdx.x];\n",
                             "    double e = 0;\n    if (n > 0) for (int r = 0; r < n; ++r) { e += norm[threadIdx.x]; "
                             "norm[threadIdx.x] = x[r]; }\n")
    assert _line(changed, "// the barrier") in _sy001(changed)
