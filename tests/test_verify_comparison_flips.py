"""verify --device against a branch a GPU may take the other way (stop 66, emulator/flips.py), end to end.

`if (y >= x[i])` with y = x[i] * 3 / 3: the emulator's y is x[i] or an ulp from it, and a GPU's is only within
its bound of x[i] * 3 / 3, so a right GPU may take the other side.  A stand-in GPU that did so in lanes 0-7
made the device row fail by 2 against a bound of ~1e-7; now the row is a skip naming the comparison's
line:col.  Look-alikes: a GPU that took the emulator's side passes, and one wrong where no flip reached (the
kernel's second output, computed before the branch) still fails."""
from __future__ import annotations

import json

import numpy as np

from trust_support import kp_inproc, stand_in_gpu

SRC = """\
// @kp kernel  k
// @kp grid    1
// @kp block   64
// @kp arg     x    in   float[64]  uniform(-1, 1)
// @kp arg     out  out  float[64]
// @kp arg     sq   out  float[64]
__global__ void k(const float* x, float* out, float* sq) {
    int i = threadIdx.x;
    sq[i] = x[i] * x[i];
    float y = x[i] * 3.0f / 3.0f;
    float v = 0.0f;
    if (y >= x[i]) v = 2.0f;
    out[i] = v + x[i];
}
"""


def _verify(tmp_path, monkeypatch, gpu):
    stand_in_gpu(monkeypatch, gpu)
    f = tmp_path / "k.cu"
    f.write_text(SRC)
    rc, out, err = kp_inproc("verify", f, "--device", "cuda", "--schedules", "block", "--format", "json",
                             "--no-cache", "-j", "1")
    return [c for c in json.loads(out)[0]["checks"] if c["kind"] == "device"], out + err


def _gpu(flipped=0, wrong_sq=False):
    def run(a):
        x = a["x"].astype(np.float32)
        y = x * np.float32(3.0) / np.float32(3.0)  # (float32, as the emulator: y == x or one ulp off)
        side = y >= x
        side[:flipped] = ~side[:flipped]  # (y rounded the other way there: the other side)
        v = np.where(side, np.float32(2.0), np.float32(0.0))
        sq = x * x
        if wrong_sq:
            sq[40] += 0.5
        return {"out": v + x, "sq": sq}
    return run


def test_a_gpu_that_took_the_other_side_is_a_skip_at_the_comparison(tmp_path, monkeypatch):
    dev, text = _verify(tmp_path, monkeypatch, _gpu(flipped=8))
    assert [c["status"] for c in dev] == ["skip"], text
    assert "a comparison within its operands' error bounds decides this branch" in dev[0]["detail"], text
    assert f"{tmp_path / 'k.cu'}:12:9" in dev[0]["detail"], text


def test_a_gpu_on_the_emulators_side_passes_and_one_wrong_elsewhere_fails(tmp_path, monkeypatch):
    dev, text = _verify(tmp_path, monkeypatch, _gpu())
    assert [c["status"] for c in dev] == ["pass"], text
    dev, text = _verify(tmp_path, monkeypatch, _gpu(flipped=8, wrong_sq=True))
    assert [c["status"] for c in dev] == ["fail"] and "sq[40]" in dev[0]["detail"], text
