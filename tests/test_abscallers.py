"""An index shuffle of a header's helper, judged by the calls the run shows (kernelport/abscallers.py).

On main a helper no caller in its own file shows kept the wave's width (`__shfl(a, x + 5)`) whatever its
callers: heldout30 atpqc-cuda's form, a permutation in a header that a .cu's kernel calls with
`threadIdx.x % 5`, failed verify numerically for HIP and portable at wave 64 (threads 32-63 read the
first warp's lanes).  Now the run's calls decide: callers with no other warp operation -> CUDA's width
(32); callers whose warp the port makes the wave -> the wave; callers that disagree, or one with warp
operations of its own -> KP219 at the shuffle naming the calls; no call in the run -> the helper is
declared unavailable with a KP219 warning (a call does not compile).
"""
from __future__ import annotations

from pathlib import Path

from trust_support import kp_inproc, verify_checks

PERM = """\
#pragma once
#include <cstdint>
__device__ inline uint64_t permute(uint64_t a, unsigned x) {
    uint64_t c = __shfl_sync(0xffffffffu, a, x + 0) ^ __shfl_sync(0xffffffffu, a, x + 5) ^
                 __shfl_sync(0xffffffffu, a, x + 10);
    return a ^ c;
}
"""

ROWS = """\
// @kp kernel     rows
// @kp grid       4
// @kp block      128
// @kp arg        in   in   uint64_t[512]  integers(0, 1000000)
// @kp arg        out  out  uint64_t[512]
#include "perm.cuh"
__global__ void rows(const uint64_t* in, uint64_t* out) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = permute(in[t], threadIdx.x % 5);
}
"""

# A caller whose lanes are the wave's as written: its warp is the wave, the helper's lane x the wave's.
WAVE = """\
#include "perm.cuh"
__global__ void wave(const uint64_t* in, uint64_t* out) {
    unsigned lane = threadIdx.x % warpSize;
    out[threadIdx.x] = permute(in[threadIdx.x], lane % 5);
}
"""

# A caller that broadcasts a warp reduction's result: the reduction (its own helper) is widened to the
# wave, the caller's lanes are not: the value it passes may be the wave's, its lanes the warp's.
REDUCING = """\
#include "perm.cuh"
__device__ uint64_t warp_sum(uint64_t v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__global__ void reducing(const uint64_t* in, uint64_t* out) {
    uint64_t v = warp_sum(in[threadIdx.x]);
    out[threadIdx.x] = permute(v, threadIdx.x % 5);
}
"""


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    d = tmp_path / "proj"
    d.mkdir()
    (d / "perm.cuh").write_text(PERM)
    for name, text in files.items():
        (d / name).write_text(text)
    return d


def test_callers_with_no_warp_operation_give_cudas_width(tmp_path):
    d = _project(tmp_path, {"k.cu": ROWS})
    rc, _, err = kp_inproc("translate", d / "k.cu", "--to", "hip,portable")
    assert rc == 0, err
    for k in ("0", "5", "10"):
        assert f"__shfl(a, x + {k}, 32)" in (d / "perm.hip.h").read_text()
    rc, checks, text = verify_checks(d / "k.cu", compiles=False)
    got = {(c["backend"], c["wave"]): c["status"] for c in checks if c["kind"] == "numeric"}
    assert {got.get((b, w)) for b in ("hip", "portable") for w in (32, 64)} == {"pass"}, text


def test_callers_whose_warp_is_the_wave_keep_the_wave(tmp_path):
    d = _project(tmp_path, {"w.cu": WAVE})
    rc, _, err = kp_inproc("translate", d / "w.cu", "--to", "hip")
    assert rc == 0, err
    assert "__shfl(a, x + 5)" in (d / "perm.hip.h").read_text()


def test_callers_that_disagree_are_refused_naming_the_calls(tmp_path):
    d = _project(tmp_path, {"k.cu": ROWS, "w.cu": WAVE})
    rc, _, err = kp_inproc("translate", d / "k.cu", d / "w.cu", "--to", "hip", "-o", d / "out")
    assert rc == 1 and "perm.cuh:4:18: error: KP219" in err, err
    assert "k.cu:9 with no other warp operation" in err and "w.cu:4 whose warp the port makes the wave" in err, err


def test_a_caller_with_warp_operations_of_its_own_is_refused(tmp_path):
    d = _project(tmp_path, {"r.cu": REDUCING})
    rc, _, err = kp_inproc("translate", d / "r.cu", "--to", "hip", "-o", d / "out")
    assert rc == 1 and "perm.cuh:4:18: error: KP219" in err and "r.cu:8 with warp operations of their own" in err, err


def test_a_helper_no_call_of_the_run_reaches_is_declared_unavailable(tmp_path):
    d = _project(tmp_path, {"z.cu": '#include "perm.cuh"\n__global__ void z(int* x) { x[threadIdx.x] = 0; }\n'})
    rc, _, err = kp_inproc("translate", d / "z.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0 and "perm.cuh:4:18: warning: KP219" in err and "no call of 'permute'" in err, err
    assert "__attribute__((unavailable(" in (d / "out" / "perm.hip.h").read_text()
