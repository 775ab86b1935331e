"""Cooperative groups' tile votes (`tile.ballot(p)`, `tile.any(p)`, `tile.all(p)` on a `tiled_partition<N>` of the
block), which ROCm 5.2's tiles lack, ported as the wave's ballot shifted to the tile's own lanes: the caller's CUDA
warp's half (`>> (__lane_id() & 32)`), then the tile's first lane within it (kernelport/backends/hip.py's
cg_members, data; api_names.rewrite_cg_members).  Before: KP210 (heldout35's MVGpuBTree stopped there).
Each port is run on the emulator at wave 32 and 64, against the original (32-lane tiles, which the emulator's
cooperative groups run) or against CUDA's tile numbering computed here (16-lane tiles); hipcc compiles it."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles

VOTES = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const int* x, unsigned* out, int* flags) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = tile.ballot(x[i] > 0);
  int a = tile.any(x[i] > 2);
  int l = tile.all(x[i] > -3);
  out[i] = m;
  flags[i] = a * 2 + l;
}
"""


def _port(text: str):
    port, out = translate(SourceFile.from_text(text, "t.cu"), "hip")
    return port, out


def _args():
    rng = np.random.default_rng(3)
    return {"x": rng.integers(-3, 4, 512).astype(np.int32), "out": np.zeros(512, np.uint32),
            "flags": np.zeros(512, np.int32)}


def _cuda(x: np.ndarray, n: int):
    """CUDA's tile votes: bit j of a tile's ballot is its j-th thread's predicate."""
    out, flags = np.zeros_like(x, np.uint32), np.zeros_like(x)
    for t in range(0, len(x), n):
        p = x[t:t + n]
        out[t:t + n] = sum(1 << j for j in range(n) if p[j] > 0)
        flags[t:t + n] = 2 * int((p > 2).any()) + int((p > -3).all())
    return out, flags


@pytest.mark.parametrize("n", [32, 16, 8])
def test_tile_votes_are_the_waves_ballot_over_the_tiles_lanes(n):
    port, text = _port(VOTES.replace("<N>", f"<{n}>"))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert ".ballot(" not in port.body and ".any(" not in port.body and "__lane_id() & 32" in port.body, port.body
    args = _args()
    want = _cuda(args["x"], n)
    if n == 32:  # the emulator's cooperative groups run 32-lane tiles' votes: the original is the oracle too
        got = run_kernel(VOTES.replace("<N>", "<32>"), "k", args=args, grid=(2, 1, 1), block=(256, 1, 1), wave=32)
        assert np.array_equal(got.outputs["out"], want[0]) and np.array_equal(got.outputs["flags"], want[1])
    for wave in (32, 64):
        got = run_kernel(text, "k", args=args, grid=(2, 1, 1), block=(256, 1, 1), wave=wave, backend="hip").outputs
        assert np.array_equal(got["out"], want[0]), (wave, got["out"][:40], want[0][:40])
        assert np.array_equal(got["flags"], want[1]), wave


def test_a_named_tile_size_is_read_as_written():
    port, _ = _port("constexpr int W = 16;\n" + VOTES.replace("<N>", "<W>"))
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "~((W) - 1)" in port.body and "(1ull << (W))" in port.body, port.body


def test_a_tile_of_no_block_keeps_kp210():
    """A tile of a coalesced group: its lanes are not the block's in order, so the wave's lanes say nothing."""
    code = VOTES.replace("cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);",
                         "cg::coalesced_group active = cg::coalesced_threads();\n"
                         "  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(active);")
    port, _ = _port(code)
    assert not port.ok and any(d.code == "KP210" and "ballot" in d.message for d in port.diagnostics), \
        [d.format() for d in port.diagnostics]


def test_hipcc_compiles_the_tile_votes(tmp_path):
    from conftest import require_tool
    from kernelport import backends

    require_tool("hipcc")
    for n in (32, 16):
        _, text = _port(VOTES.replace("<N>", f"<{n}>"))
        path = tmp_path / f"votes{n}.hip"
        path.write_text(text)
        # gfx90a (wave 64) and gfx1030 (wave 32)
        assert_hip_file_compiles(path, list(dict.fromkeys(r.arch for r in backends.get("hip").runs)))
