"""WS033 also for a per-warp shared array indexed by the thread's 32-lane warp (`part[threadIdx.x / 32]`,
`>> 5`, or a local copied from it) of a fixed count (a file's `#define WARPS 4` read as 4), under a block sized
from the device's warp size (`dim3 block(WARPS * prop.warpSize)`); translate keeps it as KP225 at the launch
(kernelport/kept_hazards.py EXTENTS: rewriting the kernel's warp operations does not fix its arrays).

Review of stop 64's merge of h/heldout94 (a kernel keeping 32-lane groups beside the device's `warpSize`): on
main the HIP port kept the kernel's 32-lane groups and `warp = threadIdx.x / 32`, and the host's
`prop.warpSize` (64 on CDNA): the block is 256 threads there, and the emulator at wave 64 faults with
"out-of-bounds write of shared memory slots[4]" from thread 128; lint was silent (the index is the warp, not
the thread), and the launch's finding would have been read as fixed by the kernel's rewritten shuffles."""
from __future__ import annotations

from port_support import ported, refusal

from kernelport.lint.engine import lint_text

KERNEL = """\
#define WARPS 4
__global__ void rows_kernel(const float* x, float* out) {
    __shared__ float slots[SLOTS];
    int warp = WARP;
    int lane = threadIdx.x % 32;
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if (lane == 0) slots[warp] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int w = 0; w < WARPS; ++w) s += slots[w];
        out[blockIdx.x] = s;
    }
}
void launch(const float* x, float* out, int blocks) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    dim3 block(WARPS * prop.warpSize);
    rows_kernel<<<blocks, block>>>(x, out);
}
"""


def _code(slots: str = "WARPS", warp: str = "threadIdx.x / 32") -> str:
    return KERNEL.replace("SLOTS", slots).replace("WARP;", warp + ";")


def _ws033(code: str) -> list:
    return [f for f in lint_text(code, "k.cu", targets=["hip-cdna"]) if f.code == "WS033"]


def test_a_per_warp_array_under_a_block_from_the_devices_warp_size_is_reported():
    for warp in ("threadIdx.x / 32", "threadIdx.x >> 5"):
        found = _ws033(_code(warp=warp))
        assert len(found) == 1 and found[0].line == 20 and "slots[4]" in found[0].message and \
            "32-lane warp" in found[0].message, found


def test_the_hip_port_is_refused_at_the_launch():
    errors = refusal(_code(), dedent=False)
    assert [(e.code, e.line) for e in errors] == [("KP225", 20)] and "WS033" in errors[0].message, errors


def test_look_alikes_stay_silent_and_are_written():
    """An array for the largest block (8 warps of 32 in 4 waves of 64), a warp index of the device's warp size
    (`threadIdx.x / warpSize`: 4 slots on every wave) and a count of the thread (`threadIdx.x % 32`)."""
    for code in (_code(slots="2 * WARPS"), _code(warp="threadIdx.x / warpSize"), _code(warp="threadIdx.x % 4")):
        assert _ws033(code) == [], code
        assert not any(e.code == "KP225" for e in refusal(code, dedent=False)), code
    port, _ = ported(_code(slots="2 * WARPS"), dedent=False)
    assert "__shfl_down(v, o, 32)" in port.body and "WARPS * prop.warpSize" in port.body, port.body
