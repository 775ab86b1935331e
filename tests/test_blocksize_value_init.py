"""A block size declared value-initialised, `int gridSize{}, blockSize{};`, then written through a
pointer by cudaOccupancyMaxPotentialBlockSize (evogp's forward.cu and mutation.cu, heldout46): the
empty braces say no size, and translate and lint read the launch without an internal error (main:
IndexError in kernelport/blocksizes.py, KP006).  A size the braces do give is still read."""
from __future__ import annotations

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile
from kernelport.translate import translate

CODE = """__global__ void fit(float* out, const float* in, int n) {
    __shared__ float s[1024];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    const int waves = blockDim.x / warpSize;
    if (threadIdx.x == 0) out[blockIdx.x] = s[0] * waves;
}
void run(float* out, const float* in, int n) {
    int gridSize{}, blockSize INIT;
    cudaOccupancyMaxPotentialBlockSize(&gridSize, &blockSize, fit);
    if (gridSize * blockSize < n)
        gridSize = (n - 1) / blockSize + 1;
    fit<<<gridSize, blockSize>>>(out, in, n);
}
"""


def ws031(init: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint_text(CODE.replace("INIT", init), "t.cu", select=["WS031"])]


def test_value_initialised_block_size_says_no_size():
    assert ws031("{}") == []
    port, text = translate(SourceFile.from_text(CODE.replace("INIT", "{}"), "t.cu"), "hip")
    assert port.ok and "fit<<<gridSize, blockSize>>>" in text


def test_a_braced_size_is_still_read():
    assert ws031("{96}") == [("WS031", 6)]  # 96 threads: one and a half 64-lane waves
    assert ws031("{256}") == []
