"""Every warp primitive of the emulator against an independent per-lane model (tests/warp_cases.py):
shuffles idx/up/down/xor with and without width, out-of-range source lanes, partially active
warps and a short last warp; ballot/any/all/activemask under partial masks; at wave 32 and 64;
under the three schedules; from CUDA source, a HIP port and a Metal port text (hand-written, and
translate's own Metal for explicit widths, which Metal lacks).

The same cases, as CUDA, were run on an NVIDIA H200 (bench/warp_primitives_device.py) to confirm
the model; where the CUDA Programming Guide leaves a result undefined (reading an inactive lane)
no value is checked, only that the emulator says so.
"""
from __future__ import annotations

import numpy as np
import pytest

import warp_cases as C
from kernelport.emulator import EmulatorError, run_kernel

SCHEDULES = ("block", "warp", "thread")
BACKENDS = ("cuda", "hip", "metal")
UNDEFINED_READ = "shuffle reads lanes that are not active"


def _run(text, case, W, backend, partial, schedule, step, ranges=None):
    """ranges: the backend whose parameter ranges the text was written for (a translated port
    keeps its source's)."""
    ranges = ranges or backend
    x, act, src, B, G, nout = C.inputs(case, W, ranges, partial)
    r = run_kernel(text, "k", args=dict(x=x, act=act, src=src, out=np.zeros(nout, np.uint64), n=B * G),
                   grid=(G,), block=(B,), wave=W, backend=backend, schedule=schedule)
    want, defined = C.model(case, W, ranges, x, act, src, B, G, step)
    return r, want, defined


def _check(r, want, defined, label):
    got = r.outputs["out"]
    bad = np.flatnonzero((got != want) & defined)
    assert bad.size == 0, (f"{label}: {bad.size} lanes differ from the model; first at out[{bad[0]}]: "
                           f"got {got[bad[0]]:#x}, want {want[bad[0]]:#x}")
    # the emulator warns exactly when some lane read an inactive lane (undefined on the GPU)
    warned = any(UNDEFINED_READ in d.message for d in r.diagnostics)
    assert warned == bool((~defined).any()), f"{label}: undefined-read warning {warned}"


def _step(schedule, case, W):
    # the thread schedule runs every lane separately: a sample of the parameters keeps it quick
    if schedule != "thread":
        return 1
    lo, P = C.param_range(case, W, "cuda")
    return max(1, P // (6 if len(C.widths(case, W)) > 1 else 12)) | 1


@pytest.mark.parametrize("partial", [False, True], ids=["full", "partial"])
@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", list(C.CASES))
def test_primitive_matches_model(case, backend, wave, schedule, partial):
    step = _step(schedule, case, wave)
    text, ranges = C.kernel_text(case, backend, wave, step=step), backend
    if text is None:
        if backend == "metal" and case not in C.METAL_UNDEFINED:
            text, ranges = _metal_port(case, wave, step), "cuda"  # an explicit width: translate's helpers
        else:
            return  # undefined on that backend (a per-lane delta on Metal): nothing to compare
    r, want, defined = _run(text, case, wave, backend, partial, schedule, step, ranges)
    _check(r, want, defined, f"{case} {backend} W={wave} {schedule} {'partial' if partial else 'full'}")


def _metal_port(case, W, step):
    from kernelport.source import SourceFile
    from kernelport.translate import translate

    port, text = translate(SourceFile.from_text(C.kernel_text(case, "cuda", W, step=step), "k.cu"), "metal")
    assert port.ok
    assert "kp_simd_shuffle" in text  # the width helper, not a plain simd_shuffle
    return text


def test_model_defines_the_documented_edge_cases():
    """Spot values of the model itself, straight from the Guide's sentences."""
    src = C._source_lane
    assert src("idx", 5, 40, 32, 32) == 8          # srcLane modulo width
    assert src("idx", 5, -1, 32, 32) == 31
    assert src("idx", 21, 3, 16, 32) == 19         # within the caller's 16-lane segment
    assert src("up", 2, 3, 32, 32) == 2            # the lower delta lanes are unchanged
    assert src("up", 18, 3, 16, 32) == 18          # ... of each width segment
    assert src("down", 30, 3, 32, 32) == 30        # the upper delta lanes are unchanged
    assert src("down", 12, 4, 16, 32) == 12 and src("down", 11, 4, 16, 32) == 15
    assert src("down", 7, 32, 32, 32) == 7         # delta == width: all unchanged
    assert src("xor", 20, 16, 16, 32) == 4         # an earlier group may be read
    assert src("xor", 4, 16, 16, 32) == 4          # a later group: the caller's own value
    assert src("xor", 9, 32, 32, 32) == 9


# ---------------------------------------------------------------------------------------------
# Partial masks spelled as literals (CUDA), and the emulator's errors for masks the Guide forbids
# ---------------------------------------------------------------------------------------------
HALF = C.HALF_WARP


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("wave", [32, 64])
def test_half_warp_votes_with_literal_mask(schedule, wave):
    """`if (lane < 16) __all_sync(0xffff, p)`: the Guide's all/any/ballot range over the threads
    in the mask; the 16 lanes that did not take the branch count for nothing."""
    src = HALF.replace("LANES", "16").replace("MASK", "0xffffu")
    x = np.ones(wave, np.int32)                      # every active lane votes yes ...
    x[16:] = -1                                      # ... every inactive lane would vote no
    r = run_kernel(src, "k", args=dict(x=x, out=np.zeros(4 * wave, np.int32)), grid=(1,), block=(wave,),
                   wave=wave, schedule=schedule)
    o = r.outputs["out"].reshape(4, wave)
    assert list(o[0, :16]) == [1] * 16, "a 16-lane __all_sync must ignore the lanes outside the mask"
    assert list(o[1, :16]) == [1] * 16
    assert list(o[2, :16]) == [16] * 16
    assert list(o[3, :15]) == list(x[1:16])  # lane 15 reads inactive lane 16: undefined, unchecked
    assert list(o[0, 16:]) == [-1] * (wave - 16)
    assert any(UNDEFINED_READ in d.message for d in r.diagnostics)  # lane 15 read inactive lane 16
    x[3] = 0
    x[20 % wave] = 5
    r = run_kernel(src, "k", args=dict(x=x, out=np.zeros(4 * wave, np.int32)), grid=(1,), block=(wave,),
                   wave=wave, schedule=schedule)
    o = r.outputs["out"].reshape(4, wave)
    assert list(o[0, :16]) == [0] * 16 and list(o[1, :16]) == [1] * 16 and list(o[2, :16]) == [15] * 16
    x[:16] = 0
    r = run_kernel(src, "k", args=dict(x=x, out=np.zeros(4 * wave, np.int32)), grid=(1,), block=(wave,),
                   wave=wave, schedule=schedule)
    o = r.outputs["out"].reshape(4, wave)   # only an inactive lane (20) says yes: any is 0
    assert list(o[1, :16]) == [0] * 16 and list(o[2, :16]) == [0] * 16


def test_mask_naming_inactive_lanes_is_an_error():
    src = HALF.replace("LANES", "16").replace("MASK", "0xffffffffu")
    with pytest.raises(EmulatorError, match=r"names inactive lanes 16-31"):
        run_kernel(src, "k", args=dict(x=np.ones(32, np.int32), out=np.zeros(128, np.int32)), grid=(1,),
                   block=(32,), wave=32)


@pytest.mark.parametrize("mask, lanes", [("0x1ffffffffull", "32"), ("0x80000000ffffffffull", "63"),
                                         ("0xffffffffffffffffull", "32-63")])
def test_mask_beyond_the_wave_is_an_error(mask, lanes):
    """Every named lane past the 32-lane wave is reported, up to the 64-bit mask's top lane 63."""
    src = HALF.replace("LANES", "32").replace("MASK", mask)
    with pytest.raises(EmulatorError, match=rf"names lanes {lanes} beyond the wave of 32"):
        run_kernel(src, "k", args=dict(x=np.ones(32, np.int32), out=np.zeros(128, np.int32)), grid=(1,),
                   block=(32,), wave=32)


def test_mask_missing_active_lanes_is_a_warning():
    src = HALF.replace("LANES", "32").replace("MASK", "0xffffu")
    r = run_kernel(src, "k", args=dict(x=np.ones(32, np.int32), out=np.zeros(128, np.int32)), grid=(1,),
                   block=(32,), wave=32)
    assert any("does not name active lanes 16-31" in d.message for d in r.diagnostics)


def test_short_last_warp_full_mask_is_an_error():
    """A block of 48 threads: warp 1 has lanes 0-15 only; 0xffffffff names 16 lanes that do not exist."""
    src = HALF.replace("LANES", "32").replace("MASK", "0xffffffffu")
    with pytest.raises(EmulatorError, match=r"names inactive lanes 16-31"):
        run_kernel(src, "k", args=dict(x=np.ones(48, np.int32), out=np.zeros(4 * 48, np.int32)), grid=(1,),
                   block=(48,), wave=32)


# ---------------------------------------------------------------------------------------------
# Values the shuffle carries besides the bits: a uniform value, and the error bound
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("schedule", SCHEDULES)
def test_shuffle_of_uniform_value_and_of_error_bounds(schedule):
    src = r"""
__global__ void k(const float* a, const float* b, float* p, float* q, int* u) {
    int t = threadIdx.x;
    float v = a[t] * b[t];                       // one rounding: bound u * |v|
    p[t] = v;
    q[t] = __shfl_xor_sync(0xffffffff, v, 5);
    u[t] = __shfl_down_sync(0xffffffff, 7, t % 4);   // a uniform value stays what it is
}
"""
    rng = np.random.default_rng(3)
    a = rng.uniform(-2, 2, 64).astype(np.float32)
    b = rng.uniform(-2, 2, 64).astype(np.float32)
    z = np.zeros(64, np.float32)
    r = run_kernel(src, "k", args=dict(a=a, b=b, p=z, q=z, u=np.zeros(64, np.int32)), grid=(1,), block=(64,),
                   wave=32, schedule=schedule)
    j = np.arange(64) ^ 5
    assert np.array_equal(r.outputs["q"], (a * b)[j])
    assert np.array_equal(r.bounds["q"], r.bounds["p"][j])   # the bound travels with the value
    assert np.all(r.bounds["p"] > 0)
    assert list(r.outputs["u"]) == [7] * 64


def test_hip_lanemask_lt():
    src = "#include <hip/hip_runtime.h>\n__global__ void k(unsigned long long* o) { o[threadIdx.x] = __lanemask_lt(); }\n"
    r = run_kernel(src, "k", args=dict(o=np.zeros(128, np.uint64)), grid=(1,), block=(128,), wave=64,
                   backend="hip")
    lane = np.arange(128) % 64
    assert [int(v) for v in r.outputs["o"]] == [(1 << int(ln)) - 1 for ln in lane]
