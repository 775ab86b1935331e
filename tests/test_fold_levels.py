"""Every lane reading a ladder fold whose value depends on the width keeps CUDA's 32-lane groups in the
port (kernelport/fold_levels.py); a second level's full fold (an xor butterfly over per-warp slots, a down
ladder's lane 0 broadcast, every slot read in turn, a total broadcast through slot 0) stays wave-wide.

Stop 47 (bench/block_reduce_ports47.txt) left `float v = warp_sum(x[i]); y[i] = x[i] / v;` (a down ladder
from 16 in a helper) and the two-level sums whose every lane reads a first-level fold written wave-wide:
`kernelport verify --oracle original` failed them at 64 (bench/block_reduce_ports48.txt).  Each port kept
here is run on the emulator at wave 64 against the original at wave 32; each wave-wide one too."""
from __future__ import annotations

import numpy as np
import pytest

from port_support import assert_port_at_64_is_original_at_32, ported
from test_warp_counts import BLOCK_SUM


PLAIN = """\
__device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__global__ void block_sum(const float* x, float* y, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = warp_sum(x[i]);
    y[i] = x[i] / v;
}
"""
SECOND = "v = lane < blockDim.x / 32 ? part[lane] : 0.0f; v = warp_sum(v);"  # every warp folds the slots
XOR = ("__shfl_down_sync(0xffffffffu, v, o)", "__shfl_xor_sync(0xffffffffu, v, o)")
KEPT = {  # every lane reads a width-dependent value: 32-lane groups
    "plain": PLAIN,
    "second_down_every_lane": BLOCK_SUM.replace("READ", SECOND),  # lanes 1-31 hold partial folds of the slots
    "slot_per_lane": BLOCK_SUM.replace("READ", "v = lane < blockDim.x / 32 ? part[lane] : 0.0f;"),  # warp k's
}
WAVE = {  # every lane reads the block's fold: the same at either width, the port stays the wave's
    "second_xor": BLOCK_SUM.replace("READ", SECOND).replace(*XOR),
    "second_down_broadcast": BLOCK_SUM.replace("READ", SECOND + " v = __shfl_sync(0xffffffffu, v, 0);"),
    "every_slot_in_turn": BLOCK_SUM.replace("READ", "v = 0.0f; for (int w = 0; w < blockDim.x / 32; ++w) v += part[w];"),
    "slot0_broadcast": BLOCK_SUM.replace("READ", "if (tid == 0) { float t = 0.0f; for (int w = 0; w < blockDim.x / 32; "
                                         "++w) t += part[w]; part[0] = t; } __syncthreads(); v = part[0];"),
}


def _port(text: str):
    port, out = ported(text, dedent=False)
    return port.body, out


def _same_at_64(original: str, port: str) -> None:
    rng = np.random.default_rng(11)
    args = {"x": rng.integers(1, 4, 1024).astype(np.float32), "y": np.zeros(1024, np.float32),
            "out": np.zeros(4, np.float32)}
    # integer-valued inputs: exact sums
    assert_port_at_64_is_original_at_32(original, port, "block_sum", args, (4, 1, 1), (256, 1, 1), ("y", "out"))


@pytest.mark.parametrize("name", sorted(KEPT))
def test_every_lane_reading_a_width_dependent_fold_keeps_32_lanes(name):
    body, text = _port(KEPT[name])
    assert "__shfl_down(v, o, 32)" in body and "warpSize" not in body, body
    _same_at_64(KEPT[name], text)


@pytest.mark.parametrize("name", sorted(WAVE))
def test_every_lane_reading_the_blocks_fold_stays_wave_wide(name):
    body, text = _port(WAVE[name])
    assert "warpSize / 2" in body and ", 32)" not in body, body
    _same_at_64(WAVE[name], text)


def test_a_leader_storing_a_helpers_fold_stays_wave_wide():
    """`if (lane == 0) part[warp] = v;` alone reads the first level: the slots are recombined (AFTER_IF)."""
    code = BLOCK_SUM.replace("READ", SECOND).replace("a * v;", "a;")
    body, _ = _port(code)
    assert "warpSize / 2" in body, body


KP220 = """\
__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}
__global__ void k(float* x) {
    __shared__ float s[32];
    int lane = threadIdx.x % 32;
    int nwarps = (blockDim.x + 31) / 32;
    float v = warp_sum(s[lane]);
    if (threadIdx.x == 0) x[0] = v * nwarps;
}
"""


def test_a_leader_storing_one_warps_fold_per_block_keeps_32_lanes():
    """Thread 0 stores warp 0's fold times the count of 32-lane warps (stop 47's KP220): on main the ladder
    became the wave's while the unconfirmed count stayed 32, and translate's self-check refused its own port
    (KP220, 'a kernelport bug').  One warp's fold at an address no thread index picks is not recombined as
    `part[warp] = v` or `atomicAdd(out, v)` are: the port keeps 32-lane groups, CUDA-exact."""
    body, _ = _port(KP220)
    assert "__shfl_down(v, offset, 32)" in body and "int nwarps = (blockDim.x + 31) / 32;" in body, body
    emulated = KP220.replace("float* x) {\n    __shared__ float s[32];",
                             "float* x, const float* in) {\n    __shared__ float s[32];\n"
                             "    if (threadIdx.x < 32) s[threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x];\n"
                             "    __syncthreads();").replace("x[0] = v", "x[blockIdx.x] = v")
    _, text = _port(emulated)
    rng = np.random.default_rng(5)
    args = {"x": np.zeros(4, np.float32), "in": rng.integers(-3, 4, 128).astype(np.float32)}
    assert_port_at_64_is_original_at_32(emulated, text, "k", args, (4, 1, 1), (256, 1, 1), ("x",))


def test_a_leader_adding_its_warps_fold_atomically_stays_wave_wide():
    """(Without the count: a `nwarps` no code reads stays 32 in the wave port, whose self-check then refuses it
    KP220, as on main: open, bench/block_reduce_ports48.txt.)"""
    body, _ = _port(KP220.replace("if (threadIdx.x == 0) x[0] = v * nwarps;", "if (lane == 0) atomicAdd(x, v);")
                    .replace("    int nwarps = (blockDim.x + 31) / 32;\n", ""))
    assert "warpSize / 2" in body, body


def test_lints_row_advice_names_the_fold_that_keeps_the_rows():
    """Lint reads the code as written (the same findings and severities as before), and its row advice says what
    translate does: AFTER_IF's rows (correct at 64 as written) share warp_sum with a kernel whose every lane reads
    its fold, so the group keeps 32-lane rows for that reason, not for a count of warps."""
    from kernelport.lint.engine import lint_text
    from kernelport.lint.rowsplits import KEPT_FOLD_ROWS, KEPT_ROWS
    from test_lint_row_splits_reach import AFTER_IF

    code = AFTER_IF.replace("lane < 256 / 32", "lane < blockDim.x / 32").replace("void launch(", PLAIN.split("}\n", 1)[1].replace("block_sum", "normalise") + "void launch(")
    advice = [f.message for f in lint_text(code, "t.cu", targets=["hip-cdna"])
              if "translate` keeps" in f.message or "translate` ports it" in f.message]
    assert advice and all(KEPT_FOLD_ROWS in a and KEPT_ROWS not in a for a in advice), advice
    assert "__shfl_down(v, o, 32)" in _port(code)[0]
