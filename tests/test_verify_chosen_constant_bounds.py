"""Sizes verify chooses respect what a file-scope array the kernel's text sizes holds (stop 65), as they do a
shared array's (test_verify_chosen_shared_bounds).  A convolution's `__constant__ float w[31 * 31]` is filled by
`cudaMemcpyToSymbol(w, k, k_rows * k_cols * sizeof(float))` and read at `w[dy * k_cols + dx]`: the program never
passes a filter of more than 31 x 31, verify chose k_rows = k_cols = 1024 and the original "faulted on chosen
inputs".  An access past such an array at chosen sizes now re-infers the inputs with the chosen sizes halved
until it fits, and where none fits says so (not run, the reason).  Look-alike: the same overrun at a size host
code gives is the original's fault, reported as before."""
from __future__ import annotations

from pathlib import Path

from kernelport.verify import Verifier

KERNEL = """\
#include <cstdlib>
__constant__ float w[31 * 31];
__global__ void conv(const float* in, float* out, int n, int k_rows, int k_cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    for (int dy = 0; dy < k_rows; dy++)
        for (int dx = 0; dx < k_cols; dx++) s += in[(i + dy + dx) % n] * w[dy * k_cols + dx + {off}];
    out[i] = s;
}
int main(int argc, char** argv) {
    int n = 256;
    int k = {k};
    float *in, *out, *h = (float*)malloc(k * k * sizeof(float));
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpyToSymbol(w, h, k * k * sizeof(float));
    conv<<<n / 128, 128>>>(in, out, n, k, k);
    return 0;
}
"""


def _oracle(tmp_path, k, off=0):
    f = tmp_path / "c.cu"
    f.write_text(KERNEL.replace("{k}", k).replace("{off}", str(off)))
    rep = Verifier(cache=False, oracle="original").verify(Path(f))
    return [c for c in rep.checks if c.kind == "oracle"][0]


def test_chosen_sizes_are_scaled_to_what_a_constant_array_holds(tmp_path):
    c = _oracle(tmp_path, "atoi(argv[1])")
    assert c.status == "pass", c.detail
    assert "k = 16 chosen (halved from 32, first 1024: at those the original accessed past a file-scope array" \
        in c.detail, c.detail


def test_where_no_smaller_chosen_size_fits_it_says_so(tmp_path):
    c = _oracle(tmp_path, "atoi(argv[1])", off=961)  # past the array at every size
    assert c.status == "skip" and "sizes verify chose overrun a file-scope array the kernel sizes itself" in c.detail, \
        c.detail
    assert "--arg k=VALUE" in c.detail and "faults at wave" not in c.detail


def test_a_size_host_code_gives_is_the_originals_fault(tmp_path):
    c = _oracle(tmp_path, "64")
    assert c.status == "skip" and "the original faults at wave 32 on inferred inputs" in c.detail, c.detail
    assert "w[961]" in c.detail, c.detail
