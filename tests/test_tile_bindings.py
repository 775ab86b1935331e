"""A cooperative-groups tile vote on a value whose type is a template parameter (heldout35's MVGpuBTree: node.hpp's
`tile_.ballot(p)` on a `const tile_type tile_;` member of `btree_node<pair_type, tile_type, ...>`): the HIP port
writes the backend's tile vote, the tile's size read from the tile (`tile_.size()`), where every binding the run's
files show is a tile of a thread block (kernelport/tile_bindings.py); else KP210 at the vote, or (no binding at
all) a KP210 warning and the vote left as written.  Before: left as written silently (ROCm 5.2's tiles have no
ballot: the port failed hipcc).  The emulator does not lower a member call on a template-typed value, so the
function-template port is run instantiated by hand (its template parameter replaced by the bound tile type) at
wave 32 and 64 against CUDA's tile numbering; hipcc compiles the ports for gfx90a and gfx1030."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles

FUNCTION = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <typename tile_type>
__device__ unsigned match(const tile_type& tile, bool p) {
  return tile.ballot(p) + (tile.all(p) ? 1000000u : 0u) + (tile.any(p) ? 2000000u : 0u);
}

template <typename tile_type>
__device__ unsigned find(const tile_type& tile, int v) {
  return match(tile, v > 0);
}

__global__ void votes(const int* x, unsigned* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = find(tile, x[i]);
}
"""
MEMBER = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <typename pair_type, typename tile_type, int node_width = 16>
struct node {
  __device__ node(const tile_type& tile) : tile_(tile) {}
  __device__ unsigned match(bool p) const { return tile_.ballot(p); }
  __device__ bool every(bool p) const { return tile_.all(p); }
  const tile_type tile_;
};

template <typename tile_type>
__device__ unsigned find(const tile_type& tile, bool p) {
  using node_type = node<int, tile_type, 16>;
  node_type n(tile);
  return n.match(p) + (n.every(p) ? 1000000u : 0u);
}

__global__ void votes(const int* x, unsigned* out) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = find(tile, x[i] > 0);
}
"""
TILE = "cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);"
COALESCED = "cg::coalesced_group tile = cg::coalesced_threads();"
REFUSED = {  # KP210 at the vote (line 6: match's), naming what the binding is
    "coalesced_group": (FUNCTION.replace(TILE, COALESCED), "coalesced_group"),
    "one_caller_of_two_coalesced": (FUNCTION.replace("  out[i] = find(tile, x[i]);", "  out[i] = find(tile, x[i]);\n"
                                                     "  cg::coalesced_group g = cg::coalesced_threads();\n"
                                                     "  out[i] += find(g, x[i]);"), "coalesced_group"),
    "argument_of_unknown_type": (FUNCTION.replace("find(tile, x[i])", "find(pick(tile), x[i])").replace(
        "__global__", "template <typename T> __device__ const T& pick(const T& t) { return t; }\n__global__"),
        "pick(tile)"),
    "class_named_without_arguments": (MEMBER.replace("using node_type = node<int, tile_type, 16>;\n  node_type n(tile);",
                                                     "node n(tile);"), "without template arguments"),
}


def _port(text: str):
    return translate(SourceFile.from_text(text, "t.cu"), "hip")


def _cuda(x: np.ndarray) -> np.ndarray:
    """CUDA's 16-lane tiles: bit j of a tile's ballot is its j-th thread's predicate."""
    want = np.zeros(len(x), np.uint32)
    for t in range(0, len(x), 16):
        q = x[t:t + 16] > 0
        want[t:t + 16] = sum(1 << j for j in range(16) if q[j]) + 1000000 * q.all() + 2000000 * q.any()
    return want


def test_a_function_templates_tile_votes_are_the_waves_ballot_over_the_tiles_lanes():
    p, text = _port(FUNCTION)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert ".ballot(" not in p.body and ".all(" not in p.body and ".any(" not in p.body, p.body
    assert "~((tile.size()) - 1)" in p.body and "__lane_id() & 32" in p.body, p.body
    instance = text.replace("template <typename tile_type>\n", "").replace("tile_type", "cg::thread_block_tile<16>")
    x = np.random.default_rng(3).integers(-3, 4, 512).astype(np.int32)
    for wave in (32, 64):
        got = run_kernel(instance, "votes", args={"x": x, "out": np.zeros(512, np.uint32)}, grid=(2,), block=(256,),
                         wave=wave, backend="hip").outputs["out"]
        assert np.array_equal(got, _cuda(x)), (wave, got[:20], _cuda(x)[:20])


def test_a_class_templates_tile_member_is_bound_where_the_class_is_named():
    p, _ = _port(MEMBER)
    assert p.ok, [d.format() for d in p.diagnostics]
    assert "tile_.ballot(" not in p.body and "tile_.all(" not in p.body and "~((tile_.size()) - 1)" in p.body, p.body


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_binding_that_is_no_tile_of_a_block_is_kp210_at_the_vote(name):
    code, why = REFUSED[name]
    p, _ = _port(code)
    assert not p.ok, p.body
    got = [d for d in p.diagnostics if d.code == "KP210"]
    assert got and all(d.severity == "error" for d in got) and why in got[0].message, [d.format() for d in got]
    assert got[0].location.line in (6, 7), got[0].format()


def test_no_binding_in_the_run_is_a_warning_and_the_vote_left_as_written():
    p, _ = _port(FUNCTION.replace("  out[i] = find(tile, x[i]);", "  out[i] = tile.thread_rank();"))
    assert p.ok and "tile.ballot(p)" in p.body, p.body
    assert [(d.code, d.severity, d.location.line) for d in p.diagnostics].count(("KP210", "warning", 6)) == 3, \
        [d.format() for d in p.diagnostics]


def test_a_template_bound_to_a_type_that_is_no_group_is_left_as_written():
    """Look-alike: `.all(p)` of the caller's own struct (a bitset-like type): not cooperative groups' vote."""
    code = FUNCTION.replace("tile.ballot(p) + ", "").replace(TILE, "Bits tile;").replace(
        "__global__", "struct Bits { __device__ bool all(bool p) const { return p; }\n"
        "  __device__ bool any(bool p) const { return !p; } };\n__global__")
    p, _ = _port(code)
    assert p.ok and "tile.all(p)" in p.body and "tile.any(p)" in p.body and not p.diagnostics, \
        [d.format() for d in p.diagnostics]


def test_hipcc_compiles_the_template_tile_votes(tmp_path):
    from conftest import require_tool
    from kernelport import backends

    require_tool("hipcc")
    for name, code in (("function", FUNCTION), ("member", MEMBER)):
        _, text = _port(code)
        path = tmp_path / f"{name}.hip"
        path.write_text(text)
        # gfx90a (wave 64) and gfx1030 (wave 32)
        assert_hip_file_compiles(path, list(dict.fromkeys(r.arch for r in backends.get("hip").runs)))


@pytest.mark.parametrize("decl", ["Bits m;", "auto m = make_bits();"], ids=["declared_type", "unknown_auto"])
def test_a_local_that_is_no_template_parameter_is_left_as_written(decl):
    """Look-alike: `m.any(p)` on a local of the file's own type, or of a type the model cannot see, in a file that
    makes no tile: not a cooperative-groups vote, no diagnostic."""
    code = ("struct Bits { __device__ bool any(bool p) const { return p; } };\n"
            "__device__ Bits make_bits() { return Bits(); }\n"
            f"__global__ void k(const int* x, int* out) {{\n  {decl}\n  int i = threadIdx.x;\n"
            "  out[i] = m.any(x[i] > 0);\n}\n")
    p, _ = _port(code)
    assert p.ok and "m.any(x[i] > 0)" in p.body and not p.diagnostics, [d.format() for d in p.diagnostics]
