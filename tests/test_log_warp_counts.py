"""Warp counts spelled other ways than `blockDim.x / WARP_SIZE` (stop 41's leftovers of KP233).

1. A log2-of-the-warp macro (`#define LOG_WARP_SIZE 5`, `warp = threadIdx.x >> LOG_WARP_SIZE`) beside a
   `WARP_SIZE 32` the port makes the wave's: before, the shifts kept 5 while `lane = tid % WARP_SIZE`
   became the wave's, so at wave 64 lanes 0 of each wave stored at every other slot and the block's
   maximum read slots nobody wrote (the emulator's HIP check failed at wave 64).  Each use that reaches a
   warp-level sink is a `>> 5` of its own (warpsites.macro_facts): the port divides by the wave there.
2. A header helper's count no kernel of the header runs is judged against the run's other files'
   kernels that call it, whatever its spelling: `blockDim.x >> LOG_WARP_SIZE`, `blockDim.x / 32`,
   `blockDim.x >> 5` (blocksizes.refuse_wave_count) and the run-time `blockDim.x / warpSize`
   (blocksizes.refuse_runtime_wave_counts), where before only `blockDim.x / WARP_SIZE` was: a launch
   sweeping block sizes from 32 makes the count 0 at wave 64 (KP233 at the header's line); launches of
   whole waves port as before.
"""
from __future__ import annotations

import textwrap

import pytest

from trust_support import kp_inproc, verify_checks

ONE_FILE = textwrap.dedent("""\
    #include <cuda_runtime.h>
    #define WARP_SIZE 32
    #define LOG_WARP_SIZE 5

    __device__ float warpMax(float v) {
        for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));
        return v;
    }

    __device__ float blockMax(float v) {
        __shared__ float part[WARP_SIZE];
        const int lane = threadIdx.x % WARP_SIZE;
        const int warp = threadIdx.x >> LOG_WARP_SIZE;
        const int num_warps = blockDim.x >> LOG_WARP_SIZE;
        v = warpMax(v);
        if (lane == 0) part[warp] = v;
        __syncthreads();
        v = lane < num_warps ? part[lane] : -1e30f;
        return warpMax(v);
    }

    __global__ void maxes(const float* x, float* out) {
        float s = blockMax(x[blockIdx.x * blockDim.x + threadIdx.x] - 2.0f);
        if (threadIdx.x == 0) out[blockIdx.x] = s;
    }

    int main() {
        float *x, *out;
        cudaMalloc(&x, 4 * 256 * sizeof(float));
        cudaMalloc(&out, 4 * sizeof(float));
        maxes<<<4, 256>>>(x, out);
        cudaDeviceSynchronize();
        return 0;
    }
    """)


def test_a_log2_macro_shift_becomes_the_wave_and_the_port_computes_at_32_and_64(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(ONE_FILE)
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0, err
    hip = (tmp_path / "out" / "k.hip").read_text()
    assert "const int warp = threadIdx.x / warpSize;" in hip, hip
    assert "const int num_warps = blockDim.x / warpSize;" in hip, hip
    rc, checks, text = verify_checks(f)
    ports = {(c["backend"], c["wave"]): c["status"] for c in checks if c["kind"] == "numeric"}
    assert rc == 0 and ports[("hip", 64)] == ports[("hip", 32)] == "pass", text


def test_a_log2_macro_into_a_bitset_stays_as_written(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(textwrap.dedent("""\
        #define LOG_BITS 5
        __global__ void mark(unsigned *bits, const int *idx, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) atomicOr(&bits[idx[i] >> LOG_BITS], 1u << (idx[i] & 31));
        }
        """))
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0, err
    assert "bits[idx[i] >> LOG_BITS]" in (tmp_path / "out" / "k.hip").read_text()


HEADER = textwrap.dedent("""\
    #pragma once
    DEFINES
    __device__ inline float warpSum(float v) {
        for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
        return v;
    }
    __device__ inline float blockSum(float v) {
        __shared__ float part[32];
        const int lane = threadIdx.x % WIDTH;
        const int warp = WARP;
        const int num_warps = COUNT;
        v = warpSum(v);
        if (lane == 0) part[warp] = v;
        __syncthreads();
        v = lane < num_warps ? part[lane] : 0.0f;
        return warpSum(v);
    }
    """)

KERNEL = textwrap.dedent("""\
    #include "common.h"
    __global__ void norm(float *out, const float *x, int n) {
        float s = 0.0f;
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += x[i] * x[i];
        s = blockSum(s);
        if (threadIdx.x == 0) atomicAdd(out, s);
    }
    void run(float *out, const float *x, int n, int block_size) {
        norm<<<8, block_size>>>(out, x, n);
    }
    int main() {
        int block_sizes[] = {SIZES};
        for (int j = 0; j < (int)(sizeof(block_sizes) / sizeof(int)); j++) run(0, 0, 1 << 20, block_sizes[j]);
        return 0;
    }
    """)

SPELLINGS = {  # count: (defines, lane width, warp index, the count)
    "blockDim.x >> LOG_WARP_SIZE": ("#define WARP_SIZE 32U\n#define LOG_WARP_SIZE 5", "WARP_SIZE",
                                    "threadIdx.x >> LOG_WARP_SIZE"),
    "blockDim.x / 32": ("", "32", "threadIdx.x / 32"),
    "blockDim.x >> 5": ("", "32", "threadIdx.x >> 5"),
    "blockDim.x / warpSize": ("", "warpSize", "threadIdx.x / warpSize"),
}


def _project(tmp_path, count: str, sizes: str):
    defines, width, warp = SPELLINGS[count]
    header = HEADER.replace("DEFINES", defines).replace("WIDTH", width).replace("WARP", warp, 1)
    (tmp_path / "common.h").write_text(header.replace("COUNT", count))
    (tmp_path / "k.cu").write_text(KERNEL.replace("SIZES", sizes))
    return header.split("COUNT")[0].count("\n") + 1, header.split("\n")[header.split("COUNT")[0].count("\n")]


@pytest.mark.parametrize("count", list(SPELLINGS))
def test_a_header_count_is_refused_for_an_includer_launching_partial_waves(tmp_path, count):
    line, text = _project(tmp_path, count, "32, 64, 128")
    col = text.index("COUNT") + 1
    rc, _, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc != 0, err
    assert f"common.h:{line}:{col}: error: KP233 `{count}` counts the block's 32-lane warps" in err, err
    assert "0 for the 32-thread block a launch of `norm` in " in err, err


@pytest.mark.parametrize("count", list(SPELLINGS))
def test_whole_wave_includers_port_the_header(tmp_path, count):
    _project(tmp_path, count, "64, 128, 256")
    rc, _, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP233" not in err, err
    port = (tmp_path / "out" / "common.hip.h").read_text()
    assert "const int num_warps = blockDim.x / warpSize;" in port, port


def test_a_rounded_up_run_time_count_stays_quiet(tmp_path):
    """`(blockDim.x + warpSize - 1) / warpSize` counts a partial wave too: 1 for 32 threads at wave 64."""
    _project(tmp_path, "blockDim.x / warpSize", "32, 64, 128")
    header = (tmp_path / "common.h").read_text()
    (tmp_path / "common.h").write_text(header.replace("blockDim.x / warpSize", "(blockDim.x + warpSize - 1) / warpSize"))
    rc, _, err = kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP233" not in err, err


# 3. The same index in an expression macro's body (`#define WARP_ID (threadIdx.x >> LOG_WARP_SIZE)`): the dataflow
#    reads an object-like macro's value where it is written (kernelport/lane_macros.py), so its `>> 5` is a site
#    of the `#define` line, rewritten there as the function's own would be (`threadIdx.x / KP_WAVE_SIZE`, the
#    file-scope wave constant), and the port computes at 32 and 64.  (Before stop 61 the body stayed 32-based
#    beside the port's wave-wide lane, verify HIP wave 64 FAIL, and was refused at the use: KP219,
#    macro_warp_math.refuse_unfollowed_warp_math, which still guards what the dataflow cannot read.)
@pytest.mark.parametrize("body", ["(threadIdx.x >> LOG_WARP_SIZE)", "(threadIdx.x >> 5)", "(threadIdx.x / 32)"])
def test_a_warp_index_in_a_macro_body_is_ported_in_the_define(tmp_path, body):
    src = ONE_FILE.replace("#define LOG_WARP_SIZE 5", f"#define LOG_WARP_SIZE 5\n#define WARP_ID {body}")
    src = src.replace("const int warp = threadIdx.x >> LOG_WARP_SIZE;", "const int warp = WARP_ID;")
    f = tmp_path / "k.cu"
    f.write_text(src)
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP219" not in err, err
    hip = (tmp_path / "out" / "k.hip").read_text()
    assert "#define WARP_ID (threadIdx.x / KP_WAVE_SIZE)" in hip and "const int warp = WARP_ID;" in hip, hip
    if body == "(threadIdx.x >> 5)":  # one verify (the emulator at both widths) for the three spellings' one port
        rc, checks, text = verify_checks(f)
        ports = {(c["backend"], c["wave"]): c["status"] for c in checks if c["kind"] == "numeric"}
        assert rc == 0 and ports[("hip", 64)] == ports[("hip", 32)] == "pass", text


def test_a_macro_body_over_the_ported_warp_size_macro_ports(tmp_path):
    src = ONE_FILE.replace("#define LOG_WARP_SIZE 5", "#define LOG_WARP_SIZE 5\n#define WARP_ID (threadIdx.x / WARP_SIZE)")
    src = src.replace("const int warp = threadIdx.x >> LOG_WARP_SIZE;", "const int warp = WARP_ID;")
    f = tmp_path / "k.cu"
    f.write_text(src)
    rc, _, err = kp_inproc("translate", f, "--to", "hip", "-o", tmp_path / "out")
    assert rc == 0 and "KP219" not in err, err
    rc, checks, text = verify_checks(f)
    ports = {(c["backend"], c["wave"]): c["status"] for c in checks if c["kind"] == "numeric"}
    assert ports[("hip", 64)] == ports[("hip", 32)] == "pass", text


# 4. The portable port makes `WARP_SIZE` the bound `KP_WAVE_MAX` (64) and each device-value use in a function the
#    run-time `kp_wave_size()`, but a use inside a macro body (`#define WARP_ID (threadIdx.x / WARP_SIZE)`) was unparsed
#    text the rewrite never read: at wave 32 the warp index was `threadIdx.x / 64`, lanes 0 of two warps stored to one
#    slot (verify: portable wave 32 FAIL, sm_80 and gfx1030, with a write-after-write race on part[0]).  A device
#    body's uses of the file's warp-size macros are rewritten as a function's are (macro_bodies.rewrite).
@pytest.mark.parametrize("log2", [True, False], ids=["with_log2_macro", "without_log2_macro"])
def test_a_macro_body_over_the_bound_warp_size_macro_computes_at_32_and_64_portable(tmp_path, log2):
    src = ONE_FILE.replace("#define LOG_WARP_SIZE 5", "#define LOG_WARP_SIZE 5\n#define WARP_ID (threadIdx.x / WARP_SIZE)")
    src = src.replace("const int warp = threadIdx.x >> LOG_WARP_SIZE;", "const int warp = WARP_ID;")
    if not log2:
        src = src.replace("#define LOG_WARP_SIZE 5\n", "").replace("blockDim.x >> LOG_WARP_SIZE", "blockDim.x / WARP_SIZE")
    assert ("LOG_WARP_SIZE" in src) == log2
    f = tmp_path / "k.cu"
    f.write_text(src)
    rc, _, err = kp_inproc("translate", f, "--to", "portable", "-o", tmp_path / "out")
    assert rc == 0, err
    port = (tmp_path / "out" / "k.portable.cu").read_text()
    assert "#define WARP_ID (threadIdx.x / kp_wave_size())" in port and "__shared__ float part[WARP_SIZE];" in port, port
    rc, checks, text = verify_checks(f)
    ports = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "portable"]
    assert rc == 0 and ports and all(c["status"] == "pass" for c in ports), text
    assert {c["wave"] for c in ports} == {32, 64}, text


def test_a_macro_body_keeps_the_bound_where_it_sizes_an_array(tmp_path):
    """The look-alike: in a device body the same macro as an array's size stays the bound (a size must be a
    constant: `kp_wave_size()` would not compile), while its lane index beside it becomes the run-time width."""
    src = ONE_FILE.replace("#define LOG_WARP_SIZE 5", "#define LOG_WARP_SIZE 5\n#define SLOTS(name) "
                           "__shared__ float name[WARP_SIZE]; const int lane = threadIdx.x % WARP_SIZE; const int warp = threadIdx.x / WARP_SIZE")
    src = src.replace("__shared__ float part[WARP_SIZE];\n    const int lane = threadIdx.x % WARP_SIZE;\n"
                      "    const int warp = threadIdx.x >> LOG_WARP_SIZE;", "SLOTS(part);")
    assert "SLOTS(part);" in src
    f = tmp_path / "k.cu"
    f.write_text(src)
    rc, _, err = kp_inproc("translate", f, "--to", "portable", "-o", tmp_path / "out")
    assert rc == 0, err
    port = (tmp_path / "out" / "k.portable.cu").read_text()
    assert "__shared__ float name[WARP_SIZE]; const int lane = threadIdx.x % kp_wave_size(); " \
           "const int warp = threadIdx.x / kp_wave_size()" in port, port
    rc, checks, text = verify_checks(f)
    ports = [c for c in checks if c["kind"] == "numeric" and c["backend"] == "portable"]
    assert rc == 0 and ports and all(c["status"] == "pass" for c in ports), text
