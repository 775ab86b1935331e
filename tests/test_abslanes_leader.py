"""A lane-0 value broadcast in a function that also broadcasts a widened reduction (kernelport/abslanes.py).

`s = warpSum(x); total = __shfl_sync(m, s, 0)` is the broadcast of a reduction the port widens to the wave
(the warp size named by a constant the port makes the wave's), left at the wave's width.  A value that
lane 0 computes and the same function broadcasts next (`if (lane == 0) w = ...; w = __shfl_sync(m, w, 0)`)
belongs to that same group: the port named CUDA's width, 32, for it, so at wave 64 lanes 32-63 read lane
32, which computed nothing, and translate's self-check refused the file (KP220: the port's lint found the
wave-width broadcast inside code that works in rows of 32).  The port now broadcasts it at the wave's
width too.  The look-alike: the same lane-0 broadcast in a function with no widened broadcast keeps 32.
"""
from __future__ import annotations

from trust_support import kp_inproc, verify_checks

LEADER = """\
constexpr int kW = 32;
__device__ float warpSum(float v) {
  for (int o = kW / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__global__ void rows(const float* x, float* y, int n) {
  const int lane = threadIdx.x;
  float run = 0.0f;
  for (int i = 0; i < n; ++i) {
    float s = warpSum(x[i * kW + lane]);
    float total = __shfl_sync(0xffffffffu, s, 0);
    float w = 0.0f;
    if (lane == 0) {
      w = total * 2.0f;
      run += w;
    }
    w = __shfl_sync(0xffffffffu, w, 0);
    y[blockIdx.x * kW + lane] += w;
  }
  y[lane] = __shfl_sync(0xffffffffu, run, 0);
}
void launch(const float* x, float* y, int threads) { rows<<<4, threads>>>(x, y, 4); }
"""
# (a block the file does not fix: full blocks assumed, the group the wave's; `rows<<<4, kW>>>`, a constexpr 32, is
# blocks of 32 threads since stop 65's review, which keep CUDA's 32 lanes: blockdims.dims reads it as a macro's)

# The look-alike: lane 0's value broadcast with no widened reduction in the function: CUDA's 32 lanes.
ALONE = """\
constexpr int kW = 32;
__global__ void lead(const float* x, float* y) {
  const int lane = threadIdx.x;
  float w = 0.0f;
  if (lane == 0) w = x[blockIdx.x] * 2.0f;
  w = __shfl_sync(0xffffffffu, w, 0);
  y[blockIdx.x * kW + lane] = w;
}
void launch(const float* x, float* y) { lead<<<4, kW>>>(x, y); }
"""


def _hip(tmp_path, src: str) -> str:
    f = tmp_path / "k.cu"
    f.write_text(src)
    rc, _, err = kp_inproc("translate", f, "--to", "hip")
    assert rc == 0, err
    assert "KP220" not in err, err
    return (tmp_path / "k.hip").read_text()


def test_lane0_value_beside_widened_broadcast_takes_the_wave(tmp_path):
    port = _hip(tmp_path, LEADER)
    assert "float total = __shfl(s, 0);" in port, port
    assert "w = __shfl(w, 0);" in port, port  # not `__shfl(w, 0, 32)`: lanes 32-63 would read lane 32
    assert "__shfl(run, 0)" in port and ", 32)" not in port, port


def test_lane0_value_alone_keeps_cuda_width(tmp_path):
    port = _hip(tmp_path, ALONE)
    assert "w = __shfl(w, 0, 32);" in port, port


# The second look-alike: the same two broadcasts in 32-lane rows the port keeps (`threadIdx.x & 31` picks each
# row's leader, blocks of 128): every shuffle keeps CUDA's 32 lanes, and the port computes what CUDA does.
ROWS = """\
// @kp kernel     rows
// @kp grid       4
// @kp block      128
// @kp why        four 32-lane rows a block
// @kp arg        in   in     float[512]   uniform(-1, 1)
// @kp arg        out  out    float[512]
__device__ float warpSum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    return v;
}
__global__ void rows(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = warpSum(in[i]);
    float total = __shfl_sync(0xffffffff, s, 0);
    float scale = 0.0f;
    if ((threadIdx.x & 31) == 0) scale = total > 0.0f ? 2.0f : 0.5f;
    scale = __shfl_sync(0xffffffff, scale, 0);
    out[i] = total * scale;
}
"""


def test_kept_rows_keep_cuda_width_and_compute_the_same(tmp_path):
    port = _hip(tmp_path, ROWS)
    assert "float total = __shfl(s, 0, 32);" in port and "scale = __shfl(scale, 0, 32);" in port, port
    rc, checks, text = verify_checks(tmp_path / "k.cu", compiles=False)
    got = {(c["backend"], c["wave"]): c["status"] for c in checks if c["kind"] == "numeric"}
    assert {got.get(("hip", w)) for w in (32, 64)} == {"pass"}, text


# The look-alike of review61b: beside the widened broadcast, a shuffle from a loaded lane (`perm[lane]`, a table of
# 32 lanes' numbers): at the wave's width lanes 32-63 would read the first half's lanes, CUDA's read their own
# warp's.  Only a literal lane (lane 0's value) follows the widened broadcast; this one is not written at the wave.
PERM = LEADER.replace("""    w = __shfl_sync(0xffffffffu, w, 0);""", """    w = __shfl_sync(0xffffffffu, w, perm[lane]);""").replace(
    "const float* x, float* y, int n", "const float* x, const int* perm, float* y, int n").replace(
    "rows<<<4, threads>>>(x, y, 4)", "rows<<<4, threads>>>(x, perm, y, 4)").replace(
    "void launch(const float* x, float* y,", "void launch(const float* x, const int* perm, float* y,")


def test_a_loaded_lane_beside_a_widened_broadcast_is_not_the_wave_s(tmp_path):
    assert "perm[lane]" in PERM and "rows<<<4, threads>>>(x, perm, y, 4)" in PERM
    f = tmp_path / "k.cu"
    f.write_text(PERM)
    rc, _, err = kp_inproc("translate", f, "--to", "hip")
    port = (tmp_path / "k.hip").read_text() if (tmp_path / "k.hip").exists() else ""
    assert "w = __shfl(w, perm[lane]);" not in port, port
    assert rc != 0 or "w = __shfl(w, perm[lane], 32);" in port, err + port
