"""A file-scope `constexpr int WARP = 32;` the port makes the wave width, read by host code
(kernelport/host_wave_constants.py).  Stop 65's review of lane_shares' look-alikes: with `HEAD / WARP`
elements per lane and a launch of `<<<rows, WARP>>>`, the port wrote `constexpr int WARP = KP_WAVE_SIZE;`
and left the launch, which the host pass reads as 32 (no __GFX9__ there): on gfx90a blocks of 32 threads
ran a kernel that gives each of 64 lanes HEAD / 64 elements and folds from lane 32 (half the data summed;
verify --oracle original: numeric FAIL at wave 64).  Now the host's read asks the device
(`kp_device_warp_size()`), and one in a constant expression of host code is refused (KP206) at its line.
Look-alikes: a logical 32-lane group keeps `WARP` 32 and its launch as written; a host function's own
local of the name is its own."""
from __future__ import annotations

import subprocess
import sys

from kernelport.source import SourceFile
from kernelport.translate import translate

FOLD = """#include <cuda_runtime.h>
constexpr int WARP = 32;
constexpr int HEAD = 128;

__global__ void row_dot(const float* a, const float* b, float* out, int rows, int D) {
  const int r = blockIdx.x;
  if (r >= rows) return;
  const int lane = threadIdx.x & (WARP - 1);
  const int DPL = HEAD / WARP;
  float part = 0.f;
  for (int i = 0; i < DPL; ++i) part += a[r * D + lane * DPL + i] * b[r * D + lane * DPL + i];
  for (int o = WARP / 2; o > 0; o >>= 1) part += __shfl_xor_sync(0xffffffffu, part, o);
  if (lane == 0) out[r] = part;
}

int main() {
  int rows = 4, D = HEAD;
  float *a, *b, *out;
  cudaMalloc(&a, rows * D * sizeof(float));
  cudaMalloc(&b, rows * D * sizeof(float));
  cudaMalloc(&out, rows * sizeof(float));
  row_dot<<<rows, WARP>>>(a, b, out, rows, D);
  cudaDeviceSynchronize();
  return 0;
}
"""
# a constant expression of host code: the host pass cannot know the device's wave
HOST_CONST = FOLD.replace("  int rows = 4, D = HEAD;\n", "  int rows = 4, D = HEAD;\n  float staged[WARP];\n  (void)staged;\n")
# a run-time extent split over the lanes: lane_shares keeps the group's 32-lane warps, launch included
LOGICAL = FOLD.replace("const int DPL = HEAD / WARP;", "const int DPL = D / WARP;")
# the host function's own local of the name (nothing of the file's constant)
SHADOWED = FOLD.replace("  int rows = 4, D = HEAD;\n", "  int rows = 4, D = HEAD;\n  const int WARP = 64;\n")


def _port(code: str):
    return translate(SourceFile.from_text(code, "t.cu"), "hip")


def test_the_host_launch_asks_the_device_for_the_wave():
    port, text = _port(FOLD)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "constexpr int WARP = KP_WAVE_SIZE;" in text, text
    assert "row_dot<<<rows, kp_device_warp_size()>>>" in text, text


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
    assert ("KP206", 18) in errors, [d.format() for d in port.diagnostics]


def test_look_alikes_keep_their_launch():
    port, text = _port(LOGICAL)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "constexpr int WARP = 32;" in text and "row_dot<<<rows, WARP>>>" in text, text
    port, text = _port(SHADOWED)
    assert "row_dot<<<rows, WARP>>>" in text and "kp_device_warp_size()>>>" not in text, text


def test_the_port_compiles_for_cdna_and_rdna(tmp_path):
    from test_header_uses import _hipcc
    _, text = _port(FOLD)
    r = _hipcc(tmp_path, text)
    assert r.returncode == 0, r.stderr[-3000:]
