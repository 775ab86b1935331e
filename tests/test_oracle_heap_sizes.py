"""An original whose device mallocs (`new T[n]`) find the heap full for some threads at the sizes
verify chose (argv's, scaled) runs once more at sizes 64 times smaller, as one past its time budget
does (verify_oracle.run_oracle); the same heap overflow at sizes the program's own host code fixes
is the program's (a NULL in some threads on the GPU too) and stays "not run" with its reason."""
from __future__ import annotations

from pathlib import Path

from kernelport.verify import Verifier

KERNEL = """#include <cstdlib>
__global__ void rowsum(const float* in, float* out, int n, int dim) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double* tmp = new double[2 * dim];
        for (int d = 0; d < dim; d++) { tmp[2 * d] = in[i * dim + d]; tmp[2 * d + 1] = 1.0; }
        double s = 0.0;
        for (int d = 0; d < dim; d++) s += tmp[2 * d] * tmp[2 * d + 1];
        out[i] = (float)s;
        delete[] tmp;
    }
}
int main(int argc, char** argv) {
    int n = SIZE_N;
    int dim = SIZE_DIM;
    float *in, *out;
    cudaMalloc(&in, n * dim * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    rowsum<<<(n + 255) / 256, 256>>>(in, out, n, dim);
}
"""


def _checks(tmp_path, n: str, dim: str):
    f = tmp_path / "rowsum.cu"
    f.write_text(KERNEL.replace("SIZE_N", n).replace("SIZE_DIM", dim))
    rep = Verifier(schedules=("block",), cache=False).verify(Path(f))
    return [c for c in rep.checks if c.kind == "oracle"], [c for c in rep.checks if c.kind == "numeric"]


def test_a_heap_full_at_chosen_sizes_runs_again_smaller(tmp_path):
    # n = dim = 1024 chosen: 1024 threads x 16 KiB past CUDA's 8 MiB heap; at 128 x 128 it fits
    oracle, numeric = _checks(tmp_path, "atoi(argv[1])", "atoi(argv[2])")
    assert [c.status for c in oracle] == ["pass"], oracle
    assert "scaled down 64 times further" in oracle[0].detail and "heap full" in oracle[0].detail
    assert "n = 128 chosen" in oracle[0].detail
    ran = [c for c in numeric if c.status != "skip"]
    assert ran and all(c.status == "pass" for c in ran), numeric
    assert {c.backend for c in ran} >= {"hip", "portable"} and {c.wave for c in ran} == {32, 64}


def test_a_heap_full_at_the_programs_own_sizes_stays_not_run(tmp_path):
    # the same overflow where host code fixes the sizes: the program's own NULLs, never scaled away
    oracle, numeric = _checks(tmp_path, "1024", "1024")
    assert [c.status for c in oracle] == ["skip"], oracle
    assert "NULL in the rest" in oracle[0].detail and "scaled down 64 times further" not in oracle[0].detail
    assert not [c for c in numeric if c.status in ("pass", "fail")]
