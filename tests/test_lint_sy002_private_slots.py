"""SY002 quiet where each thread reads only its own slots or slots above every written one
(kernelport/lint/privateslots.py).

gpu-samplesort's scan.h (heldout60) down-sweep: `if (id < d / 2) { a[2*id + 1] = a[2*id] + a[d + id];
a[2*id] = a[d + id]; }` then a barrier: thread id writes slots 2*id and 2*id + 1 only, and reads d + id, at or
above d, which no thread passing `id < d / 2` writes.  Look-alikes that stay flagged: the last-warp ladder
(`tid < 32` with reads at tid + 16), a bound that does not keep the writes below the read (`id < d` with factor
2), a read of another thread's slot (`2*id + 2`), and an offset that differs between threads.
"""
from __future__ import annotations

from kernelport.lint.engine import lint_text

KERNEL = """\
__global__ void k(unsigned *out, int d) {
    __shared__ unsigned a[1024];
    int id = threadIdx.x;
    int lane = threadIdx.x % 32;
    a[id] = out[id];
    __syncthreads();
    for (; d <= 512; d *= 2) {
        if (GUARD) {
            FIRST
            SECOND
        }
        __syncthreads();
    }
    out[id] = a[id];
}
"""
FIRST = "a[2 * id + 1] = a[2 * id] + a[d + id];"
SECOND = "a[2 * id] = a[d + id];"


def _sy002(guard: str = "id < d / 2", first: str = FIRST, second: str = SECOND) -> list[int]:
    src = KERNEL.replace("GUARD", guard).replace("FIRST", first).replace("SECOND", second)
    return [f.line for f in lint_text(src, "k.cu") if f.code == "SY002"]


def test_own_slots_and_reads_above_the_written_ones_are_no_chain():
    assert _sy002() == []
    assert _sy002(first="a[id * 2 + 1] = a[id * 2] + a[id + d];", second="a[id * 2] = a[(d + id)];") == []
    assert _sy002("id < d", "a[id] += a[d + id];", "a[id] += a[id + d];") == []  # factor 1


def test_reads_another_thread_may_write_keep_the_finding():
    assert _sy002("id < d") == [9]  # thread d/2 writes slot d, which thread 0 reads
    assert _sy002(second="a[2 * id] = a[2 * id + 2];") == [9]  # the next thread's slot
    assert _sy002("id < lane / 2", FIRST.replace("d + id", "lane + id"), SECOND.replace("d + id", "lane + id")) == [9]
    assert _sy002("id < 32", "a[id] += a[id + 32];", "a[id] += a[id + 16];") == [9]  # the last-warp ladder
