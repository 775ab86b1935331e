"""Lint behaviours designed on tests/labelled9 (sphexa's ryoanji, cupy, hypre, QMCPACK, lucebox), each
with a case it must flag (or must keep as a hazard) and a look-alike it must not:

- a block split into 32-lane rows stays advice when a template's type parameter is "called" as a
  conversion (`I(val)`, cupy's row count kernel): that is no hidden call; a functor called through
  its type (`Op()(a, b)`) still is one, and the kernel's 32s stay hazards;
- host code that sizes the launch of such a row kernel from 32 (`(block >> 5) * sizeof(float)`
  shared bytes, lucebox's RMSNorm) is advice too: the rows' count, right at 64; the same launch of a
  kernel laid out by the wave stays a hazard."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

ROW_COUNT = """\
template <typename I>
__global__ void row_count(const int* cnt, I* out) {
    int local = cnt[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offs = 16; offs; offs >>= 1)
        local += __shfl_down_sync(0xffffffff, local, offs);
    static __shared__ int s[32];
    if ((threadIdx.x & 31) == 0) s[threadIdx.x >> 5] = local;
    __syncthreads();
    if (threadIdx.x < 32) {
        int val = (threadIdx.x < (blockDim.x >> 5)) ? s[threadIdx.x] : int(0);
        for (int offset = 16; offset > 0; offset >>= 1)
            val += __shfl_down_sync(0xffffffff, val, offset);
        if (threadIdx.x == 0) out[blockIdx.x] = I(val);
    }
}
"""

RMS = """\
__global__ void rms(const float* src, float* dst, int hidden) {
    extern __shared__ float smem[];
    float sumsq = 0.f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) sumsq += src[i] * src[i];
    for (int off = 16; off > 0; off >>= 1)
        sumsq += __shfl_xor_sync(0xffffffffffffffffull, sumsq, off);
    if ((threadIdx.x & 31) == 0)
        smem[threadIdx.x >> 5] = sumsq;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.f;
        for (int w = 0; w < (blockDim.x >> 5); w++) t += smem[w];
        dst[blockIdx.x] = t;
    }
}
void launch(const float* src, float* dst, int n, int hidden) {
    const int block = 256;
    const size_t bytes = (size_t)(block >> 5) * sizeof(float);
    rms<<<n, block, bytes>>>(src, dst, hidden);
}
"""


def _by_line(text: str, name: str = "t.cu") -> dict[int, set[tuple[str, str]]]:
    out: dict[int, set[tuple[str, str]]] = {}
    for f in lint_text(text, name):
        if f.code.startswith("WS"):
            out.setdefault(f.line, set()).add((f.code, f.severity))
    return out


def test_a_type_parameter_conversion_is_no_hidden_call_in_a_row_kernel():
    found = _by_line(ROW_COUNT)
    assert found[6] == {("WS011", "info")}  # the 32 per-row slots: right at 64
    assert ("WS002", "info") in found[7] and ("WS003", "info") in found[7]
    assert ("WS007", "warning") in found[5]  # the 32-bit masks stay hazards whatever the rows do


def test_a_functor_called_through_its_type_parameter_is_still_hidden():
    functor = ROW_COUNT.replace("template <typename I>", "template <typename I, typename Op>").replace(
        "local += __shfl_down_sync(0xffffffff, local, offs);",
        "local = Op()(local, __shfl_down_sync(0xffffffff, local, offs));")
    found = _by_line(functor)
    assert {c for c, sev in found[6]} == {"WS011"} and ("WS011", "info") not in found[6]


def test_host_sizes_from_32_for_a_row_kernel_are_advice():
    found = _by_line(RMS)
    assert found[18] == {("WS015", "info")}


def test_host_sizes_from_32_for_a_kernel_laid_out_by_the_wave_stay_hazards():
    by_wave = RMS.replace("if ((threadIdx.x & 31) == 0)", "if ((threadIdx.x % warpSize) == 0)").replace(
        "smem[threadIdx.x >> 5]", "smem[threadIdx.x / warpSize]")
    found = _by_line(by_wave)
    assert ("WS015", "info") not in found[18] and {c for c, _ in found[18]} == {"WS015"}


CONFIG = """\
struct GpuConfig
{
    static constexpr int warpSize = 32;
    static constexpr int warpSizeLog2 = 5;
    static constexpr int tileSize = 32;
};
__device__ int warp_min(int v)
{
    for (int i = 0; i < GpuConfig::warpSizeLog2; i++) v = min(v, __shfl_xor(v, 1 << i));
    return v;
}
__global__ void k(int* x, int* t)
{
    x[threadIdx.x] = warp_min(x[threadIdx.x]) + __shfl(x[threadIdx.x], threadIdx.x & (GpuConfig::warpSize - 1));
    t[threadIdx.x % GpuConfig::tileSize] = 0;
}
"""


def test_a_class_member_named_for_the_warp_size_or_its_log2_is_hardcoded():
    found = [f for f in lint_text(CONFIG, "t.cu") if f.code == "WS001"]
    assert [(f.line, f.severity) for f in found] == [(3, "error"), (4, "error")]  # not the tile's 32
    assert "`GpuConfig::warpSize` hardcodes the warp size as 32" in found[0].message
    assert "log2 of the warp size as 5" in found[1].message
    assert [r.line for r in found[0].related] == [14]  # the qualified use, not the built-in


def test_a_log2_macro_of_5_is_hardcoded_and_a_branch_per_architecture_is_not():
    hy = ("#define HYPRE_WARP_BITSHIFT   5\n"
          "static __device__ int get_warp_id() { return threadIdx.x >> HYPRE_WARP_BITSHIFT; }\n")
    assert [(f.line, f.code) for f in lint_text(hy, "t.cuh") if f.code == "WS001"] == [(1, "WS001")]
    histogram = ("#define LOG2_WARP_SIZE 5U\n__global__ void hist(unsigned* h, const unsigned char* d) {\n"
                 "    atomicAdd(h + (threadIdx.x >> LOG2_WARP_SIZE) * 256 + d[threadIdx.x], 1u);\n}\n")
    assert not [f for f in lint_text(histogram, "t.cu") if f.code == "WS001"]  # 32-thread groups, no warp op
    branch = ("#if defined(__GFX9__)\n#define HYPRE_WARP_BITSHIFT 6\n#else\n#define HYPRE_WARP_BITSHIFT 5\n#endif\n"
              "static __device__ int get_warp_id() { return threadIdx.x >> HYPRE_WARP_BITSHIFT; }\n")
    assert not [f for f in lint_text(branch, "t.cuh") if f.code == "WS001"]
    tile = "#define TILE_SHIFT 5\n__global__ void k(int* x) { x[threadIdx.x >> TILE_SHIFT] = 0; }\n"
    assert not [f for f in lint_text(tile, "t.cu") if f.code == "WS001"]


def test_a_member_in_an_nvidia_only_branch_or_unused_in_a_source_file_is_quiet():
    guarded = CONFIG.replace("    static constexpr int warpSize = 32;\n",
                             "#if defined(__CUDACC__) && !defined(__HIPCC__)\n    static constexpr int warpSize = 32;\n"
                             "#else\n    static constexpr int warpSize = 64;\n#endif\n")
    assert [f.line for f in lint_text(guarded, "t.cu") if f.code == "WS001"] == [8]  # the log2 alone
    unused = "struct Cfg { static constexpr int kWarpSize = 32; };\n__global__ void k(int* x) { x[0] = 1; }\n"
    assert not [f for f in lint_text(unused, "t.cu") if f.code == "WS001"]
    assert [f.line for f in lint_text(unused, "t.cuh") if f.code == "WS001"] == [1]  # a header's uses are elsewhere


BREV = """\
__device__ int first_negative(bool neg)
{
    int flags = int(__ballot_sync(0xFFFFFFFF, neg));
    return __clz(int(__brev(flags)));
}
__global__ void k(int* x) { x[threadIdx.x] = first_negative(x[threadIdx.x] < 0); }
__device__ unsigned reverse(unsigned i) { return __clz(__brev(i) >> 3); }
__global__ void k2(unsigned* x) { x[threadIdx.x] = reverse(x[threadIdx.x]); }
"""


def test_brev_of_a_lane_mask_is_a_32_bit_bitop_and_its_result_still_a_mask():
    found = sorted((f.line, f.column) for f in lint_text(BREV, "t.cu") if f.code == "WS009")
    assert found == [(4, 12), (4, 22)]  # __clz of the reversed mask, and __brev itself; not k2's data word


def test_a_run_time_assert_that_the_warp_size_is_32_is_flagged_and_one_admitting_64_is_not():
    kernel = "template <int BS> __global__ void k(float* x)\n{\n    assert(warpSize == 32);\n    x[threadIdx.x] = 0.f;\n}\n"
    assert [(f.line, f.code) for f in lint_text(kernel, "t.cu") if f.code == "WS019"] == [(3, "WS019")]
    for ok in ("warpSize == 32 || warpSize == 64", "BS == 32", "warpSize % 32 == 0"):
        assert not [f for f in lint_text(kernel.replace("warpSize == 32", ok), "t.cu") if f.code == "WS019"], ok


LANEMASK = """\
__device__ __forceinline__ int lanemask_lt()
{
    unsigned lane = threadIdx.x & (warpSize - 1);
    return (1 << lane) - 1;
}
__device__ __forceinline__ unsigned long long ballot_of(bool p) { return __ballot(p); }
__device__ int exclusive_scan_bool(bool p)
{
    unsigned long long b = ballot_of(p);
    return __popcll(b & lanemask_lt());
}
__device__ unsigned bit_below(int i) { return (1u << i) - 1; }
__global__ void k(const unsigned* words, int* out)
{
    out[threadIdx.x] = exclusive_scan_bool(words[threadIdx.x] != 0) + __popc(words[threadIdx.x] & bit_below(7));
}
"""


def test_a_helper_whose_callers_combine_it_with_a_ballot_returns_a_lane_mask():
    found = sorted((f.line, f.code) for f in lint_text(LANEMASK, "t.cu") if f.code in ("WS008", "WS010"))
    assert found == [(1, "WS008"), (4, "WS010")]  # its 32-bit type and its 32-bit shift; not bit_below (data)
    typ = next(f for f in lint_text(LANEMASK, "t.cu") if f.code == "WS008")
    assert "`lanemask_lt` returns a lane mask" in typ.message and "line 10" in typ.message


def test_a_helper_combined_only_with_data_words_is_quiet():
    data = LANEMASK.replace("unsigned long long b = ballot_of(p);", "unsigned long long b = p ? 7ull : 0ull;")
    assert not [f for f in lint_text(data, "t.cu") if f.code in ("WS008", "WS010")]


def test_a_helper_named_for_the_warp_count_that_returns_a_shift_by_5_is_a_warp_count_from_32():
    helpers = ("static __device__ __forceinline__ int get_num_warps() { return (blockDim.x * blockDim.y) >> 5; }\n"
               "static __device__ __forceinline__ int get_num_tiles() { return (blockDim.x * blockDim.y) >> 5; }\n"
               "__global__ void k(float* x, float* y)\n{\n"
               "    float v = __shfl_down_sync(0xffffffffffffffffull, x[threadIdx.x], 1);\n"
               "    y[blockIdx.x * get_num_warps()] = v;\n    y[blockIdx.x * get_num_tiles() + 1] = v;\n}\n")
    assert [(f.line, f.code) for f in lint_text(helpers, "t.cu") if f.code == "WS003"] == [(1, "WS003")]
