"""SY002: a loop that spreads one tree step's slots over the block is no lockstep chain (kernelport/lint/slotloops.py).

heldout52's fastjet-gpu grid.cu:435 finds a minimum with `for (s = width; s >= 16; s >>= 1) { for (tid = threadIdx.x;
tid < s && tid + s < n; tid += blockDim.x) if (m[tid + s] < m[tid]) m[tid] = m[tid + s]; __syncthreads(); }`: the
inner loop writes slots below the step and reads the written one or one a step above, and the step loop holds the
barrier.  Look-alikes that stay flagged: a loop over the steps themselves (the warp ladder), a slot loop whose bound is
not the step (a read may land on another thread's write), and a step that is not an enclosing barrier loop's variable.
"""
from __future__ import annotations

from kernelport.lint.engine import lint_text

SLOTS = """\
struct Dist { double distance; int i, j; };
__global__ void minimum(const Dist* g, Dist* out, int n, unsigned width) {
    extern __shared__ Dist minima[];
    for (int index = threadIdx.x; index < n; index += blockDim.x) minima[index] = g[index];
    __syncthreads();
    for (unsigned int s = width; s >= 16; s >>= 1) {
        for (int tid = threadIdx.x; tid < s and tid + s < n; tid += blockDim.x) {
            if (minima[tid + s].distance < minima[tid].distance) {
                minima[tid] = minima[tid + s];
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = minima[0];
}
"""


def _sy002(text: str) -> list[int]:
    return [f.line for f in lint_text(text, "t.cu") if f.code == "SY002"]


def test_slot_loop_of_a_barrier_step_is_quiet():
    assert _sy002(SLOTS) == []
    assert _sy002(SLOTS.replace("tid < s and tid + s < n", "tid < s")) == []
    assert _sy002(SLOTS.replace("minima[tid + s]", "minima[s + tid]")) == []


def test_ladder_over_the_steps_stays_flagged():
    ladder = """\
__global__ void k(float* x) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = x[tid];
    __syncthreads();
    if (tid < 32)
        for (int o = 16; o > 0; o >>= 1) s[tid] += s[tid + o];
    x[tid] = s[0];
}
"""
    assert _sy002(ladder) == [7]


def test_slot_loop_not_bounded_by_the_step_stays_flagged():
    # `tid < n`: tid + s may be a slot another thread writes in the same loop
    assert _sy002(SLOTS.replace("tid < s and tid + s < n", "tid + s < n")) == [9]


def test_step_without_the_barrier_loop_stays_flagged():
    # the step loop holds no barrier: the next step reads what this one writes, unordered
    assert _sy002(SLOTS.replace("        __syncthreads();\n    }\n    if (threadIdx.x", "    }\n    if (threadIdx.x")) == [9]
    # a thread's own bound (not a step every thread shares)
    own = SLOTS.replace("tid < s and", "tid < lim and").replace("    for (unsigned int s", "    int lim = threadIdx.x;\n    for (unsigned int s")
    assert _sy002(own) == [10]
    # the inner loop moves its bound
    assert _sy002(SLOTS.replace("minima[tid] = minima[tid + s];", "minima[tid] = minima[tid + s]; s--;")) == [9]
