"""Only verify's own size choices are halved where an original overruns a shared array at them (review of
stop 64's merge of h/verify64).

chosen_shared halved every chosen value above 1: a reference device's property (`prop.maxThreadsPerBlock`, 1024) and a
value the program itself had before the run changed it (an option's default) with the sizes.  A launch of
`prop.maxThreadsPerBlock / 8` threads (128 on the reference device) then shrank with `n_sat` (to 8 at n_sat = 64): the original and every
port ran at blocks narrower than a wave of 64, so a port's wave-64 defect could not show, and the run was
not the program's geometry.  Now only the sizes verify chose itself are halved.  Look-alike: a chosen block
size (`atoi(argv[2])`, no value of the program's) is verify's choice and still halves."""
from __future__ import annotations

from pathlib import Path

from kernelport.verify import Verifier

KERNEL = """\
#include <cstdlib>
#define MAX_SATS 64
__global__ void weight(const float* sat, float* out, int N, int n_sat) {
    __shared__ float s_sat[MAX_SATS];
    for (int i = threadIdx.x; i < n_sat; i += blockDim.x) s_sat[i] = sat[i];
    __syncthreads();
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= N) return;
    float acc = 0.0f;
    for (int s = 0; s < n_sat; s++) acc += s_sat[s] * (float)tid;
    out[tid] = acc;
}
int main(int argc, char** argv) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    int N = 256;
    int n_sat = atoi(argv[1]);
    int threads = {threads};
    float *sat, *out;
    cudaMalloc(&sat, n_sat * sizeof(float));
    cudaMalloc(&out, N * sizeof(float));
    weight<<<(N + threads - 1) / threads, threads>>>(sat, out, N, n_sat);
    return 0;
}
"""


def _oracle(tmp_path, threads):
    f = tmp_path / "w.cu"
    f.write_text(KERNEL.replace("{threads}", threads))
    rep = Verifier(cache=False, oracle="original").verify(Path(f))
    return [c for c in rep.checks if c.kind == "oracle"][0]


def test_a_device_property_is_not_halved_with_the_sizes(tmp_path):
    c = _oracle(tmp_path, "prop.maxThreadsPerBlock / 8")
    assert c.status == "pass", c.detail
    assert "n_sat = 64 chosen (halved from 128, first 1024" in c.detail, c.detail
    assert "maxThreadsPerBlock = 64" not in c.detail and "maxThreadsPerBlock = 512" not in c.detail, c.detail


def test_a_chosen_size_nothing_else_gives_still_halves(tmp_path):
    c = _oracle(tmp_path, "atoi(argv[2])")
    assert c.status == "pass", c.detail
    assert "n_sat = 64" in c.detail, c.detail
