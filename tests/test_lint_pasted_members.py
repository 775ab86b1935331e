"""WS001 on a class's warp-size member that the file reads only through a token paste (kernelport/lint/warpconsts.py
_pasted_uses; h/review64d found translate's unread_member missing the same read): `#define CFG(n) (TileCfg::n##_SIZE)`
used as `CFG(WARP)`, and `#define CAT(a, b) a ## b` used as `TileCfg::CAT(WARP_, SIZE)`, read TileCfg::WARP_SIZE as
`TileCfg::WARP_SIZE` written out does.  Look-alikes that stay quiet (the member unread, as before): a paste that
spells another member (`CFG(BLOCK)` -> BLOCK_SIZE), and one that spells the name in another class."""
from __future__ import annotations

import pytest

from kernelport.lint import lint_text

UNIT = """\
struct TileCfg {
    static constexpr int BLOCK_SIZE = 64;
    static constexpr int NUM_THREADS = 128;
    static constexpr int WARP_SIZE = 32;
};
struct Other { static constexpr int WARP_SIZE = 64; };
DEFINE
__global__ void k(const float* p, float* out) {
    __shared__ float part[128];
    int t = threadIdx.x;
    int lane = t % @R;
    int warp = t / warpSize;
    part[warp * @R + lane] = p[t];
    __syncthreads();
    out[t] = part[t];
}
void run(const float* p, float* out) { k<<<1, TileCfg::NUM_THREADS>>>(p, out); }
"""


def _ws001(define: str, read: str) -> list[int]:
    text = UNIT.replace("DEFINE", define).replace("@R", read)
    return sorted(f.line for f in lint_text(text, "k.cu") if f.code == "WS001")


@pytest.mark.parametrize("define, read", [
    ("", "TileCfg::WARP_SIZE"),  # written out (as before)
    ("#define CFG(name) (TileCfg::name##_SIZE)", "CFG(WARP)"),
    ("#define CAT(a, b) a ## b", "TileCfg::CAT(WARP_, SIZE)"),
])
def test_a_member_read_through_a_paste_is_reported(define, read):
    assert _ws001(define, read) == [4]


@pytest.mark.parametrize("define, read", [
    ("#define CFG(name) (TileCfg::name##_SIZE)", "CFG(BLOCK)"),  # TileCfg::BLOCK_SIZE
    ("#define CAT(a, b) a ## b", "Other::CAT(WARP_, SIZE)"),     # another class's member
    ("#define OCFG(name) (Other::name##_SIZE)", "OCFG(WARP)"),
])
def test_a_paste_of_another_member_leaves_it_unread(define, read):
    assert _ws001(define, read) == []
