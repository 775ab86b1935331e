"""Warp-primitive cases: tiny kernels in CUDA, HIP and Metal spellings and an independent
pure-Python model of what each lane must get.

No kernelport import here: the same cases run on the emulator (tests/test_warp_primitives.py)
and, as CUDA, on a real NVIDIA GPU (bench/warp_primitives_device.py), so the model is checked
against hardware once and the emulator against the model every run.

The model follows the CUDA C++ Programming Guide, "Warp Shuffle Functions" and "Warp Vote
Functions" (HIP's __shfl*/__ballot/__any/__all and Metal's simd_shuffle*/simd_ballot/simd_any/
simd_all define the same results for the cases used here):

- __shfl_sync(m, v, srcLane, width): the value of lane srcLane *modulo width* of the caller's
  width-segment;
- __shfl_up_sync(m, v, delta, width): lane - delta, but "the source lane index will not wrap
  around the value of width, so effectively the lower delta lanes will be unchanged";
- __shfl_down_sync: lane + delta, "the upper delta lanes will remain unchanged";
- __shfl_xor_sync(m, v, laneMask, width): lane ^ laneMask; a group may read "elements from
  earlier groups", and reading "from later groups" returns the caller's own value;
- "If the target thread is inactive, the retrieved value is undefined": the model says None and
  the tests check no value there;
- __ballot_sync: bit N set iff the predicate is non-zero for lane N *and lane N is active*;
  __any_sync / __all_sync: non-zero iff the predicate holds for any / all of the non-exited
  threads in the mask (the active ones); __activemask(): bit N set iff lane N is active.

Values the Guide leaves undefined are not generated: widths that are not powers of two, a
delta or laneMask of the warp width or more (except delta == width, which the Guide defines as
"all lanes unchanged"), negative source lanes on Metal (a `ushort` lane there).
"""
from __future__ import annotations

import numpy as np

SENTINEL = 0x5A5A  # what an inactive lane writes
VOTES = ("ballot", "any", "all", "activemask")
WIDTHS = {32: (1, 2, 4, 8, 16, 32), 64: (1, 2, 4, 8, 16, 32, 64)}

# ---------------------------------------------------------------------------------------------
# Kernel texts.  One body, the backend's spellings substituted.
# ---------------------------------------------------------------------------------------------
_SIG = {
    "cuda": ("__global__ void k(const int* x, const int* act, const int* src, unsigned long long* out, int n)",
             "threadIdx.x", "blockIdx.x", "blockDim.x", "unsigned long long", "warpSize"),
    "hip": ("__global__ void k(const int* x, const int* act, const int* src, unsigned long long* out, int n)",
            "threadIdx.x", "blockIdx.x", "blockDim.x", "unsigned long long", "warpSize"),
    "metal": ("kernel void k(const device int* x [[buffer(0)]], const device int* act [[buffer(1)]],\n"
              "              const device int* src [[buffer(2)]], device ulong* out [[buffer(3)]],\n"
              "              constant int& n [[buffer(4)]],\n"
              "              uint3 tid [[thread_position_in_threadgroup]], uint3 bid [[threadgroup_position_in_grid]],\n"
              "              uint3 bdim [[threads_per_threadgroup]], uint simd_width [[threads_per_simdgroup]])",
              "tid.x", "bid.x", "bdim.x", "ulong", "simd_width"),
}
_HEAD = {"cuda": "", "hip": "#include <hip/hip_runtime.h>\n",
         "metal": "#include <metal_stdlib>\nusing namespace metal;\n"}

# Spellings of each primitive: (CUDA, HIP, Metal); {m} is CUDA's mask.
_SPELL = {
    "idx": ("__shfl_sync({m}, v, {s})", "__shfl(v, {s})", "simd_shuffle(v, (ushort)({s}))"),
    "up": ("__shfl_up_sync({m}, v, {s})", "__shfl_up(v, {s})", "simd_shuffle_up(v, (ushort)({s}))"),
    "down": ("__shfl_down_sync({m}, v, {s})", "__shfl_down(v, {s})", "simd_shuffle_down(v, (ushort)({s}))"),
    "xor": ("__shfl_xor_sync({m}, v, {s})", "__shfl_xor(v, {s})", "simd_shuffle_xor(v, (ushort)({s}))"),
    "idx_w": ("__shfl_sync({m}, v, {s}, w)", "__shfl(v, {s}, w)", None),
    "up_w": ("__shfl_up_sync({m}, v, {s}, w)", "__shfl_up(v, {s}, w)", None),
    "down_w": ("__shfl_down_sync({m}, v, {s}, w)", "__shfl_down(v, {s}, w)", None),
    "xor_w": ("__shfl_xor_sync({m}, v, {s}, w)", "__shfl_xor(v, {s}, w)", None),
    "ballot": ("__ballot_sync({m}, v > 0)", "__ballot(v > 0)", "static_cast<ulong>(simd_ballot(v > 0))"),
    "any": ("(__any_sync({m}, v > 0) ? 1 : 0)", "(__any(v > 0) ? 1 : 0)", "(simd_any(v > 0) ? 1 : 0)"),
    "all": ("(__all_sync({m}, v > 0) ? 1 : 0)", "(__all(v > 0) ? 1 : 0)", "(simd_all(v > 0) ? 1 : 0)"),
    "activemask": ("__activemask()", "__ballot(1)", "static_cast<ulong>(simd_active_threads_mask())"),
}
_COL = {"cuda": 0, "hip": 1, "metal": 2}

# Per case: the primitive, how its source operand is formed, and how many parameter steps p run.
#   "p":        a uniform source: the loop counter (offset by `lo`)
#   "src":      a per-lane source read from src[p * n + gid]
CASES = {
    "shfl_idx_uniform": ("idx", "p"),
    "shfl_idx_lane": ("idx", "src"),
    "shfl_up": ("up", "p"),
    "shfl_down": ("down", "p"),
    "shfl_xor": ("xor", "p"),
    "shfl_down_lane": ("down", "src"),   # a per-lane delta (non-uniform path; HIP/CUDA allow it)
    "shfl_idx_width": ("idx_w", "p"),
    "shfl_idx_lane_width": ("idx_w", "src"),
    "shfl_up_width": ("up_w", "p"),
    "shfl_down_width": ("down_w", "p"),
    "shfl_xor_width": ("xor_w", "p"),
    "vote": (VOTES, None),
}


# Metal requires a uniform delta for simd_shuffle_up/down: a per-lane one is undefined there.
METAL_UNDEFINED = {"shfl_down_lane"}


def param_range(case: str, W: int, backend: str) -> tuple[int, int]:
    """(lo, count): the uniform source runs over lo .. lo+count-1."""
    kind, how = CASES[case]
    base = kind.split("_")[0] if isinstance(kind, str) else "vote"
    if base == "vote":
        return 0, 4
    if how == "src":
        return 0, 3  # three random source draws per lane
    if base == "idx":
        # CUDA/HIP: srcLane modulo width, negatives included; Metal: a valid lane only
        return (0, W) if backend == "metal" else (-3, 2 * W + 6)
    if base in ("up", "down"):
        return 0, W + 1  # delta == W: every lane keeps its value
    return 0, W  # xor masks within the wave


def widths(case: str, W: int) -> tuple[int, ...]:
    kind, _ = CASES[case]
    return WIDTHS[W] if isinstance(kind, str) and kind.endswith("_w") else (W,)


def kernel_text(case: str, backend: str, W: int, mask: str = "__activemask()", step: int = 1) -> str | None:
    """The kernel of `case` in `backend` spelling (None: the backend has no spelling for it).

    Thread gid writes out[(q * P + p) * n + gid] for width step q and parameter step p; an
    inactive lane (act[gid] == 0) writes SENTINEL.  `mask` is CUDA's lane mask argument; `step`
    runs every step-th parameter only (the others stay 0), to keep the slow schedule quick."""
    sig, tid, bid, bdim, u64, wsz = _SIG[backend]
    kind, how = CASES[case]
    if backend == "metal" and case in METAL_UNDEFINED:
        return None
    col = _COL[backend]
    lo, P = param_range(case, W, backend)
    head = (f"{sig} {{\n    int t = {tid};\n    int gid = {bid} * {bdim} + t;\n    int v = x[gid];\n"
            f"    int ok = act[gid];\n")
    if kind == VOTES:
        # out[p * n + gid]: ballot, any, all, activemask of the lanes that took `if (ok)`
        stores = "".join(f"            if (p == {i}) r = ({u64})({_SPELL[k][col].format(m=mask)});\n"
                         for i, k in enumerate(kind))
        body = (head + f"    for (int p = 0; p < 4; ++p) {{\n        {u64} r = {SENTINEL};\n"
                f"        if (ok) {{\n{stores}        }}\n        out[p * n + gid] = r;\n    }}\n}}\n")
        return _HEAD[backend] + body
    spell = _SPELL[kind][col]
    if spell is None:
        return None
    s = f"src[(q * {P} + p) * n + gid]" if how == "src" else f"p + ({lo})"
    expr = spell.format(m=mask, s=s)
    signed = "long" if backend == "metal" else "long long"
    loop_w = (f"    int q = 0;\n    for (int w = 1; w <= {wsz}; w *= 2, ++q) {{\n" if kind.endswith("_w")
              else "    int q = 0;\n    {\n")
    body = (head + loop_w
            + f"    for (int p = 0; p < {P}; p += {step}) {{\n"
            f"        {u64} r = {SENTINEL};\n"
            f"        if (ok) r = ({u64})({signed})({expr});\n"
            f"        out[(q * {P} + p) * n + gid] = r;\n"
            f"    }}\n    }}\n}}\n")
    return _HEAD[backend] + body


# A half warp voting under a literal mask: LANES and MASK are substituted.
HALF_WARP = r"""
__global__ void k(const int* x, int* out) {
    int t = threadIdx.x;
    int lane = t % warpSize;
    int v = x[t];
    out[t] = -1;
    if (lane < LANES) {
        out[t] = __all_sync(MASK, v > 0) ? 1 : 0;
        out[blockDim.x + t] = __any_sync(MASK, v > 0) ? 1 : 0;
        out[2 * blockDim.x + t] = (int)__popc(__ballot_sync(MASK, v > 0));
        out[3 * blockDim.x + t] = __shfl_down_sync(MASK, v, 1);
    }
}
"""


# ---------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------
def inputs(case: str, W: int, backend: str, partial: bool, seed: int = 0):
    """(x, act, src, block, grid, n_out) for a launch of two blocks.

    partial: blocks of 2W - 8 threads (the last warp is short) and a random active set that
    always includes some whole-warp-inactive and single-lane patterns; else blocks of 2W, all
    active (the emulator's fast paths)."""
    rng = np.random.default_rng(seed + W)
    B = 2 * W - 8 if partial else 2 * W
    G = 2
    n = B * G
    lo, P = param_range(case, W, backend)
    Q = len(widths(case, W))
    x = rng.integers(-1000, 1000, n).astype(np.int32)
    if partial:
        act = (rng.random(n) < 0.7).astype(np.int32)
        act[0:W] = 1            # block 0, warp 0: all active
        act[W:2 * W - 8] = 0    # block 0, warp 1 (short): a single active lane
        act[W + 3] = 1
        act[B:B + 16] = 1       # block 1, warp 0: lanes 0-15 only (a half warp)
        act[B + 16:B + W] = 0
    else:
        act = np.ones(n, np.int32)
    if CASES[case][0] == VOTES:
        # warps whose active lanes all vote yes, none do, only inactive lanes would, and mixed
        x = np.abs(x) + 1
        for b in range(G):
            for w0 in range(0, B, W):
                g = b * B + w0
                span = slice(g, min(g + W, b * B + B))
                # 0 all active vote yes, 1 all no, 2 only inactive lanes would say yes, 3 mixed;
                # partial: the single-lane and the half warp vote yes (what a lane-counting bug breaks)
                pattern = ({(0, 0): 3, (0, 1): 0, (1, 0): 0, (1, 1): 2}[(b, w0 // W)] if partial
                           else (b * 2 + w0 // W) % 4)
                if pattern == 1:
                    x[span] = -np.abs(x[span])
                elif pattern == 2:
                    a = act[span]
                    x[span] = np.where(a != 0, -np.abs(x[span]), np.abs(x[span]) + 1)
                elif pattern == 3:
                    x[span] = np.where(rng.random(span.stop - span.start) < 0.5, x[span], -x[span])
    if CASES[case][1] == "src":
        if backend == "metal":
            src = rng.integers(0, W, Q * P * n)
        elif CASES[case][0].startswith("down"):
            src = rng.integers(0, W + 1, Q * P * n)  # deltas 0..W
        else:
            src = rng.integers(-W, 3 * W, Q * P * n)
        src = src.astype(np.int32)
    else:
        src = np.zeros(1, np.int32)
    return x, act, src, B, G, Q * P * n


# ---------------------------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------------------------
def _source_lane(kind: str, lane: int, s: int, w: int, W: int) -> int:
    seg = lane - lane % w
    pos = lane - seg
    if kind == "idx":
        return seg + s % w  # Python's % is the mathematical modulo (-1 -> w - 1), like the hardware
    if kind == "up":
        return lane - s if pos - s >= 0 else lane
    if kind == "down":
        return lane + s if pos + s < w else lane
    if kind == "xor":
        j = lane ^ s
        return lane if (j >= W or j // w > lane // w) else j
    raise ValueError(kind)


def model(case: str, W: int, backend: str, x, act, src, B: int, G: int, step: int = 1):
    """(expected uint64 values, defined bool mask) in the kernel's out[] layout."""
    kind, how = CASES[case]
    lo, P = param_range(case, W, backend)
    ws = widths(case, W)
    n = B * G
    want = np.full(len(ws) * P * n, SENTINEL, dtype=np.uint64)
    defined = np.ones(len(ws) * P * n, dtype=bool)
    M64 = (1 << 64) - 1
    for b in range(G):
        for w0 in range(0, B, W):
            gids = [b * B + w0 + ln for ln in range(W)]
            exists = [w0 + ln < B for ln in range(W)]
            active = [exists[ln] and act[gids[ln]] != 0 for ln in range(W)]
            if kind == VOTES:
                pred = [active[ln] and x[gids[ln]] > 0 for ln in range(W)]
                ballot = sum(1 << ln for ln in range(W) if pred[ln])
                res = [ballot, int(any(pred)), int(all(pred[ln] for ln in range(W) if active[ln])),
                       sum(1 << ln for ln in range(W) if active[ln])]
                for p in range(4):
                    for ln in range(W):
                        if active[ln]:
                            want[p * n + gids[ln]] = res[p]
                continue
            base = kind.split("_")[0]
            for q, w in enumerate(ws):
                for p in range(P):
                    for ln in range(W):
                        if not exists[ln]:
                            continue
                        k = (q * P + p) * n + gids[ln]
                        if p % step:
                            want[k] = 0  # not run
                            continue
                        if not active[ln]:
                            continue
                        s = int(src[k]) if how == "src" else p + lo
                        j = _source_lane(base, ln, s, w, W)
                        if not active[j]:
                            defined[k] = False
                            continue
                        want[k] = int(x[gids[j]]) & M64
    return want, defined
