"""A ballot word stored by a 32-lane group that translate keeps at 32 lanes (kernelport/halfvotes.py).

aihwkit's count kernels (tests/labelled21) make one 32-bit word of a pulse train per 32-thread group:
`sourceId = tid >> 5`, `laneId = threadIdx.x & 0x1f`, a broadcast from lane 0 and a ballot that lane 0
stores into `uint32_t` memory.  translate keeps such a group at 32 lanes, the shuffle 32 wide and each
ballot over its own CUDA warp (`__ballot(p) >> (__lane_id() & 32)`, 32 bits exactly), and then refused
the 32-bit store (KP207: "lanes 32-63 are lost"), which holds exactly CUDA's word there; written in a
macro body (kernelport/macro_contexts.py) the same store was ported, but the use was refused (KP219:
the per-warp ballot was read as a whole-wave vote).  Both are ported now: `kernelport verify` of the
function form and of the macro form (bench/halfvote_words/README.md: compiled with hipcc, the
emulator at waves 64 and 32 against a C reference) passes, the original at wave 64 being wrong.
The look-alike: a group that is the wave (`% warpSize`) storing its 64-lane ballot in 32 bits is
still refused."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

GROUP_WORDS = """#include <cstdint>
__global__ void counts(const float* prob, uint32_t* out, int size, int nK32) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    int sourceId = tid >> 5;
    const int laneId = threadIdx.x & 0x1f;
    uint32_t ballot = 0;
    if (sourceId < size) {
        float value = 0.f;
        if (laneId == 0) value = prob[sourceId];
        value = __shfl_sync(0xFFFFFFFF, value, 0);
        uint32_t* c = out + sourceId * nK32;
        for (int i = 0; i < nK32; i++) {
            float s = (float)((tid * 7 + i * 13) % 100) / 100.f;
            ballot = __ballot_sync(0xFFFFFFFF, s < value);
            if (laneId == 0) c[i] = ballot;
        }
    }
}
"""

WAVE_WORDS = """#include <cstdint>
__global__ void wave(const float* x, uint32_t* out) {
    int lane = threadIdx.x % warpSize;
    uint32_t b = __ballot_sync(0xFFFFFFFF, x[threadIdx.x] > 0.f);
    if (lane == 0) out[blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize] = b;
}
"""


def _port(text: str):
    return translate(SourceFile.from_text(text, "t.cu"), "hip")[0]


def _errors(port):
    return [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]


def test_a_32_lane_groups_ballot_word_is_stored_as_its_warps_32_bits():
    port = _port(GROUP_WORDS)
    assert not _errors(port), port.diagnostics  # main: KP207 at `c[i] = ballot`
    assert "value = __shfl(value, 0, 32);" in port.body
    assert "__ballot(s < value) >> (__lane_id() & 32)" in port.body
    assert "if (laneId == 0) c[i] = ballot;" in port.body


def test_a_wave_wide_ballot_stored_in_32_bits_is_still_refused():
    assert ("KP207", 5) in _errors(_port(WAVE_WORDS))
