"""A `__host__ __device__` function's run-time read of a wave-size constant the port makes the wave's (stop 65's
note): main wrote `KP_WAVE_SIZE` (the macro kept) or `warpSize` there, which hipcc's host pass reads as its own
guess (KP_WAVE_SIZE: 32, no __GFX9__ on the host; ROCm 5.2's warpSize: 64 on every host pass), so a host call
(`nwarps(b)` for a launch or a buffer) disagreed with the device's width on gfx90a or on gfx1030.  Now the
function reads `kp_hd_wave_size()` (the prologue's: `warpSize` in the device pass, `kp_device_warp_size()` on the
host).  Look-alikes: a `__device__` function keeps the macro, a host function asks the device as before."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, port_text

SRC = """#define WARP_SIZE 32
__host__ __device__ inline int lane_of(int t) { return t % WARP_SIZE; }
__host__ __device__ inline int warp_of(int t) { return t / WARP_SIZE; }
__host__ __device__ inline int nwarps(int threads) { return (threads + WARP_SIZE - 1) / WARP_SIZE; }
__device__ inline int dev_warps(int threads) { return threads / WARP_SIZE; }
__global__ void k(const float* x, float* out) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    __shared__ float part[WARP_SIZE];
    if (lane_of(threadIdx.x) == 0) part[warp_of(threadIdx.x)] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0;
        for (int w = 0; w < nwarps(blockDim.x) && w < dev_warps(blockDim.x); ++w) s += part[w];
        out[blockIdx.x] = s;
    }
}
int blocks(int n) { int b = 8 * WARP_SIZE; return n / b + nwarps(b); }
"""


def test_a_host_device_functions_width_asks_the_device_on_the_host_pass(tmp_path):
    text = port_text(SRC, dedent=False)
    assert "__host__ __device__ inline int lane_of(int t) { return t % kp_hd_wave_size(); }" in text, text
    assert "return (threads + kp_hd_wave_size() - 1) / kp_hd_wave_size(); }" in text, text
    assert "__device__ inline int dev_warps(int threads) { return threads / WARP_SIZE; }" in text, text
    assert "int blocks(int n) { int b = 8 * kp_device_warp_size();" in text, text
    assert "__host__ __device__ static inline int kp_hd_wave_size()" in text  # the prologue's
    hip_compiles(tmp_path, text)
    args = {"x": np.arange(512, dtype=np.float32), "out": np.zeros(2, dtype=np.float32)}
    assert_port_at_64_is_original_at_32(SRC, text, "k", args, (2,), (256,))


HD_ARRAY = """#define WARP_SIZE 32
__host__ __device__ inline int ranks(const int* m) {
    int slots[WARP_SIZE];
    for (int i = 0; i < WARP_SIZE; ++i) slots[i] = m[i];
    return slots[0];
}
__device__ inline int dev_ranks(const int* m) { int s[WARP_SIZE]; s[0] = m[0]; return s[0]; }
__global__ void k(int* o, float v) {
    for (int d = WARP_SIZE / 2; d > 0; d /= 2) v += __shfl_down_sync(0xffffffff, v, d);
    o[threadIdx.x % WARP_SIZE] = ranks(o) + dev_ranks(o) + (int)v;
}
int host_ranks(const int* m) { return ranks(m); }
"""


def test_an_array_a_host_device_function_sizes_by_the_wave_is_the_host_pass_widest(tmp_path):
    """hip66c item 5: `int slots[WARP_SIZE]` in a __host__ __device__ function stayed KP_WAVE_SIZE, 32 on the host
    pass, while its loop to `kp_hd_wave_size()` (the device's 64 on gfx90a) wrote past it on the host.  Now the bound
    is the prologue's KP_HD_WAVE_BOUND (the device pass's KP_WAVE_SIZE, the host pass's 64).  Look-alike: a
    `__device__` function's array keeps the macro (one pass, its own constant)."""
    text = port_text(HD_ARRAY, dedent=False)
    assert "int slots[KP_HD_WAVE_BOUND];\n    for (int i = 0; i < kp_hd_wave_size(); ++i)" in text, text
    assert "__device__ inline int dev_ranks(const int* m) { int s[WARP_SIZE];" in text, text
    assert "#define KP_HD_WAVE_BOUND KP_WAVE_SIZE\n#else\n#define KP_HD_WAVE_BOUND 64" in text  # the prologue's
    hip_compiles(tmp_path, text)
CONSTANT_READS = """#define WARP_SIZE 32
__host__ __device__ constexpr int nwarps(int t) { return t / WARP_SIZE; }
__host__ __device__ inline int lanes() { static const int w = WARP_SIZE; return w; }
__host__ __device__ inline int lane_of(int t) { return t % WARP_SIZE; }
__global__ void k(const float* x, float* out) {
    __shared__ float part[nwarps(256)];
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane_of(threadIdx.x) == 0) part[threadIdx.x / WARP_SIZE] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0;
        for (int w = 0; w < blockDim.x / lanes(); ++w) s += part[w];
        out[blockIdx.x] = s;
    }
}
"""


def test_constant_reads_in_a_host_device_function_keep_the_compile_time_width(tmp_path):
    # review66b: a constexpr function's read (sizing a __shared__ array) became kp_hd_wave_size(), which hipcc
    # rejects in a constant expression (the port was refused KP233 on the prologue's own host code), and a static
    # local's initializer a dynamic one the device link cannot guard (lld: undefined __cxa_guard_acquire)
    text = port_text(CONSTANT_READS, dedent=False)
    assert "constexpr int nwarps(int t) { return t / WARP_SIZE; }" in text, text
    assert "static const int w = WARP_SIZE;" in text, text
    assert "return t % kp_hd_wave_size(); }" in text, text  # (the look-alike: a run-time read asks at run time)
    hip_compiles(tmp_path, text)
    args = {"x": np.arange(512, dtype=np.float32), "out": np.zeros(2, dtype=np.float32)}
    plain = CONSTANT_READS.replace("part[nwarps(256)]", "part[8]")  # (the emulator folds no constexpr call)
    assert_port_at_64_is_original_at_32(plain, port_text(plain, dedent=False), "k", args, (2,), (256,))


def test_a_host_device_lane_helper_alone_is_ported():
    # review66b: without a host function of its own reading the width, the port's self-check linted the
    # prologue's kp_device_warp_size() (`width = 32`, reached through kp_hd_wave_size() into lane_of's leader
    # test) as the user's host code: KP233 at 1:1 on a file main ported
    src = SRC.replace("int blocks(int n) { int b = 8 * WARP_SIZE; return n / b + nwarps(b); }\n", "")
    assert "return t % kp_hd_wave_size(); }" in port_text(src, dedent=False)


def test_a_header_reading_it_beside_a_file_asking_the_device_compiles(tmp_path):
    # review66b: the prologue put kp_hd_wave_size() under the guard of kp_device_warp_size(): main.hip's prologue
    # (host code only: kp_device_warp_size) defined KP_HAVE_DEVICE_WARP_SIZE first, and the header's port, whose
    # lane_of reads kp_hd_wave_size(), skipped its own definition (hipcc: use of undeclared identifier)
    from trust_support import kp_inproc
    (tmp_path / "lanes.cuh").write_text("#pragma once\n#define WARP_SIZE 32\n"
                                        "__host__ __device__ inline int lane_of(int t) { return t % WARP_SIZE; }\n")
    (tmp_path / "main.cu").write_text('#include "lanes.cuh"\n__global__ void k(const float* x, float* out) {\n'
                                      "    float v = x[threadIdx.x];\n"
                                      "    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
                                      "    if (lane_of(threadIdx.x) == 0) out[blockIdx.x] = v;\n}\n"
                                      "int blocks(int n) { return n / (8 * WARP_SIZE); }\n")
    rc, _, err = kp_inproc("translate", tmp_path / "main.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0, err
    main = (tmp_path / "out" / "main.hip").read_text()
    assert "kp_hd_wave_size" not in main and "kp_device_warp_size()" in main, main
    assert "#ifndef KP_HAVE_HD_WAVE_SIZE" in (tmp_path / "out" / "lanes.hip.h").read_text()
    hip_compiles(tmp_path / "out", main, "main.hip")
