"""A host value rounded up by a conditional step (hecbench mriQ: `QBlocks = numX / 256; if (numX % 256)
QBlocks++;`): its value is its definition plus one where the condition holds, tied to the size it is
computed from.  Before, the step made it a value host code sets at run time, chosen apart from numX (a grid
far wider than the buffers: the original read past them and verify's oracle did not run it).
Look-alikes: the step inside a loop, or an `if` with an `else`, leaves the value unknown (chosen) as before."""
from __future__ import annotations

from kernelport.infer_inputs import Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile

TEXT = """
__global__ void q(const float* x, float* out, int n) {
    int i = blockIdx.x * 64 + threadIdx.x;
    out[i] = 2.0f * x[i];
}
int main(int argc, char** argv) {
    int numX = atoi(argv[1]);
    float *x, *out;
    cudaMalloc(&x, numX * sizeof(float));
    cudaMalloc(&out, numX * sizeof(float));
    int blocks = numX / 64;
    if (numX % 64) blocks++;
    q<<<blocks, 64>>>(x, out, numX);
}
"""


def _got(text):
    got = infer(build(SourceFile.from_text(text, "k.cu")), "q")
    assert isinstance(got, Inferred), got
    return got


def test_a_ceiling_step_keeps_the_grid_tied_to_the_size():
    got = _got(TEXT)
    n = got.spec.length("x")
    assert "blocks" not in got.chosen, got.chosen
    g = got.spec.dims("grid")[0]
    assert g * 64 >= n and (g - 1) * 64 < n, (g, n)
    got = _got(TEXT.replace("int numX = atoi(argv[1]);", "int numX = 1000;"))
    assert got.spec.dims("grid")[0] == 16  # 1000 / 64 = 15, and 1000 % 64 != 0


def test_a_step_in_a_loop_or_with_an_else_stays_a_choice():
    looped = TEXT.replace("if (numX % 64) blocks++;", "for (int r = 0; r < 2; r++) if (numX % 64) blocks++;")
    assert "blocks" in _got(looped).chosen
    other = TEXT.replace("if (numX % 64) blocks++;", "if (numX % 64) blocks++; else blocks--;")
    assert "blocks" in _got(other).chosen
