"""Annotated kernels after real-code patterns (tests/realcode/): each port verifies at every wave
width of its targets, and the original, run unchanged on a 64-wide wave, is wrong where the
pattern is hazardous (verify's informational row) and right where it is not."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REALCODE = Path(__file__).resolve().parent / "realcode"
FILES = sorted(REALCODE.glob("*.cu"))
# Originals that compute something else on a 64-wide wave (what their ports fix).
HAZARDOUS = {"rows_as_warps_max", "warp_aggregated_count", "ballot_compact", "lgbm_shuffle_prefix_sum",
             "cgbn_group_votes", "classifier_group_all"}
# The original run at wave 64 reads lanes its 32-thread block does not have (`__shfl_down_sync(FULL, v, 16)` on lanes
# 16-31), and those values decide a branch (welford_merge's `total > 0`): since h/verify66 such a read has no value
# and verify says it could not run the original there (what lane 0 stores does not depend on them, but the emulator
# does not follow which lanes reach an output); the ports, whose shuffles keep width 32, still pass every check.
INACTIVE_AT_64 = {"welford_rows"}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_realcode_kernel_verifies_at_every_width(path, tmp_path):
    # In this process (the CLI's own entry point: its exit codes and output): a kernelport start-up
    # per command would add nothing the subprocess tests (test_ux_*.py) do not already check.
    import json
    from trust_support import kp_inproc
    work = tmp_path / path.name
    shutil.copy(path, work)
    rc, _, err = kp_inproc("translate", work, "--to", "hip,metal,portable")
    assert rc == 0, err
    rc, out, err = kp_inproc("verify", work, "--format", "json")
    report = json.loads(out)
    reports = report if isinstance(report, list) else report.get("files", [report])
    checks = [c for rep in reports for c in rep["checks"]]
    failed = [f"{c['backend']} {c['wave']} {c['kind']}: {c['detail']}" for c in checks if c["status"] == "fail"]
    assert rc == 0 and not failed, "\n".join(failed) or err
    numeric = {(c["backend"], c["wave"]) for c in checks if c["kind"] == "numeric" and c["status"] == "pass"}
    assert {("hip", 64), ("hip", 32), ("metal", 32), ("portable", 64), ("portable", 32)} <= numeric
    info = [c["detail"] for c in checks if c["kind"] == "original"]
    assert len(info) == 1
    if path.stem in INACTIVE_AT_64:
        assert "original at wave 64: could not run" in info[0] and "a value never written" in info[0], info[0]
    elif path.stem in HAZARDOUS:
        assert ("wrong at" in info[0] or "wrong, it faults" in info[0]) and "this is what the port fixes" in info[0], \
            info[0]
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


def test_the_partial_mask_verify_found_in_hecbench_jacobi_step():
    """The second reduction runs in row 0 alone (lanes 0-15) with the full mask: the emulator
    refuses the mask naming inactive lanes; __activemask() (the marked edit) names the row."""
    import numpy as np
    from kernelport.emulator.errors import EmulatorError
    fixed = (REALCODE / "hec_jacobi_step.cu").read_text()
    text = fixed.replace("__shfl_down_sync(__activemask(), err, offset)", "__shfl_down_sync(0xffffffff, err, offset)")
    assert text != fixed
    rng = np.random.default_rng(0)
    args = dict(f=rng.uniform(-1, 1, 64 * 64).astype(np.float32), f_old=rng.uniform(-1, 1, 64 * 64).astype(np.float32),
                error=np.zeros(1, np.float32))
    with pytest.raises(EmulatorError, match="names inactive lanes 16-31"):
        _run(text, "jacobi_step", dict(args), (4, 4, 1), (16, 16, 1))
    assert _run(fixed, "jacobi_step", dict(args), (4, 4, 1), (16, 16, 1)).outputs["error"][0] > 0


def test_the_out_of_bounds_write_of_lightgbm_shuffle_prefix_sum_at_wave_64():
    """Warp 0's 64 lanes write the 32-slot buffer: a located fault at wave 64, none at 32."""
    import numpy as np
    from kernelport.emulator import KernelFault, run_kernel
    text = (REALCODE / "lgbm_shuffle_prefix_sum.cu").read_text()
    args = dict(values=np.arange(2048, dtype=np.uint32), len=2048, block_prefix_sum_buffer=np.zeros(2, np.uint32))
    kw = dict(grid=(2, 1, 1), block=(1024, 1, 1), template_args=["uint32_t"])
    ok = run_kernel(text, "ShufflePrefixSumGlobalKernel", args=dict(args, values=args["values"].copy()), wave=32, **kw)
    assert ok.outputs["values"][1023] == sum(range(1024))
    with pytest.raises(KernelFault, match=r"out-of-bounds write of shared memory shared_mem_buffer\[32\]") as ei:
        run_kernel(text, "ShufflePrefixSumGlobalKernel", args=dict(args, values=args["values"].copy()), wave=64, **kw)
    assert ei.value.line == text.splitlines().index("    shared_mem_buffer[warpLane] = warp_sum;") + 1
