"""A wave-width hazard the port would keep (KP225) inside a header's helper that no code of the run
calls (heldout21's sgm/util.h: `blockReduceMin` mixes `warpSize` with a hard-coded 32, WS016, and
no file of sgm calls it; every file including util.h was refused): the HIP port declares the helper
unavailable, as for KP201/KP203 in such helpers (kernelport/kept_hazards.py declare_unreached), with
a located KP225 warning; a call the run shows keeps the KP225 error, and a call compiled later is a
hipcc error naming the hazard."""
from __future__ import annotations

from pathlib import Path

from conftest import require_tool
from trust_support import kp_inproc

HEADER = """\
#ifndef RED_CUH
#define RED_CUH
#define WARP_SIZE 32
__inline__ __device__ int warpMin(int v) {
    for (int d = 16; d > 0; d /= 2) v = min(v, __shfl_xor_sync(0xffffffff, v, d));
    return v;
}
__inline__ __device__ int blockMin(int v) {
    static __shared__ int part[WARP_SIZE];
    const int lane = threadIdx.x % WARP_SIZE;
    const int wid = threadIdx.x / WARP_SIZE;
    v = warpMin(v);
    if (lane == 0) part[wid] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / warpSize) ? part[lane] : 0x7fffffff;
    if (wid == 0) v = warpMin(v);
    return v;
}
__device__ inline int twice(int x) { return 2 * x; }
#endif
"""


def _project(tmp_path: Path, **files: str) -> Path:
    d = tmp_path / "proj"
    d.mkdir()
    (d / "red.cuh").write_text(HEADER)
    for name, text in files.items():
        (d / name).write_text(text)
    return d


A = '#include "red.cuh"\n__global__ void k(int* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }\n'
B = '#include "red.cuh"\n__global__ void q(int* x) { x[0] = blockMin(x[threadIdx.x]); }\n'


def test_an_uncalled_helper_with_a_kept_hazard_is_declared_unavailable(tmp_path):
    d = _project(tmp_path, **{"a.cu": A})
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0, err
    assert "red.cuh:9:32: warning: KP225 WS016" in err and "warning: KP225 WS016" in err and "no code of this run calls 'blockMin'" in err, err
    port = (d / "out" / "red.hip.h").read_text()
    assert 'int blockMin(int v) __attribute__((unavailable("KP225 WS016' in port, port
    assert "__device__ inline int twice(int x) { return 2 * x; }" in port  # the rest as it was
    require_tool("hipcc")
    from kernelport import toolchains
    r = toolchains.compile_hip(d / "out" / "a.hip", ["gfx90a", "gfx1030"])
    assert r.ok, r.output[-3000:]
    late = d / "out" / "late.hip"  # a caller compiled later, outside the run
    late.write_text('#include "red.hip.h"\n__global__ void q(int* x) { x[0] = blockMin(x[1]); }\n')
    r = toolchains.compile_hip(late, ["gfx90a"])
    assert not r.ok and "'blockMin' is unavailable: KP225" in r.output, r.output[-3000:]


def test_a_call_the_run_shows_keeps_the_kp225_error(tmp_path):
    d = _project(tmp_path, **{"a.cu": A, "b.cu": B})
    rc, out, err = kp_inproc("translate", d / "a.cu", d / "b.cu", "--to", "hip", "-o", d / "out")
    assert rc == 1 and "error: KP225 WS016" in err and "unavailable" not in err, err
    assert not (d / "out").exists()
