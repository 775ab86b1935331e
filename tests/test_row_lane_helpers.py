"""A 2-D block's rows are its warps when the lane is `threadIdx.x` alone, also where that lane is taken in a
device helper of the kernel's warp-level group (kernelport/row_lanes.py): no launch in the file, the port
keeps 32-lane groups (width 32) instead of making the helper's fold the wave's.

Held-out set 94 (a flash-attention study): a kernel with `warp = threadIdx.y`, `numWarps = blockDim.y`
calls a header's `warpReduce` that computes `lane = threadIdx.x % warpSize` under a local `constexpr int
warpSize = 32`; the project's host (another file) launches `dim3(32, warps)`.  The port made the helper's
ladder the wave's: at wave 64 one fold covered two rows, and lane 0's broadcast gave both rows the first
row's max.  Each kept port below runs on the emulator at 64 against the original at 32 in blocks (32, 4)."""
from __future__ import annotations

import numpy as np

from port_support import assert_port_at_64_is_original_at_32, ported

HELPER = """\
__device__ float row_max(float v) {
    constexpr int kW = 32;
    int lane = threadIdx.x % kW;
    for (int s = kW / 2; s > 0; s >>= 1) {
        float t = __shfl_down_sync(0xffffffffu, v, s);
        if (lane < s) v = fmaxf(v, t);
    }
    return __shfl_sync(0xffffffffu, v, 0);
}
"""
ROWS = HELPER + """\
__global__ void rows(const float* x, float* out, int n) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    float v = -1e30f;
    for (int k = threadIdx.x; k < n; k += blockDim.x) v = fmaxf(v, x[row * n + k]);
    v = row_max(v);
    out[row * blockDim.x + threadIdx.x] = v;
}
"""


def _same_at_64(code: str, text: str) -> None:
    rng = np.random.default_rng(5)
    args = {"x": rng.integers(-50, 50, 8 * 40).astype(np.float32), "out": np.zeros(8 * 32, np.float32),
            "n": np.int32(40)}
    assert_port_at_64_is_original_at_32(code, text, "rows", args, (2, 1, 1), (32, 4, 1), ("out",))


def test_a_helpers_lane_makes_the_2d_rows_warps():
    port, text = ported(ROWS, dedent=False)
    assert "__shfl_down(v, s, 32)" in port.body and "__shfl(v, 0, 32)" in port.body, port.body
    _same_at_64(ROWS, text)


def test_a_local_warp_size_of_32_in_the_helper_too():
    """The held-out shape: the helper's constant is a local `warpSize = 32` (the port drops it as the
    built-in's copy, and in a 32-lane group the built-in reads 32)."""
    code = ROWS.replace("kW", "warpSize")
    port, text = ported(code, dedent=False)
    assert "__shfl_down(v, s, 32)" in port.body and "threadIdx.x % 32" in port.body, port.body
    _same_at_64(code, text)


def test_a_1d_kernel_calling_the_helper_stays_the_waves():
    """The look-alike: no `threadIdx.y`: a 1-D block's lanes are the hardware's, the wave's fold is right."""
    code = HELPER + """\
__global__ void flat(const float* x, float* out) {
    float v = row_max(x[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % warpSize == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = v;
}
"""
    port, _ = ported(code, dedent=False)
    assert ", 32)" not in port.body and "__shfl_down(v, s)" in port.body, port.body


def test_rows_of_several_warps_stay_the_waves():
    """The look-alike: the helper also takes a warp index within the row (`threadIdx.x / 32`): the rows hold
    several warps, their x is not the lane's, and nothing says rows of 32."""
    code = ROWS.replace("    int lane = threadIdx.x % kW;\n",
                        "    int lane = threadIdx.x % kW;\n    int w = threadIdx.x / kW;\n    v += 0.0f * w;\n")
    port, _ = ported(code, dedent=False)
    assert ", 32)" not in port.body, port.body


def _translate(tmp_path, kernel: str):
    import subprocess
    import sys
    (tmp_path / "rm.h").write_text("#pragma once\n" + HELPER.replace("kW", "warpSize"))
    (tmp_path / "k.cu").write_text('#include "rm.h"\n' + kernel)
    return subprocess.run([sys.executable, "-m", "kernelport", "translate", str(tmp_path / "k.cu"), "--to", "hip",
                           "--stdout"], capture_output=True, text=True)


def test_a_headers_helper_taking_the_rows_lane_is_refused_not_widened(tmp_path):
    """The held-out shape itself: the helper is a header's, whose port (shared by its includers) is the
    wave's.  The kernel's 2-D rows are its warps (the helper's `threadIdx.x % warpSize`), so the call is a
    located KP219 (define the helper in this file), no longer a port that folds two rows at 64."""
    run = _translate(tmp_path, ROWS[len(HELPER):])
    assert run.returncode == 1 and "KP219" in run.stderr and "row_max" in run.stderr, (run.stdout, run.stderr)
    assert "a 2-D block whose lane is `threadIdx.x % warpSize` (in `row_max`" in run.stderr, run.stderr


def test_a_1d_kernel_calling_the_headers_helper_is_written(tmp_path):
    """The look-alike: a 1-D kernel's lanes are the hardware's; the header's wave-wide helper is right for it."""
    run = _translate(tmp_path, """\
__global__ void flat(const float* x, float* out) {
    float v = row_max(x[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x % warpSize == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / warpSize] = v;
}
""")
    assert run.returncode == 0 and "KP219" not in run.stderr, run.stderr
