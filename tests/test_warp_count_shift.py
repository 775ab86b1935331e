"""A warp count rounded up by a shift, `(blockDim.x * blockDim.y + 31) >> 5` (a feature detector's grid
NMS): the division by 32 becomes one by the wave width, and so does the 31 that rounds it up, as for
`(x + 31) / 32` (warpflow's `>>`). Before, only the shift was rewritten, `(... + 31) / warpSize`, which
the port's own check refused (KP220: rounds by one width and divides by the other)."""
from __future__ import annotations

import os
import subprocess

from conftest import require_tool
from kernelport.source import SourceFile
from kernelport.translate import translate

NMS = """#include <cuda_runtime.h>
__global__ void k(float* out, const float* in) {
    __shared__ float partial[32];
    const int thread_id = threadIdx.x + blockDim.x * threadIdx.y;
    const int lane_id = thread_id & 0x1F;
    const int warp_id = thread_id >> 5;
    const int warp_cnt = (blockDim.x * blockDim.y + 31) >> 5;
    float v = in[thread_id];
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
    if (lane_id == 0) partial[warp_id] = v;
    __syncthreads();
    if (thread_id == 0) {
        float m = partial[0];
        for (int w = 1; w < warp_cnt; ++w) m = fmaxf(m, partial[w]);
        out[blockIdx.x] = m;
    }
}
"""


def test_a_rounded_up_warp_count_by_shift_rounds_by_the_wave(tmp_path):
    port, whole = translate(SourceFile.from_text(NMS, "t.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "warp_cnt = (blockDim.x * blockDim.y + (warpSize - 1)) / warpSize;" in whole, whole
    assert "warp_id = thread_id / warpSize;" in whole
    hipcc = require_tool("hipcc")
    f = tmp_path / "t.hip"
    f.write_text(whole)
    for arch in ("gfx90a", "gfx1030"):
        r = subprocess.run([hipcc.path, "-x", "hip", "-std=c++17", f"--offload-arch={arch}", "--cuda-device-only",
                            "-c", str(f), "-o", str(tmp_path / f"t-{arch}.o")], capture_output=True, text=True,
                           env={**os.environ, "HIP_PLATFORM": "amd"})
        assert r.returncode == 0, r.stderr[-2000:]


def test_a_word_count_of_a_bit_array_is_not_a_warp_count():
    port, whole = translate(SourceFile.from_text(
        "__global__ void k(unsigned* bits, int nbits) {\n"
        "    int words = (nbits + 31) >> 5;\n"
        "    for (int i = threadIdx.x; i < words; i += blockDim.x) bits[i] = 0u;\n}\n", "t.cu"), "hip")
    assert port.ok, port.diagnostics
    assert "int words = (nbits + 31) >> 5;" in whole, whole
