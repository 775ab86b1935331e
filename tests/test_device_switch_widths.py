"""A host copy of the device's wave width kept across a device switch (stop 65's note): the port writes host
reads of a warp-size constant as `kp_device_warp_size()` (the current device's width); stored in a variable the
program uses after `cudaSetDevice`, it may be another device's.  Now a KP244 warning at the store, naming the
switch (kernelport/device_switch_widths.py); the port is written.  Look-alikes: a read after the switch, a file
with no switch."""
from __future__ import annotations

from conftest import hip_compiles
from port_support import ported

KERNEL = """#define WARP_SIZE 32
__global__ void red(const float* x, float* out) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (threadIdx.x % WARP_SIZE == 0) atomicAdd(out, v);
}
"""
STORED = KERNEL + """void run(const float* x, float* out, int n, int ndev) {
    int rows = n / WARP_SIZE;
    for (int d = 0; d < ndev; ++d) {
        cudaSetDevice(d);
        red<<<rows, 64>>>(x, out);
    }
}
"""


def _warnings(port):
    return [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "warning"
            and d.code == "KP244"]


def test_a_stored_width_used_after_a_device_switch_is_warned_at_the_store(tmp_path):
    port, text = ported(STORED, dedent=False)
    assert "int rows = n / kp_device_warp_size();" in text, text
    assert _warnings(port) == [("KP244", 8, 9)], [d.format() for d in port.diagnostics]
    w = next(d for d in port.diagnostics if d.code == "KP244")
    assert "`rows` keeps the device's wave width" in w.message and "`cudaSetDevice(d)`, line 10" in w.message
    hip_compiles(tmp_path, text)


def test_look_alikes_are_not_warned():
    after = STORED.replace("    int rows = n / WARP_SIZE;\n", "").replace(
        "cudaSetDevice(d);\n", "cudaSetDevice(d);\n        int rows = n / WARP_SIZE;\n")
    assert _warnings(ported(after, dedent=False)[0]) == []
    alone = STORED.replace("cudaSetDevice(d);", "(void)d;")
    assert _warnings(ported(alone, dedent=False)[0]) == []
