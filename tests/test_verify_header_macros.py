"""verify reads the original as translate does: where the plain parse stops at a macro an included header
defines, the file is parsed again with the macros its includes define (Project.source).  heldout58's
sync-ubench grid_reduction.cu: `repeat16(mySum += idata[i]; i += BlockSize;);`, repeat16 from repeat.h;
`verify --oracle original` stopped on main ("syntax error: expected ')'"), translate ported it, and the same
macro defined in the file verified (kernelport/project_ports.run_source)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from trust_support import kp_inproc

REPEAT = "#define repeat2(S) S S\n#define repeat4(S) repeat2(S) repeat2(S)\n"
KERNEL = """
__global__ void sum4(const float *x, float *y) {
  int i = threadIdx.x;
  float s = 0;
  repeat4(s += x[i]; i += 32;);
  y[threadIdx.x] = s;
}
"""
ARGS = ("--arg", "x=float[128]:uniform(-1,1)", "--arg", "y=float[32]", "--grid", "1", "--block", "32")


def _verify(path):
    rc, out, err = kp_inproc("verify", path, "--oracle", "original", "--schedules", "block", "--format", "json",
                             "--no-cache", "-j", "1", *ARGS)
    return rc, out, err


@pytest.mark.parametrize("in_header", [True, False])
def test_statements_as_a_header_macros_argument_verify(tmp_path, in_header):
    # in_header=False is the look-alike that verified on main: the macro defined in the file
    if in_header:
        (tmp_path / "repeat.h").write_text(REPEAT)
        (tmp_path / "k.cu").write_text('#include "repeat.h"\n' + KERNEL)
    else:
        (tmp_path / "k.cu").write_text(REPEAT + KERNEL)
    rc, out, err = _verify(tmp_path / "k.cu")
    assert rc == 0, out + err
    checks = json.loads(out)[0]["checks"]
    ran = {(c["backend"], c["wave"]) for c in checks if c["status"] == "pass" and c["kind"] == "numeric"}
    assert {("hip", 64), ("hip", 32), ("metal", 32)} <= ran, checks
    from kernelport.emulator.run import run_kernel
    x = np.arange(128, dtype=np.float32)
    got = run_kernel((tmp_path / "k.cu").read_text(), "sum4", args={"x": x, "y": np.zeros(32, np.float32)},
                     grid=(1,), block=(32,), path=str(tmp_path / "k.cu"))
    assert np.array_equal(got.outputs["y"], x.reshape(4, 32).sum(0))  # the four statements, each run once a copy


def test_a_macro_no_header_defines_is_still_a_located_syntax_error(tmp_path):
    (tmp_path / "repeat.h").write_text("#define repeat2(S) S S\n")
    (tmp_path / "k.cu").write_text('#include "repeat.h"\n' + KERNEL)
    rc, out, err = _verify(tmp_path / "k.cu")
    assert rc != 0
    assert "k.cu:6:20" in out + err and "syntax error" in out + err, out + err
