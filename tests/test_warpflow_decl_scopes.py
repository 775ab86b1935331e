"""A name a function declares in two scopes is two variables to the warp analysis (kernelport/declkeys.py)."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def port(code: str):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), "hip")[0]


COUNTS = """
__global__ void prefix_counts(const int* in, int* out)
{
  __shared__ int temp_w[32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  int cnt;
  {
    const unsigned tmp = __ballot_sync(~0u, in[blockIdx.x * blockDim.x + threadIdx.x] != 0);
    cnt = __popc(tmp);
  }
  if (lane == 0) temp_w[warp] = cnt;
  __syncthreads();
  int sum = 0;
  if (warp == 0) {
    if (lane < blockDim.x / 32) sum = temp_w[lane];
    for (int i = 1; i < 32; i *= 2) {
      const int tmp = __shfl_up_sync(~0u, sum, i);
      if (lane >= i) sum += tmp;
    }
    temp_w[lane] = sum;
  }
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = temp_w[31];
}
void run(const int* in, int* out, int n) { prefix_counts<<<n / 256, 256>>>(in, out); }
"""


def test_a_ballot_and_a_prefix_sum_of_one_name_in_two_scopes_are_two_variables():
    # LC-framework's d_zero_elimination.h: `tmp` is a ballot in one block and a scan step in a loop;
    # merged by name, the scan of counts looked like a lane mask kept in 32-bit shared memory (KP207)
    p = port(COUNTS)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "const unsigned long long tmp = __ballot(" in p.body and "cnt = __popcll(tmp);" in p.body
    assert "const int tmp = __shfl_up(sum, i);" in p.body  # the scan's own `tmp` keeps its type


def test_the_ballot_of_that_name_stored_in_32_bit_memory_is_its_32_lane_groups_word():
    # Re-pinned at stop 44 (was: KP207).  Every lane and warp index of the function is 32-based and the
    # scan keeps width 32, so the port keeps 32-lane groups: each ballot is over its own CUDA warp and
    # the stored 32-bit word is that group's half of the wave's ballot (kernelport/halfvotes.py), the
    # same bits CUDA stores at wave 32 and 64; the scan's own `tmp` is still a second variable.
    p = port(COUNTS.replace("cnt = __popc(tmp);", "cnt = __popc(tmp);\n    if (lane == 0) out[warp] = tmp;"))
    assert p.ok, [d.format() for d in p.diagnostics]
    assert ">> (__lane_id() & 32)) & (~0u)));" in p.body and "cnt = __popc(tmp);" in p.body
    assert "if (lane == 0) out[warp] = tmp;" in p.body and "const int tmp = __shfl_up(sum, i, 32);" in p.body
