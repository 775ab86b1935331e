"""CUDA's 64-bit `atomicAdd` on Metal (heldout55 sliding-puzzle idas_dynamic.cu / idas_smem_25.cu: a
per-block `unsigned long long int nodes_expanded` counter the host reads after the kernel): Metal has no
64-bit atomic add, so kernelport/backends/metal/split_atomics.py ports a counter's add as a 32-bit add on
the low word with a carry into the high word (the prologue's kp_atomic_add_split) where the split is exact:
the call's old value unused and no device code reading the counter.  Before: KP212 on every such call.
Look-alikes that stay KP212, each naming the failed condition: the old value used (heldout57 cuda-lbvh
trace.cu's work queue), the counter read in a kernel, a struct copy, a helper's parameter, an aliasing
64-bit parameter read.  The split's arithmetic itself (the prologue's code, compiled as C++) is checked
against a 64-bit atomic sum under threads."""
from __future__ import annotations

import re

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_checked, metal_port, run_host_check
except ImportError:  # pragma: no cover
    from conftest import metal_checked, metal_port, run_host_check

COUNTER = """
typedef struct stat_tag { bool solved; unsigned long long int nodes; int thread; } search_stat;
__device__ void expand(search_stat *stat, int b, unsigned long long n) {
    atomicAdd(&stat[b].nodes, n);
}
__global__ void count(search_stat *stat, const int *in, int n)
{
    unsigned long long nodes = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        if (in[i] > 0) ++nodes;
    expand(stat, blockIdx.x, nodes);
    if (threadIdx.x == 0) stat[blockIdx.x].thread = blockIdx.x;
}
__global__ void total(unsigned long long *sum, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, (unsigned long long)in[i]);
}
"""


def _refusal(code: str) -> str:
    port, _ = metal_port(code)
    assert not port.ok
    kp212 = [d for d in port.diagnostics if d.code == "KP212"]
    assert len(kp212) == 1, [d.format() for d in port.diagnostics]
    return kp212[0].format()


def test_a_counter_add_is_split_and_passes_the_checker():
    out = metal_checked(COUNTER)
    assert "inline void kp_atomic_add_split(device ulong* address, ulong value)" in out
    assert "kp_atomic_add_split(&stat[b].nodes, n);" in out
    assert "kp_atomic_add_split(sum, (ulong)in[i]);" in out
    assert "atomic_ulong" not in out and "long long" not in out


def test_a_threadgroup_counter_is_split_in_threadgroup_memory():
    out = metal_checked("""
    __global__ void k(const int *in, unsigned long long *out) {
        __shared__ unsigned long long hits;
        if (threadIdx.x == 0) hits = 0;
        __syncthreads();
        atomicAdd(&hits, (unsigned long long)in[threadIdx.x]);
    }
    """)
    assert "kp_atomic_add_split(threadgroup ulong* address, ulong value)" in out


def test_the_old_value_used_stays_refused():
    msg = _refusal("""
    __global__ void queue(unsigned long long *next, int *out, int n) {
        unsigned long long mine = atomicAdd(next, 1ull);
        if (mine < n) out[mine] = 1;
    }
    """)
    assert "t.cu:3:31" in msg and "returned old value is used" in msg, msg


def test_a_counter_a_kernel_reads_stays_refused():
    msg = _refusal(COUNTER.replace("stat[blockIdx.x].thread = blockIdx.x;",
                                   "stat[blockIdx.x].thread = stat[blockIdx.x].nodes > 100;"))
    assert "t.cu:4:5" in msg and "reads the counter (member 'nodes') at line 12" in msg, msg
    msg = _refusal(COUNTER.replace("if (i < n) atomicAdd", "if (*sum > 7) return;\n    if (i < n) atomicAdd"))
    assert "reads the counter (variable 'sum') at line 17" in msg, msg


def test_a_struct_copy_a_helper_parameter_and_an_alias_stay_refused():
    copy = _refusal(COUNTER.replace("if (threadIdx.x == 0)", "search_stat s = stat[0];\n    if (s.solved)"))
    assert "reads the counter (member 'nodes') at line 12" in copy, copy
    helper = _refusal("""
    __device__ void bump(unsigned long long *c, unsigned long long v) { atomicAdd(c, v); }
    __global__ void k(unsigned long long *c) { bump(c, 1); }
    """)
    assert "parameter of device function bump" in helper, helper
    alias = _refusal("""
    __global__ void k(unsigned long long *sum, unsigned long long *seen, int *out) {
        atomicAdd(sum, 1ull);
        out[0] = (int)seen[0];
    }
    """)
    assert "variable 'seen'" in alias, alias


def test_a_32_bit_counter_keeps_the_native_atomic():
    out = metal_checked(COUNTER.replace("unsigned long long int", "unsigned int").replace("unsigned long long", "unsigned int"))
    assert "kp_atomic_add_split" not in out
    assert "atomic_fetch_add_explicit((device atomic_uint*)(&stat[b].nodes), n, memory_order_relaxed)" in out


HARNESS = r"""
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>
typedef uint32_t uint;
typedef uint64_t ulong;
typedef std::atomic<uint32_t> atomic_uint;
#define device
using std::memory_order_relaxed;
template <class A, class V> V atomic_fetch_add_explicit(A *a, V v, std::memory_order o) { return a->fetch_add(v, o); }
HELPER
int main() {
    int failures = 0;
    for (ulong start : {0ull, 0xfffffff0ull, 0x1ffffffffull, 0xffffffffffffff00ull}) {
        alignas(8) ulong split = start;
        std::atomic<ulong> whole(start);
        std::vector<std::thread> ts;
        for (int t = 0; t < 4; ++t)
            ts.emplace_back([&, t] {
                std::mt19937_64 r(t * 7919 + start);
                for (int i = 0; i < 200000; ++i) {
                    ulong v = (i % 3 == 0) ? r() : (i % 3 == 1) ? (r() & 0xffffffffull) : (r() & 0xff);
                    kp_atomic_add_split(&split, v);
                    whole.fetch_add(v, std::memory_order_relaxed);
                }
            });
        for (auto &t : ts) t.join();
        if (split != whole.load()) {
            std::printf("start %llx: split %llx != 64-bit %llx\n", (unsigned long long)start,
                        (unsigned long long)split, (unsigned long long)whole.load());
            ++failures;
        }
    }
    std::printf("%d failures\n", failures);
    return failures != 0;
}
"""


def test_the_split_sum_equals_the_64_bit_sum(tmp_path):
    """The prologue's kp_atomic_add_split, compiled as C++ (its 32-bit atomics as std::atomic), against a
    64-bit atomic sum: 4 threads, 200000 adds each, addends across the 64-bit range and near the low word's
    wrap, four starting values (one about to wrap the whole 64 bits)."""
    out = metal_checked(COUNTER)
    helper = re.search(r"inline void kp_atomic_add_split\(device ulong\* address.*?\n}\n", out, re.S).group(0)
    run_host_check(tmp_path, "split_add", HARNESS.replace("HELPER", helper))


MINMAX = """
__global__ void k(unsigned long long *best, const unsigned long long *keys)
{
    atomicMax(best, keys[threadIdx.x]);
    atomicMin(best + 1, keys[threadIdx.x]);
}
"""


def test_a_64_bit_min_max_of_a_device_ulong_is_msl_3_1s():
    """What Metal has: MSL 3.1's void atomic_min/max_explicit on a device atomic_ulong (before: KP212)."""
    out = metal_checked(MINMAX)
    assert "atomic_max_explicit((device atomic_ulong*)(best), keys[tid.x], memory_order_relaxed);" in out
    assert "atomic_min_explicit((device atomic_ulong*)(best + 1), keys[tid.x], memory_order_relaxed);" in out
    assert "Metal Shading Language 3.1 or later" in out


def test_a_64_bit_max_whose_old_value_is_used_or_signed_stays_refused():
    used = _refusal(MINMAX.replace("    atomicMax(best,", "    best[2] = atomicMax(best,"))
    assert "t.cu:4:15" in used and "(here: the old value is used)" in used, used
    signed = _refusal(MINMAX.replace("unsigned long long", "long long").replace("    atomicMin(best + 1, keys[threadIdx.x]);\n", ""))
    assert "(here: a signed type)" in signed, signed
