"""A host function's local named `warpSize` (heldout53: mickeyouyou/cuad's vec-add.cu, `int warpSize;
warpSize = props.warpSize;` in main, printed with the device's properties) shadows no device built-in:
the port keeps it (it was refused KP221, which is for device code, where a local would shadow the
target's wave width)."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool

HOST = """#include <cstdio>
__global__ void k(int* o) { o[threadIdx.x] = warpSize; }
int main() {
  cudaDeviceProp props;
  int warpSize;
  cudaGetDeviceProperties(&props, 0);
  warpSize = props.warpSize;
  printf("Warp Size: %d\\n", warpSize);
  int* o;
  cudaMalloc(&o, 64 * sizeof(int));
  k<<<1, warpSize>>>(o);
  return 0;
}
"""


def test_a_host_functions_local_named_warpsize_stays(tmp_path):
    port, text = translate(SourceFile.from_text(HOST, "v.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "  int warpSize;\n" in port.body and "  warpSize = props.warpSize;\n" in port.body
    require_tool("hipcc")
    f = tmp_path / "v.hip"
    f.write_text(text)
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"])


def test_a_device_functions_local_of_another_width_is_still_refused():
    src = "#include <cstdio>\n__global__ void k(int* o) {\n  int warpSize = 16;\n  o[threadIdx.x] = warpSize;\n}\n"
    port, _ = translate(SourceFile.from_text(src, "v.cu"), "hip")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP221", 3)]
