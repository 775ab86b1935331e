"""Parse gaps found on the thirty-fifth held-out set (GPU data structures, h/heldout35), each on a
small synthetic reproduction: an extended lambda with a capture and two execution-space words
(`[n] __host__ __device__ (int x)`: the grammar takes no qualifier after a capture, and a
qualifier before `(` looked like a call; kernelport/macro_tokens.ends_a_capture)."""
from __future__ import annotations

import textwrap

from conftest import hip_compiles
from kernelport.source import SourceFile
from kernelport.translate import translate

LAMBDAS = """\
void f(int n) {
  auto b = [n] __host__ __device__(int x) { return x + n; };
}
void g(int average_range_length) {
  auto b = [average_range_length] __host__ __device__(int x) { return x + 1; };
}
void h(int ab) {
  auto b = [ab] __device__(int x) { return x + 1; };
}
"""


def test_a_capturing_lambda_with_host_and_device_parses_and_ports(tmp_path):
    s = SourceFile.from_text(textwrap.dedent(LAMBDAS), "l.cu")
    assert s.syntax_errors() == [], s.syntax_errors()
    # what is masked for the grammar is each qualifier word alone, none of the lambdas' code
    assert {m.name for m in s.masks} == {"__host__", "__device__"}
    assert all(m.end - m.start == len(m.name) for m in s.masks)
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "auto b = [n] __host__ __device__(int x) { return x + n; };" in text
    hip_compiles(tmp_path, text)


def test_a_subscript_before_a_call_is_no_capture():
    # the look-alike: `a[i] f(x)` is not C++, but `a[i]` then a call on the next statement keeps both
    s = SourceFile.from_text("__device__ int f(int x) { return x; }\n"
                             "__device__ int g(int* a, int i) { a[i] = 1; return f(a[i]); }\n", "s.cu")
    assert s.syntax_errors() == [] and not s.masks


# A header that uses a qualifier macro its includer's earlier include defines (MVGpuBTree's
# memory_reclaimer.hpp: `HOST_DEVICE_QUALIFIER ~DEBR_host() {}`, the macro from macros.hpp, which
# gpu_btree.h includes first): parsed with what the files read before it define
# (kernelport/context_macros.py), it ports; without, the destructor stops its parse (KP222).
HEADERS = {
    "quals.hpp": "#pragma once\n#define HDQ __device__ __host__ __forceinline__\n",
    "top.h": "#pragma once\n#include <quals.hpp>\n#include \"mid.hpp\"\n",
    "mid.hpp": "#pragma once\n#include <reclaim.hpp>\n",
    "reclaim.hpp": """\
#pragma once
namespace smr {
struct Reclaimer {
  HDQ ~Reclaimer() {}
  HDQ Reclaimer() : epoch(0) {}
  unsigned epoch;
  void clear(unsigned* d) { cudaMemset(d, 0, sizeof(unsigned)); }
};
}
""",
    "use.cu": """\
#include <top.h>
__global__ void k(unsigned* p) { smr::Reclaimer r; p[threadIdx.x] += r.epoch; }
""",
}


def test_a_header_parses_with_the_macros_its_includers_read_first(tmp_path):
    from trust_support import kp_inproc
    for name, text in HEADERS.items():
        (tmp_path / name).write_text(text)
    rc, out, err = kp_inproc("translate", tmp_path / "use.cu", "--to", "hip", "-I", tmp_path, "-o", tmp_path / "out")
    assert rc == 0 and "KP222" not in err and "cannot parse" not in err, err
    port = (tmp_path / "out" / "reclaim.hip.h").read_text()
    assert "  HDQ ~Reclaimer() {}" in port and "hipMemset(d, 0, sizeof(unsigned))" in port
    hip_compiles(tmp_path, (tmp_path / "out" / "use.hip").read_text(), "use.hip", ["-I", str(tmp_path / "out"), "-I", str(tmp_path)])


def test_a_header_alone_keeps_its_own_parse(tmp_path):
    # the look-alike: with no unit of the run reaching it, a header gets no includer's macros (its own parse stands)
    from kernelport.project import Project
    for name, text in HEADERS.items():
        (tmp_path / name).write_text(text)
    from kernelport import context_macros
    p = Project()
    assert context_macros.around(p, tmp_path / "reclaim.hpp", {}) == {}


# A kernel launch from device code under a preprocessor test the file does not decide (an allocator's
# `#if GALLATIN_USING_DYNAMIC_PARALLELISM`): left as written with a KP210 warning, as an API name there
# is (kernelport/device_launches.py); an unguarded one stays a KP210 error.
LAUNCHES = """\
__global__ void child(int* p) { p[threadIdx.x] = 1; }
__device__ void clear(int* p) {
#if USE_DYNAMIC_PARALLELISM
  child<<<1, 32>>>(p);
#else
  p[0] = 2;
#endif
}
__global__ void k(int* p) { clear(p); }
"""


def test_a_device_launch_in_an_undecided_branch_is_a_warning(tmp_path):
    s = SourceFile.from_text(LAUNCHES, "l.cu")
    port, text = translate(s, "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert [(d.code, d.severity, d.location.line) for d in port.diagnostics if d.code == "KP210"] == \
        [("KP210", "warning", 4)]
    hip_compiles(tmp_path, text)
    bare = LAUNCHES.replace("#if USE_DYNAMIC_PARALLELISM\n", "").replace("#else\n  p[0] = 2;\n#endif\n", "")
    port, _ = translate(SourceFile.from_text(bare, "l.cu"), "hip")
    assert [(d.code, d.severity) for d in port.diagnostics] == [("KP210", "error")]


# A tile whose size is a qualified constant (MVGpuBTree's `cg::tiled_partition<btree::branching_factor>(block)`):
# its members are checked as a literal size's are (kernelport/member_uses.receiver_group), so a member ROCm 5.2's
# cooperative groups lack (`match_any`) is KP210 at its line rather than a port hipcc refuses; `shfl` stays.
TILES = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
namespace tree { constexpr int width = 16; }
__global__ void k(unsigned* out, unsigned* in) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<tree::width>(block);
  unsigned v = tile.shfl(in[threadIdx.x], 0);
  unsigned m = tile.ballot(v != 0);
  out[threadIdx.x] = v + m;
}
"""


def test_a_tile_of_a_qualified_size_has_its_members_checked():
    """(Re-pinned, stop 48: `tile.ballot` was KP210 at line 8; a tile's votes are now spelled as the wave's ballot
    over the tile's lanes, its size read as written: tests/test_hip_tile_votes.py.  A member still missing is KP210.)"""
    port, _ = translate(SourceFile.from_text(TILES, "t.cu"), "hip")
    assert port.ok and "(1ull << (tree::width))" in port.body, [d.format() for d in port.diagnostics]
    port, _ = translate(SourceFile.from_text(TILES.replace("tile.ballot(v != 0)", "tile.match_any(v)"), "t.cu"), "hip")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP210", 8)], \
        [d.format() for d in port.diagnostics]
    port, _ = translate(SourceFile.from_text(TILES.replace("  unsigned m = tile.ballot(v != 0);\n", "")
                                             .replace("v + m", "v"), "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
