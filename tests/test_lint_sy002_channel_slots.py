"""SY002: one tree step over several channels of a shared buffer is no lockstep chain (kernelport/lint/channelslots.py).

heldout80's robotics image pipeline sums six per-pixel quantities with one block tree: the step loop over `stride`
(`bd / 2`, halved; the block barrier in its body) holds `if (tid < stride)` and in it a loop over the channels,
`sdata[c * bd + tid] += sdata[c * bd + tid + stride]`.  Modulo blockDim.x a thread writes residue tid < stride and
reads residue tid + stride, which no thread writes in the step.  Look-alikes that stay flagged: a step that starts
at the block size (tid + stride may reach the next channel's written slots), a read one past the step, no
`tid < stride` test, a step loop without the barrier, a second thread index.
"""
from __future__ import annotations

from kernelport.lint.engine import lint_text

CHANNELS = """\
__global__ void stats(const unsigned char* rgb, int n, double* out) {
    extern __shared__ double sdata[];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + tid;
    const int bd = blockDim.x;
    double r = i < n ? rgb[i] : 0.0;
    for (int c = 0; c < 3; ++c) sdata[c * bd + tid] = r * (c + 1);
    __syncthreads();
    for (int stride = bd / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            for (int c = 0; c < 3; ++c)
                sdata[c * bd + tid] += sdata[c * bd + tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) for (int c = 0; c < 3; ++c) out[blockIdx.x * 3 + c] = sdata[c * bd];
}
"""


def _sy002(text: str) -> list[int]:
    return [f.line for f in lint_text(text, "t.cu") if f.code == "SY002"]


def test_channel_loop_of_one_tree_step_is_quiet():
    assert _sy002(CHANNELS) == []
    # the spellings: blockDim.x and threadIdx.x themselves, the terms in another order, `/= 2`, `d > t`
    plain = CHANNELS.replace("sdata[c * bd + tid] += sdata[c * bd + tid + stride]",
                             "sdata[threadIdx.x + blockDim.x * c] += sdata[stride + threadIdx.x + c * blockDim.x]")
    assert _sy002(plain) == []
    assert _sy002(CHANNELS.replace("stride >>= 1", "stride /= 2").replace("tid < stride", "stride > tid")) == []


def test_a_step_that_starts_at_the_block_size_stays_flagged():
    # stride may equal blockDim.x: tid + stride lands on the next channel's slot tid, which thread tid writes
    assert _sy002(CHANNELS.replace("int stride = bd / 2", "int stride = bd")) == [12]


def test_a_read_past_the_step_stays_flagged():
    assert _sy002(CHANNELS.replace("tid + stride]", "tid + stride - 1]")) == [12]


def test_no_thread_test_or_no_barrier_stays_flagged():
    assert _sy002(CHANNELS.replace("if (tid < stride)", "if (i < n)")) == [12]
    assert _sy002(CHANNELS.replace("        __syncthreads();\n    }\n    if (tid == 0)", "    }\n    if (tid == 0)")) == [12]


def test_a_second_thread_index_stays_flagged():
    assert _sy002(CHANNELS.replace("double r = i < n", "double r = threadIdx.y + i < n")) == [12]
