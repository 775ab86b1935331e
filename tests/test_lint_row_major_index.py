"""A kernel's row-major thread index (`threadIdx.y * W + threadIdx.x`, W the block's x width) is its thread
index for the 32-lane rows it splits (kernelport/rowmajor.py, kernelport/warpsplits.py), and a braced ladder
start (`for (int off{16}; ...)`) is a ladder start (kernelport/lint/rowsplits.py).

heldout71's cujpegxl frontend_fused.cu: `dim3 block{8, 8}`, `const int tid{threadIdx.y * 8 + threadIdx.x}`,
a shuffle ladder from 16 per 32-lane warp, `if ((tid & 31) == 0) sh_red[tid >> 5][k] = ...`, thread 0 adding
both rows' slots: correct at wave 64 as written (lane 32's ladder reads lanes 32-63 only), so WS002, WS003 and
WS004 are advice there (info), not hazards.  Look-alikes that stay hazards: no launch in the file (W unknown), a
launch whose x is not W (`dim3 block{16, 4}`: `tid` is then no thread index).
"""
from __future__ import annotations

from kernelport.lint.engine import lint_text

KERNEL = """\
__device__ inline float warp_reduce_sum(float v) {
    for (int off{16}; off > 0; off >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, off);
    }
    return v;
}

__global__ void k(const float* x, float* out) {
    __shared__ float sh_red[2][2];
    const int tid{INDEX};
    float a = x[blockIdx.x * 64 + tid];
    const float a_red{warp_reduce_sum(a)};
    const float b_red{warp_reduce_sum(a * a)};
    if ((tid & 31) == 0) {
        const int w{tid >> 5};
        sh_red[w][0] = a_red;
        sh_red[w][1] = b_red;
    }
    __syncthreads();
    if (tid == 0) {
        out[2 * blockIdx.x] = sh_red[0][0] + sh_red[1][0];
        out[2 * blockIdx.x + 1] = sh_red[0][1] + sh_red[1][1];
    }
}
"""
LAUNCH = """
void run(const float* x, float* out, int n) {
    const dim3 block{BLOCK};
    k<<<n, block>>>(x, out);
}
"""
ROW_MAJOR = "static_cast<int>(threadIdx.y) * 8 + static_cast<int>(threadIdx.x)"


def _severities(index: str = ROW_MAJOR, block: str | None = "8, 8") -> dict[str, str]:
    src = KERNEL.replace("INDEX", index) + (LAUNCH.replace("BLOCK", block) if block is not None else "")
    return {f.code: f.severity.name.lower() if hasattr(f.severity, "name") else str(f.severity)
            for f in lint_text(src, "k.cu") if f.code in ("WS002", "WS003", "WS004")}


def test_a_row_major_index_of_the_launched_block_splits_rows_like_threadidx_x():
    for index in (ROW_MAJOR, "threadIdx.y * 8 + threadIdx.x", "threadIdx.x + 8 * threadIdx.y",
                  "(int)threadIdx.y * blockDim.x + (int)threadIdx.x"):
        got = _severities(index)
        assert set(got) == {"WS002", "WS003", "WS004"} and set(got.values()) == {"info"}, (index, got)
    got = _severities(ROW_MAJOR, "8, 8, 2")  # 128 threads: four whole rows
    assert set(got.values()) == {"info"}, got


def test_an_index_the_launches_do_not_make_linear_stays_a_hazard():
    for index, block in ((ROW_MAJOR, None), (ROW_MAJOR, "16, 4"),
                         ("threadIdx.y * 9 + threadIdx.x", "8, 8"), ("threadIdx.z * 8 + threadIdx.x", "8, 8")):
        got = _severities(index, block)
        assert got and "info" not in got.values(), (index, block, got)
