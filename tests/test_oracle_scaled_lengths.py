"""A buffer whose length a host-only size sets (cuda-samples' systemWideAtomics: `numData = 10`,
polybench's CORR: `N` of an M x N matrix the kernel walks M x M) is shrunk with the other sizes when
the launch is scaled down to what the emulator runs, while the kernel's own reach (fixed indices,
another size) is not: the scaled original then faults.  The fault is the scaling's, not the
original's: the buffer is given back its length step by step, never past the length it had before
the scaling (verify_oracle.grow_unscaled); past it, the fault stays the original's."""
from __future__ import annotations

from kernelport.infer_inputs import Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile
from trust_support import verify_checks

PROGRAM = """
__global__ void tally(int* counts, float* out, int n, int reach) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * i;
    if (i < reach) atomicAdd(&counts[i], i + 1);
}
int main() {
    int n = 1 << 18;
    int numData = 10;
    int *counts;
    float *out;
    cudaMalloc(&counts, numData * sizeof(int));
    cudaMalloc(&out, n * sizeof(float));
    tally<<<n / 256, 256>>>(counts, out, n, REACH);
}
"""


def test_inference_keeps_each_buffers_length_before_the_scaling():
    got = infer(build(SourceFile.from_text(PROGRAM.replace("REACH", "10"), "k.cu")), "tally")
    assert isinstance(got, Inferred), got
    assert got.spec.length("counts") == 2 and got.unscaled == {"counts": 10, "out": 1 << 18}, got.inferred


def test_a_buffer_the_scaling_shrank_is_given_back_its_length(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(PROGRAM.replace("REACH", "10"))
    rc, checks, text = verify_checks(f)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "pass", text
    assert "counts: grown from 8 to 10 elements (at most its 10 before the scaling)" in oracle[0]["detail"], text
    ports = [c for c in checks if c["kind"] == "numeric"]
    assert rc == 0 and ports and all(c["status"] == "pass" for c in ports), text


def test_past_the_programs_own_length_the_fault_stays_the_originals(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(PROGRAM.replace("REACH", "11"))  # counts[10]: past the 10 ints the program allocates
    rc, checks, text = verify_checks(f)
    oracle = [c for c in checks if c["kind"] == "oracle"]
    assert oracle and oracle[0]["status"] == "skip", text
    assert "the original faults at wave 32" in oracle[0]["detail"] and "counts[10]" in oracle[0]["detail"], text
