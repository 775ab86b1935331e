"""A partial mask `(1 << N) - 1` under a guard `lane < N` is the lanes active at the call (kernelport/guardmasks.py)."""
from __future__ import annotations

import textwrap

from kernelport.source import SourceFile
from kernelport.translate import translate


def port(code: str, to: str = "hip"):
    return translate(SourceFile.from_text(textwrap.dedent(code), "t.cu"), to)[0]


def errors(p) -> set[str]:
    return {d.code for d in p.diagnostics if d.severity == "error"}


# cuda-samples' shfl_scan: the first warp scans the block's warp sums over its first N lanes
SCAN = """
__global__ void scan(int *data)
{
  extern __shared__ int sums[];
  int id = ((blockIdx.x * blockDim.x) + threadIdx.x);
  int lane_id = id % warpSize;
  int warp_id = threadIdx.x / warpSize;
  int value = data[id];
  if (threadIdx.x % warpSize == warpSize - 1) sums[warp_id] = value;
  __syncthreads();
  if (warp_id == 0 && lane_id < (blockDim.x / warpSize)) {
    int warp_sum = sums[lane_id];
    int mask = (1 << (blockDim.x / warpSize)) - 1;
    for (int i = 1; i <= (blockDim.x / warpSize); i *= 2) {
      int n = __shfl_up_sync(mask, warp_sum, i, (blockDim.x / warpSize));
      if (lane_id >= i) warp_sum += n;
    }
    sums[lane_id] = warp_sum;
  }
  __syncthreads();
  data[id] = value + (warp_id > 0 ? sums[warp_id - 1] : 0);
}
"""


def test_a_mask_of_the_lanes_its_guard_lets_in_is_dropped_at_any_wave_width():
    for to in ("hip", "metal"):
        p = port(SCAN, to)
        assert p.ok, [d.format() for d in p.diagnostics]
    assert "int n = __shfl_up(warp_sum, i, (blockDim.x / warpSize));" in port(SCAN).body


def test_a_vote_over_the_guards_lanes_is_the_plain_vote():
    code = SCAN.replace("int n = __shfl_up_sync(mask, warp_sum, i, (blockDim.x / warpSize));",
                        "int n = __popc(__ballot_sync(mask, warp_sum > i));")
    p = port(code)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "__ballot(warp_sum > i)" in p.body


def test_a_mask_whose_lanes_differ_from_the_guards_is_refused():
    for wrong in (SCAN.replace("lane_id < (blockDim.x / warpSize)", "lane_id < (blockDim.x / warpSize) + 1"),
                  SCAN.replace("int mask = (1 << (blockDim.x / warpSize)) - 1;", "int mask = (1 << (blockDim.x / 64)) - 1;"),
                  SCAN.replace("warp_id == 0 && lane_id < (blockDim.x / warpSize)", "warp_id == 0"),  # no guard
                  SCAN.replace("lane_id < (blockDim.x / warpSize)", "threadIdx.x < (blockDim.x / warpSize)"),
                  SCAN.replace("int n = __shfl_up_sync(", "int n = 0; if (data[lane_id] > 0) n = __shfl_up_sync(")):
        p = port(wrong)
        assert "KP203" in errors(p), wrong


def test_an_earlier_thread_dependent_return_or_a_count_that_may_change_is_refused():
    ret = SCAN.replace("  __syncthreads();\n  if (warp_id == 0", "  __syncthreads();\n  if (lane_id == 3) return;\n  if (warp_id == 0")
    assert "KP203" in errors(port(ret))
    count = "(blockDim.x / warpSize)"
    var = "__device__ int nw;\n" + SCAN.replace(count, "nw")  # a global another thread may store to
    assert "KP203" in errors(port(var))
    const = "#define NW 8\n" + SCAN.replace(count, "NW")
    p = port(const)
    assert p.ok, [d.format() for d in p.diagnostics]


def test_the_global_ids_lane_is_refused_where_a_launch_runs_blocks_of_part_of_a_wave():
    host = "void run(int* d, int n) { scan<<<n / %d, %d, 64>>>(d); }\n"
    assert "KP203" in errors(port(SCAN + host % (96, 96)))  # 96 threads: not whole 64-lane waves
    assert "KP203" not in errors(port(SCAN + host % (256, 256)))
