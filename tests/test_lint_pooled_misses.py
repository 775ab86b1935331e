"""Lint behaviours designed on the misses pooled over the labelled sets (h/lintmiss, stop 31), each with
a case it must flag and a look-alike it must not:

- WS015 at a host launch sized in groups of 32 for a kernel whose 32-lane groups are right only as
  far as its shuffles stay in them: a shuffle from a source lane at the default width (WS018's:
  DeepEP's `cached_notify_combine`, `rank_id = thread_id / 32` and `__shfl_sync(m, head, i)`, launched
  with `32 * num_ranks` threads) reads the other group's lanes on a 64-lane wave, so the groups of
  32 the host sizes are no logical group; the same kernel shuffling at width 32 stays silent;
- WS001 at the first warp-level use of a log2-of-the-warp-size constant of 5 that an included header
  defines (sphexa's `GpuConfig::warpSizeLog2 = 5` in `types.h`, whose xor ladders are in
  `warpscan.h`; hypre-style `#define WARP_BITSHIFT 5` too), naming the header's line; a use that
  lays out 32-thread groups of a shared-memory histogram (no warp-level code) stays silent, as it
  does for a constant of the file's own (lint/warpconsts.py);
- WS016 at the wave width read in a function whose groups come from a narrower width the code names
  (GROMACS's `c_subWarp<T>`: compared with `warpSize` in a header, dividing thread indices in the
  kernel; `tidx & (warpSize - 1)`, `c_clSizeSq<T> == warpSize`): the same kernel reading the width
  throughout, and a size compared with the wave that nothing divides by, stay silent.
"""
from __future__ import annotations

from pathlib import Path

from labelled_support import claims_by_line

from kernelport.lint.engine import lint_paths, lint_text

# DeepEP's cached_notify_combine at 2f571367ff^ (tests/labelled_heldout), reduced.
GROUPS = """\
template <int kNumRanks>
__global__ void notify(int* send_head, int num_tokens) {
    const int thread_id = threadIdx.x;
    const int rank_id = thread_id / 32;
    const int lane_id = thread_id % 32;
    if (rank_id >= kNumRanks) return;
    int current = send_head[lane_id * kNumRanks + rank_id];
    int last = 0;
    for (int i = 0; i < 32; ++i) {
        const int head = __shfl_sync(0xffffffff, current, i);
        if (head >= 0) last = head;
    }
    send_head[lane_id * kNumRanks + rank_id] = last;
}
void launch(int* send_head, int num_tokens, int num_ranks) {
    const int num_threads = 32 * num_ranks;
    notify<8><<<1, num_threads>>>(send_head, num_tokens);
}
"""


def test_groups_of_32_sized_by_the_host_for_a_kernel_whose_broadcast_leaves_them_are_flagged():
    got = claims_by_line(GROUPS)
    assert "WS018" in got.get(10, set()), got  # the default-width broadcast crosses the 32-lane groups
    assert "WS015" in got.get(16, set()), got  # so the host's groups of 32 are no logical group
    host = [f for f in lint_text(GROUPS, "t.cu") if f.code == "WS015"]
    assert [r.line for r in host[0].related] == [10], host  # the shuffle a width of 32 would mend


def test_the_same_groups_shuffling_at_width_32_are_quiet():
    got = claims_by_line(GROUPS.replace("current, i);", "current, i, 32);"))
    assert "WS018" not in got.get(10, set()), got
    assert "WS015" not in got.get(16, set()), got


# sphexa's ryoanji/types.h and warpscan.h at dc03d2a37f^ (tests/labelled9), reduced.
CONFIG = """\
#pragma once
struct GpuConfig {
    static constexpr int warpSize = 32;
    static constexpr int warpSizeLog2 = 5;
};
#define WARP_BITSHIFT 5
"""
LADDER = """\
#include "types.h"
template <class T>
__device__ T warpMin(T v) {
    for (int i = 0; i < GpuConfig::warpSizeLog2; i++) v = min(v, __shfl_xor_sync(0xffffffff, v, 1 << i));
    return v;
}
__global__ void count(const int* x, int* out) {
    int w = threadIdx.x >> WARP_BITSHIFT;
    int m = warpMin(x[threadIdx.x]);
    if ((threadIdx.x & 31) == 0) out[w] = m;
}
"""
# CUDA samples' histogram64 shape: 32-thread groups of a shared-memory histogram, no warp-level code.
HISTOGRAM = """\
#include "types.h"
__global__ void histogram(const unsigned* x, unsigned* out, int n) {
    __shared__ unsigned s[8 * 64];
    unsigned* mine = s + (threadIdx.x >> WARP_BITSHIFT) * 64;
    for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(mine + (x[i] & 63), 1u);
    __syncthreads();
    if (threadIdx.x < 64) out[threadIdx.x] = s[threadIdx.x] + s[64 + threadIdx.x];
}
"""


def _header_ws001(tmp_path: Path, user: str) -> list[tuple[str, int, list[tuple[str, int]]]]:
    (tmp_path / "types.h").write_text(CONFIG)
    (tmp_path / "user.cu").write_text(user)
    return [(Path(r.path).name, f.line, [(Path(x.path).name, x.line) for x in f.related])
            for r in lint_paths([tmp_path / "user.cu"], jobs=1) for f in r.findings
            if f.code == "WS001" and f.severity != "info"]


def test_a_headers_log2_constant_used_in_warp_code_is_flagged_at_the_use(tmp_path: Path):
    got = _header_ws001(tmp_path, LADDER)
    member = [g for g in got if g[1] == 4]
    assert member and ("types.h", 4) in member[0][2], got  # the ladder's 5 steps; the header's line named
    macro = [g for g in got if g[1] == 8]
    assert macro and ("types.h", 6) in macro[0][2], got  # the warp id `tid >> WARP_BITSHIFT`


def test_a_headers_log2_constant_laying_out_a_histogram_is_quiet(tmp_path: Path):
    assert _header_ws001(tmp_path, HISTOGRAM) == []


# GROMACS's nbnxm HIP kernel utilities and prune kernel at f29338bffe^ (tests/labelled8), reduced.
SUBWARP = """\
template <int kLayout>
__device__ constexpr int c_subWarp = kLayout == 1 ? 32 : 64;
template <int kLayout>
__device__ constexpr int c_tile = 64;
template <int kLayout>
__device__ int any_in_group(int p, int widx) {
    if constexpr (c_subWarp<kLayout> == warpSize) return __any(p);
    else return static_cast<int>(__ballot(p) >> (widx * c_subWarp<kLayout>));
}
template <int kLayout>
__global__ void prune(const unsigned* masks, unsigned* out) {
    const unsigned tidx = threadIdx.y * 8 + threadIdx.x;
    const unsigned widx = tidx / c_subWarp<kLayout>;
    const unsigned tidxInWarp = tidx & (warpSize - 1);
    unsigned m = masks[blockIdx.x * 2 + widx];
    m = (c_tile<kLayout> == warpSize) ? __builtin_amdgcn_readfirstlane(m) : m;
    if (any_in_group<kLayout>(m != 0, widx) && tidxInWarp == 0) out[blockIdx.x * 2 + widx] = m;
}
"""


def test_the_wave_width_beside_a_narrower_group_width_the_code_names_is_flagged():
    found = [f for f in lint_text(SUBWARP, "prune.cu") if f.code == "WS016"]
    lines = {f.line for f in found} | {r.line for f in found for r in f.related if r.role == "site"}
    assert 14 in {f.line for f in found}, found  # tidx & (warpSize - 1): lanes to 63 for 32-lane groups
    assert 16 in lines, found  # c_tile == warpSize: a 64-thread tile taken for one group
    assert 7 not in lines, found  # c_subWarp == warpSize is the right test


def _groups(text: str) -> list:
    return [f for f in lint_text(text, "prune.cu") if f.code == "WS016" and "a group width the code compares" in f.message]


def test_the_group_width_read_throughout_is_quiet():
    fixed = SUBWARP.replace("tidx & (warpSize - 1)", "tidx & (c_subWarp<kLayout> - 1)").replace(
        "(c_tile<kLayout> == warpSize)", "(c_tile<kLayout> == c_subWarp<kLayout>)")
    assert _groups(SUBWARP) and _groups(fixed) == []


def test_a_size_compared_with_the_wave_that_nothing_divides_by_is_no_group_width():
    plain = SUBWARP.replace("tidx / c_subWarp<kLayout>", "tidx >> kLayout").replace(
        "(widx * c_subWarp<kLayout>)", "(widx << kLayout)")
    assert _groups(SUBWARP) and _groups(plain) == []


# GROMACS's reduceForceIAtomics: a helper the kernel of those groups calls reads the wave width.
CALLEE = SUBWARP.replace("template <int kLayout>\n__global__", """\
template <int kLayout>
__device__ float group_sum(float v) {
    for (int o = warpSize >> 1; o > 0; o >>= 1) v += __shfl_down(v, o);
    return v;
}
template <int kLayout>
__device__ float wave_sum(float v) {
    for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor(v, o);
    return v;
}
template <int kLayout>
__global__""").replace("    unsigned m = masks[blockIdx.x * 2 + widx];\n", """\
    unsigned m = masks[blockIdx.x * 2 + widx];
    float s = group_sum<kLayout>(float(m));
    if constexpr (c_subWarp<kLayout> == warpSize) s = wave_sum<kLayout>(s);
    out[widx] = unsigned(s);
""")


def test_a_helper_running_in_those_groups_is_flagged_unless_called_where_they_fill_the_wave():
    found = {f.line: f.message for f in _groups(CALLEE)}
    assert 12 in found and "group_sum" in found[12], found  # warpSize >> 1 in group_sum
    assert 17 not in found, found  # wave_sum runs only where the group is the wave
