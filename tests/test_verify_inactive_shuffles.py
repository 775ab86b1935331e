"""A shuffle that reads a lane not active (one that returned, or one outside the mask) gives an undefined value on
NVIDIA and another on AMD (stop 66).  Before, that was a warning only: the emulator's run gave some value and a port
that read the same lanes passed against it.  Now the lanes that read one hold no value (emulator.undefined marks
them): an output element stored from one is not judged, and each port's numeric row is a skip naming the
shuffle's line:col (a port that is wrong elsewhere still fails: the skip needs every judged element within its
bound).  Look-alike: the same reduction over a full warp passes."""
from __future__ import annotations

import json

import pytest

from trust_support import kp_inproc

SRC = """\
// @kp kernel  warp_total
// @kp grid    1
// @kp block   32
// @kp arg     x    in   float[32]  uniform(-1, 1)
// @kp arg     out  out  float[33]
// @kp scalar  n = N
__global__ void warp_total(const float* x, float* out, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(__activemask(), v, o);
    if (i == 0) out[0] = v;
    out[1 + i] = 2.0f * x[i];
}
"""


def _numeric_rows(tmp_path, n):
    f = tmp_path / "k.cu"
    f.write_text(SRC.replace("= N", f"= {n}"))
    assert kp_inproc("translate", f, "--to", "hip")[0] == 0
    rc, out, err = kp_inproc("verify", f, "--schedules", "block", "--format", "json", "--no-cache", "-j", "1")
    return [c for c in json.loads(out)[0]["checks"] if c["kind"] == "numeric"], out + err


def test_an_output_stored_from_an_inactive_lanes_value_is_an_unknown_at_the_shuffle(tmp_path):
    rows, text = _numeric_rows(tmp_path, 20)  # lanes 20-31 returned: lane 0's total read them
    assert rows, text
    for r in rows:
        assert r["status"] == "skip", r
        assert "a shuffle read lanes not active" in r["detail"] and "k.cu:11:42" in r["detail"], r


@pytest.mark.parametrize("n", [32])
def test_a_full_warps_reduction_still_passes(tmp_path, n):
    rows, text = _numeric_rows(tmp_path, n)
    assert rows and all(r["status"] == "pass" for r in rows), text
