"""A macro body's shuffle or vote is ported as the function that expands it needs (kernelport/macro_contexts.py).

aihwkit's pulse-train kernels (tests/labelled21, IBM/aihwkit 42e046594e^) make one 32-bit word per
32-thread group (`sourceId = ... >> 5`, `laneId = threadIdx.x & 0x1f`) inside a macro,
`GET_COUNTS_INNER_LOOP`: a broadcast `__shfl_sync(0xFFFFFFFF, value, 0)` and a ballot stored by
laneId 0.  The body was ported as a function of its own, which knows none of that: `__shfl(value, 0)`
(lanes 32-63 read the other group's value at wave 64) and `ballot = __ballot(...)` into the kernel's
`uint32_t ballot` (lane 32 stores the other group's bits), a port that compiles and computes something
else.  The same code written in the kernel is ported 32 lanes wide (`__shfl(value, 0, 32)`, the
group's half of the ballot; its 32-bit store, refused as KP207 until stop 44, is kept: tests/test_halfvote_words.py);
the body is now ported as each expanding function
would port it, and refused where they disagree (KP219).  The look-alike: a group that is the wave
(`% warpSize`) keeps the wave's port."""
from __future__ import annotations

from kernelport.source import SourceFile
from kernelport.translate import translate

GROUPS32 = """#include <cstdint>
#define INNER(V) \\
  if (laneId == 0) V *= 2.0f; \\
  V = __shfl_sync(0xFFFFFFFF, V, 0); \\
  {tail}
__global__ void counts(const float* prob, uint32_t* out, int n) {{
  const int tid = blockDim.x * blockIdx.x + threadIdx.x;
  const int laneId = threadIdx.x & 0x1f;
  const int sourceId = tid >> 5;
  uint32_t ballot = 0;
  if (sourceId < n) {{
    float value = prob[sourceId];
    INNER(value);
  }}
}}
"""
STORE_VALUE = "if (laneId == 0) out[sourceId] = (uint32_t)V;"
STORE_BALLOT = "ballot = __ballot_sync(0xFFFFFFFF, 0.5f < V); \\\n  if (laneId == 0) out[sourceId] = ballot;"

# the same body reached through another macro, whose parameters name what the kernel reads
NESTED = """#include <cstdint>
#define INNER(S) \\
  if (laneId == 0) value *= S; \\
  value = __shfl_sync(0xFFFFFFFF, value, 0); \\
  if (laneId == 0) *c = (uint32_t)value;
#define LOOP(PROB, COUNTS, SIZE) \\
  if (sourceId < SIZE) { \\
    value = PROB[sourceId]; \\
    c = &COUNTS[sourceId]; \\
    INNER(2.0f); \\
  }
__global__ void counts(const float* prob, uint32_t* out, int n) {
  const int laneId = threadIdx.x & 0x1f;
  const int sourceId = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  float value;
  uint32_t* c;
  LOOP(prob, out, n);
}
"""

WAVE = """#include <cstdint>
#define INNER(V) \\
  V = __shfl_sync(0xFFFFFFFF, V, 0);
__global__ void wave(const float* prob, float* out, int n) {
  const int tid = blockDim.x * blockIdx.x + threadIdx.x;
  const int lane = threadIdx.x % warpSize;
  const int warp = tid / warpSize;
  if (warp < n) {
    float value = prob[warp];
    INNER(value);
    if (lane == 0) out[warp] = value;
  }
}
"""


def _port(text: str):
    return translate(SourceFile.from_text(text, "t.cu"), "hip")[0]


def _errors(port):
    return [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]


def test_a_broadcast_in_a_macro_keeps_the_32_lane_group_of_the_kernel_expanding_it():
    port = _port(GROUPS32.format(tail=STORE_VALUE))
    assert not _errors(port), port.diagnostics
    assert "V = __shfl(V, 0, 32);" in port.body  # main: `__shfl(V, 0)`, the wave's lane 0 for lanes 32-63


def test_a_ballot_in_a_macro_stored_in_32_bits_by_the_kernel_is_its_groups_32_bits():
    """Re-pinned at stop 44 (h/labelled22): this was refused (KP207 at the store, where `counts` expands the
    macro), but the group is kept at 32 lanes with each ballot over its own CUDA warp, so the 32-bit word
    holds exactly CUDA's bits: the port below passes `kernelport verify` at waves 64 and 32
    (tests/test_halfvote_words.py).  Before stop 43 it was ported as `ballot = __ballot(...)`, wrong."""
    port = _port(GROUPS32.format(tail=STORE_BALLOT))
    assert not _errors(port), port.diagnostics
    assert "ballot = ((unsigned int)((unsigned int)(__ballot(0.5f < V) >> (__lane_id() & 32))" in port.body
    assert "V = __shfl(V, 0, 32);" in port.body


def test_a_body_reached_through_another_macro_is_ported_with_that_macros_arguments():
    port = _port(NESTED)
    assert not _errors(port), port.diagnostics
    assert "value = __shfl(value, 0, 32);" in port.body


def test_a_group_that_is_the_wave_keeps_the_waves_port():
    port = _port(WAVE)
    assert not _errors(port), port.diagnostics
    assert "V = __shfl(V, 0);" in port.body and "__shfl(V, 0, 32)" not in port.body


def test_two_kernels_that_need_two_ports_of_one_body_are_refused():
    both = GROUPS32.format(tail=STORE_VALUE) + WAVE[WAVE.index("__global__"):].replace("wave(", "wave2(")
    port = _port(both)
    assert ("KP219", 3) in _errors(port), port.diagnostics
    assert "`counts` and `wave2` expand it" in next(d.message for d in port.diagnostics if d.code == "KP219")
