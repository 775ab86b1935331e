"""A named full mask beside a ballot (stop 65's held-out note): `constexpr unsigned F = 0xffffffffu;` read as a
`_sync` mask and in `b == F` was ported `constexpr unsigned F = __ballot(1);`, which hipcc rejects (a ballot is no
constant expression); a plain `unsigned F = 0xffffffffu;` compared with the ballot word became `unsigned F =
__ballot(1)`, a 32-bit copy of the wave's 64-bit mask (`b == F` false on a full 64-lane wave).  Now
(kernelport/named_full_masks.py): the constant keeps its literal where literal_lanes writes the test as the
thread's warp's word; a variable takes the lane-mask type; a constexpr the wave's mask is needed for is KP244."""
from __future__ import annotations

import numpy as np

from conftest import hip_compiles
from port_support import assert_port_at_64_is_original_at_32, port_text, refusal

CONSTANT = """
__global__ void k(const int* in, unsigned* out) {
    QUAL unsigned F = 0xffffffffu;
    unsigned b = __ballot_sync(F, in[blockIdx.x * blockDim.x + threadIdx.x] > 0);
    if (threadIdx.x == 0) out[blockIdx.x] = (b == F) + 2 * (b != F);
}
"""


def _args():
    x = np.ones(256, dtype=np.int32)
    x[40] = -1  # block 0's upper 32-lane warp not all voting (its thread 0's warp does)
    x[128 + 3] = -1  # block 2's lower warp
    return {"in": x, "out": np.zeros(4, dtype=np.uint32)}


def test_a_constexpr_full_mask_keeps_its_literal_and_the_test_reads_the_warps_word(tmp_path):
    for qual in ("constexpr", "static constexpr", "const"):
        src = CONSTANT.replace("QUAL", qual)
        text = port_text(src, dedent=False)
        assert f"{qual} unsigned F = 0xffffffffu;" in text, text
        assert "__ballot(1)" not in text, text
        assert_port_at_64_is_original_at_32(src, text, "k", _args(), (4,), (64,))
        hip_compiles(tmp_path, text)


def test_a_plain_variable_takes_the_lane_mask_type(tmp_path):
    src = CONSTANT.replace("QUAL ", "")
    text = port_text(src, dedent=False)
    assert "unsigned long long F = __ballot(1);" in text, text
    hip_compiles(tmp_path, text)


def test_a_constexpr_read_through_a_copy_is_refused_at_the_read():
    src = """
__global__ void k(const int* in, unsigned* out) {
    constexpr unsigned F = 0xffffffffu;
    unsigned b = __ballot_sync(F, in[threadIdx.x] > 0);
    unsigned g = F;
    if (threadIdx.x == 0) out[blockIdx.x] = (b == g);
}
"""
    errors = refusal(src, dedent=False, expect="KP244")
    assert [(e.code, e.line, e.column) for e in errors] == [("KP244", 5, 18)]
    assert "`F` (line 3), a constexpr full mask" in errors[0].message
    # look-alike: the same read into a non-constexpr const is ported (its value becomes the wave's mask)
    text = port_text(src.replace("constexpr", "const"), dedent=False)
    assert "const unsigned long long F = __ballot(1);" in text, text
