"""A 2-D block whose lane is `threadIdx.x` alone (held-out set 14: cuTT's tiled transposes): rows of
32 threads are the warps, so with no launch in sight the port keeps 32-lane groups instead of
folding the whole wave (which at 64 sums two rows whose `threadIdx.x` repeat 0-31)."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), backend)[0]


ROWS = """
__global__ void row_sums(const float* in, float* out) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * blockDim.y + threadIdx.y;
    float v = in[row * 32 + lane];
    for (int i = 16; i >= 1; i /= 2) v += __shfl_xor_sync(0xffffffff, v, i);
    if (lane == 0) out[row] = v;
}
"""


def test_two_d_rows_keep_32_lane_groups_without_a_launch():
    p = port(ROWS)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__shfl_xor(v, i, 32)" in p.body  # each row folds its own 32 lanes
    assert "warpSize" not in p.body.split("row_sums", 1)[1]


def test_two_d_rows_with_warp_size_spelled_keep_32_lane_groups():
    code = ROWS.replace("threadIdx.x & 31", "threadIdx.x & (warpSize - 1)")
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__shfl_xor(v, i, 32)" in p.body


def test_two_d_rows_with_a_ballot_are_refused_located():
    code = """
    __global__ void tile(const int* in, int* out, int ny) {
        const int lane = threadIdx.x % warpSize;
        const int y = blockIdx.y * blockDim.y + threadIdx.y;
        const unsigned int mask = __ballot_sync(0xffffffff, y + lane < ny) * (threadIdx.x < 16);
        if (mask & (1u << 8)) out[y * 32 + threadIdx.x] = in[y * 32 + threadIdx.x];
    }
    """
    p = port(code)
    assert not p.ok
    kp219 = [d for d in p.diagnostics if d.code == "KP219"]
    assert kp219 and kp219[0].line >= 2 and "2-D block" in kp219[0].message


def test_one_d_block_still_folds_the_wave():  # look-alike: no threadIdx.y, full blocks assumed
    code = """
    __global__ void block_sums(const float* in, float* out) {
        const int lane = threadIdx.x & 31;
        float v = in[blockIdx.x * blockDim.x + threadIdx.x];
        for (int i = 16; i >= 1; i /= 2) v += __shfl_xor_sync(0xffffffff, v, i);
        if (lane == 0) atomicAdd(out + blockIdx.x, v);
    }
    """
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "warpSize / 2" in p.body and ", 32)" not in p.body


def test_linear_thread_index_still_folds_the_wave():  # look-alike: the lane comes from the linear index
    code = ROWS.replace("const int lane = threadIdx.x & 31;",
                        "const int tid = threadIdx.y * blockDim.x + threadIdx.x;\n    const int lane = tid & 31;")
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "warpSize / 2" in p.body and ", 32)" not in p.body


def _lint_codes(code: str) -> set[str]:
    from kernelport.lint.engine import lint_text
    return {f.code for f in lint_text(textwrap.dedent(code), "t.cu") if f.severity in ("error", "warning")}


def test_lint_leaves_rows_of_32_alone():  # correct at 64 as written: each row keeps its own 32 lanes
    codes = _lint_codes(ROWS)
    assert not codes & {"WS002", "WS004"}, codes


def test_lint_still_flags_the_one_d_ladder_from_16():  # look-alike: a 1-D block's ladder misses lanes 32-63
    codes = _lint_codes(ROWS.replace("blockIdx.x * blockDim.y + threadIdx.y", "blockIdx.x"))
    assert "WS004" in codes, codes


def test_rows_of_several_warps_still_fold_the_wave():  # look-alike: `threadIdx.x / 32` says x > 32
    code = ROWS.replace("if (lane == 0) out[row] = v;", "if (lane == 0 && threadIdx.x / 32 == 0) out[row] = v;")
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "warpSize / 2" in p.body and ", 32)" not in p.body


def test_a_launch_whose_block_is_not_known_still_leaves_rows_of_32():  # cuTT: `<<<lc.numblock, lc.numthread>>>`
    code = ROWS + """
    struct LaunchConfig { dim3 numblock, numthread; };
    void run(const LaunchConfig& lc, const float* in, float* out) { row_sums<<<lc.numblock, lc.numthread>>>(in, out); }
    """
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__shfl_xor(v, i, 32)" in p.body
