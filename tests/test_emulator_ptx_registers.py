"""PTX's special registers on the emulator (oracle42: cuda-samples inlinePTX's `asm("mov.u32 %0, %%laneid;"
: "=r"(laneid))`, before "inline PTX `mov.u32` not emulated", its kernel not run): a `mov` from %laneid,
%lanemask_*, %tid / %ntid / %ctaid / %nctaid reads what the register holds on CUDA's 32-lane warps (the
table SPECIAL_REGISTERS in kernelport/emulator/frontend/ptx.py).  verify's oracle then runs the kernel; a
lane id stored as data is the 32-lane warp's in the port too (kernelport/laneoutputs.py: the HIP port's
`__lane_id()` counted 64 lanes at wave 64, which the oracle showed)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from test_lane_outputs import PTX, kernel
from trust_support import assert_a_lane_hazard_fails_only_at_64, numeric_statuses, verify_checks

KERNEL = """
__global__ void k(unsigned int* out) {
    unsigned int r;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    asm("mov.u32 %0, %%REG;" : "=r"(r));
    out[t] = r;
}
"""


def _regs(reg: str) -> list[int]:
    out = np.zeros(64, np.uint32)
    return run_kernel(KERNEL.replace("REG", reg), "k", args={"out": out}, grid=(1, 1, 1), block=(16, 4, 1),
                      wave=32).outputs["out"].tolist()


def test_laneid_and_lane_masks_count_the_block_s_linear_threads_in_warps_of_32():
    lanes = [t % 32 for t in range(64)]
    assert _regs("laneid") == lanes
    assert _regs("lanemask_eq") == [1 << n for n in lanes]
    assert _regs("lanemask_lt") == [(1 << n) - 1 for n in lanes]
    assert _regs("lanemask_le") == [(2 << n) - 1 for n in lanes]
    assert _regs("lanemask_gt") == [0xFFFFFFFF ^ ((2 << n) - 1) for n in lanes]
    assert _regs("lanemask_ge") == [0xFFFFFFFF ^ ((1 << n) - 1) for n in lanes]
    assert _regs("tid.y") == [t // 16 for t in range(64)] and _regs("ntid.x") == [16] * 64


def test_a_register_outside_the_table_stays_refused_at_its_line():
    with pytest.raises(EmulatorError, match=r":5:\d+: inline PTX `mov.u32` not emulated"):
        _regs("clock")  # a clock's value is the run's, never an input the original and a port share


# inlinePTX's kernel with a host launch (tests/test_lane_outputs.py's): {lane} is what lane_of[i] stores
SOURCE = kernel(PTX, "{lane}", "(i % 32 < 32 ? 2.0f : -3.0f) * x[i]")


def test_the_oracle_runs_it_and_a_port_with_a_wave_64_hazard_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(SOURCE.replace("{lane}", "lane / 32"))  # 0 on every lane of a 32-lane warp; the port's lane is
    rc, checks, text = verify_checks(f)                 # the 32-lane warp's too (laneoutputs: it was 1 at 32..63)
    assert [c["status"] for c in checks if c["kind"] == "oracle"] == ["pass"], text
    assert numeric_statuses(checks) == {32: "pass", 64: "pass"}, text
    f.write_text(SOURCE.replace("{lane}", "lane % 32"))  # the same on both: the port passes, until broken
    rc, checks, text = verify_checks(f)
    assert rc == 0 and numeric_statuses(checks) == {32: "pass", 64: "pass"}, text
    assert_a_lane_hazard_fails_only_at_64(f)
