"""SY001 after a block broadcast: a local re-read from shared memory after the broadcast's barrier holds the
block's one value at the reads that only that assignment reaches (kernelport/lint/overwrites.py; rtp-llm's
sampling kernels in tests/labelled18, bench/sy001_audit40.txt), and a local reference bound to `__shared__`
storage is shared storage (kernelport/lint/sharedrefs.py).  Each quiet case has a look-alike that must flag:
another value reaching the read (a later per-thread write, a conditional re-read, a loop's earlier turn, a
break before the re-read, a continue to a do-while's test, a reference parameter, an address taken)."""
from __future__ import annotations

import textwrap

import pytest

from kernelport.lint.engine import lint_text


def _line(src: str, text: str) -> int:
    return next(i for i, ln in enumerate(src.splitlines(), 1) if text in ln)


def _sy001(body: str) -> set[int]:
    src = textwrap.dedent(body)
    found = lint_text(src, "k.cu")
    assert not [f.message for f in found if f.code == "KP006"]
    return {f.line for f in found if f.code == "SY001"}


# DeviceSamplingFromProb's shape: a per-thread partial, thread 0 publishes it, every thread re-reads it
BROADCAST = """\
__device__ float part(const float* p) { return p[threadIdx.x]; }
__global__ void k(const float* p, float* out, float u) {
    __shared__ float s;
    const unsigned tx = threadIdx.x;
    float a = part(p);
    if (tx == 0) s = a;
    __syncthreads();
    a = s;
    if (a > u) {
        __syncthreads();  // the barrier
        out[tx] = a;
    }
}
"""


def test_a_local_re_read_after_the_broadcast_is_uniform():
    assert _sy001(BROADCAST) == set()


@pytest.mark.parametrize("change", [
    ("    a = s;\n", "    a = s;\n    a += tx;\n"),                      # a per-thread write after the re-read
    ("    a = s;\n", "    if (u > 0) a = s;\n"),                         # a conditional re-read: `part` may reach
    ("    a = s;\n", "    a = s;\n    a = part(p);\n"),                  # a per-thread value overwrites it
    ("    a = s;\n", "    a = s;\n    float* pa = &a; *pa = tx;\n"),     # through its address
    ("    a = s;\n", "    a = s;\n    bump(a);\n"),                      # a reference parameter
    ("    a = s;\n", "    a = s;\n    asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(a));\n"),  # an asm output
    ("    float a = part(p);\n", "    static float a;\n    a = part(p);\n"),  # every thread's one variable
    ("    a = s;\n", "    a = s;\n    Ref r{a};\n    r.v = tx;\n"),     # a struct keeps a reference to it
])
def test_another_value_reaching_the_read_keeps_the_finding(change):
    src = BROADCAST.replace(*change)
    assert src != BROADCAST
    src = "struct Ref { float& v; };\n__device__ void bump(float& v) { v += threadIdx.x; }\n" + src
    assert _sy001(src) == {_line(src, "// the barrier")}


def test_a_value_parameter_of_the_files_helper_is_no_write():
    src = "__device__ float twice(float v) { return 2 * v; }\n" + BROADCAST.replace(
        "    a = s;\n", "    a = s;\n    float b = twice(a) + fminf(a, 1.0f);\n")
    assert _sy001(src) == set()


# TopK/TopP's shape: the broadcast ends every turn of the loop; the loop's result bounds the outer do-while
LOOPS = """\
__device__ float part(const float* p, int i) { return p[i * blockDim.x + threadIdx.x]; }
__global__ void k(const float* p, float* out, int n, float u) {
    __shared__ float s;
    const unsigned tx = threadIdx.x;
    float low = 0, high = 1;
    do {
        float agg = 0;
        for (int i = 0; i < n; ++i) {
            agg += part(p, i);
            if (tx == 0) s = agg;
            __syncthreads();
            agg = s;
        }
        if (agg > u) low = (low + high) / 2; else high = agg;
    } while (low < high);
}
"""


def test_a_loop_that_ends_each_turn_with_the_broadcast_is_uniform_after_it():
    assert _sy001(LOOPS) == set()


def test_a_break_before_the_broadcast_keeps_the_finding():
    src = LOOPS.replace("            agg += part(p, i);\n",
                        "            agg += part(p, i);\n            if (n > 4) break;\n")
    assert src != LOOPS
    assert _line(src, "__syncthreads") in _sy001(src)  # the loop's `agg` may be the per-thread partial: `low < high` diverges


def test_a_read_in_the_loop_before_the_broadcast_keeps_the_finding():
    src = LOOPS.replace("            agg += part(p, i);\n",
                        "            agg += part(p, i);\n            if (agg > u) __syncthreads();\n")
    assert 10 in _sy001(src)  # the previous turn's broadcast, or this turn's partial: per thread


DO_WHILE = """\
__global__ void k(const float* p, float* out, int n) {
    __shared__ float smin;
    const unsigned tx = threadIdx.x;
    float m = p[tx];
    do {
        __syncthreads();
        m = p[tx] * 0.5f;
        if (tx == 0) smin = m;
        __syncthreads();
        m = smin;
    } while (m > 1.0f);
}
"""


def test_a_do_while_test_of_the_re_read_is_uniform():
    assert _sy001(DO_WHILE) == set()


def test_a_continue_past_the_re_read_keeps_the_finding():
    src = DO_WHILE.replace("        if (tx == 0) smin = m;\n", "        if (m > 2.0f) continue;\n        if (tx == 0) smin = m;\n")
    assert src != DO_WHILE
    assert 6 in _sy001(src)


# GetMaxValue and the kernels' temp storage: a reference to `extern __shared__` bytes
SHARED_REFERENCE = """\
struct TS { float max_val; float sum; };
__device__ float get_max(const float* p, TS& ts) {
    float v = p[threadIdx.x];
    if (threadIdx.x == 0) ts.max_val = v;
    __syncthreads();
    return ts.max_val;
}
__global__ void k(const float* p, float* out) {
    extern __shared__ unsigned char smem[];
    auto& ts = reinterpret_cast<TS&>(smem);
    if (threadIdx.x == 0) ts.sum = p[threadIdx.x];
    __syncthreads();
    float hi = get_max(p, ts);
    for (float x = ts.sum; x < hi; x += 1.0f) {
        __syncthreads();
    }
}
"""


def test_a_reference_to_shared_storage_is_not_made_per_thread_by_a_store():
    assert _sy001(SHARED_REFERENCE) == set()


def test_a_reference_to_a_per_thread_struct_keeps_the_finding():
    src = SHARED_REFERENCE.replace("    auto& ts = reinterpret_cast<TS&>(smem);\n",
                                   "    TS mine;\n    auto& ts = mine;\n")
    assert src != SHARED_REFERENCE
    assert 16 in _sy001(src)
