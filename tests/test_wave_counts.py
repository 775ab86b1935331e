"""A block's wave count (`blockDim.x / warpSize`) for blocks that are not whole waves (WS031), and
the grid of a kernel whose block owns a wave's width of elements sized from 32 (WS015): the two
halves of llm.c's matmul_backward_bias_kernel4, whose HIP port hung at wave 64 in verify's device
oracle (stop 36) while lint and translate said nothing.  Translate refuses such a port at the line
(KP225): the right grid or block depends on sizes the file does not bound (OC a multiple of 64)."""
from __future__ import annotations

import textwrap

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

# kernel4's shape: rows stepped by the block's wave count, a block per wave of columns, and a test
# program that sweeps the block size through two host functions.
KERNEL4 = """
__global__ void bias_kernel4(float* dbias, const float* dout, int BT, int OC) {
    extern __shared__ float smem[];
    const int warp_id = threadIdx.x / warpSize;
    const int lane_id = threadIdx.x % warpSize;
    const int tl = blockIdx.x * warpSize;
    const int vstep = blockDim.x / warpSize;
    const float* col = dout + tl + lane_id;
    float s = 0.0f;
    for (int row = warp_id; row < BT; row += vstep) s += col[row * OC];
    smem[lane_id + warp_id * warpSize] = s;
    __syncthreads();
    if (warp_id == 0) {
        s = 0.0f;
        for (int j = 0; j < vstep; j++) s += smem[lane_id + j * warpSize];
        dbias[tl + lane_id] += s;
    }
}
void bias4(float* dbias, const float* dout, int BT, int OC, int block_size) {
    const int grid_size = GRID;
    bias_kernel4<<<grid_size, block_size, block_size * sizeof(float)>>>(dbias, dout, BT, OC);
}
void bias(int kernel_num, float* dbias, const float* dout, int BT, int OC, int block_size) {
    switch (kernel_num) {
    case 4: bias4(dbias, dout, BT, OC, block_size); break;
    }
}
int main() {
    int block_sizes[] = {SIZES};
    for (int j = 0; j < 3; j++) {
        int block_size = block_sizes[j];
        bias(4, 0, 0, 64, 128, block_size);
    }
    return 0;
}
"""
VSTEP_LINE, GRID_LINE = 6, 19


def code(sizes: str = "32, 128, 1024", grid: str = "OC / 32") -> str:
    return textwrap.dedent(KERNEL4).lstrip("\n").replace("SIZES", sizes).replace("GRID", grid)


def lint(text: str, select: str):
    return [(f.code, f.line) for f in lint_text(text, "t.cu", select=[select]) if f.severity == "error"]


def test_a_block_size_swept_from_32_makes_the_wave_count_zero_on_a_64_lane_wave():
    found = [f for f in lint_text(code(), "t.cu", select=["WS031"])]
    assert [(f.code, f.line, f.severity) for f in found] == [("WS031", VSTEP_LINE, "error")]
    assert "is 0 for the 32-thread block" in found[0].message
    assert found[0].related and found[0].related[0].line == 28  # the sweep's 32


def test_whole_waves_and_unknown_sizes_stay_quiet():
    assert lint(code(sizes="64, 128, 1024"), "WS031") == []
    assert lint(code().replace("block_sizes[j]", "atoi(argv[j])"), "WS031") == []
    # rows of 32 threads are the kernel's own groups, not the wave: WS003's question
    assert lint(code(sizes="32, 96").replace("blockDim.x / warpSize", "blockDim.x / 32"), "WS031") == []


def test_a_partial_wave_is_reported_with_its_count():
    found = lint_text(code(sizes="96, 256, 1024"), "t.cu", select=["WS031"])
    assert [f.line for f in found] == [VSTEP_LINE]
    assert "counts 1 where 2 run for the 96-thread block" in found[0].message


def test_a_grid_of_32_element_blocks_for_a_wave_tiled_kernel_is_ws015():
    assert lint(code(sizes="256"), "WS015") == [("WS015", GRID_LINE)]
    # the kernel's block owns 32 columns whatever the wave: the grid from 32 is right
    logical = code(sizes="256").replace("blockIdx.x * warpSize", "blockIdx.x * 32")
    assert lint(logical, "WS015") == []


def test_translate_refuses_both_at_their_lines():
    port, _ = translate(SourceFile.from_text(code(), "t.cu"), "hip")
    assert not port.ok
    got = sorted((d.location.line, d.message.split(" ")[0]) for d in port.diagnostics if d.code == "KP225")
    # and the sweep's 32: a wave-tiled kernel's block of 32 threads is half a 64-lane wave
    assert got == [(VSTEP_LINE, "WS031"), (GRID_LINE, "WS015"), (28, "WS015")]
    port, _ = translate(SourceFile.from_text(code(sizes="64, 256", grid="OC / warp_cols"), "t.cu"), "hip")
    assert not [d for d in port.diagnostics if d.code == "KP225"]


# A count of 32-lane warps the port makes the wave's (WS003's rewrite): for a 32-thread block it
# would be 0 on a 64-lane wave (llm.c's softmax_forward_kernel7, swept from 32 threads).  Rows whose
# warp operations width 32 keeps are kept instead (tests/test_keep_rows.py); a row leader chosen by a
# ballot is not such a row.
ROWMAX = open(__file__.replace("test_wave_counts.py", "fixtures/wave_counts/rowmax.cu")).read()
BALLOT_LEADER = "if (lane == __ffs(__ballot_sync(0xffffffff, 1)) - 1)"


def test_the_port_does_not_make_a_warp_count_the_wave_count_for_partial_blocks():
    for count in ("blockDim.x / 32", "blockDim.x >> 5"):
        text = ROWMAX.replace("SIZES", "32, 128, 256").replace("blockDim.x / 32", count) \
            .replace("if (lane == 0)", BALLOT_LEADER)
        port, _ = translate(SourceFile.from_text(text, "t.cu"), "hip")
        got = [(d.location.line, d.location.column) for d in port.diagnostics if d.code == "KP233"]
        assert not port.ok and got == [(2, 24)], count
        assert "0 for the 32-thread block" in next(d.message for d in port.diagnostics if d.code == "KP233")


def test_whole_waves_keep_the_rewrite():
    port, text = translate(SourceFile.from_text(ROWMAX.replace("SIZES", "64, 128, 256"), "t.cu"), "hip")
    assert port.ok and "const int nwarps = blockDim.x / warpSize;" in text


# A warp-level kernel (a ladder over the whole wave) whose host sweeps its block from 32: on a 64-lane
# wave the 32-thread block is half a wave, whose other lanes the ladder reads (WS015 at the 32).
WAVE_SUM = """
__global__ void wave_sum(float* out, const float* x) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}
void run(float* out, const float* x, int n, int threads) { wave_sum<<<n / threads, threads>>>(out, x); }
int main() {
    int sizes[] = {SIZES};
    for (int j = 0; j < 3; j++) run(0, 0, 4096, sizes[j]);
    return 0;
}
"""


def test_a_swept_block_of_32_for_a_warp_level_kernel_is_ws015_at_the_32():
    found = lint_text(WAVE_SUM.lstrip("\n").replace("SIZES", "32, 128, 256"), "t.cu", select=["WS015"])
    assert [(f.line, f.column, f.severity) for f in found] == [(8, 20, "error")]
    assert "blocks of 32 threads, not a whole 64-lane wave" in found[0].message
    assert lint(WAVE_SUM.lstrip("\n").replace("SIZES", "64, 128, 256"), "WS015") == []


def test_rows_made_the_wave_for_a_partial_block_are_refused_not_a_kernelport_bug():
    # 32-lane rows of a `WARP_SIZE 32` macro compute the same at 64 as written (lint's advice): the port
    # keeps them (the macro stays 32).  With a ballot's leader it would make them the wave, which a
    # 32-thread block cannot fill: refused at the sweep, not KP220 (KP225: the ballot makes the sweep's
    # 32 lint's WS015 in the original too).
    text = "#define WARP_SIZE 32\n" + ROWMAX.replace("SIZES", "32, 128, 256").replace("blockDim.x / 32", "blockDim.x / WARP_SIZE")
    port, out = translate(SourceFile.from_text(text, "t.cu"), "hip")
    assert port.ok and "#define WARP_SIZE 32\n" in out and "blockDim.x / WARP_SIZE;" in out
    port, _ = translate(SourceFile.from_text(text.replace("if (lane == 0)", BALLOT_LEADER), "t.cu"), "hip")
    assert not port.ok
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP225", 20)]
