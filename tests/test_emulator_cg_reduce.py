"""cooperative_groups' reduce over a static tile (llm.c's layernorm and attention kernels:
`cg::reduce(warp, sum, cg::plus<float>{})`, the alias `namespace cg = cooperative_groups;` in the
kernel's body) and the cache-hinted stores and loads (`__stcs(p, v)`, `__ldcs(p)`) on the emulator:
before, the original could not be lowered ("before: cg", "unknown function `__stcs`") and verify's
oracle did not run it.  Look-alikes: an operator object of the file's own, or a reduce over the
whole block, is left as written and refused at its line."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError
from trust_support import assert_a_broken_hip_port_fails, assert_the_oracle_runs_and_ports_match

TILES = """#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
__global__ void k(const int* x, int* out) {
    namespace cg = cooperative_groups;
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> t = cg::tiled_partition<16>(block);
    int v = __ldcs(x + block.thread_rank());
    int r = t.meta_group_rank();
    __stcs(out + 4 * r, cg::reduce(t, v, cg::plus<int>{}));
    out[4 * r + 1] = cg::reduce(t, v, cg::less<int>());
    out[4 * r + 2] = cg::reduce(t, v, cg::greater<int>{});
    out[4 * r + 3] = cg::reduce(t, cg::reduce(t, v, cg::bit_xor<int>{}), cg::bit_or<int>{});
}
"""


def _tiles(src=TILES, wave=32):
    x = np.random.default_rng(3).integers(-1000, 1000, 64).astype(np.int32)
    res = run_kernel(src, "k", args={"x": x, "out": np.zeros(16, np.int32)}, grid=(1, 1, 1), block=(64, 1, 1),
                     wave=wave)
    return x.reshape(4, 16), res.outputs["out"].reshape(4, 4)


@pytest.mark.parametrize("wave", [32, 64])
def test_reduce_over_a_tile_of_16_with_each_operator(wave):
    x, out = _tiles(wave=wave)
    np.testing.assert_array_equal(out[:, 0], x.sum(axis=1))
    np.testing.assert_array_equal(out[:, 1], x.min(axis=1))
    np.testing.assert_array_equal(out[:, 2], x.max(axis=1))
    np.testing.assert_array_equal(out[:, 3], np.bitwise_xor.reduce(x, axis=1))


def test_an_operator_object_of_the_file_is_refused_at_its_line():
    src = TILES.replace("cg::less<int>()", "MyMin()")
    with pytest.raises(EmulatorError) as e:
        _tiles("struct MyMin { int n; };\n" + src)
    assert e.value.line == 11, e.value


def test_a_reduce_over_the_block_is_refused_at_its_line():
    src = TILES.replace("cg::reduce(t, v, cg::greater<int>{})", "cg::reduce(block, v, cg::greater<int>{})")
    with pytest.raises(EmulatorError) as e:
        _tiles(src)
    assert e.value.line == 11, e.value


def test_a_hinted_store_of_the_wrong_arity_is_refused_at_its_line():
    with pytest.raises(EmulatorError, match=r"__stcs takes \(address, value\)") as e:
        _tiles(TILES.replace("__stcs(out + 4 * r, ", "__stcs(out + 4 * r, 1, "))
    assert e.value.line == 9, e.value


FILE = """#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <float.h>

__global__ void row_norm(float* out, float* maxes, const float* x, int rows, int n) {
    namespace cg = cooperative_groups;
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (row >= rows) return;
    const float* r = x + row * n;
    float s = 0.0f, m = -FLT_MAX;
    for (int i = warp.thread_rank(); i < n; i += warp.size()) { s += r[i] * r[i]; m = fmaxf(m, r[i]); }
    s = cg::reduce(warp, s, cg::plus<float>{});
    m = cg::reduce(warp, m, cg::greater<float>());
    for (int i = warp.thread_rank(); i < n; i += warp.size()) __stcs(out + row * n + i, r[i] / sqrtf(s));
    if (warp.thread_rank() == 0) maxes[row] = m;
}

int main() {
    int rows = 100, n = 300;
    float *x, *out, *maxes;
    cudaMalloc(&x, rows * n * sizeof(float));
    cudaMalloc(&out, rows * n * sizeof(float));
    cudaMalloc(&maxes, rows * sizeof(float));
    row_norm<<<(rows * 32 + 127) / 128, 128>>>(out, maxes, x, rows, n);
    cudaDeviceSynchronize();
    return 0;
}
"""


def test_the_oracle_runs_and_a_wrong_port_fails(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(FILE)
    assert_the_oracle_runs_and_ports_match(f, None)
    # the port's lanes past 32 of a 64-lane wave keep their own maxima
    assert_a_broken_hip_port_fails(f, "m = cg::reduce(warp, m, cg::greater<float>());",
                                   "if (threadIdx.x % 64 < 32) m = cg::reduce(warp, m, cg::greater<float>());")
