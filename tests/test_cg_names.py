"""Cooperative-groups names a HIP port would keep that ROCm 5.2's header lacks (kernelport/cg_names.py, the
tables in kernelport/backends/hip.py and cuda.py): `block_tile_memory`, `this_thread_block(scratch)`, a static
tile over 32 threads, the cluster/partition/scan/memcpy_async names: KP210 at file:line:col, never a port
left as written (before: all three lines of the first case kept, rc 0; h/hip49's MVGpuBTree found it).
Look-alikes stay quiet: tiles of 32 and 16, this_thread_block(), a project's own block_tile_memory.
hipcc checks the table: each present name compiles, each CUDA name the table leaves out does not."""
from __future__ import annotations

import subprocess

import pytest

from kernelport import backends
from kernelport.source import SourceFile
from kernelport.translate import translate

SCRATCH = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  __shared__ cg::block_tile_memory<4, 128> scratch;
  auto block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<64>(block);
  out[threadIdx.x] = tile.thread_rank();
}
"""


def _errors(text: str, allow: bool = False):
    port, _ = translate(SourceFile.from_text(text, "t.cu"), "hip", allow_unported=allow)
    return port, [(d.code, d.location.line, d.location.column) for d in port.diagnostics]


def test_scratch_overload_and_wide_tile_are_located_kp210():
    port, found = _errors(SCRATCH)
    assert not port.ok
    assert found == [("KP210", 4, 14), ("KP210", 5, 16), ("KP210", 6, 15)], [d.format() for d in port.diagnostics]
    msgs = [d.message for d in port.diagnostics]
    assert "block_tile_memory" in msgs[0] and "this_thread_block" in msgs[1] and "64 threads" in msgs[2]


def test_using_namespace_and_full_qualification_are_read_too():
    code = """\
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void k(int *out) {
  block_tile_memory<4, 128> s;
  thread_block b = this_thread_block(s);
  auto t = tiled_partition<128>(b);
  cooperative_groups::experimental::block_tile_memory<1, 64> q;
  cluster_group c = this_cluster();
  out[threadIdx.x] = t.thread_rank();
}
"""
    port, found = _errors(code)
    assert sorted(found) == [("KP210", 4, 3), ("KP210", 5, 20), ("KP210", 6, 12), ("KP210", 7, 3),
                             ("KP210", 8, 3), ("KP210", 8, 21)], [d.format() for d in port.diagnostics]


def test_allow_unported_writes_the_port_with_warnings():
    port, found = _errors(SCRATCH, allow=True)
    assert port.ok and [c for c, *_ in found] == ["KP210"] * 3
    assert all(d.severity == "warning" for d in port.diagnostics)


LOOKALIKES = """\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
namespace mine { template <int A, int B> struct block_tile_memory { int x[A * B]; }; }
using namespace mine;
__global__ void k(int *out) {
  block_tile_memory<4, 8> own;
  mine::block_tile_memory<2, 2> other;
  auto block = cg::this_thread_block();
  auto w = cg::tiled_partition<32>(block);
  auto h = cg::tiled_partition<16>(block);
  cg::thread_group d = cg::tiled_partition(block, 64);
  cg::sync(block);
  out[threadIdx.x] = w.thread_rank() + h.thread_rank() + d.thread_rank() + own.x[0] + other.x[0];
}
"""


def test_a_host_call_named_like_a_device_only_name_is_not_the_library():
    code = """\
#include <sys/wait.h>
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void k(int *out) { out[threadIdx.x] = this_thread_block().thread_rank(); }
void reap() { int status; wait(&status); }
"""
    port, found = _errors(code)
    assert port.ok and not found, [d.format() for d in port.diagnostics]


def test_lookalikes_are_quiet():
    port, found = _errors(LOOKALIKES)
    assert port.ok and not found, [d.format() for d in port.diagnostics]


def test_a_projects_own_namespace_named_like_the_alias_is_not_the_library():
    code = LOOKALIKES.replace("namespace cg = cooperative_groups;", "namespace cg = cooperative_groups;\n"
                              "namespace lib { namespace cg { struct block_tile_memory {}; } }")
    code = code.replace("  block_tile_memory<4, 8> own;", "  block_tile_memory<4, 8> own; lib::cg::block_tile_memory z;")
    port, found = _errors(code)
    assert port.ok and not found, [d.format() for d in port.diagnostics]


def _hipcc(tmp_path, name: str, body: str, arch: str) -> subprocess.CompletedProcess:
    from conftest import require_tool
    tool = require_tool("hipcc")
    path = tmp_path / f"{name}.hip"
    path.write_text("#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n" + body)
    return subprocess.run([tool.path, "-fsyntax-only", "-ferror-limit=0", f"--offload-arch={arch}", str(path)], capture_output=True,
                          text=True, env={**__import__("os").environ, "HIP_PLATFORM": "amd"}, timeout=300)


def test_hipcc_has_each_name_of_the_table_and_none_it_leaves_out(tmp_path):
    hip, cuda = backends.get("hip"), backends.get("cuda")
    polyfilled = {"reduce", "plus", "less", "greater", "bit_and", "bit_or", "bit_xor",  # header_polyfills' reduce.h
                  "memcpy_async", "wait", "wait_prior"}  # ... and memcpy_async.h
    namespaces = {"internal", "impl"}

    def decl(n: str) -> str:
        return f"namespace kp_{n} = cooperative_groups::{n};" if n in namespaces | {"experimental", "details"} \
            else f"using cooperative_groups::{n};"
    present = sorted(hip.cg_names_present - polyfilled)
    r = _hipcc(tmp_path, "present", "\n".join(map(decl, present)) + "\n", "gfx90a")
    assert r.returncode == 0, r.stderr[-3000:]
    absent = sorted(cuda.cg_names_present - hip.cg_names_present)
    assert "block_tile_memory" in absent and absent
    r = _hipcc(tmp_path, "absent", "\n".join(map(decl, absent)) + "\n", "gfx90a")
    assert r.returncode != 0
    lines = {n: i + 3 for i, n in enumerate(absent)}  # after the two includes: an error at each name's line
    assert [n for n in absent if f"absent.hip:{lines[n]}:" not in r.stderr] == [], r.stderr[-3000:]


@pytest.mark.parametrize("body, ok", [
    ("__global__ void k(int *o) { auto b = cooperative_groups::this_thread_block(); "
     "o[0] = cooperative_groups::tiled_partition<32>(b).thread_rank(); }", True),
    ("__global__ void k(int *o) { auto b = cooperative_groups::this_thread_block(); "
     "o[0] = cooperative_groups::tiled_partition<64>(b).thread_rank(); }", False),
    ("__global__ void k(int *o) { int s; auto b = cooperative_groups::this_thread_block(s); o[0] = b.size(); }",
     False)])
def test_hipcc_on_a_wave32_arch_takes_tiles_up_to_the_table_bound_and_no_scratch_overload(tmp_path, body, ok):
    r = _hipcc(tmp_path, "overload", body + "\n", "gfx1030")
    assert (r.returncode == 0) == ok, r.stderr[-3000:]
