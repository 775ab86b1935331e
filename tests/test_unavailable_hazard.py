"""(Stop 42: the helper below is now ported, its finding fixed by the port; see the tests.) A wave-width hazard the port would keep (KP225) inside a header's helper that no code of the run
calls (heldout21's sgm/util.h: `blockReduceMin` mixes `warpSize` with a hard-coded 32, WS016, and
no file of sgm calls it; every file including util.h was refused): the HIP port declares the helper
unavailable, as for KP201/KP203 in such helpers (kernelport/kept_hazards.py declare_unreached), with
a located KP225 warning; a call the run shows keeps the KP225 error, and a call compiled later is a
hipcc error naming the hazard."""
from __future__ import annotations

from pathlib import Path

from conftest import assert_hip_file_compiles, require_tool
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


def test_an_uncalled_helper_whose_hazard_the_port_fixes_is_ported(tmp_path):
    # Since h/hiprest42 (stop 42) the finding at `part[WARP_SIZE]` is one the port fixes: it makes
    # WARP_SIZE the wave, so lane, warp index, slots and the `/ warpSize` count agree at 32 and 64 (the
    # KP225 this test pinned was kept for a hazard the port no longer has).  The helper is ported, not
    # declared unavailable, and compiles for both widths.
    d = _project(tmp_path, **{"a.cu": A})
    rc, out, err = kp_inproc("translate", d / "a.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0 and "KP225" not in err, err
    port = (d / "out" / "red.hip.h").read_text()
    assert "#define WARP_SIZE KP_WAVE_SIZE" in port and "unavailable" not in port, port
    assert "__device__ inline int twice(int x) { return 2 * x; }" in port  # the rest as it was
    require_tool("hipcc")
    assert_hip_file_compiles(d / "out" / "a.hip", ["gfx90a", "gfx1030"])


def test_a_call_the_run_shows_is_ported_with_the_wave(tmp_path):
    d = _project(tmp_path, **{"a.cu": A, "b.cu": B})
    rc, out, err = kp_inproc("translate", d / "a.cu", d / "b.cu", "--to", "hip", "-o", d / "out")
    assert rc == 0 and "KP225" not in err, err
    assert "#define WARP_SIZE KP_WAVE_SIZE" in (d / "out" / "red.hip.h").read_text()
