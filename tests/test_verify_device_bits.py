"""verify --device where the emulator's bound was lost through a float's bits (emulator.bitbounds):
the GPU's values there can be neither passed on a tight bound nor failed, so the device row is a skip
that says where the bound was lost; where the GPU gives the emulator's values it passes.  The GPU is
a stand-in (kernelport.device.run_cuda replaced in this process), as in test_verify_device_oracle."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel

from test_verify_device_oracle import _device_rows

MANGLED = """\
// @kp kernel  k
// @kp grid    1
// @kp block   64
// @kp arg     x    in   float[64]  uniform(0.9, 1.1)
// @kp arg     y    out  float[64]
__global__ void k(const float* x, float* y) {
    int i = threadIdx.x;
    int b = __float_as_int(rsqrtf(x[i]) * 3.0f - 3.0f);
    b = b & 0xffffff00;
    y[i] = __int_as_float(b);
}
"""


def _mangled(x, delta=0.0):
    """The emulator's own values (its rsqrtf), element 3 moved by delta."""
    y = run_kernel(MANGLED, "k", args=dict(x=x, y=np.zeros(64, np.float32)), grid=(1,), block=(64,)).outputs["y"]
    y = y.copy()
    y[3] += delta
    return y


def test_a_gpu_value_where_the_bound_was_lost_is_a_located_skip(tmp_path, monkeypatch):
    rc, dev, calls, text = _device_rows(tmp_path, monkeypatch, MANGLED, lambda a: {"y": _mangled(a["x"], 1e-3)})
    assert [c["status"] for c in dev] == ["skip"], text
    assert "bound lost at" in dev[0]["detail"] and "k.cu:10:" in dev[0]["detail"], dev[0]["detail"]


def test_look_alike_the_same_values_pass(tmp_path, monkeypatch):
    rc, dev, calls, text = _device_rows(tmp_path, monkeypatch, MANGLED, lambda a: {"y": _mangled(a["x"])})
    assert [c["status"] for c in dev] == ["pass"], text
