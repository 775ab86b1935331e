"""Three emulator gaps stop 50 left in llm.c classifier_fused and cooperative-groups code.

- `&x` of a local declared const: kernel2's `vec_at(const float4& vec, int index)` reads
  `reinterpret_cast<const float*>(&vec)[index]`; "taking the address of a local variable is not supported"
  made kernel2 a "not run".  Now a const local's address is a temporary holding its value (addressed.py's,
  as at a call); nothing may write through it, so nothing is copied back.  A non-const local's stays refused.
- `&a[i]` is `a + i`: of a pointer to float4 rows it points at a row (`__ldcs(&logits_vec4[i])` loads a
  float4); it pointed at the row's first float, and kernel2's `float4 v4 = __ldcs(...)` was refused.
- `auto t = cg::tiled_partition<N>(block);` (and `auto b = cg::this_thread_block();`): the tile its
  initialiser makes, as the declaration with the type written; "call through a function pointer" before.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kernelport.emulator import EmulatorError, run_kernel

LLMC = Path(__file__).parent / "realcorpus" / "llm.c" / "dev" / "cuda" / "classifier_fused.cu"


@pytest.mark.parametrize("wave", [32, 64])
def test_llmc_classifier_fused_kernel2_runs_and_equals_kernel3(wave):
    # kernel2 (float4 loads, vec_at) and kernel3 (scalar loads) compute the same softmax gradient (their block
    # reductions add in different orders: equal to float rounding)
    rows, v, p = 4, 22, 24
    rng = np.random.default_rng(1)
    args = dict(dlogits=np.zeros(rows * p, np.float32), losses=np.zeros(rows, np.float32),
                probs=np.zeros(rows * p, np.float32), logits=rng.uniform(-1, 1, rows * p).astype(np.float32),
                dlosses=rng.uniform(-1, 1, rows).astype(np.float32), targets=rng.integers(0, v, rows).astype(np.int32),
                B=1, T=rows, V=v, P=p)
    out = [run_kernel(LLMC.read_text(), k, args=args, grid=(rows,), block=(32,), path=str(LLMC), wave=wave).outputs
           for k in ("fused_classifier_kernel2", "fused_classifier_kernel3")]
    for name in ("dlogits", "losses", "probs"):
        assert np.allclose(out[0][name], out[1][name], rtol=1e-6, atol=1e-8), name
    x = args["logits"].reshape(rows, p)[:, :v].astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    assert np.allclose(out[0]["probs"].reshape(rows, p)[:, :v], e / e.sum(axis=1, keepdims=True), atol=1e-6)


VEC_AT = r"""
__device__ float vec_at(DECL, int index) {
    return reinterpret_cast<const float*>(&vec)[index];
}
__global__ void k(const float4* x, float* out) {
    int i = threadIdx.x;
    float4 v = __ldcs(&x[i]);
    out[i] = vec_at(v, 0) + 10.0f * vec_at(v, 3);
}
"""


def _vec_at(decl):
    x = np.arange(32, dtype=np.float32)
    return run_kernel(VEC_AT.replace("DECL", decl), "k", args=dict(x=x, out=np.zeros(8, np.float32)), grid=(1,),
                      block=(8,)).outputs["out"]


def test_the_address_of_a_const_local_reads_its_value():
    want = [4 * i + 10.0 * (4 * i + 3) for i in range(8)]
    assert _vec_at("const float4& vec").tolist() == want
    assert _vec_at("const float4 vec").tolist() == want


def test_the_address_of_a_local_that_may_be_written_stays_refused():
    with pytest.raises(EmulatorError, match="taking the address of a local variable"):
        _vec_at("float4 vec")


def test_the_address_of_an_element_is_the_pointer_plus_its_index():
    src = r"""
__global__ void k(const float* x, const float2* y, float* out) {
    int i = threadIdx.x;
    float t[2][3];
    for (int a = 0; a < 2; ++a) for (int b = 0; b < 3; ++b) t[a][b] = x[3 * a + b] + i;
    float2 q = __ldg(&y[i]);
    const float* s = &x[i];
    float* r = &t[1][0];
    out[i] = s[1] + r[2] + q.y;
}
"""
    x = np.arange(8, dtype=np.float32)
    y = np.arange(16, dtype=np.float32)
    out = run_kernel(src, "k", args=dict(x=x, y=y, out=np.zeros(4, np.float32)), grid=(1,), block=(4,)).outputs["out"]
    assert out.tolist() == [x[i + 1] + (x[5] + i) + y[2 * i + 1] for i in range(4)]


TILES = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const float* x, float* out) {
    DECL
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = t.size() / 2; o > 0; o /= 2) v += t.shfl_down(v, o);
    if (t.thread_rank() == 0) out[blockIdx.x * (blockDim.x / t.size()) + t.meta_group_rank()] = v;
}
"""


def _tiles(decl, wave):
    x = np.arange(128, dtype=np.float32)
    return run_kernel(TILES.replace("DECL", decl), "k", args=dict(x=x, out=np.zeros(8, np.float32)), grid=(2,),
                      block=(64,), wave=wave).outputs["out"]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("n, decl", [
    (16, "auto t = cg::tiled_partition<16>(cg::this_thread_block());"),
    (16, "auto b = cg::this_thread_block();\n    auto t = cg::tiled_partition<16>(b);"),
    (32, "cg::thread_block b = cg::this_thread_block();\n    const auto t = cg::tiled_partition<32>(b);"),
])
def test_an_auto_tile_is_the_tile_its_initialiser_makes(n, decl, wave):
    typed = _tiles(f"cg::thread_block b = cg::this_thread_block();\n    cg::thread_block_tile<{n}> t = "
                   f"cg::tiled_partition<{n}>(b);", wave)
    assert _tiles(decl, wave).tolist() == typed.tolist()
    sums = np.arange(128, dtype=np.float32).reshape(-1, n).sum(axis=1)
    assert typed[: sums.size].tolist() == sums.tolist()


def test_a_tile_of_a_size_known_only_at_run_time_stays_a_located_refusal():
    with pytest.raises(EmulatorError, match="tiled_partition") as ei:
        _tiles("auto t = cg::tiled_partition(cg::this_thread_block(), 16);", 32)
    assert ei.value.line == 5
