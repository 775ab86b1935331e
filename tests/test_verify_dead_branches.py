"""verify reads a file as translate reads it: text that does not parse in a branch no compile of the run
reaches (`#ifdef DEBUG` where nothing defines DEBUG) is no error (hecbench convolution3D-cuda's conv3d_s4.cu:
`std::cerr << ... << std::endl;` under `#ifdef DEBUG` in a fragment main.cu includes; the oracle's read gave
"47:74: syntax error: expected '...'" where translate read the file).  Look-alike: the same text in a branch
the run does compile (`#ifndef DEBUG`) is still the located syntax error."""
from __future__ import annotations

from kernelport.verify import Verifier

KERNEL = """\
__global__ void k(float* y) { y[threadIdx.x] = 1.0f; }
#if{test} DEBUG
int broken = ;
#endif
"""


def _verify(tmp_path, test):
    f = tmp_path / "k.cu"
    f.write_text(KERNEL.replace("{test}", test))
    return Verifier(cache=False).verify(f)


def test_a_dead_branch_that_does_not_parse_is_read_past(tmp_path):
    rep = _verify(tmp_path, "def")
    assert rep.error is None, rep.error


def test_a_live_branch_that_does_not_parse_is_a_located_error(tmp_path):
    rep = _verify(tmp_path, "ndef")
    assert rep.error is not None and "k.cu:3:" in rep.error and "syntax error" in rep.error, rep.error
