"""SY002 reports a chain of lockstep steps: two steps on one shared array, the second reading what the
first wrote.  A block tree reduction of several arrays (heldout23's gpumd sdc.cu: `if (tid < offset) {
s_x[tid] += s_x[tid + offset]; s_y[tid] += ...; s_z[tid] += ...; } __syncthreads();`, openmm's
minBuffer / maxBuffer) takes one step per array between barriers: no step depends on another, quiet.
The same arrays reduced warp-synchronously (two steps each, no barrier) stay a chain."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

TREE = """\
__global__ void msd(const float* x, float* out) {
    __shared__ float s_x[128], s_y[128], s_z[128];
    int tid = threadIdx.x;
    s_x[tid] = x[tid]; s_y[tid] = x[tid + 128]; s_z[tid] = x[tid + 256];
    __syncthreads();
    for (int offset = blockDim.x >> 1; offset > 0; offset >>= 1) {
        if (tid < offset) {
            s_x[tid] += s_x[tid + offset];
            s_y[tid] += s_y[tid + offset];
            s_z[tid] += s_z[tid + offset];
        }
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s_x[0] + s_y[0] + s_z[0];
}
"""
WARP = """\
__global__ void msd(const float* x, float* out) {
    __shared__ volatile float s_x[64], s_y[64];
    int tid = threadIdx.x;
    s_x[tid] = x[tid]; s_y[tid] = x[tid + 64];
    __syncthreads();
    if (tid < 32) {
        s_x[tid] += s_x[tid + 32];
        s_y[tid] += s_y[tid + 32];
        s_x[tid] += s_x[tid + 16];
        s_y[tid] += s_y[tid + 16];
    }
    if (tid == 0) out[blockIdx.x] = s_x[0] + s_y[0];
}
"""


def _sy002(text: str) -> list[int]:
    return [f.line for f in lint_text(text, "t.cu") if f.code == "SY002"]


def test_one_step_per_array_between_barriers_is_no_chain():
    assert _sy002(TREE) == []


def test_two_steps_on_one_array_stay_a_chain():
    assert _sy002(WARP) == [7]
    one = WARP.replace("        s_y[tid] += s_y[tid + 16];\n", "")  # s_x's two steps alone
    assert _sy002(one) == [7]
