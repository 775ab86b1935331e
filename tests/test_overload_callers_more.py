"""The overload filter of the caller search (stop 44's fnscopes.may_call through includers.Elsewhere.calls:
the count of arguments and of template arguments a call spells) where a header's helper is judged by the
run's calls: kernelport/unavailable.py (a helper no call of the run runs is declared unavailable) and
kernelport/abscallers.py (an index shuffle's width by its callers), and lint's instances and callersplits.
Each judged the calls of every function of the name: two overloads of one name were mixed up."""
from __future__ import annotations

from pathlib import Path

from trust_support import kp_inproc

BARS = """\
#pragma once
__device__ __forceinline__ void BAR(int count)
{
    asm volatile("bar.sync 1, %0;" : : "r"(count));
}
__device__ __forceinline__ void BAR(int count, int n) { if (count > n) __syncthreads(); }
"""


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    d = tmp_path / "proj"
    d.mkdir()
    for name, text in files.items():
        (d / name).write_text(text)
    return d


def test_a_named_barrier_overload_no_call_runs_is_declared_unavailable(tmp_path):
    """`BAR(1, 2)` runs the two-parameter overload only: the one-parameter `bar.sync 1` overload has no call in the
    run, so it is declared unavailable (a warning) and the file is written; a call of it keeps the KP201 error."""
    caller = '#include "bars.cuh"\n__global__ void k(int* x) {\n    BAR(x[0], 2);\n    x[1] = 3;\n}\n'
    d = _project(tmp_path, {"bars.cuh": BARS, "a.cu": caller})
    rc, _, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "bars.cuh:4:5: warning: KP201" in err and "no code of this run calls 'BAR'" in err, err
    (d / "a.cu").write_text(caller.replace("BAR(x[0], 2);", "BAR(x[0]);"))
    rc, _, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out2")
    assert rc != 0 and "bars.cuh:4:5: error: KP201" in err, err


PERMS = """\
#pragma once
#include <cstdint>
__device__ inline uint64_t permute(uint64_t a, unsigned x) {
    return a ^ __shfl_sync(0xffffffffu, a, x + 5);
}
__device__ inline uint64_t permute(uint64_t a, unsigned x, unsigned s) {
    return a ^ __shfl_sync(0xffffffffu, a, x + s);
}
"""
ROWS = """\
#include "perm.cuh"
__global__ void rows(const uint64_t* in, uint64_t* out) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = permute(in[t], threadIdx.x % 5);
}
__global__ void wave(const uint64_t* in, uint64_t* out) {
    unsigned lane = threadIdx.x % warpSize;
    out[threadIdx.x] = permute(in[threadIdx.x], lane % 5, 3);
}
"""


def test_each_overload_of_an_index_shuffle_helper_is_judged_by_its_own_calls(tmp_path):
    """The two-parameter `permute` is called only with CUDA's lanes (`threadIdx.x % 5`): width 32; the three-
    parameter one only from a kernel whose lanes are the wave's: the wave.  Judged by the name, both saw both
    calls, which disagree: KP219 at both shuffles."""
    d = _project(tmp_path, {"perm.cuh": PERMS, "k.cu": ROWS})
    rc, _, err = kp_inproc("translate", d / "k.cu", "--to", "hip")
    assert rc == 0, err
    port = (d / "perm.hip.h").read_text()
    assert "__shfl(a, x + 5, 32)" in port and "__shfl(a, x + s)" in port, port


def test_a_template_s_instances_are_its_own_overload_s_calls(tmp_path):
    """lint/instances.py: `block_max<4>(m, w)` is the two-parameter template's only instance (its ladder start
    stays in 32 lanes); `block_max<64>(m, w, 1)` runs the three-parameter overload, which has no ladder.  By the
    name, the 64 was counted as the first's instance too: WS002 at its `row_max<num_warps>`."""
    from test_lint_callersplits import TEMPLATED, _caller, _lint
    header = TEMPLATED.replace("WIDTH", "32") + ("template <int num_warps>\n__device__ __forceinline__ float "
                                                 "block_max(const float m, const int warpid, int k) { return m + k; }\n")
    caller = _caller().replace("m = block_max<4>(m, warp_id);", "m = block_max<4>(m, warp_id) + block_max<64>(m, warp_id, 1);")
    got = _lint(tmp_path, {"red.cuh": header, "k.cu": caller})
    assert not any(s != "info" for k, v in got.items() if k[0] == "red.cuh" for c, s in v if c != "WS007"), got
    got = _lint(tmp_path, {"red.cuh": header, "k.cu": caller.replace("block_max<4>(m, warp_id)", "block_max<64>(m, warp_id)")})
    assert ("WS002", "error") in got[("red.cuh", 13)], got


def test_a_helper_s_warp_index_is_judged_at_its_own_overload_s_calls(tmp_path):
    """lint/callersplits.py: every call of the two-parameter `block_max` passes `threadIdx.x / 32` (its rows hold:
    info); `block_max<4>(m, blockIdx.x, 1)` runs a three-parameter overload, which has no rows.  By the name, that
    call's block index was read as the first's warp index: WS002 error."""
    from test_lint_callersplits import HELPER, _caller, _lint
    header = HELPER + ("template <int num_warps>\n__device__ __forceinline__ float block_max(const float m, "
                       "const int warpid, int k) { return m + k; }\n")
    caller = _caller().replace("m = block_max<4>(m, warp_id);", "m = block_max<4>(m, warp_id) + block_max<4>(m, blockIdx.x, 1);")
    got = _lint(tmp_path, {"red.cuh": header, "k.cu": caller})
    assert got[("red.cuh", 12)] == {("WS002", "info")}, got
    got = _lint(tmp_path, {"red.cuh": header, "k.cu": caller.replace("block_max<4>(m, warp_id)", "block_max<4>(m, blockIdx.x)")})
    assert ("WS002", "error") in got[("red.cuh", 12)], got
