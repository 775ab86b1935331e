"""PTX's `%lanemask_*` zero-extended into a 64-bit register (`asm("cvt.u64.u32 %0, %%lanemask_lt;" : "=l"(m))`).

A 32-bit destination in a group kept at the wave's width is refused (tests/test_ptx_lanemasks.py: 64 lanes do
not fit); a 64-bit one holds them.  In such a native group (its ballots are the wave's 64 bits) the port spells
the wave's mask from the wave lane, whichever lanes are active (ROCm's __lanemask_lt() ANDs in the active lanes:
not the register), the lanes above cut at warpSize so a 32-lane wave's mask is CUDA's exactly; in a logical
32-lane group it is the 32-lane warp's mask, zero-extended as cvt.u64.u32 does.  The emulator runs the original's
`cvt` of a special register too, so verify checks the port at 32 and 64."""
from __future__ import annotations

import pytest

from port_support import port_text
from trust_support import kp_inproc, numeric_statuses, verify_checks

# a leader per warp (the lowest kept lane) adds the warp's count of kept lanes: the total is the count at any width
COUNT = """\
// @kp kernel     count_kept
// @kp grid       ceil_div(n, 256)
// @kp block      256
// @kp arg        in     in     int[n]     integers(-4, 4)
// @kp arg        total  inout  unsigned long long[1]  constant(0)
// @kp scalar     n = 1000
// @kp reference  count_ref(in, total, n)
// @kp tolerance  exact
// @kp targets    hip
__global__ void count_kept(const int *in, unsigned long long *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = i < n && in[i] > 0;
  unsigned long long ballot = __ballot_sync(0xffffffffu, keep);
  unsigned long long lt;
  asm("cvt.u64.u32 %0, %%lanemask_lt;" : "=l"(lt));
  if (keep && (ballot & lt) == 0) atomicAdd(total, (unsigned long long)__popcll(ballot));
}

void count_ref(const int *in, unsigned long long *total, int n) {
  for (int i = 0; i < n; ++i) total[0] += in[i] > 0;
}
"""
BIT, WAVE = "(1ull << __lane_id())", "(~0ull >> (64 - warpSize))"
WAVE_MASKS = {"eq": BIT, "lt": f"({BIT} - 1ull)", "le": f"(({BIT} << 1) - 1ull)",
              "gt": f"(~(({BIT} << 1) - 1ull) & {WAVE})", "ge": f"(~({BIT} - 1ull) & {WAVE})"}


@pytest.mark.parametrize("reg", sorted(WAVE_MASKS))
def test_a_native_groups_64_bit_lane_mask_is_the_waves(tmp_path, reg):
    text = port_text(COUNT.replace("lanemask_lt", f"lanemask_{reg}"))
    assert f"lt = {WAVE_MASKS[reg]};" in text, text
    assert "__lanemask_" not in text  # (ROCm's ANDs in the active lanes)
    if reg in ("lt", "gt"):
        from conftest import hip_compiles
        hip_compiles(tmp_path, text)


def test_a_logical_groups_64_bit_lane_mask_is_its_32_lane_warps(tmp_path):
    """Look-alike: the same asm in a group kept at 32 lanes (a width-32 shuffle): the warp's 32-bit mask."""
    src = COUNT.replace("  if (keep", "  int lead = __shfl_sync(0xffffffffu, i, 0, 32);\n  if (lead >= 0 && keep")
    text = port_text(src)
    assert "lt = ((1u << (__lane_id() & 31)) - 1u);" in text, text


def test_verify_passes_at_32_and_64_and_the_warps_mask_fails_at_64(tmp_path):
    f = tmp_path / "count.cu"
    f.write_text(COUNT)
    rc, checks, text = verify_checks(f, compiles=False)
    assert numeric_statuses(checks) == {32: "pass", 64: "pass"}, text
    # a port that read the register as the 32-lane warp's mask: two leaders per 64-lane wave, each adding the wave's
    assert kp_inproc("translate", f, "--to", "hip")[0] == 0
    hip = tmp_path / "count.hip"
    hip.write_text(hip.read_text().replace(f"lt = {WAVE_MASKS['lt']};", "lt = (1u << (__lane_id() & 31)) - 1u;"))
    rc, checks, text = verify_checks(f, compiles=False)
    assert numeric_statuses(checks) == {32: "pass", 64: "fail"}, text
