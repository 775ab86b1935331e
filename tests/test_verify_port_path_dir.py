"""A directory where verify looks for a port (`k.metal/` beside `k.cu`) is no port: its drift check fails saying
the path is not a file (an annotated kernel's ports are committed beside it), nothing of the directory is read or
touched; it was an internal error (IsADirectoryError) until stop 48."""
from __future__ import annotations

import json
import subprocess
import sys

SRC = """// @kp kernel scale
// @kp grid   ceil_div(n, 128)
// @kp block  128
// @kp why    128 threads: 4 NVIDIA warps, 2 CDNA waves
// @kp arg    y out float[n] constant(0)
// @kp arg    x in  float[n] uniform(-1, 1)
// @kp scalar n = 1000
__global__ void scale(float* y, const float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}
"""


def test_a_directory_at_the_ports_path_is_no_port(tmp_path):
    (tmp_path / "k.cu").write_text(SRC)
    (tmp_path / "k.metal").mkdir()
    (tmp_path / "k.metal" / "keep.txt").write_text("the user's")
    r = subprocess.run([sys.executable, "-m", "kernelport", "verify", str(tmp_path / "k.cu"), "--format", "json"],
                       capture_output=True, text=True, timeout=300)
    out = r.stdout + r.stderr
    assert "internal error" not in out and "Traceback" not in out, out
    checks = [c for f in json.loads(r.stdout) for c in f["checks"] if c["kind"] == "drift" and c["backend"] == "metal"]
    assert r.returncode == 1 and checks and "k.metal is not a file" in checks[0]["detail"], out
    assert (tmp_path / "k.metal" / "keep.txt").read_text() == "the user's"  # nothing of the user's is touched
