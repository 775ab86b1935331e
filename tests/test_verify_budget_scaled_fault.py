"""An original that faults only at sizes verify scaled down because the first ones ran past the time
budget (llm.c matmul_forward_kernel4: OC = 3072 scaled to 192, not a multiple of the 128 columns each block
writes, so blocks overlap: a race) is cut by the budget, not an original that faults: at its first sizes it
ran fault-free until the budget, and the scaled sizes broke an assumption of the kernel (a multiple of its
tile), a wrong inference.  An original that faults at its first sizes still faults."""
from __future__ import annotations

from test_oracle_budget import _verify  # a run over `limit` threads runs past its budget

TILED = """
#define ROWS 512
#define OC 3072
__global__ void tile(float* out, int oc) {
    out += 128 * blockIdx.x;  // each block: 128 columns of every row, no bound (oc a multiple of 128)
    for (int r = 0; r < ROWS; r++) out[r * oc + threadIdx.x] = (float)(blockIdx.x * 1000 + r * 7 + threadIdx.x);
}
int main() {
    float* out;
    int oc = OC;
    cudaMalloc(&out, ROWS * oc * sizeof(float));
    tile<<<(oc + 127) / 128, 128>>>(out, oc);
}
"""


def _oracle(tmp_path, monkeypatch, text, limit):
    return [c for c in _verify(tmp_path, text, monkeypatch, limit) if c.kind == "oracle"]  # (the file: covar.cu)


def test_a_fault_only_at_sizes_scaled_for_the_budget_is_a_cut(tmp_path, monkeypatch):
    oracle = _oracle(tmp_path, monkeypatch, TILED, 1024)
    assert [c.status for c in oracle] == ["skip"], oracle
    d = oracle[0].detail
    assert d.startswith("not run: cut by the time budget: at the first sizes the original at wave 32 ran past") and \
        "scaled down 64 times further" in d and "faults at wave" not in d, d


def test_a_fault_at_the_first_sizes_is_still_the_originals(tmp_path, monkeypatch):
    # The look-alike: OC not a multiple of 128 in the program itself, no budget reached: the original faults.
    oracle = _oracle(tmp_path, monkeypatch, TILED.replace("#define OC 3072", "#define OC 192"), 1 << 20)
    assert [c.status for c in oracle] == ["skip"], oracle
    assert oracle[0].detail.startswith("not run: the original faults at wave 32 on inferred inputs ("), oracle[0].detail
