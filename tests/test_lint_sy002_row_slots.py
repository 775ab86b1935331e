"""SY002 quiet where every thread keeps to its own strided slots `E * blockDim.x + threadIdx.x`
(kernelport/lint/rowslots.py).

A batched solver (cuLM's Levenberg-Marquardt core, heldout78) gives each thread its own problem in one shared
buffer, interleaved through `#define CID(i) ((i) * blockDim.x + threadIdx.x)`: a loop of
`w[CID(i)] -= r[CID(j * n + i)] * w[CID(j)]` reads a slot other than the one it writes, but both are of the
thread's residue modulo blockDim.x, so no thread reads a slot another writes.  Look-alikes that stay flagged: a
slot one further (`... + threadIdx.x + 1`, the next thread's), a row halved (`E * blockDim.x / 2 + ...`), a
function that uses threadIdx.y too (threads of one x share the slots), and a row address that is not a row's
start.
"""
from __future__ import annotations

from kernelport.lint.engine import lint_text

KERNEL = """\
#define CID(i) ((i) * blockDim.x + threadIdx.x)
#define CID_BASE(i) ((i) * blockDim.x)
__device__ float norm(int n, const float *x) {
    float s = 0.f;
    for (int i = 0; i < n; i++) s += x[CID(i)] * x[CID(i)];
    return s;
}
__global__ void solve(float *out, int n) {
    extern __shared__ float w[];
    for (int i = 0; i < n; i++) w[CID(i)] = out[CID(i)];
    for (int j = 0; j < n; j++) {
        w[CID(j)] = w[CID(j)] / 2.f;
        for (int i = j + 1; i < n; i++)
            STEP
        out[CID(j)] = norm(n - j, &w[ROWSTART]) + EXTRA;
    }
}
"""


def _sy002(step: str = "w[CID(i)] -= w[CID(j * n + i)] * w[CID(j)];", base: str = "CID_BASE(j)",
           extra: str = "0.f") -> list[int]:
    src = KERNEL.replace("STEP", step).replace("ROWSTART", base).replace("EXTRA", extra)
    return [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"]


def test_a_threads_own_strided_slots_are_no_lockstep():
    assert _sy002() == []
    assert _sy002("w[i * blockDim.x + threadIdx.x] -= w[(j * n + i) * blockDim.x + threadIdx.x];") == []
    assert _sy002("w[threadIdx.x + blockDim.x * i] += w[CID(j)];") == []


def test_slots_of_another_thread_keep_the_finding():
    assert _sy002("w[CID(i)] -= w[CID(j) + 1];") == [14]  # the next thread's slot
    assert _sy002("w[CID(i)] -= w[j * blockDim.x / 2 + threadIdx.x];") == [14]  # half a row: not the residue
    assert _sy002(extra="threadIdx.y") == [14]  # a 2-D block: threads of one x share the slots
    assert _sy002(base="CID_BASE(j) + 1") == [14]  # a row address that is not a row's start


def test_a_run_of_steps_on_strided_slots_is_no_chain():
    run = """\
#define CID(i) ((i) * blockDim.x + threadIdx.x)
__global__ void k(float *o) {
    extern __shared__ float s[];
    s[CID(0)] = o[threadIdx.x];
    __syncthreads();
    FIRST
    SECOND
    o[threadIdx.x] = s[CID(2)];
}
"""
    def lines(first: str, second: str) -> list[int]:
        src = run.replace("FIRST", first).replace("SECOND", second)
        return [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"]
    assert lines("s[CID(1)] = s[CID(0)] + 1.f;", "s[CID(2)] = s[CID(1)] * 2.f;") == []
    assert lines("s[CID(1)] = s[CID(0) + 1] + 1.f;", "s[CID(2)] = s[CID(1)] * 2.f;") == [6]


def test_a_local_copy_of_threadIdx_x_counts_and_a_changed_one_does_not():
    src = """\
__global__ void k(float *o, int n) {
    extern __shared__ float w[];
    int t = threadIdx.x;CHANGE
    for (int j = 0; j < n; j++)
        for (int i = j + 1; i < n; i++)
            w[i * blockDim.x + t] -= w[j * blockDim.x + t];
    o[t] = w[t];
}
"""
    def lines(change: str) -> list[int]:
        return [f.line for f in lint_text(src.replace("CHANGE", change), "k.cu") if f.code == "SY002"]
    assert lines("") == []
    assert lines(" t += 1;") == [6]  # no longer the thread's own index modulo blockDim.x
