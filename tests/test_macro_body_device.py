"""Macro bodies that are device code (kernelport/macro_bodies.py).

A macro body that names a warp operation is translated as a small function of its own. Two cases a
computer-vision renderer's coalesced atomics showed (`#if __CUDA_ARCH__ >= 700` / `#define
CA_SET_GROUP_MASK ... __match_any_sync ... lane = tidx & 31 ...` / `#else` / a plain-atomic fallback):

- a definition under a test no AMD pass takes (`#if __CUDA_ARCH__ >= 700`) is read by no AMD pass,
  so what its port cannot spell is no refusal and it is left as written, as for a function there (the
  `#else` definition is what hipcc compiles); the same definition outside such a test is still refused
  (KP202, located).  Since stop 43 HIP ports the renderer's `__match_any_sync` (tests/test_match_sync.py):
  its macro is ported, guarded or not, and these two cases are pinned with `__nanosleep` (sm_70, no HIP
  spelling) on HIP and with the match on Metal, which has no spelling of it;
- a body that names what only device code reads (a thread index, a vote, a shuffle) is device code:
  its wave-width site is the device's width (HIP `warpSize`, Metal `simd_width`), where before it was
  the host's run-time query (HIP's host-only `kp_device_warp_size()`: hipcc "no matching function"
  in the kernel that expands it; Metal: an internal error, LookupError host_wave_size).
"""
from __future__ import annotations

import os
import subprocess

from conftest import hip_compiles, require_tool
from kernelport.macro_bodies import device_body
from kernelport.source import SourceFile
from kernelport.translate import translate

MATCH_GROUP = """#include <cuda_runtime.h>
{open}
#define SET_GROUP(g) \\
    int _tm = __match_any_sync(0xffffffffu, (g)); \\
    bool _leader = (__ffs(_tm) - 1) == (threadIdx.x & 31);
#define ADD(p, v) do {{ if (_leader) atomicAdd((p), (v)); }} while (0)
{other}
__global__ void k(float* out, const int* key, const float* v) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    SET_GROUP(key[i]);
    ADD(out + key[i], v[i]);
}}
"""
FALLBACK = "#else\n#define SET_GROUP(g)\n#define ADD(p, v) atomicAdd((p), (v))\n#endif"

# a spin-wait's back-off: sm_70's __nanosleep, which HIP lacks (KP202), with a no-op for other builds
BACKOFF = """#include <cuda_runtime.h>
{open}
#define BACKOFF(ns) \\
    do {{ if (threadIdx.x & 31) __nanosleep(ns); }} while (0)
{other}
__global__ void k(int* flag) {{
    while (atomicAdd(flag, 0) == 0) BACKOFF(64);
}}
"""
NO_BACKOFF = "#else\n#define BACKOFF(ns) do {} while (0)\n#endif"

VOTE = """#include <cuda_runtime.h>
#define VOTE(p) int tidx = threadIdx.x; int lane = tidx & 31; \\
    unsigned m = __ballot_sync(0xffffffffu, (p)); bool lead = (__ffs(m) - 1) == lane;
__global__ void k(float* out) {
    VOTE(out[threadIdx.x] > 0);
    out[threadIdx.x] = lead;
}
"""


def _port(text: str, backend: str):
    return translate(SourceFile.from_text(text, "t.cu"), backend)


def _errors(port):
    return [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"]


def test_a_macro_defined_only_for_nvidia_architectures_is_not_ported():
    """Re-pinned (stop 43, h/match43): the guarded macro was the renderer's `__match_any_sync` one, which
    HIP now ports (test below); the construct no AMD pass may refuse is `__nanosleep`, which HIP lacks."""
    port, whole = _port(BACKOFF.format(open="#if __CUDA_ARCH__ >= 700", other=NO_BACKOFF), "hip")
    assert port.ok, port.diagnostics
    assert "do { if (threadIdx.x & 31) __nanosleep(ns); } while (0)" in whole  # left as written: no AMD pass reads it
    assert "#define BACKOFF(ns) do {} while (0)" in whole


def test_the_same_macro_with_no_guard_is_still_refused_where_it_is():
    """Re-pinned (stop 43, h/match43): HIP ports the match macro now; the refusal is pinned where there is
    no spelling: `__nanosleep` on HIP, the match on Metal, each at the body's line."""
    port, _ = _port(BACKOFF.format(open="", other=""), "hip")
    assert not port.ok and ("KP202", 4) in _errors(port), port.diagnostics
    port, _ = _port(MATCH_GROUP.format(open="", other=""), "metal")
    assert not port.ok and ("KP202", 4) in _errors(port), port.diagnostics


def test_the_renderers_match_macro_is_ported_on_hip_guarded_or_not(tmp_path):
    """The group's mask is the wave's (64 bits at wave 64, as a ballot's): the macro's variable widens, its
    `__ffs` reads 64 bits and its lane is the wave's; the guarded copy (which hipcc never compiles) is
    ported alike, and the `#else` fallback is kept."""
    port, whole = _port(MATCH_GROUP.format(open="", other=""), "hip")
    assert port.ok, port.diagnostics
    assert "unsigned long long _tm = kp_match_any((g), warpSize);" in whole
    assert "(__ffsll(_tm) - 1) == (threadIdx.x & (warpSize - 1))" in whole
    hip_compiles(tmp_path, whole)  # gfx90a (wave 64) and gfx1030 (wave 32)
    guarded, text = _port(MATCH_GROUP.format(open="#if __CUDA_ARCH__ >= 700", other=FALLBACK), "hip")
    assert guarded.ok and "kp_match_any((g), warpSize)" in text, guarded.diagnostics
    assert "#define ADD(p, v) atomicAdd((p), (v))" in text


def test_a_device_macro_bodys_wave_width_is_the_devices_on_hip(tmp_path):
    port, whole = _port(VOTE, "hip")
    assert port.ok, port.diagnostics
    body = whole[whole.index("#define VOTE"):whole.index("__global__")]
    assert "tidx & (warpSize - 1)" in body and "kp_device_warp_size" not in body, body
    hipcc = require_tool("hipcc")
    f = tmp_path / "t.hip"
    f.write_text(whole)
    for arch in ("gfx90a", "gfx1030"):
        r = subprocess.run([hipcc.path, "-x", "hip", "-std=c++17", f"--offload-arch={arch}", "--cuda-device-only",
                            "-c", str(f), "-o", str(tmp_path / f"t-{arch}.o")], capture_output=True, text=True,
                           env={**os.environ, "HIP_PLATFORM": "amd"})
        assert r.returncode == 0, r.stderr[-2000:]


def test_a_device_macro_body_ports_to_metal_without_an_internal_error():
    port, whole = _port(VOTE, "metal")
    assert port.ok, port.diagnostics
    assert "tidx & (simd_width - 1)" in whole and "simd_ballot" in whole, whole


def test_which_bodies_are_device_code():
    assert device_body({"threadIdx", "x"}) and device_body({"__shfl_down_sync"}) and device_body({"__syncthreads"})
    assert not device_body({"cudaMalloc", "cudaMemcpy", "size_t"})  # a host API wrapper stays host code
