"""verify and values never written (kernelport/emulator/undefined.py), end to end.

Stop 50's device run: classifier_fused kernel4's GPU row failed because the H100 stored what its
registers held (4.7e-05) where the kernel stored vector lanes it never wrote, and the emulator held 0
with bound 0.  Here a kernel of that shape (a local array whose lanes past V are `continue`d over, stored
whole) runs through `kernelport verify --device cuda` with a stand-in GPU that stores 4.7e-05 there:
the device row passes and says how many elements were left out and where they were stored, and each
port's numeric row says the same; a GPU that differs at a written element still fails.
"""
from __future__ import annotations

import json

import numpy as np

from trust_support import kp_inproc, stand_in_gpu

PAD = """\
// @kp kernel  pad
// @kp grid    3
// @kp block   4
// @kp arg     x    in   float[96]  uniform(-1, 1)
// @kp arg     y    out  float[96]
// @kp scalar  V = 22
__global__ void pad(const float* x, float* y, int V) {
    int row = blockIdx.x;
    for (int i = threadIdx.x; i < 8; i += blockDim.x) {
        float d[4];
        for (int k = 0; k < 4; ++k) {
            int e = i * 4 + k;
            if (e >= V) continue;
            d[k] = 2.0f * x[row * 32 + e];
        }
        for (int k = 0; k < 4; ++k) y[row * 32 + i * 4 + k] = d[k];
    }
}
"""
UNWRITTEN = [r * 32 + e for r in range(3) for e in range(22, 32)]


def _verify(tmp_path, monkeypatch, gpu):
    stand_in_gpu(monkeypatch, gpu)
    f = tmp_path / "k.cu"
    f.write_text(PAD)
    assert kp_inproc("translate", f, "--to", "hip,metal,portable")[0] == 0
    rc, out, err = kp_inproc("verify", f, "--device", "cuda", "--schedules", "block", "--format", "json",
                             "--no-cache", "-j", "1")
    return rc, json.loads(out)[0]["checks"], out + err


def _registers(a):
    y = (2.0 * a["x"]).astype(np.float32)
    y[UNWRITTEN] = 4.7e-05  # what the H100's registers held
    return {"y": y}


def test_the_gpus_register_values_are_not_compared_and_the_rows_say_so(tmp_path, monkeypatch):
    rc, checks, text = _verify(tmp_path, monkeypatch, _registers)
    dev = [c for c in checks if c["kind"] == "device"]
    note = "30 element(s) (of y 30) stored from values never written: not compared (stored at "
    assert [c["status"] for c in dev] == ["pass"] and note in dev[0]["detail"], text
    assert f"{tmp_path / 'k.cu'}:16:37)" in dev[0]["detail"], text  # (the store `y[...] = d[k]`)
    numeric = [c for c in checks if c["kind"] == "numeric"]
    assert numeric and all(c["status"] == "pass" and note in c["detail"] for c in numeric), text
    assert rc == 0, text


def test_a_gpu_that_differs_where_the_kernel_wrote_still_fails(tmp_path, monkeypatch):
    def wrong(a):
        out = _registers(a)
        out["y"][5] += 0.5
        return out
    rc, checks, text = _verify(tmp_path, monkeypatch, wrong)
    dev = [c for c in checks if c["kind"] == "device"]
    assert [c["status"] for c in dev] == ["fail"] and "y[5]" in dev[0]["detail"], text
    assert rc == 1
