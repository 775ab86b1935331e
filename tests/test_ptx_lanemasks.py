"""PTX's `%lanemask_eq/lt/le/gt/ge` (cuda-samples cdpAdvancedQuicksort, cdpQuadtree: `asm("mov.u32 %0,
%%lanemask_lt;" : "=r"(m)); __popc(ballot & m)`, a lane's rank among the warp's kept lanes).  The register is
the 32-bit mask of the lanes of the lane's 32-lane warp, whichever lanes are active; ROCm's __lanemask_lt()
is 64 bits and ANDs in __ballot64(1) (amd_device_functions.h, ROCm 5.2), so it is not that register.  Main
refused every one KP201.  Where the function's warp code keeps CUDA's 32-lane warps (logical_lanes.py) the
port spells it from the 32-lane warp's lane (`(1u << (__lane_id() & 31)) - 1u`); in a group kept at the
wave's width (native) a 32-bit register cannot hold a 64-lane wave's mask: refused at the asm, saying why.
The emulator reads the register from its table (emulator/frontend/ptx.py SPECIAL_REGISTERS: the block's
linear thread index mod warpSize, CUDA's 32 for the original)."""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles, require_tool
from trust_support import kp_inproc, numeric_statuses, verify_checks

# a stream compaction's rank: each kept lane's count of kept lanes below it in its 32-lane warp
COMPACT = """\
__global__ void compact(const int *in, int *out, unsigned int *rank, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  bool keep = v > 0;
  unsigned ballot = __ballot_sync(0xffffffffu, keep);
  unsigned lt;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  if (i < n) rank[i] = __popc(ballot & lt);
  int base = 0;
  if ((threadIdx.x & 31) == 0) base = atomicAdd(count, __popc(ballot));
  base = __shfl_sync(0xffffffffu, base, 0, 32);
  if (keep && i < n) out[base + __popc(ballot & lt)] = v;
}

int main() {
  int n = 256;
  int *in, *out, *count;
  unsigned int *rank;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&rank, n * sizeof(unsigned int));
  cudaMalloc(&count, sizeof(int));
  compact<<<n / 128, 128>>>(in, out, rank, count, n);
}
"""
BIT = "(1u << (__lane_id() & 31))"
MASKS = {"eq": BIT, "lt": f"({BIT} - 1u)", "le": f"(({BIT} << 1) - 1u)", "gt": f"(~(({BIT} << 1) - 1u))",
         "ge": f"(~({BIT} - 1u))"}


def _port(tmp_path, text):
    return translate(SourceFile.from_text(text, str(tmp_path / "c.cu")), "hip")


@pytest.mark.parametrize("reg", sorted(MASKS))
def test_a_logical_group_s_lane_mask_is_its_32_lane_warp_s(tmp_path, reg):
    port, text = _port(tmp_path, COMPACT.replace("lanemask_lt", f"lanemask_{reg}"))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert f"lt = {MASKS[reg]};" in text
    if reg == "lt":
        require_tool("hipcc")
        hip_compiles(tmp_path, text)


def test_verify_passes_at_32_and_64_and_the_wave_s_mask_fails_at_64(tmp_path):
    f = tmp_path / "c.cu"
    f.write_text(COMPACT)
    rc, checks, text = verify_checks(f, compiles=False)
    assert [c["status"] for c in checks if c["kind"] == "oracle"] == ["pass"], text
    assert numeric_statuses(checks) == {32: "pass", 64: "pass"}, text
    # the port as ROCm's __lanemask_lt() would count (the wave's lanes below): wrong ranks on lanes 32..63
    assert kp_inproc("translate", f, "--to", "hip")[0] == 0
    hip = next(tmp_path.glob("c.hip*"))
    hip.write_text(hip.read_text().replace(f"lt = {MASKS['lt']};", "lt = (unsigned int)((1ull << __lane_id()) - 1ull);"))
    rc, checks, text = verify_checks(f, compiles=False)
    assert numeric_statuses(checks) == {32: "pass", 64: "fail"}, text


def test_a_native_group_s_lane_mask_is_refused_where_it_stands(tmp_path):
    """Look-alike: the same kernel with its warp code at the wave's width (warpSize): the mask stays KP201."""
    src = COMPACT.replace("(threadIdx.x & 31) == 0", "threadIdx.x % warpSize == 0").replace(
        "base, 0, 32)", "base, 0, warpSize)")
    port, _ = _port(tmp_path, src)
    kp = [d for d in port.diagnostics if d.code == "KP201"]
    assert len(kp) == 1 and (kp[0].location.line, kp[0].location.column) == (7, 3), [d.format() for d in port.diagnostics]
    assert "native group" in kp[0].message and "64 lanes" in kp[0].message
