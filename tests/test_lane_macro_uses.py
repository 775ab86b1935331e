"""A lane macro ported at its #define (kernelport/lane_macros.py: `#define LANE_ID (threadIdx.x % 32)` reaching a
shuffle becomes `% KP_WAVE_SIZE` once, for every use) read by another function that runs no warp operation
(kernelport/macro_warp_math.py): there `LANE_ID` is CUDA's `% 32` as plain arithmetic (32 bins a block), and
the wave's lane would count 0..63 at wave 64 (main wrote that port: bins 32-63 filled, verify FAIL at wave 64).
It is refused, KP219 at that use.  The look-alike: a kernel that writes a helper's shuffle reduction from
`LANE_ID == 0` is the warp's lane, ported."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

BFLY = """#define LANE_ID (threadIdx.x % 32)
__global__ void bfly(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  for (int o = 1; o < 32; o <<= 1) v += __shfl_sync(0xffffffffu, v, LANE_ID ^ o);
  y[i] = v;
}
"""

BINS = BFLY + """__global__ void bins(const float* x, float* b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&b[LANE_ID], x[i]);
}
"""

LEADER = BFLY + """__device__ float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__global__ void sums(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = warpSum(x[i]);
  if (LANE_ID == 0) y[i / warpSize] = s;
}
"""


def test_a_lane_macro_read_as_plain_arithmetic_elsewhere_is_refused():
    port, _ = translate(SourceFile.from_text(BINS, "k.cu"), "hip")
    got = [(d.code, d.location.line) for d in port.diagnostics if d.code == "KP219"]
    assert not port.ok and got == [("KP219", 10)], port.diagnostics


def test_a_lane_macro_beside_a_callee_s_reduction_is_the_warp_s_lane():
    port, _ = translate(SourceFile.from_text(LEADER, "k.cu"), "hip")
    assert port.ok and "#define LANE_ID (threadIdx.x % KP_WAVE_SIZE)" in port.body, port.diagnostics
