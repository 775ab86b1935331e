"""Lint behaviours designed on tests/labelled20 (LibintX's J-engine before its "HIP Port." commit),
each with a case it must report and look-alikes it must not:

- A functor's call operator runs in the blocks of the launches that pass it to a kernel template
  (`template <int N, class F, class... Args> __global__ __launch_bounds__(N) void launch(F f, Args...
  args) { f(args...); }`, in the file or, as in LibintX, in a header): `launch<32, 2><<<grid,
  block>>>(DFJ{}, ...)` with one 32-thread block makes DFJ::operator() a group of at most 32 lanes,
  where a ballot held in 32 bits and its `__popc` lose nothing (WS008, WS009 silent, as for a kernel
  launched `<<<n, 32>>>`).  Reported still: the same functor launched with blocks of 256.
- A launch block read from a `dim3` local initialised with braces (`dim3 block = {32};`,
  `dim3 block{NW, 1}`), as `dim3 block(32);` already was; `{256}` keeps the reports.
- A name in the block that is a `static constexpr` member of the class whose member function
  launches (`dim3 block = { NW };` in `DFJ::kernel`, NW = 32): C++ finds the member first.

tests/local_labelled20.py lints the set's files, run by hand after `python
scripts/labelled_sources.py tests/labelled20`.  Lint's figure before any change made for the set is
bench/lint_recall_labelled20_before.txt."""
from __future__ import annotations

from kernelport.lint import lint_text

FUNCTOR = """\
template <int maxThreads, class F, class... Args>
__global__ __launch_bounds__(maxThreads) void launch(F f, Args... args) { f(args...); }
struct Compact {
  static constexpr int NW = WIDTH;
  __device__ void operator()(const float* in, int* out) const {
    unsigned mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
    if (in[threadIdx.x] > 0.0f) out[__popc(mask)] = threadIdx.x;
  }
  static void run(const float* in, int* out, int n) {
    dim3 block = { NW };
    launch<WIDTH><<<n, block>>>(Compact{}, in, out);
  }
};
"""

BRACED = """\
__global__ void compact(const float* in, int* out) {
  unsigned mask = __ballot_sync(0xffffffff, in[threadIdx.x] > 0.0f);
  if (in[threadIdx.x] > 0.0f) out[__popc(mask)] = threadIdx.x;
}
void run(const float* in, int* out, int n) {
  dim3 block BLOCK;
  compact<<<n, block>>>(in, out);
}
"""


def _codes(text: str) -> list[tuple[int, str]]:
    return sorted((f.line, f.code) for f in lint_text(text, "k.cu") if f.code in ("WS008", "WS009"))


def test_a_functor_launched_in_blocks_of_32_keeps_its_32_bit_ballot():
    assert _codes(FUNCTOR.replace("WIDTH", "32")) == []


def test_the_same_functor_in_blocks_of_256_is_reported():
    assert _codes(FUNCTOR.replace("WIDTH", "256")) == [(6, "WS008"), (7, "WS009")]


def test_a_block_initialised_with_braces_is_the_launch_block():
    assert _codes(BRACED.replace("BLOCK", "= {32}")) == []
    assert _codes(BRACED.replace("BLOCK", "{32, 1}")) == []
    assert _codes(BRACED.replace("BLOCK", "(32)")) == []  # as before


def test_a_braced_block_of_whole_waves_is_reported():
    assert _codes(BRACED.replace("BLOCK", "= {256}")) == [(2, "WS008"), (3, "WS009")]
    assert _codes(BRACED.replace("BLOCK", "= {32, 8}")) == [(2, "WS008"), (3, "WS009")]  # 256 threads,
    assert _codes(BRACED.replace("BLOCK", "(32, 8)")) == [(2, "WS008"), (3, "WS009")]  # as the ballot sees two rows
