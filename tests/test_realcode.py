"""Annotated kernels after real-code patterns (tests/realcode/): each port verifies at every wave
width of its targets, and the original, run unchanged on a 64-wide wave, is wrong where the
pattern is hazardous (verify's informational row) and right where it is not."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REALCODE = Path(__file__).resolve().parent / "realcode"
FILES = sorted(REALCODE.glob("*.cu"))
# Originals that compute something else on a 64-wide wave (what their ports fix).
HAZARDOUS = {"rows_as_warps_max", "warp_aggregated_count", "ballot_compact"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_realcode_kernel_verifies_at_every_width(path, tmp_path):
    shutil.copy(path, tmp_path / path.name)
    kp = [sys.executable, "-m", "kernelport"]
    subprocess.run(kp + ["translate", path.name, "--to", "hip,metal,portable"], cwd=tmp_path, check=True,
                   capture_output=True)
    r = subprocess.run(kp + ["verify", path.name, "--format", "json"], cwd=tmp_path, capture_output=True,
                       text=True)
    import json
    report = json.loads(r.stdout)
    reports = report if isinstance(report, list) else report.get("files", [report])
    checks = [c for rep in reports for c in rep["checks"]]
    failed = [f"{c['backend']} {c['wave']} {c['kind']}: {c['detail']}" for c in checks if c["status"] == "fail"]
    assert r.returncode == 0 and not failed, "\n".join(failed) or r.stderr
    numeric = {(c["backend"], c["wave"]) for c in checks if c["kind"] == "numeric" and c["status"] == "pass"}
    assert {("hip", 64), ("hip", 32), ("metal", 32), ("portable", 64), ("portable", 32)} <= numeric
    info = [c["detail"] for c in checks if c["kind"] == "original"]
    assert len(info) == 1
    if path.stem in HAZARDOUS:
        assert "wrong at" in info[0] and "this is what the port fixes" in info[0], info[0]
    else:
        assert "matches" in info[0], info[0]


def _unedited(name: str, fixed: str, original: str) -> str:
    """The file as its source wrote it: the marked kernelport edit undone."""
    text = (REALCODE / name).read_text()
    assert fixed in text
    return text.replace(fixed, original)


def _run(text: str, kernel: str, args: dict, grid, block, shared=0, schedule="block"):
    from kernelport.emulator import run_kernel
    return run_kernel(text, kernel, args=args, grid=grid, block=block, shared_bytes=shared, schedule=schedule)


def test_the_race_verify_found_in_llmc_softmax_kernel4():
    """Without the barrier the marked edit adds, warp 0 overwrites shared[0] (the sum slot) while
    other warps still read the max from it: a race, and wrong rows under interleaved warps."""
    import numpy as np
    barrier = "    __syncthreads();  // kernelport edit"
    fixed = (REALCODE / "llmc_softmax_block_warps.cu").read_text()
    start = fixed.index(barrier)
    end = fixed.index("\n", fixed.index("\n", start) + 1) + 1   # the edit and its comment line
    text = _unedited("llmc_softmax_block_warps.cu", fixed[start:end], "")
    x = np.random.default_rng(1).uniform(-4, 4, 4 * 300).astype(np.float32)
    args = dict(out=np.zeros(4 * 300, np.float32), inp=x, N=4, C=300)
    bad = _run(text, "softmax_forward_kernel4", dict(args), (4, 1, 1), (128, 1, 1), 16, "warp")
    good = _run(fixed, "softmax_forward_kernel4", dict(args), (4, 1, 1), (128, 1, 1), 16, "warp")
    assert bad.races and not good.races
    assert not np.allclose(bad.outputs["out"], good.outputs["out"])


def test_the_partial_sums_verify_found_in_hecbench_vector_mv_csr():
    """Every lane of a row stores its own partial sum to y[m]; only lane 0 holds the row's sum."""
    import numpy as np
    text = _unedited("hec_spmv_csr_vector.cu",
                     "    if (threadIdx.x == 0)  // kernelport edit: only lane 0 of the row holds the whole sum\n", "")
    fixed = (REALCODE / "hec_spmv_csr_vector.cu").read_text()
    rows = 32
    ptr = np.arange(rows + 1, dtype=np.uint64) * 5
    args = dict(num_rows=rows, row_indices=ptr, col_indices=np.arange(rows * 5, dtype=np.uint64) % 40,
                values=np.ones(rows * 5, np.float32), x=np.ones(40, np.float32), y=np.zeros(rows, np.float32))
    from kernelport.emulator import run_kernel
    kw = dict(grid=(2, 1, 1), block=(8, 16, 1), template_args=["8"])
    good = run_kernel(fixed, "vector_mv_csr", args=dict(args), **kw).outputs["y"]
    bad = run_kernel(text, "vector_mv_csr", args=dict(args), **kw).outputs["y"]
    assert good.tolist() == [5.0] * rows and bad.tolist() != good.tolist()


def test_the_barrier_after_return_lint_finds_in_cuda_samples_uniform_add(tmp_path):
    """The sample returns before __syncthreads(): SY001 on the original, none on the edited file."""
    from trust_support import kp_inproc
    fixed = (REALCODE / "nv_shfl_scan_uniform_add.cu").read_text()
    edit = fixed[fixed.index("    // kernelport edit"):fixed.index("    data[id] += buf;")]
    text = fixed.replace(edit, "").replace("    if (threadIdx.x == 0) {", "    if (id > len)\n        return;\n\n"
                                           "    if (threadIdx.x == 0) {")
    (tmp_path / "orig.cu").write_text(text)
    (tmp_path / "fixed.cu").write_text(fixed)
    assert "SY001" in kp_inproc("lint", tmp_path / "orig.cu", "--format", "concise")[1]
    assert "SY001" not in kp_inproc("lint", tmp_path / "fixed.cu", "--format", "concise")[1]
