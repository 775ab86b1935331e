"""`verify --wave-invariance` takes the inputs of unannotated kernels from `--inputs FILE` (`@kp`
lines). `--arg/--grid/--block` (verify's inputs for checking ports) were silently ignored there,
while each kernel not run said "pass them: --arg ..." (met verifying heldout31's particle-filter
kernels): now they are an error that says where the inputs go."""
from __future__ import annotations

import subprocess
import sys

KERNEL = """__global__ void shift(int *dst, const int *src, const int off, const int n) {
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) dst[i + off] = src[i];
}
"""
INPUTS = """@kp kernel shift
@kp grid 4
@kp block 256
@kp arg dst inout int[1100] integers(0, 3)
@kp arg src in int[1024] integers(0, 9)
@kp scalar off = 3
@kp scalar n = 1024
"""


def _verify(tmp_path, *extra):
    (tmp_path / "k.cu").write_text(KERNEL)
    return subprocess.run([sys.executable, "-P", "-m", "kernelport", "verify", "--wave-invariance", "-j", "1",
                           "k.cu", *extra], cwd=tmp_path, capture_output=True, text=True, timeout=300)


def test_command_line_inputs_are_refused_with_where_they_go(tmp_path):
    r = _verify(tmp_path, "--arg", "n=1024", "--grid", "4", "--block", "256")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--inputs FILE" in r.stderr and "@kp scalar NAME = VALUE" in r.stderr, r.stderr


def test_an_inputs_file_runs_the_kernel_at_both_widths(tmp_path):
    (tmp_path / "in.kp").write_text(INPUTS)
    r = _verify(tmp_path, "--inputs", "in.kp")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "shift: invariant" in r.stdout and "1 invariant" in r.stdout, r.stdout
