"""A warp-size macro in a kernel whose port keeps CUDA's 32-lane groups (hip66c item 1): `int ws = WARP_SIZE;
k<<<n / ws, ws>>>` launches 32-thread blocks, so the port keeps `#define WARP_SIZE 32` and writes every shuffle
with the width 32 (`__shfl_down(v, o, 32)`), a logical group.  Lint of that port saw no warp-level code (an
explicit width 32 is none) and so no logical group for WS001 to be quiet in: the self-check reported KP220
(WS001 in the port, not in the original).  Now WS001 reads a use in a function whose warp calls all name the
width 32 as that group's width (kernelport/lint/logicaluses.py).  Look-alikes: a kernel with an unsized shuffle
in 256-thread blocks still has WS001; an unsized shuffle in the port's lint keeps it too."""
from __future__ import annotations

import textwrap

from conftest import hip_compiles
from port_support import ported

from kernelport.lint.engine import lint_text

KERNEL = """#define WARP_SIZE 32
__global__ void k(float *a, int n) {
  int lane = threadIdx.x % WARP_SIZE;
  float v = a[threadIdx.x + blockIdx.x * blockDim.x];
  for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0) a[blockIdx.x] = v;
}
"""


def _ws001(code: str, name: str = "k.cu") -> list[int]:
    return [f.line for f in lint_text(textwrap.dedent(code), name, targets=["hip-cdna", "hip-rdna"])
            if f.code == "WS001" and f.severity == "error"]


def test_a_host_local_of_the_macro_as_the_block_keeps_32_lane_groups_and_is_written(tmp_path):
    for launch in ("int ws = WARP_SIZE;\n  k<<<n / ws, ws>>>(a, n);", "const int ws = WARP_SIZE;\n  k<<<n / ws, ws>>>(a, n);",
                   "k<<<n / 32, 32>>>(a, n);"):
        port, text = ported(KERNEL + "void run(float *a, int n) {\n  " + launch + "\n}\n", dedent=False)
        assert "__shfl_down(v, o, 32)" in text and "#define WARP_SIZE 32" in text, text
        assert not [d for d in port.diagnostics if d.code == "KP220"]
    hip_compiles(tmp_path, text)


def test_ws001_is_quiet_on_the_width_of_explicit_32_lane_shuffles():
    port = KERNEL.replace("__shfl_down_sync(0xffffffff, v, o)", "__shfl_down(v, o, 32)")
    assert _ws001(port + "void run(float *a, int n) { k<<<n / 32, 32>>>(a, n); }\n", "k.hip") == []


def test_look_alikes_unsized_shuffles_keep_ws001():
    wide = KERNEL + "void run(float *a, int n) { k<<<n / 256, 256>>>(a, n); }\n"
    assert _ws001(wide) == [1]  # CUDA's unsized shuffle in 256-thread blocks: the wave's lanes
    port = KERNEL.replace("__shfl_down_sync(0xffffffff, v, o)", "__shfl_down(v, o, 16)")
    assert _ws001(port + "void run(float *a, int n) { k<<<n / 256, 256>>>(a, n); }\n", "k.hip") == [1]
    port = KERNEL.replace("__shfl_down_sync(0xffffffff, v, o)", "__shfl_down(v, o)")
    assert _ws001(port + "void run(float *a, int n) { k<<<n / 256, 256>>>(a, n); }\n", "k.hip") == [1]
