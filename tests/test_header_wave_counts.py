"""A header's block reduction counts its block's warps with the project's warp-size macro
(`num_warps = blockDim.x / WARP_SIZE`, llm.c's common.h blockReduce), and the port makes that macro
the wave width.  The count is right only for blocks of whole waves, and the blocks are the includer's:
global_norm.cu sweeps block sizes from 32, so at wave 64 `num_warps` is 0 and the reduction returns 0
(the oracle's full run found it: the HIP port of norm_kernel3 gave 0.0 at wave 64).  The header's
port is refused at the division (KP233) when a kernel of the run that calls the helper may be launched
with a block that is not whole waves; whole-wave launches port as before."""
from __future__ import annotations

import textwrap

from trust_support import kp_inproc

HEADER = textwrap.dedent("""\
    #pragma once
    #define WARP_SIZE 32U
    __device__ inline float warpSum(float v) {
        for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
        return v;
    }
    __device__ inline float blockSum(float v) {
        __shared__ float part[WARP_SIZE];
        const int lane = threadIdx.x % WARP_SIZE;
        const int warp = threadIdx.x / WARP_SIZE;
        const int num_warps = blockDim.x / WARP_SIZE;
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


def _translate(tmp_path, sizes: str):
    (tmp_path / "common.h").write_text(HEADER)
    (tmp_path / "k.cu").write_text(KERNEL.replace("SIZES", sizes))
    return kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "-o", tmp_path / "out")


def test_a_header_count_of_warps_is_refused_for_an_includer_launching_partial_waves(tmp_path):
    rc, _, err = _translate(tmp_path, "32, 64, 128")
    assert rc != 0, err
    assert "common.h:11:27: error: KP233 `blockDim.x / WARP_SIZE`" in err, err
    assert "0 for the 32-thread block a launch of `norm` in " in err and "(line 12)" in err, err


def test_whole_wave_launches_port_the_header(tmp_path):
    rc, _, err = _translate(tmp_path, "64, 128, 256")
    assert rc == 0 and "KP233" not in err, err
    assert "#define WARP_SIZE" in (tmp_path / "out" / "common.hip.h").read_text()


def _overloads(tmp_path, wrapper_calls_it: bool):
    """The counting helper is one overload of two (llm.c common.h's `blockReduce(val, final_sync,
    out_of_bounds)` and its `blockReduce(val)`); the includer calls only the one-argument overload."""
    one = "return blockSum(v, true);" if wrapper_calls_it else "return warpSum(v);"
    header = HEADER.replace("blockSum(float v)", "blockSum(float v, bool sync)") + \
        f"__device__ inline float blockSum(float v) {{ {one} }}\n"
    (tmp_path / "common.h").write_text(header)
    (tmp_path / "k.cu").write_text(KERNEL.replace("SIZES", "32, 64, 128"))
    return kp_inproc("translate", tmp_path / "k.cu", "--to", "hip", "-o", tmp_path / "out")


def test_the_count_is_judged_by_the_calls_that_run_its_overload_and_through_the_headers_own_callers(tmp_path):
    """The includer's kernels run the counting overload through the header's one-argument overload: refused,
    as llm.c global_norm.cu's KP233 at common.h:36 (pinned in tests/realcorpus_outcomes.txt).  Where the
    one-argument overload does not call it, no kernel of the run runs the count: the port is written (the
    caller search by name alone refused it: the overload filter of stop 45, reverted then for losing the
    first case)."""
    rc, _, err = _overloads(tmp_path, True)
    assert rc != 0 and "common.h:11:27: error: KP233 `blockDim.x / WARP_SIZE`" in err, err
    assert "0 for the 32-thread block a launch of `norm` in " in err, err
    (tmp_path / "apart").mkdir()
    rc, _, err = _overloads(tmp_path / "apart", False)
    assert rc == 0 and "KP233" not in err, err
