"""Held-out set 60 (parallel primitives): what its first measure showed kernelport refusing or porting wrongly."""
from __future__ import annotations

from conftest import hip_compiles
from kernelport.source import SourceFile
from kernelport.translate import translate

# histogram.cuda's helper header: a `__host__ __device__` function template that launches a kernel and that only
# host code calls (kernelport/device_launches.py): host code in every instance, so the HIP port keeps the launch.
HD_LAUNCH = """\
template <class T> __global__ void fillKernel(T* a, int n, T v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = v;
}
template <class T> __host__ __device__ void fillCu(T* a, int n, T v) { fillKernel<<<(n + 255) / 256, 256>>>(a, n, v); }
void run(float* a, int n) { fillCu(a, n, 1.0f); }
"""


def test_a_host_device_template_launching_a_kernel_for_host_callers_ports(tmp_path):
    port, text = translate(SourceFile.from_text(HD_LAUNCH, "h.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert not [d for d in port.diagnostics if d.code == "KP210"]
    assert "fillKernel<<<" in text
    hip_compiles(tmp_path, text)


def test_a_device_caller_of_the_launching_template_stays_refused():
    # the look-alike: a kernel calls fillCu, so an instance's device side launches a kernel (dynamic parallelism)
    called = HD_LAUNCH + "__global__ void k(float* a) { fillCu(a, 4, 2.0f); }\n"
    port, _ = translate(SourceFile.from_text(called, "h.cu"), "hip")
    assert [(d.code, d.severity, d.location.line) for d in port.diagnostics if d.code == "KP210"] == \
        [("KP210", "error", 5)]
    # and a `__device__`-only template (not host code at all) stays refused with no device caller
    device_only = HD_LAUNCH.replace("__host__ __device__ void fillCu", "__device__ void fillCu").replace(
        "void run(float* a, int n) { fillCu(a, n, 1.0f); }\n", "")
    port, _ = translate(SourceFile.from_text(device_only, "h.cu"), "hip")
    assert [d.code for d in port.diagnostics if d.severity == "error"] == ["KP210"]
    # a static member template defined out of class (`S::go`), called by a kernel as `S::go(...)`: refused too
    member = HD_LAUNCH + """struct S { template <class T> __host__ __device__ static void go(T* a, int n); };
template <class T> __host__ __device__ void S::go(T* a, int n) { fillKernel<<<1, 256>>>(a, n, T(0)); }
__global__ void k(float* a) { S::go(a, 4); }
"""
    port, _ = translate(SourceFile.from_text(member, "h.cu"), "hip")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP210", 8)]


# GPUPrefixSums' warp scan (kernelport/logical_lanes.py): `%laneid` from inline PTX beside shuffles the port keeps
# within 32 lanes (the group is logical).  The port's `__lane_id()` counted 0..63: lane 32 added its own value.
LANE_SCAN = """\
#include <stdint.h>
#define LANE_COUNT 32
__device__ __forceinline__ uint32_t getLaneId() {
    uint32_t laneId;
    asm("mov.u32 %0, %%laneid;" : "=r"(laneId));
    return laneId;
}
__device__ __forceinline__ uint32_t InclusiveWarpScan(uint32_t val) {
    for (int i = 1; i <= 16; i <<= 1) {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, LANE_COUNT);
        if (getLaneId() >= i) val += t;
    }
    return val;
}
__global__ void scan32(uint32_t* data) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    data[i] = InclusiveWarpScan(data[i]);
}
"""


def test_a_logical_groups_ptx_lane_id_is_the_32_lane_warps(tmp_path):
    import numpy as np

    from port_support import assert_port_at_64_is_original_at_32, ported
    _, text = ported(LANE_SCAN, "scan.cu")
    assert "laneId = (__lane_id() & 31);" in text, text
    args = {"data": np.arange(1, 257, dtype=np.uint32)}
    assert_port_at_64_is_original_at_32(LANE_SCAN, text, "scan32", args, (4, 1, 1), (64, 1, 1), ("data",))
    hip_compiles(tmp_path, text)


def test_a_native_groups_ptx_lane_id_stays_the_waves():
    # the look-alike: a wave-wide reduction (no width: the port runs it over the wave) whose lane 0 adds the
    # wave's sum; its lane id is the wave's, as before
    native = LANE_SCAN.replace("""__device__ __forceinline__ uint32_t InclusiveWarpScan(uint32_t val) {
    for (int i = 1; i <= 16; i <<= 1) {
        const uint32_t t = __shfl_up_sync(0xffffffff, val, i, LANE_COUNT);
        if (getLaneId() >= i) val += t;
    }
    return val;
}
""", "").replace("data[i] = InclusiveWarpScan(data[i]);", """uint32_t v = data[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (getLaneId() == 0) atomicAdd(data + 256, v);""")
    from port_support import ported
    _, text = ported(native, "sum.cu")
    assert "laneId = __lane_id();" in text, text


# bitonic-sort-cuda's `util::compare_and_swap(s_data, tid, j, asc)` (kernelport/backends/metal/spaces.py): a helper
# called by its namespace-qualified name takes the address spaces of its call sites, as a plain call's does; the
# Metal port declared its pointer `device` and the threadgroup array did not convert (KP224).
NS_HELPER = """\
namespace util {
__device__ __forceinline__ void cas(int* arr, int i, int j) {
    if (arr[i] > arr[j]) { int t = arr[i]; arr[i] = arr[j]; arr[j] = t; }
}
}
__global__ void k(int* data) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = data[t];
    __syncthreads();
    if ((t & 1) == 0) util::cas(s, t, t + 1);
    __syncthreads();
    data[t] = s[t];
}
"""


def test_a_namespace_qualified_helper_call_takes_the_threadgroup_space():
    from port_support import ported
    _, text = ported(NS_HELPER, "ns.cu", to="metal")
    assert "inline void cas(threadgroup int* arr, int i, int j)" in text, text
    # the look-alike: called on the kernel's buffer, the same helper's pointer stays a device one
    _, text = ported(NS_HELPER.replace("util::cas(s, t, t + 1)", "util::cas(data, t, t + 1)"), "ns.cu", to="metal")
    assert "inline void cas(device int* arr, int i, int j)" in text and "threadgroup int* arr" not in text, text
