"""A vote over a group whose mask reads a file constant the port makes the wave's width
(`static constexpr int WARPSIZE = 32;`, data61/cuda-fixnum's slot_layout: its slot's offset is
`threadIdx.x & (WARPSIZE - 1)`) is refused at the vote with the reason (KP203: the mask reads the
warp size), as one reading `warpSize` is; before, the port was rendered and its self-check refused it
as a kernelport bug (KP220).  The same mask from the literal 31, which no rewrite touches, is still
ported as the wave's ballot restricted to the group."""
from __future__ import annotations

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

_FILE = """static constexpr int WARPSIZE = 32;
template <int width>
__device__ unsigned slot_ballot(int p) {{
    int tid = threadIdx.x & ({lane_mask});
    int offset = tid - (tid & (width - 1));
    unsigned mask = ((1u << width) - 1u) << offset;
    unsigned b = __ballot_sync(mask, p);
    return b >> offset;
}}
__device__ int lanes(int n) {{ return n & (WARPSIZE - 1); }}
__global__ void kern(const int* x, unsigned* out) {{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = slot_ballot<8>(x[t] > 0) + lanes(x[t]);
}}
"""


def _port(lane_mask: str, backend: str = "hip"):
    port, _ = translate(SourceFile.from_text(_FILE.format(lane_mask=lane_mask), "s.cu"), backend)
    return port


def test_a_mask_reading_a_constant_the_port_makes_the_wave_is_refused_at_the_vote():
    port = _port("WARPSIZE - 1")
    errors = [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]
    assert errors == [("KP203", 7)], [d.format() for d in port.diagnostics]
    assert "warp size" in next(d.message for d in port.diagnostics if d.code == "KP203")


@pytest.mark.parametrize("lane_mask", ["31", "0x1f"])
def test_the_same_mask_from_a_literal_lane_mask_is_still_the_groups_ballot(lane_mask):
    port = _port(lane_mask)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__ballot(p) >> (__lane_id() & 32)" in port.body
    assert "WARPSIZE = KP_WAVE_SIZE" in port.body  # the constant itself is the wave's where it is one


def test_on_a_backend_whose_waves_are_32_wide_the_constant_is_cudas_and_the_vote_is_ported():
    """Metal keeps WARPSIZE = 32 (every SIMD-group of its runs is 32 wide): nothing reads the wave there."""
    port = _port("WARPSIZE - 1", "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "simd_ballot" in port.body
