"""The emulator runs the original as the program translate ports and the GPU runs (stop 50, emuarch50):
`__CUDA_ARCH__` is the newest architecture of the CUDA backend's `device_archs` in the original's
emulation (the branch kernelport/ptx_branches.py ports), undefined in a HIP port's; a cooperative-groups
tile's size written as a name (a `constexpr`, a local constant, a template parameter) is its value as
kernelport/tile_sizes.py reads it, so such kernels run at wave 32 and 64 against a scalar model, and a size
no constant decides is a located refusal."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport import backends
from kernelport.emulator import run_kernel
from kernelport.emulator.errors import EmulatorError

ARCH = """
__global__ void k(const float* in, float* out) {
    int i = threadIdx.x;
#if __CUDA_ARCH__ >= NEWEST
    out[i] = in[i] * 2.0f;
#elif __CUDA_ARCH__ >= 700
    out[i] = in[i] - 7.0f;
#else
    out[i] = in[i] + 100.0f;
#endif
}
"""


def _arch(backend=None, newest=None):
    newest = newest if newest is not None else max(backends.get("cuda").device_archs)
    x = np.arange(32, dtype=np.float32)
    r = run_kernel(ARCH.replace("NEWEST", str(newest)), "k", args={"in": x, "out": np.zeros(32, np.float32)},
                   grid=(1, 1, 1), block=(32, 1, 1), backend=backend)
    return r.outputs["out"], x


def test_the_original_runs_the_newest_architectures_branch():
    out, x = _arch()  # (main's 800 took the `>= 700` branch: the port's asm branch and the GPU's differ)
    assert out.tolist() == (x * 2).tolist()


def test_a_branch_past_the_newest_architecture_is_not_taken():
    out, x = _arch(newest=max(backends.get("cuda").device_archs) + 10)
    assert out.tolist() == (x - 7).tolist()


def test_a_hip_port_sees_no_cuda_arch():
    out, x = _arch(backend="hip")
    assert out.tolist() == (x + 100).tolist()


TILES = """
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
FILE_SCOPE
HELPER_HEAD
__device__ float tile_sum(cg::thread_block_tile<HELPER_SIZE> t, float v) {
    for (int i = t.size() / 2; i > 0; i /= 2) v += t.shfl_down(v, i);
    return v;
}
KERNEL_HEAD
__global__ void k(const float* x, float* sums, int* ranks) {
    LOCAL
    cg::thread_block cta = cg::this_thread_block();
    cg::thread_block_tile<SIZE> tile = cg::tiled_partition<SIZE>(cta);
    float v = CALL(tile, x[cta.thread_rank()]);
    if (tile.thread_rank() == 0) sums[tile.meta_group_rank()] = v;
    ranks[cta.thread_rank()] = tile.thread_rank() + 100 * tile.size();
}
"""
_NONE = {"FILE_SCOPE": "", "HELPER_HEAD": "", "KERNEL_HEAD": "", "LOCAL": "", "CALL": "tile_sum"}
CASES = {
    "file constexpr": ({**_NONE, "FILE_SCOPE": "constexpr int kTile = 8;", "HELPER_SIZE": "kTile",
                        "SIZE": "kTile"}, None),
    "local constant": ({**_NONE, "LOCAL": "const int kT = 8;", "HELPER_SIZE": "8", "SIZE": "kT"}, None),
    "expression of names": ({**_NONE, "FILE_SCOPE": "constexpr int kWarp = 32;", "HELPER_SIZE": "kWarp / 4",
                             "SIZE": "kWarp / 4"}, None),
    "template parameters": ({**_NONE, "HELPER_HEAD": "template <int T>", "HELPER_SIZE": "T",
                             "KERNEL_HEAD": "template <int TS>", "SIZE": "TS", "CALL": "tile_sum<TS>"}, ["8"]),
}


def _tiles(subst, targs, wave):
    src = TILES
    for k, v in subst.items():
        src = src.replace(k, v)
    x = np.arange(64, dtype=np.float32)
    args = {"x": x, "sums": np.zeros(8, np.float32), "ranks": np.zeros(64, np.int32)}
    return run_kernel(src, "k", args=args, grid=(1, 1, 1), block=(64, 1, 1), wave=wave, template_args=targs), x


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_tile_size_written_as_a_name_runs_at_its_value(case, wave):
    r, x = _tiles(*CASES[case], wave)
    assert r.outputs["sums"].tolist() == [float(x[i * 8:(i + 1) * 8].sum()) for i in range(8)]  # the model
    assert r.outputs["ranks"].tolist() == [i % 8 + 800 for i in range(64)]


def test_a_size_no_constant_decides_is_refused_at_its_line():
    subst = {**_NONE, "LOCAL": "int kT = (int)x[0] + 8;", "HELPER_SIZE": "8", "SIZE": "kT"}
    with pytest.raises(EmulatorError, match=r"<kernel>:14:\d+: .*tile size `kT` .*not yet"):
        _tiles(subst, None, 32)


def test_an_unknown_size_in_a_kernel_not_run_does_not_stop_the_one_run():
    subst = {**CASES["file constexpr"][0], "FILE_SCOPE": "constexpr int kTile = 8;\n"
             "__global__ void other(float* y, int n) { cg::thread_block_tile<n> t = cg::tiled_partition<n>("
             "cg::this_thread_block()); y[0] = t.size(); }"}
    r, x = _tiles(subst, None, 64)
    assert r.outputs["sums"].tolist() == [float(x[i * 8:(i + 1) * 8].sum()) for i in range(8)]
