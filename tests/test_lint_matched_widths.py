"""WS015: host uses of a hardcoded warp-size macro in a function whose every warp-level launch binds its kernel's
group-width template parameter to the macro's value are silent (kernelport/lint/matched_widths.py; heldout101
muxi-spmv's merge-based SpMV launchers, stop 66).  Look-alikes keep the finding: a width that differs from the macro
in its branch, a kernel whose width is no template parameter, a test on the macro other than `==`."""
from __future__ import annotations

from kernelport.lint.engine import lint_text

SRC = """\
#define WARP_SIZE 32
template <typename T, int BLOCK, int WarpSize>
__global__ void rows(const T* x, T* y) {
    int lane = threadIdx.x % WarpSize;
    int row = blockIdx.x * (BLOCK / WarpSize) + threadIdx.x / WarpSize;
    T v = x[row * WarpSize + lane];
    for (int o = WarpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o, WarpSize);
    if (lane == 0) y[row] = v;
}
void run(const float* x, float* y, int n) {
    int blockSize = 256;
    int warpsPerBlock = blockSize / WARP_SIZE;
    int grid = (n + warpsPerBlock - 1) / warpsPerBlock;
    if (WARP_SIZE == 64) {
        rows<float, 256, 64><<<grid, blockSize>>>(x, y);
    } else {
        rows<float, 256, 32><<<grid, blockSize>>>(x, y);
    }
}
"""
PLAIN = SRC.replace("""    if (WARP_SIZE == 64) {
        rows<float, 256, 64><<<grid, blockSize>>>(x, y);
    } else {
        rows<float, 256, 32><<<grid, blockSize>>>(x, y);
    }""", "    rows<float, 256, WARP_SIZE><<<grid, blockSize>>>(x, y);")
SWAPPED = SRC.replace("rows<float, 256, 64>", "rows<float, 256, @>").replace("rows<float, 256, 32>", "rows<float, 256, 64>") \
    .replace("rows<float, 256, @>", "rows<float, 256, 32>")
OTHER_TEST = SRC.replace("if (WARP_SIZE == 64)", "if (WARP_SIZE >= 64)")
HARDWARE = SRC.replace("WarpSize", "warpSize").replace(", int warpSize>", ", int W>")


def _ws015(src: str) -> list[int]:
    return [f.line for f in lint_text(src, "t.cu") if f.code == "WS015"]


def test_launches_bound_to_the_macro_keep_its_host_uses_silent():
    assert _ws015(SRC) == []
    assert _ws015(PLAIN) == []


def test_look_alikes_keep_the_finding():
    assert 12 in _ws015(SWAPPED)
    assert 12 in _ws015(OTHER_TEST)
    assert 12 in _ws015(HARDWARE)


def test_a_kernel_that_also_reads_warpsize_keeps_the_finding():
    """review66f: the kernel's lanes are its template width, but its warp index reads `warpSize` (in it or a helper it
    calls): at wave 64 its warps are the wave's, which `blockSize / WARP_SIZE` no longer counts.  Look-alikes stay
    silent: a ballot or a broadcast without a width (heldout101 muxi-spmv's `__shfl_sync(~0u, startRow, 0)`) are the
    kernel's own findings, the host's count of its template-width groups is right."""
    wid = PLAIN.replace("int row = blockIdx.x * (BLOCK / WarpSize) + threadIdx.x / WarpSize;",
                        "int row = blockIdx.x * (BLOCK / WarpSize) + threadIdx.x / warpSize;")
    helper = PLAIN.replace("template <typename T, int BLOCK", "__device__ int warp_of(int t) { return t / warpSize; }\n"
                           "template <typename T, int BLOCK").replace("+ threadIdx.x / WarpSize;", "+ warp_of(threadIdx.x);")
    assert 12 in _ws015(wid)
    assert 13 in _ws015(helper)
    ballot = PLAIN.replace("if (lane == 0) y[row] = v;", "if (lane == 0) y[row] = v + __popc(__ballot_sync(~0u, v > 0));")
    broadcast = PLAIN.replace("if (lane == 0) y[row] = v;", "y[row] = __shfl_sync(0xffffffff, v, 0);")
    assert _ws015(ballot) == [] and _ws015(broadcast) == []
