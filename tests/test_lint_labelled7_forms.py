"""Three lint behaviours designed on tests/labelled7 (kaldi's HIP port, pytorch_scatter's ROCm masks,
QUDA's HIP target), each with a case it must flag, where it points, and a look-alike it must not:

- a library warp collective at its default width (`cub::WarpReduce<float>`, the hardware warp) in a
  kernel launched in rows of 32 threads sums two rows on a 64-lane wave (WS018), and names the
  block of each such launch, the line a port changes;
- a wrapper's 32-bit mask parameter forwarded to a `_sync` intrinsic is rejected by HIP whatever its
  callers pass (WS007), and names the parameter;
- an accessor named for the warp size that only returns 32 is a hardcoded warp size (WS001)."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

ROWS = """\
#include <cub/cub.cuh>
template <int BINS>
__global__ void mel(const float* const* vecs, const float* frames, float* mels, int len, int frames_n) {
    using Sum = cub::WarpReduce<float>;
    __shared__ typename Sum::TempStorage scratch[BINS];
    const int frame = blockIdx.y * blockDim.y + threadIdx.y;
    if (frame >= frames_n) return;
    float acc = 0.0f;
    for (int k = threadIdx.x; k < len; k += blockDim.x) acc += vecs[blockIdx.x][k] * frames[frame * len + k];
    acc = Sum(scratch[threadIdx.y]).Sum(acc);
    if (threadIdx.x == 0) mels[frame * gridDim.x + blockIdx.x] = acc;
}
void launch(const float* const* vecs, const float* frames, float* mels, int len, int bins, int n) {
    dim3 threads(32, 8);
    mel<8><<<dim3(bins, (n + 7) / 8), threads>>>(vecs, frames, mels, len, n);
    mel<32><<<dim3(bins, (n + 31) / 32), dim3(32, 32)>>>(vecs, frames, mels, len, n);
}
"""


def _ws(text: str, code: str):
    return [f for f in lint_text(text, "t.cu") if f.code == code]


def test_a_default_width_collective_in_rows_of_32_names_the_launches():
    found = _ws(ROWS, "WS018")
    assert [f.line for f in found] == [4]
    assert sorted(r.line for r in found[0].related) == [14, 16]  # `dim3 threads(32, 8);`, `dim3(32, 32)`


def test_a_collective_given_the_width_32_or_launched_in_whole_waves_is_quiet():
    assert not _ws(ROWS.replace("WarpReduce<float>", "WarpReduce<float, 32>"), "WS018")
    waves = ROWS.replace("dim3 threads(32, 8);", "dim3 threads(64, 4);").replace("), dim3(32, 32)", "), dim3(64, 16)")
    assert not _ws(waves, "WS018")


WRAPPER = """\
__device__ __inline__ float shfl_up(const unsigned mask,
                                   const float var, const unsigned int delta) {
    return __shfl_up_sync(mask, var, delta);
}
"""


def test_a_wrappers_32_bit_mask_parameter_names_the_parameter():
    found = _ws(WRAPPER, "WS007")
    assert [f.line for f in found] == [3] and [r.line for r in found[0].related] == [1]


def test_a_64_bit_or_dropped_mask_parameter_is_quiet():
    assert not _ws(WRAPPER.replace("const unsigned mask", "const unsigned long long mask"), "WS007")
    dropped = "#if defined(USE_ROCM)\n#define __shfl_up_sync(m, v, d) __shfl_up(v, d)\n#endif\n" + WRAPPER
    assert not _ws(dropped, "WS007")


ACCESSOR = """\
namespace device {
constexpr int warp_size() { return 32; }
constexpr unsigned int max_block_size() { return 1024; }
}
__global__ void k(float* x) {
    int lane = threadIdx.x % device::warp_size();
    x[threadIdx.x] = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1) + lane;
}
"""


def test_a_warp_size_accessor_returning_32_is_a_hardcoded_warp_size():
    assert [f.line for f in _ws(ACCESSOR, "WS001")] == [2]


def test_an_accessor_that_is_not_the_warp_size_or_not_a_constant_is_quiet():
    assert not _ws(ACCESSOR.replace("warp_size", "tile_size"), "WS001")
    assert not _ws(ACCESSOR.replace("{ return 32; }", "{ return warpSize; }"), "WS001")


def test_translate_ports_a_default_width_collective_in_rows_of_32_at_cudas_32_lanes():
    """Re-pinned (h/rocmlibs45): the port no longer refuses (KP225 at the collective, WS018) where the
    source leaves `cub::WarpReduce<float>` at its default width: it writes cub's 32
    (`hipcub::WarpReduce<float, 32>`; hipCUB's default is the wave, which would sum two rows), which is
    what CUDA computes at every wave width: the same port as that of the source given the width 32."""
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    port, _ = translate(SourceFile.from_text(ROWS, "t.cu"), "hip")
    assert port.ok and not [d for d in port.diagnostics if d.code == "KP225"], [d.format() for d in port.diagnostics]
    assert "using Sum = hipcub::WarpReduce<float, 32>;" in port.body
    given, _ = translate(SourceFile.from_text(ROWS.replace("WarpReduce<float>", "WarpReduce<float, 32>"), "t.cu"), "hip")
    assert given.ok and given.body == port.body
