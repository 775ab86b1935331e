"""Cooperative groups' 32-thread tiles in a Metal port (kernelport/backends/metal/cgtiles.py): the
SIMD-group, its members and cg::reduce as Metal's SIMD-group functions; other tiles, members and
operators stay KP217.  Ports are type-checked by kernelport's checker only (no Metal compiler on Linux)."""
from __future__ import annotations

import subprocess
import sys

try:  # tests/ as a package or as plain rootdir modules
    from .conftest import metal_port, require_tool
except ImportError:  # pragma: no cover
    from conftest import metal_port, require_tool
from port_support import refusal

HEAD = "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\nnamespace cg = cooperative_groups;\n"

# llm.c's layernorm/classifier shape: a tile declared in the body (which the grammar reads as an
# expression), passed by reference to a helper, its members and cg::reduce with plus and greater
TILES = HEAD + """\
__device__ float rowmax(cg::thread_block_tile<32>& warp, const float* x, int n) {
    float m = -1e30f;
    for (int i = warp.thread_rank(); i < n; i += warp.size()) m = fmaxf(m, x[i]);
    return cg::reduce(warp, m, cg::greater<float>{});
}
__global__ void k(float* out, const float* x, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    float s = cg::reduce(warp, x[row * n + warp.thread_rank()], cg::plus<float>{});
    s += warp.shfl_down(s, 1) + warp.shfl_xor(s, 2);
    warp.sync();
    if (warp.thread_rank() == 0) out[row] = s + rowmax(warp, x + row * n, n);
}
"""


def errors(code: str) -> list[tuple[int, str]]:
    return [(d.location.line, d.code) for d in refusal(code, to="metal")]


def test_a_32_tile_is_the_simd_group():
    port, text = metal_port(TILES)
    assert port.ok, [d.format() for d in port.diagnostics]
    require_tool("clang")
    from kernelport.backends.metal.check import check_metal_source
    assert [str(d) for d in check_metal_source(text, "t.metal")] == [], text
    body = text.split("using namespace metal;", 1)[1]
    assert "struct kp_simd_tile {};" in body
    assert "float rowmax(kp_simd_tile& warp, const device float* x, int n, uint simd_lane)" in body, body
    assert "for (int i = simd_lane; i < n; i += 32) m = fmaxf(m, x[i]);\n    return simd_max(m);" in body
    assert "kp_simd_tile warp = kp_simd_tile();" in body
    assert "int row = bid.x * ((bdim.x * bdim.y * bdim.z + 31) / 32) + simd_group;" in body
    assert "float s = simd_sum(x[row * n + simd_lane]);" in body
    assert "s += simd_shuffle_down(s, 1) + simd_shuffle_xor(s, 2);" in body
    assert "simdgroup_barrier(mem_flags::mem_threadgroup);" in body
    assert "uint simd_lane [[thread_index_in_simdgroup]]" in body and "cg::" not in body


def test_a_tile_declared_auto_from_tiled_partition():
    """cuda-samples shfl_scan: `const auto tile = cg::tiled_partition<32>(cta);`."""
    port, text = metal_port(HEAD + """\
        __global__ void k(unsigned* out) {
            cg::thread_block cta = cg::this_thread_block();
            const auto tile = cg::tiled_partition<32>(cta);
            out[tile.meta_group_rank()] = tile.any(out[0] > 1u) + tile.ballot(out[1] > 2u);
        }
        """)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "const auto tile = kp_simd_tile();" in text
    assert "out[simd_group] = simd_any(out[0] > 1u) + static_cast<uint>(static_cast<ulong>(simd_ballot(out[1] > 2u)));" \
        in text, text


def test_other_tiles_members_and_operators_stay_refused():
    # 16-tiles have a meaning now (segments of the SIMD-group), but not cg::reduce over one: first at it
    assert errors(TILES.replace("<32>", "<16>")) == [(7, "KP217")]
    assert errors(TILES.replace("warp.sync()", "warp.match_any(s)")) == [(15, "KP217")]
    assert errors(TILES.replace("cg::plus<float>{}", "cg::multiplies<float>{}")) == [(13, "KP217")]
    assert errors(TILES.replace("cg::tiled_partition<32>(block)", "cg::tiled_partition<16>(block)")) == \
        [(11, "KP217")]


VERIFIED = HEAD + """\
// @kp kernel     rowsum
// @kp grid       4
// @kp block      64
// @kp arg        x    in   float[256]   integers(-8, 8)
// @kp arg        out  out  float[8]
// @kp tolerance  exact
// @kp targets    metal
__global__ void rowsum(const float* x, float* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    float s = cg::reduce(warp, x[row * 32 + warp.thread_rank()], cg::plus<float>{});
    float m = cg::reduce(warp, x[row * 32 + warp.thread_rank()], cg::greater<float>{});
    s += warp.shfl_down(m, 1);
    if (warp.thread_rank() == 0) out[row] = s;
}
"""


def test_the_tile_port_computes_what_the_original_does(tmp_path):
    """`kernelport verify`: the Metal port, run in kernelport's emulator, matches the original (the oracle)."""
    (tmp_path / "t.cu").write_text(VERIFIED)
    run = [sys.executable, "-P", "-m", "kernelport"]
    assert subprocess.run(run + ["translate", "t.cu", "--to", "metal"], cwd=tmp_path).returncode == 0
    r = subprocess.run(run + ["verify", "t.cu"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0 and "0 failed" in r.stdout, r.stdout + r.stderr
