"""Sizes verify chooses (a value only the run gives: `atoi(argv[1])`) respect what the kernel's own shared
arrays hold (stop 64).  heldout86 gnss's weight_kernel stages `n_sat` satellites in `__shared__ double
s_sat[MAX_SATS * 3]` (MAX_SATS = 64, the program never passes more); verify chose n_sat = 1024 and the
original "faulted on chosen inputs".  An access past a shared array at chosen sizes now re-infers the inputs
at sizes scaled down (as an original past its budget is), and where those still overrun it, says so (not
run, the reason) rather than report a fault.  Look-alike: the same overrun at a size host code gives is the
original's fault, reported as before."""
from __future__ import annotations

from pathlib import Path

from kernelport.verify import Verifier

KERNEL = """\
#include <cstdlib>
#define MAX_SATS {cap}
__global__ void weight(const float* sat, float* out, int N, int n_sat) {
    __shared__ float s_sat[MAX_SATS];
    for (int i = threadIdx.x; i < n_sat; i += blockDim.x) s_sat[i + {off}] = sat[i];
    __syncthreads();
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= N) return;
    float acc = 0.0f;
    for (int s = 0; s < n_sat; s++) acc += s_sat[s] * (float)tid;
    out[tid] = acc;
}
int main(int argc, char** argv) {
    int N = 256;
    int n_sat = {n_sat};
    float *sat, *out;
    cudaMalloc(&sat, n_sat * sizeof(float));
    cudaMalloc(&out, N * sizeof(float));
    weight<<<(N + 127) / 128, 128>>>(sat, out, N, n_sat);
    return 0;
}
"""


def _oracle(tmp_path, cap, n_sat, off=0):
    f = tmp_path / "w.cu"
    f.write_text(KERNEL.replace("{cap}", str(cap)).replace("{n_sat}", n_sat).replace("{off}", str(off)))
    rep = Verifier(cache=False, oracle="original").verify(Path(f))
    return [c for c in rep.checks if c.kind == "oracle"][0]


def test_chosen_sizes_are_scaled_to_what_a_shared_array_holds(tmp_path):
    c = _oracle(tmp_path, 64, "atoi(argv[1])")
    assert c.status == "pass", c.detail
    assert "n_sat = 64 chosen (halved from 128, first 1024: at those the original accessed past a shared array" in c.detail, c.detail
    assert "from the command line" not in c.detail


def test_where_no_smaller_chosen_size_fits_it_says_so(tmp_path):
    c = _oracle(tmp_path, 1, "atoi(argv[1])", off=1)  # past the array at every size
    assert c.status == "skip" and "sizes verify chose overrun a shared array the kernel sizes itself" in c.detail, \
        c.detail
    assert "--arg n_sat=VALUE" in c.detail and "faults at wave" not in c.detail


def test_a_size_host_code_gives_is_the_originals_fault(tmp_path):
    c = _oracle(tmp_path, 64, "1024")
    assert c.status == "skip" and "the original faults at wave 32 on inferred inputs" in c.detail, c.detail
    assert "out-of-bounds write of shared memory s_sat[64]" in c.detail
