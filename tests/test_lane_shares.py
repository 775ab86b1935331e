"""A run-time extent divided by the warp-size constant in device code, `const int DPL = D / WARP;` with
`q[lane * DPL + i]` (kernelport/lane_shares.py), splits D over the warp's lanes.  Found on heldout98's
sparse-attention indexer (a block of one warp, `<<<grid, WARP>>>`, per-lane slices of a head of D
elements, a shuffle ladder from WARP / 2): the port made WARP the wave, so at wave 64 each lane took
D / 64 elements, which covers D only when it is a multiple of 64 (D = 96: 64 of 96 summed; verify
--oracle original: numeric FAIL at wave 64).  Now the group keeps CUDA's 32-lane warps (WARP stays 32,
the ladder's shuffles get width 32), exact for every D.  Look-alikes stay wave-wide: a constant divided
by WARP (`HEAD / WARP`, a constant count), a rounded-up share (`(D + WARP - 1) / WARP`, lanes the code
guards), a lane-strided loop (no split) and a warp index from a thread index passed in (`wid = t / WARP`, no
thread's index multiplies it)."""
from __future__ import annotations

import subprocess
import sys

from kernelport.source import SourceFile
from kernelport.translate import translate

SHARE = """#include <cuda_runtime.h>
constexpr int WARP = 32;

__global__ void row_dot(const float* a, const float* b, float* out, int rows, int D) {
  const int r = blockIdx.x;
  if (r >= rows) return;
  const int lane = threadIdx.x & (WARP - 1);
  const int DPL = D / WARP;
  float part = 0.f;
  for (int i = 0; i < DPL; ++i) part += a[r * D + lane * DPL + i] * b[r * D + lane * DPL + i];
  for (int o = WARP / 2; o > 0; o >>= 1) part += __shfl_xor_sync(0xffffffffu, part, o);
  if (lane == 0) out[r] = part;
}

int main() {
  int rows = 4, D = 96;
  float *a, *b, *out;
  cudaMalloc(&a, rows * D * sizeof(float));
  cudaMalloc(&b, rows * D * sizeof(float));
  cudaMalloc(&out, rows * sizeof(float));
  row_dot<<<rows, WARP>>>(a, b, out, rows, D);
  cudaDeviceSynchronize();
  return 0;
}
"""
# a constant divided by the warp constant: a count the wave-wide port keeps consistent
CONSTANT = SHARE.replace("constexpr int WARP = 32;\n", "constexpr int WARP = 32;\nconstexpr int HEAD = 128;\n") \
    .replace("const int DPL = D / WARP;", "const int DPL = HEAD / WARP;")
# a rounded-up share whose lanes the code guards
ROUNDED = SHARE.replace("const int DPL = D / WARP;", "const int DPL = (D + WARP - 1) / WARP;") \
    .replace("for (int i = 0; i < DPL; ++i) part +=",
             "for (int i = 0; i < DPL && lane * DPL + i < D; ++i) part +=")
# a lane-strided loop: no split of D
STRIDED = SHARE.replace("  const int DPL = D / WARP;\n", "") \
    .replace("for (int i = 0; i < DPL; ++i) part += a[r * D + lane * DPL + i] * b[r * D + lane * DPL + i];",
             "for (int i = lane; i < D; i += WARP) part += a[r * D + i] * b[r * D + i];")
# a warp index from a thread index the caller passes: no lane's slice
WARP_INDEX = SHARE.replace("int rows, int D) {", "int rows, int D, int t) {") \
    .replace("const int DPL = D / WARP;", "const int wid = t / WARP;") \
    .replace("for (int i = 0; i < DPL; ++i) part += a[r * D + lane * DPL + i] * b[r * D + lane * DPL + i];",
             "for (int i = lane; i < D; i += WARP) part += a[r * D + i] * b[r * D + i];") \
    .replace("if (lane == 0) out[r] = part;", "if (lane == 0) out[r + wid] = part;") \
    .replace("(a, b, out, rows, D);", "(a, b, out, rows, D, 0);")


def hip(code: str) -> str:
    port, text = translate(SourceFile.from_text(code, "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    return text


def test_a_runtime_extent_split_over_the_lanes_keeps_32_lane_warps():
    text = hip(SHARE)
    assert "constexpr int WARP = 32;" in text and "KP_WAVE_SIZE;" not in text, text
    assert "part += __shfl_xor(part, o, 32);" in text, text
    assert "row_dot<<<rows, WARP>>>" in text, text


def test_the_port_computes_what_cuda_computes_at_wave_64(tmp_path):
    f = tmp_path / "share.cu"
    f.write_text(SHARE)
    run = subprocess.run([sys.executable, "-P", "-m", "kernelport", "verify", str(f), "--oracle", "original"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "0 failed" in run.stdout, run.stdout + run.stderr


def test_look_alikes_stay_wave_wide():
    # (blocks of two warps: a launch of `WARP` threads, a file-scope constexpr 32, is a block of 32 threads,
    # which keeps 32-lane warps by itself, as a macro's does: blockdims.dims, stop 65's review)
    for code in (CONSTANT, ROUNDED, STRIDED, WARP_INDEX):
        text = hip(code.replace("row_dot<<<rows, WARP>>>", "row_dot<<<rows, 2 * WARP>>>"))
        assert "constexpr int WARP = KP_WAVE_SIZE;" in text, text
        assert "part += __shfl_xor(part, o);" in text, text
