"""An original that runs past its budget at the inferred sizes (polybench's O(N^3) covariance)
runs once more with sizes scaled to far smaller targets, macros device code reads included; a
launch with nothing to scale stays "not run" with the budget's reason."""
from __future__ import annotations

from pathlib import Path

import pytest

import kernelport.emulator as emulator
from kernelport.emulator import BudgetExceeded
from kernelport.infer_inputs import Inferred, infer
from kernelport.model import build
from kernelport.source import SourceFile
from kernelport.verify import Verifier

COVAR = """
#define M 2048
__global__ void covar(float* sym, const float* data) {
    int j1 = blockIdx.x * blockDim.x + threadIdx.x;
    if (j1 < M) {
        float s = 0.0f;
        for (int i = 0; i < M; i++) s += data[i * M + j1];
        sym[j1 * M + j1] = s;
    }
}
int main() {
    float *sym, *data;
    cudaMalloc(&sym, M * M * sizeof(float));
    cudaMalloc(&data, M * M * sizeof(float));
    covar<<<M / 64, 64>>>(sym, data);
}
"""


def test_shrink_scales_the_macro_device_code_reads_short_of_a_smaller_target():
    m = build(SourceFile.from_text(COVAR, "k.cu"))
    first = infer(m, "covar")
    assert isinstance(first, Inferred) and first.redefine == {}  # 32 MiB: runs at its own size
    small = infer(m, "covar", shrink=6)
    assert isinstance(small, Inferred) and small.redefine == {"M": "128"}  # 128 KiB: under 16 MiB / 64
    assert small.spec.dims("grid") == (2, 1, 1) and small.spec.length("data") == 128 * 128
    # a launch whose one block is over the target: the smallest it can be, short of it
    one = infer(build(SourceFile.from_text(COVAR.replace("M / 64, 64", "M / 1024, 1024"), "k.cu")), "covar", shrink=6)
    assert isinstance(one, Inferred) and one.redefine == {"M": "1024"} and one.spec.dims("grid") == (1, 1, 1)


def _verify(tmp_path, text, monkeypatch, limit):
    real = emulator.run_kernel

    def budgeted(*a, **kw):  # a run over `limit` threads runs past its budget (as a slow one would)
        if kw["grid"][0] * kw["block"][0] > limit:
            raise BudgetExceeded("ran past its 60 s budget (verify --timeout) in this loop", kw["path"], 7, 1)
        return real(*a, **kw)
    monkeypatch.setattr(emulator, "run_kernel", budgeted)
    f = tmp_path / "covar.cu"
    f.write_text(text)
    rep = Verifier(schedules=("block",), cache=False).verify(Path(f))
    return [c for c in rep.checks if c.kind in ("oracle", "numeric")]


def test_an_original_past_its_budget_runs_again_smaller(tmp_path, monkeypatch):
    checks = _verify(tmp_path, COVAR, monkeypatch, 128)
    oracle = [c for c in checks if c.kind == "oracle"]
    assert [c.status for c in oracle] == ["pass"], oracle
    assert "M = 2048 scaled down to 128" in oracle[0].detail and "scaled down 64 times further" in oracle[0].detail
    assert [c for c in checks if c.kind == "numeric"] and all(c.status == "pass" for c in checks if c.kind == "numeric")


def test_a_launch_with_nothing_to_scale_stays_not_run_with_the_budget(tmp_path, monkeypatch):
    fixed = COVAR.replace("covar<<<M / 64, 64>>>", "covar<<<4, 256>>>")
    checks = _verify(tmp_path, fixed.replace("#define M 2048", "#define M 1024"), monkeypatch, 256)
    oracle = [c for c in checks if c.kind == "oracle"]
    assert [c.status for c in oracle] == ["skip"] and "ran past its 60 s budget" in oracle[0].detail, oracle
