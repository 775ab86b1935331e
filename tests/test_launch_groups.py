"""A launch is no call (kernelport/launchgroups.py): each kernel's warp-level group is decided from its own
launches' geometry, and host code takes the width of the kernels it launches.

The LC framework's codes (FPcompress, PFPL) launch a one-thread `d_reset<<<1, 1>>>()` before their voting
`d_encode<<<blocks, 512>>>`: the host function that launches both made them one group, so the reset's
block of 1 made the encoder's votes KP219.  Cutting the join alone also cut the launch geometry the host
code's warp sizes read (a 32-thread block's `WARP_SIZE` rows became the wave: tests/test_wave_counts.py);
the host now takes its kernels' width, and a launcher of kernels of different widths joins them again.
"""
from __future__ import annotations

import textwrap

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.lint.engine import lint_text
from kernelport.lint.rules.ws_geometry import _BLOCK_MAX
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles
from test_sound_widths import RESET_THEN_VOTE


def port(src: str):
    return translate(SourceFile.from_text(textwrap.dedent(src), "t.cu"), "hip")


def _count(src: str, wave: int, backend=None) -> int:
    x = np.random.default_rng(3).integers(-5, 5, 512, dtype=np.int32)
    out = np.zeros(1, np.int32)
    r = run_kernel(src, "count_positive", args={"in": x, "out": out}, grid=(2,), block=(256,), wave=wave,
                   backend=backend)
    return int(r.outputs["out"][0])


def test_the_voting_kernel_beside_a_reset_counts_at_64_what_it_counts_at_32_and_compiles(tmp_path):
    p, text = port(RESET_THEN_VOTE)
    assert p.ok, [d.format() for d in p.diagnostics]
    want = _count(RESET_THEN_VOTE, 32)
    assert want == int((np.random.default_rng(3).integers(-5, 5, 512, dtype=np.int32) > 0).sum())
    assert _count(text, 64, backend="hip") == want  # the wave's ballot, counted once per 64-lane wave
    hip_compiles(tmp_path, text, extra_args=("-std=c++17",))


# Two warp-level kernels of one launcher with different geometries: rows of 32 threads (`dim3(WARP_SIZE,
# 4)`, whose code keeps 32-lane rows) and whole waves.  Each alone gets its own width, but the host's
# `WARP_SIZE` sizes the rows: made the wave, the rows kernel's block would be 64 wide while its code stays
# 32 (a silent wrong port: lanes 32-63 of each row never summed).  Such a launcher joins its kernels
# again: one group, decided from all their launches, as before the cut.
ROWS_AND_WAVES = """
#define WARP_SIZE 32
__global__ void rows(float* out, const float* x) {
    float v = x[threadIdx.y * WARP_SIZE + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) out[threadIdx.y] = v;
}
__global__ void whole(float* out, const float* x) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}
void run(float* out, const float* x) {
    rows<<<1, dim3(WARP_SIZE, 4)>>>(out, x);
    whole<<<16, 256>>>(out + 4, x);
}
"""


def test_a_launcher_of_kernels_of_different_widths_never_makes_the_rows_the_wave():
    p, text = port(ROWS_AND_WAVES)
    assert "#define WARP_SIZE KP_WAVE_SIZE" not in text and "kp_device_warp_size" not in text, text
    assert not p.ok or "#define WARP_SIZE 32\n" in text  # (main refuses it KP220: lint's WS001 on the port)


# The rows' width named by a file-scope constant: a launch block `dim3(kWarp, 4)` is rows of 32 (it was
# unknown geometry, and the rows kernel a wave-wide group: its ladder from `warpSize / 2` read the next row).
ROWS_CONSTEXPR = ROWS_AND_WAVES.replace("#define WARP_SIZE 32", "constexpr int WARP_SIZE = 32;") \
    .replace("WARP_SIZE", "kWarp")


def _rows(src: str, wave: int, backend=None) -> list[float]:
    x = np.arange(128, dtype=np.float32)
    out = np.zeros(4, np.float32)
    r = run_kernel(src, "rows", args={"out": out, "x": x}, grid=(1,), block=(32, 4), wave=wave, backend=backend)
    return r.outputs["out"].tolist()


def test_rows_of_a_constexpr_width_keep_32_lanes_and_sum_each_row_at_64(tmp_path):
    p, text = port(ROWS_CONSTEXPR)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "dim3(kWarp, 4)" in text and "for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o, 32);" in p.body, \
        p.body
    want = _rows(ROWS_CONSTEXPR, 32)
    assert want == [float(sum(range(32 * r, 32 * r + 32))) for r in range(4)]
    assert _rows(text, 64, backend="hip") == want
    hip_compiles(tmp_path, text, extra_args=("-std=c++17",))


def test_the_voting_kernel_launched_beside_the_reset_with_32_threads_is_still_refused():
    # a look-alike: the votes' own launch is 96 threads, a partial 64-lane wave: refused as on main
    src = RESET_THEN_VOTE.replace("count_positive<<<n / 256, 256>>>", "count_positive<<<n / 96, 96>>>")
    p, _ = port(src)
    # once, at the vote: the launcher takes the kernel's width and is not refused again at its launch
    got = [(d.code, d.location.line) for d in p.diagnostics if d.severity == "error"]
    assert got == [("KP219", 6)], [d.format() for d in p.diagnostics]


def _ws011(src: str) -> list[int]:
    return [f.line for f in lint_text(src.lstrip("\n"), "t.cu", select=["WS011"])]


def test_per_warp_slots_read_below_the_warp_count_are_quiet_without_a_reset_launch_beside_them():
    # the softmax samples' block max: stored at `threadIdx.x / warpSize` (at most 16 warps of 64 lanes),
    # read at `laneId` only under `laneId < warpNum`: 32 slots hold at either width.  It was quiet only
    # because `set_lowest<<<1, 1>>>` made the kernel a 32-lane group; alone it is a wave-wide one.
    alone = _BLOCK_MAX.replace("    set_lowest<<<1, 1>>>(max_device);\n", "")
    assert alone != _BLOCK_MAX
    assert _ws011(alone) == [] and _ws011(_BLOCK_MAX) == []
    # look-alikes: the read with no bound, a lane of a hardcoded 32 (the port makes it the wave's)
    assert _ws011(alone.replace("(laneId < warpNum) ? s_mem[laneId] : -1e30f", "s_mem[laneId]")) == [4]
    assert _ws011(alone.replace("int laneId = threadIdx.x % warpSize;", "int laneId = threadIdx.x % 32;")) == [4]
