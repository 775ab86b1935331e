"""A file-scope `constexpr int WARP = 32;` the port makes the wave width, read by host code
(kernelport/host_wave_constants.py).  Stop 65's review of lane_shares' open question: the port wrote
`constexpr int WARP = KP_WAVE_SIZE;` and left the host's reads of WARP, which the host pass reads as 32 (no
__GFX9__ there): here the host passes `threads / WARP` = 8 warps to a kernel whose 256-thread blocks are 4
waves on gfx90a, so its second fold read partial[4..7], which no thread wrote (verify --oracle original:
races FAIL at wave 64).  Now a host read asks the device (`threads / kp_device_warp_size()`), and one in a
constant expression of host code is refused (KP206) at its line.  Look-alikes: a launch of `WARP` threads
(blocks of 32: blockdims reads the file's constexpr as it reads a macro) keeps 32-lane warps with WARP 32
and its host reads as written; a host function's own local of the name is its own."""
from __future__ import annotations

import subprocess
import sys

from kernelport.source import SourceFile
from kernelport.translate import translate
from test_lane_shares import STRIDED

FOLD = """#include <cuda_runtime.h>
constexpr int WARP = 32;

__global__ void block_sum(const float* x, float* out, int n, int nwarps) {
  __shared__ float partial[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.f;
  for (int o = WARP / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  const int lane = threadIdx.x % WARP, wid = threadIdx.x / WARP;
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = lane < nwarps ? partial[lane] : 0.f;
    for (int o = WARP / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

int main() {
  int n = 1024, threads = 256;
  float *x, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&out, n / threads * sizeof(float));
  block_sum<<<n / threads, threads>>>(x, out, n, threads / WARP);
  cudaDeviceSynchronize();
  return 0;
}
"""
# a constant expression of host code: the host pass cannot know the device's wave
HOST_CONST = FOLD.replace("  int n = 1024, threads = 256;\n", "  int n = 1024, threads = 256;\n  float staged[WARP];\n  (void)staged;\n")
# blocks of WARP threads: 32-lane warps kept, host reads included
LOGICAL = FOLD.replace("block_sum<<<n / threads, threads>>>(x, out, n, threads / WARP);",
                       "block_sum<<<n / WARP, WARP>>>(x, out, n, 1);")
# the host function's own local of the name (nothing of the file's constant)
SHADOWED = FOLD.replace("  int n = 1024, threads = 256;\n", "  int n = 1024, threads = 256;\n  const int WARP = 64;\n")


def _port(code: str):
    return translate(SourceFile.from_text(code, "t.cu"), "hip")


def test_the_host_launch_asks_the_device_for_the_wave():
    port, text = _port(FOLD)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "constexpr int WARP = KP_WAVE_SIZE;" in text, text
    assert "block_sum<<<n / threads, threads>>>(x, out, n, threads / kp_device_warp_size());" in text, text


def test_the_port_computes_what_cuda_computes_at_wave_64(tmp_path):
    f = tmp_path / "fold.cu"
    f.write_text(FOLD)
    run = subprocess.run([sys.executable, "-P", "-m", "kernelport", "verify", str(f), "--oracle", "original"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "0 failed" in run.stdout, run.stdout + run.stderr
    assert "hip wave 64" not in run.stdout or "FAIL" not in run.stdout, run.stdout


def test_a_constant_expression_of_host_code_is_refused_at_its_line():
    port, _ = _port(HOST_CONST)
    errors = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    assert ("KP206", 21) in errors, [d.format() for d in port.diagnostics]


def test_look_alikes_keep_their_launch():
    port, text = _port(LOGICAL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "constexpr int WARP = 32;" in text and "block_sum<<<n / WARP, WARP>>>(x, out, n, 1);" in text, text
    port, text = _port(SHADOWED)
    assert "(x, out, n, threads / WARP);" in text and "kp_device_warp_size())" not in text, text


def test_the_port_compiles_for_cdna_and_rdna(tmp_path):
    from test_header_uses import _hipcc
    _, text = _port(FOLD)
    r = _hipcc(tmp_path, text)
    assert r.returncode == 0, r.stderr[-3000:]


# lane_shares' lane-strided row kernel (blocks of `WARP` threads) whose ladder starts at `warpSize / 2`
WARPSIZE_LADDER = STRIDED.replace("for (int o = WARP / 2;", "for (int o = warpSize / 2;")


def test_a_launch_of_a_constexpr_32_is_a_block_of_32_threads(tmp_path):
    """`<<<rows, WARP>>>` with `constexpr int WARP = 32;` was no launch geometry (blockdims.dims read a
    name only as a local or a member): the group stayed wave-wide, its `warpSize / 2` ladder started at
    lane 32 of blocks of 32 threads on gfx90a (a read of lanes that do not run), while `#define WARP 32`
    kept 32-lane warps.  Now both are blocks of 32 threads: the ladder is 32 lanes wide."""
    assert "warpSize / 2" in WARPSIZE_LADDER and "<<<rows, WARP>>>" in WARPSIZE_LADDER
    port, text = _port(WARPSIZE_LADDER)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "for (int o = 32 / 2; o > 0; o >>= 1) part += __shfl_xor(part, o, 32);" in text, text
    f = tmp_path / "ladder.cu"
    f.write_text(WARPSIZE_LADDER)
    run = subprocess.run([sys.executable, "-P", "-m", "kernelport", "verify", str(f), "--oracle", "original"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "0 failed" in run.stdout, run.stdout + run.stderr
