"""A ladder's fold that reaches a leader's per-block store through a helper's reference parameter, or a store
whose address adds a constant macro, keeps CUDA's 32-lane groups (kernelport/fold_levels.py: `_out_params`,
a header helper's variable arguments, `_uniform`'s constants).

Held-out set 90 (a lattice-QCD library's compensated norm reductions): `if (tid < WARP_LENGTH) { ... bh =
__shfl_down_sync(full, ah, o); two_sum(ah, bh, rh, t); ah = rh; ... } if (tid == 0) { red[blockIdx.x] = ah;
red[blockIdx.x + MAX_THREAD_PER_BLOCK] = al; }`.  The flow saw no fold in `ah` (written through `rh&`) and
read `MAX_THREAD_PER_BLOCK` as a name that may hide a thread index, so the ladder went wave-wide: at wave 64
its first step reads lanes 32-63, outside `tid < 32`, and lane 0 stores another sum (there, a KP219 refusal
elsewhere in the function kept the port unwritten).  Each kept port below is run on the emulator at 64
against the original at 32."""
from __future__ import annotations

import subprocess
import sys

import numpy as np

from port_support import assert_port_at_64_is_original_at_32, ported

HELPER = """\
__device__ __forceinline__ void two_sum(float a, float b, float &s, float &e) {
    s = a + b; float v = s - a; e = (a - (s - v)) + (b - v);
}
"""
KERNEL = """\
__global__ void k(float* red, const float* x) {
    float ah = x[blockIdx.x * blockDim.x + threadIdx.x], al = 0.0f;
    for (int o = 16; o > 0; o >>= 1) {
        float bh = __shfl_down_sync(0xffffffffu, ah, o);
        float rh, t;
        two_sum(ah, bh, rh, t);
        ah = rh; al = al + t;
    }
    if (threadIdx.x == 0) { STORE }
}
"""
BY_REFERENCE = HELPER + KERNEL.replace("STORE", "red[blockIdx.x] = ah;")  # the fold reaches ah through rh&
CONSTANT = "#define NBLOCKS 4\n" + HELPER + KERNEL.replace("STORE", "red[blockIdx.x + NBLOCKS] = al + ah;")


def _same_at_64(code: str, text: str) -> None:
    rng = np.random.default_rng(3)
    args = {"red": np.zeros(8, np.float32), "x": rng.integers(-4, 5, 1024).astype(np.float32)}
    assert_port_at_64_is_original_at_32(code, text, "k", args, (4, 1, 1), (256, 1, 1), ("red",))


def test_a_fold_written_out_through_a_reference_keeps_32_lanes():
    port, text = ported(BY_REFERENCE, dedent=False)
    assert "__shfl_down(ah, o, 32)" in port.body and "warpSize" not in port.body, port.body
    _same_at_64(BY_REFERENCE, text)


def test_a_leader_store_at_a_constant_macros_offset_is_one_per_block():
    port, text = ported(CONSTANT, dedent=False)
    assert "__shfl_down(ah, o, 32)" in port.body and "warpSize" not in port.body, port.body
    _same_at_64(CONSTANT, text)


def test_a_macro_hiding_a_thread_index_leaves_the_leaders_store_wave_wide():
    """The look-alike: `red[SLOT]` with `#define SLOT (threadIdx.x / warpSize)` is each wave leader's own slot
    (recombined, as `part[warp] = v` is): the wave's fold is the right one, the ladder stays the wave's."""
    code = "#define SLOT (threadIdx.x / warpSize)\n" + HELPER + KERNEL.replace("STORE", "red[SLOT] = ah;")
    port, _ = ported(code, dedent=False)
    assert "warpSize / 2" in port.body and ", 32)" not in port.body, port.body


def test_a_const_reference_is_no_output():
    """The look-alike: the fold handed to `const float&` only (its output is the return value, unused):
    `ah` is never written by the helper, so no fold reaches the store."""
    code = ("__device__ float peek(const float &b, float &seen) { seen = 0.0f; return b; }\n" +
            KERNEL.replace("two_sum(ah, bh, rh, t);", "t = 0.0f; rh = ah; (void)peek(bh, t);")
            .replace("al = al + t;", "").replace("STORE", "red[threadIdx.x / warpSize] = ah;"))
    port, _ = ported(code, dedent=False)
    assert "warpSize / 2" in port.body, port.body


def test_a_headers_helper_with_an_unseen_body_may_write_the_fold_out(tmp_path):
    """two_sum declared in a header the flow does not read: its variable arguments may be outputs (a reference
    parameter), so the leader's store of `ah` keeps the ladder's 32 lanes."""
    (tmp_path / "ts.h").write_text("#pragma once\n" + HELPER)
    (tmp_path / "k.cu").write_text('#include "ts.h"\n' + KERNEL.replace("STORE", "red[blockIdx.x] = ah;"))
    run = subprocess.run([sys.executable, "-m", "kernelport", "translate", str(tmp_path / "k.cu"), "--to", "hip",
                          "--stdout"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "__shfl_down(ah, o, 32)" in run.stdout and "warpSize / 2" not in run.stdout, run.stdout


BESIDE_WAVE = """\
__device__ void clampw(float &v, int w) { if (v > 1e30f) v = 1e30f; }
__global__ void k(float* y, const float* x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    clampw(v, warpSize);
    READ
}
"""


def test_a_fold_handed_to_an_output_beside_warpSize_still_keeps_32_lanes():
    """`clampw(v, warpSize)`: the fold in `v` is handed to a reference parameter beside `warpSize`.  The output
    takes the call's fold tags only, not warpSize's (which would read `v` as the code's own share of the width):
    every lane's `y[i] = x[i] / v` keeps the 32-lane partial folds CUDA gives (the merge of h/heldout90 went
    wave-wide here, and the port at 64 divided by other sums)."""
    code = BESIDE_WAVE.replace("READ", "y[i] = x[i] / v;")
    port, text = ported(code, dedent=False)
    assert "__shfl_down(v, o, 32)" in port.body and "warpSize / 2" not in port.body, port.body
    x = np.random.default_rng(5).integers(1, 5, 256).astype(np.float32)
    assert_port_at_64_is_original_at_32(code, text, "k", {"y": np.zeros(256, np.float32), "x": x}, (2, 1, 1),
                                        (128, 1, 1), ("y",))


def test_a_headers_helper_handed_the_fold_beside_warpSize_keeps_32_lanes(tmp_path):
    (tmp_path / "cl.h").write_text("#pragma once\n__device__ void clampw(float &v, int w);\n")
    code = BESIDE_WAVE.replace("READ", "y[i] = x[i] / v;").split("\n", 1)[1]
    (tmp_path / "k.cu").write_text('#include "cl.h"\n' + code)
    run = subprocess.run([sys.executable, "-m", "kernelport", "translate", str(tmp_path / "k.cu"), "--to", "hip",
                          "--stdout"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "__shfl_down(v, o, 32)" in run.stdout and "warpSize / 2" not in run.stdout, run.stdout


def test_a_fold_the_code_scales_by_warpSize_itself_stays_wave_wide():
    """The look-alike: `atomicAdd(y, v / warpSize)` reads warpSize in the stored value (each lane its share of its
    wave's total), so the ladder is left to the wave as before."""
    port, _ = ported(BESIDE_WAVE.replace("READ", "atomicAdd(y, v / warpSize);"), dedent=False)
    assert "warpSize / 2" in port.body and ", 32)" not in port.body, port.body


POINTERS = (HELPER.replace("float &s, float &e", "float *s, float *e").replace("s = a + b;", "*s = a + b;")
            .replace("v = s - a; e = (a - (s - v))", "v = *s - a; *e = (a - (*s - v))"))


def test_a_fold_written_out_through_a_pointer_to_a_local_keeps_32_lanes():
    """`two_sum(ah, bh, &rh, &t)` into `float *s, float *e`: the pointer form of the reference outputs (it went
    wave-wide after the merge of h/heldout90, lane 0 storing a 64-lane sum at 64)."""
    code = POINTERS + KERNEL.replace("two_sum(ah, bh, rh, t);", "two_sum(ah, bh, &rh, &t);").replace(
        "STORE", "red[blockIdx.x] = ah;")
    port, text = ported(code, dedent=False)
    assert "__shfl_down(ah, o, 32)" in port.body and "warpSize" not in port.body, port.body
    _same_at_64(code, text)


def test_a_const_pointer_is_no_output():
    """The look-alike: `&bh` handed to `const float *` is read only; the wave leader's own slot stays wave-wide."""
    code = ("__device__ float peek(const float *b, float *seen) { *seen = 0.0f; return *b; }\n" +
            KERNEL.replace("two_sum(ah, bh, rh, t);", "t = 0.0f; rh = ah; (void)peek(&bh, &t);")
            .replace("al = al + t;", "").replace("STORE", "red[threadIdx.x / warpSize] = ah;"))
    port, _ = ported(code, dedent=False)
    assert "warpSize / 2" in port.body, port.body
