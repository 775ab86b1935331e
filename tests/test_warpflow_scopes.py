"""Functions of one name in different scopes, or overloads, are different functions to warpflow
(kernelport/fnscopes.py): a lane that one returns, or a parameter's facts, never reach the other.

Each case has two helpers of one name whose bodies both compute `threadIdx.x % 32`: one's value
reaches a shuffle's source lane (its 32 is the wave's: `% warpSize` in the HIP port), the other's
only addresses memory (its 32 stays).  Before the helpers were keyed by qualified name, both
were rewritten."""
from __future__ import annotations

import pytest

from kernelport.lint.engine import lint_text
from kernelport.source import SourceFile

from port_support import ported

KERNEL = """__global__ void k(float* x) {{
    float v = x[threadIdx.x];
    v = __shfl_sync(0xffffffff, v, {lane});
    x[{data}] = v;
}}
"""


def _rewritten(src: str) -> list[int]:
    """The lines (1-based) whose `% 32` the HIP port made `% warpSize`."""
    port, _ = ported(src, "k.cu", dedent=False)
    return [i for i, line in enumerate(port.body.splitlines(), 1) if "% warpSize" in line]


NAMESPACES = """namespace tile {
__device__ int lane() { return threadIdx.x % 32; }
}
namespace warp {
__device__ int lane() { return threadIdx.x % 32; }
}
"""


@pytest.mark.parametrize("lane, data, line", [("warp::lane()", "tile::lane()", 5), ("tile::lane()", "warp::lane()", 2),
                                              ("::warp::lane()", "1 + ::tile::lane()", 5)])
def test_same_named_helpers_in_two_namespaces_are_two_functions(lane, data, line):
    assert _rewritten(NAMESPACES + KERNEL.format(lane=lane, data=data)) == [line]


def test_an_unqualified_call_finds_its_own_namespace_first():
    """Inside `namespace warp`, `lane()` is warp::lane, not the global lane nor tile::lane."""
    src = NAMESPACES + "__device__ int lane() { return threadIdx.x % 32; }\n" + """namespace warp {
__device__ float step(float v) { return __shfl_sync(0xffffffff, v, lane()); }
}
__global__ void k(float* x) {
    float v = warp::step(x[threadIdx.x]);
    x[lane() + tile::lane()] = v;
}
"""
    assert _rewritten(src) == [5]


@pytest.mark.parametrize("using, line", [("using namespace warp;\n", 5), ("using namespace tile;\n", 2)])
def test_using_namespace_brings_in_only_the_namespace_it_names(using, line):
    """`using namespace warp;` then `lane()`: warp::lane; tile's own stays data (named in full)."""
    other = "tile" if "warp" in using else "warp"
    src = NAMESPACES + using + KERNEL.format(lane="lane()", data=f"{other}::lane()")
    assert _rewritten(src) == [line]


def test_a_namespace_alias_names_the_namespace():
    src = NAMESPACES + "namespace w = warp;\n" + KERNEL.format(lane="w::lane()", data="tile::lane()")
    assert _rewritten(src) == [5]


def test_static_members_of_two_classes_are_two_functions():
    src = """struct Tile { __device__ static int lane() { return threadIdx.x % 32; } };
struct Warp {
    __device__ static int lane() { return threadIdx.x % 32; }
    __device__ static float step(float v) { return __shfl_sync(0xffffffff, v, lane()); }
};
__global__ void k(float* x) {
    float v = Warp::step(x[threadIdx.x]);
    x[Tile::lane()] = v;
}
"""
    assert _rewritten(src) == [3]


@pytest.mark.parametrize("lane, data, line", [("pick(t)", "pick(t, 2)", 1), ("pick(t, 2)", "pick(t)", 2)])
def test_overloads_of_different_arity_are_chosen_by_the_argument_count(lane, data, line):
    src = """__device__ int pick(int t) { return t % 32; }
__device__ int pick(int t, int w) { return t % 32 * w; }
__global__ void k(float* x) {
    int t = threadIdx.x;
    float v = x[t];
    v = __shfl_sync(0xffffffff, v, LANE);
    x[DATA] = v;
}
""".replace("LANE", lane).replace("DATA", data)
    assert _rewritten(src) == [line]


@pytest.mark.parametrize("lane, data, line", [("slot(t)", "slot(f)", 1), ("slot(f)", "slot(t)", 2),
                                              ("slot(5)", "slot(5.0f)", 1)])
def test_overloads_of_one_arity_are_chosen_by_the_argument_type_where_it_is_known(lane, data, line):
    src = """__device__ int slot(int t) { return (threadIdx.x + t) % 32; }
__device__ int slot(float f) { return (threadIdx.x + (int)f) % 32; }
__global__ void k(float* x) {
    int t = threadIdx.x;
    float f = x[t];
    float v = x[t];
    v = __shfl_sync(0xffffffff, v, LANE);
    x[DATA] = v;
}
""".replace("LANE", lane).replace("DATA", data)
    assert _rewritten(src) == [line]


def test_lint_reports_only_the_helper_whose_lane_reaches_the_shuffle():
    """Lint: warp::lane's `% 32` reaches the shuffle (a finding); tile::lane's only addresses x."""
    src = NAMESPACES + KERNEL.format(lane="warp::lane()", data="tile::lane()")
    assert {f.line for f in lint_text(src, "k.cu") if f.code == "WS002"} == {5}


HEADER_WARP = "#pragma once\nnamespace warp {\n" \
              "__device__ int reduce(int v) { return v + __shfl_xor_sync(0xffffffff, v, 1); }\n}\n"
HEADER_TILE = "#pragma once\nnamespace tile {\n__device__ int reduce(int v) { return v * 2; }\n" \
              "__device__ int twice(int v) { return reduce(v); }\n}\n"


@pytest.mark.parametrize("local, call, warp_level", [
    ("", "warp::reduce(v)", True),  # the header's warp helper: the kernel is warp-level code
    ("", "tile::twice(v)", False),  # tile.cuh's own reduce, not warp.cuh's: no warp code
    ("namespace tile { __device__ int reduce(int v) { return v; } }\n", "warp::reduce(v)", True),
    ("namespace tile { __device__ int reduce(int v) { return v; } }\n", "tile::reduce(v)", False),
    ("using namespace warp;\n", "reduce(v)", True),
])
def test_a_headers_warp_helper_is_known_by_its_qualified_name(tmp_path, local, call, warp_level):
    """Same-named functions in two headers (or a header and the file): only a call that names the
    warp helper makes the caller warp-level code, where `lane == 0` is a leader test and its
    `% 32` the wave's."""
    from kernelport.project_ports import make, single

    (tmp_path / "warp.cuh").write_text(HEADER_WARP)
    (tmp_path / "tile.cuh").write_text(HEADER_TILE)
    f = tmp_path / "k.cu"
    f.write_text('#include "warp.cuh"\n#include "tile.cuh"\n' + local +
                 "__global__ void k(int* x) {\n    int v = x[threadIdx.x];\n    int lane = threadIdx.x % 32;\n"
                 f"    v = {call};\n    if (lane == 0) x[blockIdx.x] = v;\n}}\n")
    made = make(single(f, SourceFile.from_text(f.read_text(), str(f))), ["hip"], None, False)
    port = next(m for m in made if m.path.name == "k.hip")
    assert port.port.ok, [d.format() for d in port.port.diagnostics]
    assert ("int lane = threadIdx.x % warpSize;" in port.text) == warp_level, port.text


# NVIDIA/warp's tile_radix_sort.h: `warp_scan_inclusive(lane, __ballot_sync(mask, p))` calls the
# (int, unsigned int) overload that counts the ballot's bits, not the template `T warp_scan_inclusive(int,
# T)` that scans a value; before a ballot's type was known both took the mask, and the template's scan
# of plain ints, stored to 32-bit shared memory, was reported as a ballot stored in 32 bits (WS008).
SCANS = """__device__ int scan(int lane, unsigned int ballot_mask) {
    unsigned m = (1u << (lane + 1)) - 1;
    return __popc(ballot_mask & m);
}
__device__ int scan(int lane, unsigned int mask, bool p) { return scan(lane, __ballot_sync(mask, p)); }
template <typename T> __device__ T scan(int lane, T value) {
    for (int i = 1; i <= 16; i *= 2) {
        T n = __shfl_up_sync(0xffffffffu, value, i, 32);
        if (lane >= i) value = value + n;
    }
    return value;
}
__global__ void k(const int* in, int* out) {
    __shared__ int buckets[32];
    int lane = threadIdx.x & 31;
    int s = scan(lane, 0xFFFFFFFF, in[threadIdx.x] > 0);
    int f = scan(lane, VALUE);
    buckets[lane] = f;
    out[threadIdx.x] = s + buckets[lane];
}
"""


@pytest.mark.parametrize("word", ["unsigned int", "unsigned long long"])
def test_a_ballot_argument_picks_the_overload_of_the_mask_type_not_a_template(word):
    # `unsigned long long`: the word the HIP port widens the parameter to, which its own lint reads again
    src = SCANS.replace("unsigned int ballot_mask", f"{word} ballot_mask").replace("VALUE", "in[threadIdx.x]")
    found = {(f.line, f.code) for f in lint_text(src, "k.cu")}
    assert {(16, "WS008"), (17, "WS008"), (18, "WS008"), (5, "WS008")}.isdisjoint(found), sorted(found)
    if word == "unsigned int":
        assert (1, "WS008") in found  # the overload that takes the ballot keeps its finding


def test_a_ballot_the_template_really_scans_is_still_a_ballot_stored_in_32_bits():
    # the look-alike: no overload takes the mask's type, so the template is deduced for it
    src = SCANS.replace("unsigned int ballot_mask", "float ballot_mask").replace(
        "VALUE", "__ballot_sync(0xffffffffu, in[threadIdx.x] > 0)")
    found = {(f.line, f.code) for f in lint_text(src, "k.cu")}
    assert {(17, "WS008"), (18, "WS008")} <= found, sorted(found)
