"""A shuffle from one warp-uniform lane gives every lane the same value (kernelport/lint/lanebroadcasts.py):
a condition on it is warp-uniform, so a full-mask operation under it is no WS012 (heldout86's streamlz: 29 false
WS012 under cursors re-broadcast from lane 0 or from a ballot's first lane).  Each look-alike that reads a
different lane per lane, a segment narrower than the warp, or a mask that may leave the source lane out, keeps
WS012.  A full-mask warp reduction is the warp's one value too (a partial one is not).  A barrier under the
warp-uniform condition keeps SY001 (uniform within a warp is not across the block)."""
from __future__ import annotations

from pathlib import Path

import pytest

from kernelport.lint import engine

KERNEL = """\
__global__ void k(const int* in, int* out, int n) {{
    const int lane = threadIdx.x & 31;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned hit = __ballot_sync(0xffffffffu, v > 0);
    int first = __ffs(hit) - 1;
    int cur = {source};
    while (cur < n) {{
        v += __shfl_xor_sync(0xffffffffu, v, 1);
        cur += 4;
        cur = {source};
    }}
    out[threadIdx.x] = v + lane;
}}
"""
SHUFFLE_LINE = 8

UNIFORM = {
    "lane 0": "__shfl_sync(0xffffffffu, v, 0)",
    "a ballot's first lane": "__shfl_sync(0xffffffffu, v, first)",
    "the kernel argument's lane": "__shfl_sync(0xffffffffu, v, n % 32)",
    "warpSize width": "__shfl_sync(0xffffffffu, v, 0, warpSize)",
    "legacy mask-less form": "__shfl(v, 0)",
    "a full-mask warp reduction": "__reduce_add_sync(0xffffffffu, v)",
}
DIVERGENT = {
    "each lane's own lane": "__shfl_sync(0xffffffffu, v, lane)",
    "a shift": "__shfl_down_sync(0xffffffffu, v, 1)",
    "16-lane segments": "__shfl_sync(0xffffffffu, v, 0, 16)",
    "a partial mask": "__shfl_sync(0x0000ffffu, v, 0)",
    "the value itself": "v",
    "a partial reduction": "__reduce_add_sync(0x0000ffffu, v)",
}


def _findings(tmp_path: Path, text: str) -> set[tuple[int, str]]:
    p = tmp_path / "k.cu"
    p.write_text(text)
    return {(f.line, f.code) for r in engine.lint_paths([p], jobs=1) for f in r.findings}


@pytest.mark.parametrize("source", UNIFORM.values(), ids=UNIFORM.keys())
def test_broadcast_cursor_is_warp_uniform(tmp_path, source):
    assert (SHUFFLE_LINE, "WS012") not in _findings(tmp_path, KERNEL.format(source=source))


@pytest.mark.parametrize("source", DIVERGENT.values(), ids=DIVERGENT.keys())
def test_per_lane_cursor_keeps_ws012(tmp_path, source):
    assert (SHUFFLE_LINE, "WS012") in _findings(tmp_path, KERNEL.format(source=source))


BARRIER = """\
__global__ void k(const int* in, int* out, int n) {
    __shared__ int s[256];
    int v = in[threadIdx.x];
    int cur = __shfl_sync(0xffffffffu, v, 0);
    if (cur < n) {
        s[threadIdx.x] = v;
        __syncthreads();
        out[threadIdx.x] = s[255 - threadIdx.x];
    }
}
"""


def test_warp_uniform_condition_keeps_sy001(tmp_path):
    assert (7, "SY001") in _findings(tmp_path, BARRIER)


CALLER_MASK = """\
__device__ int bcast(unsigned m, int v) { return __shfl_sync(m, v, 0); }
__global__ void k(const int* in, int* out, int n) {
    int v = in[threadIdx.x];
    int cur = bcast(0xffffu, v);
    if (cur < n) v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}
"""


def test_callers_mask_keeps_ws012(tmp_path):
    assert (5, "WS012") in _findings(tmp_path, CALLER_MASK)


def test_helper_broadcast_of_full_mask(tmp_path):
    text = CALLER_MASK.replace("__shfl_sync(m, v, 0)", "__shfl_sync(0xffffffffu, v, 0)")
    assert (5, "WS012") not in _findings(tmp_path, text)


TRANSLATED = """\
#define SYNC __syncthreads()
__global__ void k(int* out, int n) {
    int v = out[threadIdx.x];
    int b = __shfl_sync(0xffffffff, v, 0);
    unsigned mask = 0xffffu;
    if (b > n) v += __reduce_add_sync(0xffffffff, v);
    if (threadIdx.x % warpSize < 16) v += __shfl_up_sync(mask, v, 1, 16);
    SYNC;
    out[threadIdx.x] = v + b;
}
"""


@pytest.mark.parametrize("backend", ["hip", "metal"])
def test_translate_group_mask_checks_read_broadcasts(tmp_path, backend):
    """translate's group-mask checks (groupmasks/guardmasks) run this analysis on a context of their own, with no
    lint Context's `concept_of_call` and no unit: a broadcast, a reduction and a barrier macro there are no
    internal error (shfl_scan.cu's port was one, found by bench/port_hashes.py)."""
    import subprocess
    import sys
    p = tmp_path / "k.cu"
    p.write_text(TRANSLATED)
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "translate", str(p), "--to", backend, "--stdout"],
                       capture_output=True, text=True)
    assert "internal error" not in r.stderr and r.returncode in (0, 1), r.stderr
