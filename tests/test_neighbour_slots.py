"""A per-warp slot read next to the reader's own (kernelport/fold_levels.py's PAIR) and ladders folded through a
shuffle wrapper (fold_levels._shuffle, kernelport.shufflewrappers).  Zialus/cumf_ccd's updateR_7 (held-out set 44)
sums rows of 64 threads: each warp folds its 32 partials with `shfl_down(g, 16) ... (g, 1)` (a wrapper of
__shfl_down_sync in cuda_common.h), lane 0 of each warp stores `SD[tId >> 5] = g`, and the row's first lane adds
its second warp's fold, `g += SD[(tId >> 5) + 1]`.  On main the port folded 64-lane waves and read slot w + 1,
another row's wave: wrong at 64 (the emulator: out[0] 29.1 for 21.4).  The port keeps CUDA's 32-lane groups and
is run here on the emulator at wave 64 against the original at 32 (tests/realcode/ccd_row_pairs.cu too); a
leader that reads every slot in turn, or a wrapper whose width is a literal group, is left as it was."""
from __future__ import annotations

import numpy as np
import pytest

from port_support import assert_port_at_64_is_original_at_32, ported


WRAP = "__device__ float shfl_down(float v, unsigned d) { return __shfl_down_sync(0xffffffff, v, d); }\n"
ROWS = """\
__global__ void rows(const float* x, float* out) {
    unsigned tId = threadIdx.x;
    unsigned laneId = tId & 63;
    int c = (blockIdx.x * blockDim.x + tId) >> 6;
    __shared__ float SD[8];
    float g = x[blockIdx.x * blockDim.x + tId];
    g += SHFL(g, 16);
    g += SHFL(g, 8);
    g += SHFL(g, 4);
    g += SHFL(g, 2);
    g += SHFL(g, 1);
    if ((tId & 31) == 0) SD[tId >> 5] = g;
    __syncthreads();
    READ
}
"""
PAIR = "if (laneId == 0) out[c] = g + SD[(tId >> 5) + 1];"
EVERY = "if (tId == 0) { float t = 0.0f; for (int w = 0; w < blockDim.x / 32; ++w) t += SD[w]; out[blockIdx.x] = t; }"


def _code(shfl: str, read: str, wrap: str = WRAP) -> str:
    return wrap + ROWS.replace("SHFL(g, ", shfl).replace("READ", read)


WIDTH = "__device__ float shfl_down(float v, unsigned d, int width) { return __shfl_down_sync(0xffffffff, v, d, width); }\n"
KEPT = {
    "wrapper_pair": _code("shfl_down(g, ", PAIR),
    "intrinsic_pair": _code("__shfl_down_sync(0xffffffff, g, ", PAIR, ""),
    "wrapper_width32_pair": _code("shfl_down(g, ", PAIR, WIDTH).replace(");\n    g +=", ", 32);\n    g +=").replace(
        "g += shfl_down(g, 1);", "g += shfl_down(g, 1, 32);"),
}


def _port(text: str):
    port, out = ported(text, dedent=False)
    return port.body, out


def _same_at_64(original: str, port: str) -> None:
    rng = np.random.default_rng(3)
    args = {"x": rng.integers(-3, 4, 256).astype(np.float32), "out": np.zeros(4, np.float32)}
    assert_port_at_64_is_original_at_32(original, port, "rows", args, (2, 1, 1), (128, 1, 1))


@pytest.mark.parametrize("name", sorted(KEPT))
def test_a_row_reading_its_second_warps_slot_keeps_32_lane_groups(name):
    body, text = _port(KEPT[name])
    assert "warpSize" not in body and "SD[tId >> 5] = g;" in body and "SD[(tId >> 5) + 1]" in body, body
    assert {"wrapper_pair": "__shfl_down(v, d, 32)", "intrinsic_pair": "__shfl_down(g, 16, 32)",
            "wrapper_width32_pair": "g += shfl_down(g, 16, 32);"}[name] in body, body
    _same_at_64(KEPT[name], text)


def test_a_wrappers_unrolled_ladder_gains_its_step_at_32():
    """Every slot read in turn: the block's fold, the wave port right, once its ladder keeps the step at 16 (on main
    the wrapper's `16` reached the shuffle's delta as half a warp and became `warpSize / 2`: out[0] 1 for -1)."""
    code = _code("shfl_down(g, ", EVERY)
    body, text = _port(code)
    assert "if (warpSize > 32) g += shfl_down(g, warpSize / 2);\n    g += shfl_down(g, 16);" in body, body
    _same_at_64(code, text)


LOOP = WRAP + ROWS.replace("""    g += SHFL(g, 16);
    g += SHFL(g, 8);
    g += SHFL(g, 4);
    g += SHFL(g, 2);
    g += SHFL(g, 1);""", "    for (int o = 16; o > 0; o >>= 1) g += shfl_down(g, o);")


@pytest.mark.parametrize("code, want", [
    (_code("__shfl_down_sync(0xffffffff, g, ", EVERY, ""), "if (warpSize > 32) g += __shfl_down(g, warpSize / 2);"),
    (LOOP.replace("READ", EVERY), "for (int o = warpSize / 2; o > 0; o >>= 1) g += shfl_down(g, o);"),
])
def test_look_alikes_port_as_before(code, want):
    """The intrinsic's unrolled ladder and a wrapper's loop from 16, every slot read in turn: wave-wide as on main."""
    body, text = _port(code)
    assert want in body, body
    _same_at_64(code, text)
