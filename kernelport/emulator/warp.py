"""Warp collectives on flat lane arrays laid out warp by warp (lane = index % W).

Every function takes the values of all lanes (n = warps * W), the active lanes and W, and
returns per-lane results.  The same code serves the lockstep schedules (a group holds whole
warps) and the thread schedule (the scheduler gathers the lanes of a warp into this layout).
"""
from __future__ import annotations

import numpy as np

from .ctype import I32, U32, U64

_LANES: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
_CACHE_LANES = 1 << 22  # lanes of index arrays each cache keeps at most (bounded memory)


def lanes(n: int, W: int):
    key = (n, W)
    r = _LANES.get(key)
    if r is None:
        if sum(k[0] for k in _LANES) + n > _CACHE_LANES:
            _LANES.clear()
        idx = np.arange(n, dtype=np.int64)
        r = (idx, idx % W)
        _LANES[key] = r
    return r


def _unsigned(mask) -> np.ndarray:
    """A lane mask as uint64 (a signed mask converts at its own width: -1 is 32 ones for int)."""
    mk = np.asarray(mask)
    if mk.dtype.kind in "ib":
        mk = mk.astype(np.int64).astype(np.uint64) if mk.dtype.itemsize == 8 else \
            mk.astype(np.int64).astype(np.uint32).astype(np.uint64)
    return mk.astype(np.uint64)


def mask_bits(mask, W: int, active: np.ndarray | None = None) -> np.ndarray | None:
    """Lane-mask bits as a bool array (W,) (uniform mask) or (n/W, W) (per-warp masks)."""
    if mask is None:
        return None
    mk = _unsigned(mask)
    if mk.ndim == 0:
        return ((mk >> np.arange(W, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    # A lane mask is uniform within a warp: read it from the warp's first active lane (an
    # inactive lane's copy is whatever the gather left there, e.g. 0 in the thread schedule).
    mw = mk.reshape(-1, W)
    first = np.argmax(active.reshape(-1, W), axis=1) if active is not None else np.zeros(mw.shape[0], np.int64)
    mw = mw[np.arange(mw.shape[0]), first]
    return ((mw[:, None] >> np.arange(W, dtype=np.uint64)[None, :]) & np.uint64(1)).astype(bool)


def group_masks(mask, active: np.ndarray, W: int) -> np.ndarray | None:
    """Each lane's own mask (uint64, n), where the active lanes of a warp pass different masks: a
    logical group's (NVlabs/CGBN's TPI lanes, `((1u << G) - 1) << (lane & ~(G - 1))`); None where
    each warp's active lanes pass one mask."""
    mk = _unsigned(mask)
    if mk.ndim == 0:
        return None
    mw, act = mk.reshape(-1, W), active.reshape(-1, W)
    first = mw[np.arange(mw.shape[0]), np.argmax(act, axis=1)]
    return None if not (act & (mw != first[:, None])).any() else mk.reshape(-1)


def _aligned_groups(per_lane: np.ndarray, W: int) -> bool:
    """Whether every lane's mask is its own aligned group of G lanes, G one power of two per warp
    (the common case of per-lane masks, checked in a few array operations)."""
    g = np.bitwise_count(per_lane).astype(np.uint64)
    gw = g.reshape(-1, W)
    if not (gw == gw[:, :1]).all() or not ((g > 0) & ((g & (g - np.uint64(1))) == 0) & (g < 64)).all():
        return False
    _, lane = lanes(per_lane.shape[0], W)
    base = lane.astype(np.uint64) & ~(g - np.uint64(1))
    return bool((per_lane == (((np.uint64(1) << g) - np.uint64(1)) << base)).all())


def check_mask(mask, active: np.ndarray, W: int):
    """Problems of a lane mask: (lanes named but inactive, lanes beyond the wave, active lanes not named).
    Per-lane group masks: each active lane must be named by its own mask, and every lane it names
    must pass the same mask (CUDA: each named lane executes the call with the same mask)."""
    if mask is None:
        return None
    mk = _unsigned(mask)
    beyond = 0
    if W < 64:
        beyond = int(np.max(mk >> np.uint64(W)))
    per_lane = group_masks(mask, active, W)
    if per_lane is not None and active.all() and _aligned_groups(per_lane, W):
        return np.zeros(0, np.int64), [W + k for k in range(64 - W) if (beyond >> k) & 1] if beyond else [], \
            np.zeros(0, np.int64)  # each lane in its own group, each group's lanes of one mask: nothing to say
    if per_lane is not None:
        idx, lane = lanes(active.shape[0], W)
        base = idx - lane
        inactive, unlike = [], np.zeros(active.shape[0], bool)
        for k in range(W):  # lane k of each warp, as each lane's mask names it
            named = active & ((per_lane >> np.uint64(k)) & np.uint64(1)).astype(bool)
            if (named & ~active[base + k]).any():
                inactive.append(k)
            unlike |= named & (per_lane[base + k] != per_lane)
        own = ((per_lane >> lane.astype(np.uint64)) & np.uint64(1)).astype(bool)
        beyond_lanes = [W + k for k in range(64 - W) if (beyond >> k) & 1] if beyond else []
        return np.array(inactive, np.int64), beyond_lanes, np.unique(lane[active & (~own | unlike)])
    bits = mask_bits(mask, W, active)
    if bits.ndim == 1 and active.shape[0] and active.all():
        # every lane active (the common case): nothing named is inactive
        un_lanes = np.flatnonzero(~bits)
        beyond_lanes = [W + k for k in range(64 - W) if (beyond >> k) & 1] if beyond else []
        return np.zeros(0, np.int64), beyond_lanes, un_lanes
    act = active.reshape(-1, W)
    executing = act.any(axis=1)
    if not executing.any():
        return None
    named_inactive = (bits & ~act)[executing] if bits.ndim == 2 else (bits[None, :] & ~act[executing])
    if bits.ndim == 2:
        unnamed_active = (~bits & act)[executing]
    else:
        unnamed_active = (~bits[None, :] & act[executing])
    bad_lanes = np.flatnonzero(named_inactive.any(axis=0))
    un_lanes = np.flatnonzero(unnamed_active.any(axis=0))
    beyond_lanes = [W + k for k in range(64 - W) if (beyond >> k) & 1] if beyond else []
    return bad_lanes, beyond_lanes, un_lanes


_SRC: dict[tuple, np.ndarray] = {}


def _source_lanes(kind, n, W, src, w):
    """Index (into the flat lane arrays) of the lane each lane reads."""
    idx, lane = lanes(n, W)
    seg = lane - lane % w  # first lane of the lane's width segment
    pos = lane - seg
    if kind == "idx":
        sl = seg + (src % w)
    elif kind == "up":
        sl = np.where(pos - src >= 0, lane - src, lane)
    elif kind == "down":
        sl = np.where(pos + src < w, lane + src, lane)
    elif kind == "xor":
        x = lane ^ src
        sl = np.where((x // w > lane // w) | (x >= W), lane, x)
    else:
        raise ValueError(kind)
    sl = np.clip(sl, 0, W - 1)
    return idx - lane + sl


def _source_lanes_cached(kind, n, W, src, w):
    key = (kind, n, W, src, w)
    g = _SRC.get(key)
    if g is None:
        if len(_SRC) > 256 or sum(k[1] for k in _SRC) + n > _CACHE_LANES:
            _SRC.clear()
        g = _source_lanes(kind, n, W, src, w)
        g.flags.writeable = False
        _SRC[key] = g
    return g


def _shift(kind, v, src, w):
    """up/down by a uniform src >= 0 within segments of w lanes: a strided copy, no gather."""
    out = v.copy()
    if src == 0 or src >= w:
        return out
    vw = v.reshape(-1, w)
    ow = out.reshape(-1, w)
    if kind == "down":
        ow[:, : w - src] = vw[:, src:]
    else:
        ow[:, src:] = vw[:, : w - src]
    return out


def shuffle(kind: str, v, src, width, active: np.ndarray, W: int):
    """kind: idx | up | down | xor.  Returns (values, lanes that read an inactive source)."""
    n = active.shape[0]
    if not (isinstance(v, np.ndarray) and v.ndim):
        return v, None  # a uniform value is the same in every lane
    w = W if width is None else width
    if isinstance(w, np.ndarray) and w.ndim:
        w = w.astype(np.int64)  # per lane: a width that is no segment of the wave is the wave, as below
        w = np.where((w <= 0) | (w > W) | ((w & (w - 1)) != 0), W, w)
    else:
        w = int(w)
        if w <= 0 or w > W or (w & (w - 1)):
            w = W
    uniform = not (isinstance(src, np.ndarray) and src.ndim) and isinstance(w, int)
    if not uniform:
        src = src.astype(np.int64) if isinstance(src, np.ndarray) else int(src)
        gsrc = _source_lanes(kind, n, W, src, w)
    else:
        src = int(src)
        all_active = active.all()
        if kind in ("up", "down") and src >= 0 and all_active:
            return _shift(kind, v, src, w), None
        gsrc = _source_lanes_cached(kind, n, W, src, w)
        if all_active:
            return v.take(gsrc), None
    out = v.take(gsrc)
    reads_inactive = active & ~active.take(gsrc)
    return out, (reads_inactive if reads_inactive.any() else None)


def ballot(pred, active: np.ndarray, W: int):
    n = active.shape[0]
    p = (np.broadcast_to(pred != 0, (n,)) & active).reshape(-1, W)
    if W <= 32:
        weights = (np.uint32(1) << np.arange(W, dtype=np.uint32))
        r = (p * weights).sum(axis=1, dtype=np.uint32).astype(U32)
    else:
        weights = (np.uint64(1) << np.arange(W, dtype=np.uint64))
        r = (p * weights).sum(axis=1, dtype=np.uint64).astype(U64)
    return np.repeat(r, W)


def vote_any(pred, active, W, mask=None):
    """Whether any active lane's predicate holds: of the wave, or where the lanes pass masks of
    their own groups (group_masks), of the lanes the caller's mask names."""
    if mask is not None and group_masks(mask, active, W) is not None:
        return ((_unsigned(ballot(pred, active, W)) & _unsigned(mask)) != 0).astype(I32)
    n = active.shape[0]
    p = (np.broadcast_to(pred != 0, (n,)) & active).reshape(-1, W)
    return np.repeat(p.any(axis=1).astype(I32), W)


def vote_all(pred, active, W, mask=None):
    if mask is not None and group_masks(mask, active, W) is not None:
        no = np.broadcast_to(pred == 0, active.shape)
        return ((_unsigned(ballot(no, active, W)) & _unsigned(mask)) == 0).astype(I32)
    n = active.shape[0]
    p = (np.broadcast_to(pred != 0, (n,)) | ~active).reshape(-1, W)
    return np.repeat(p.all(axis=1).astype(I32), W)


def match_any(val, active: np.ndarray, W: int, width=None):
    """CUDA's `__match_any_sync(full, v)`: at each active lane, the active lanes of its segment of `width`
    lanes (None: the wave) whose value has the same bits as its own, as a mask of the segment (bit i: its
    lane i), 64-bit on a wave wider than 32; 0 at inactive lanes."""
    n = active.shape[0]
    x = np.ascontiguousarray(np.broadcast_to(np.asarray(val), (n,)))
    if x.dtype.kind not in "iuf":
        raise ValueError(f"__match_any_sync of {x.dtype}")
    bits = x.view(np.dtype(f"u{x.dtype.itemsize}"))
    G = W if width is None else int(np.asarray(width).reshape(-1)[0])
    if G <= 0 or G > W or W % G:
        raise ValueError(f"match over {G} lanes of a wave of {W}")
    b = bits.reshape(-1, G)
    act = active.reshape(-1, G)
    same = (b[:, :, None] == b[:, None, :]) & act[:, None, :] & act[:, :, None]
    weights = np.uint64(1) << np.arange(G, dtype=np.uint64)
    r = (same.astype(np.uint64) * weights).sum(axis=2, dtype=np.uint64).reshape(-1)
    return r.astype(U64 if W > 32 else U32)


def group_ballot(pred, active, W, mask=None):
    """The wave's ballot; where the lanes pass masks of their own groups, each lane's restricted to
    the lanes its mask names (CUDA's `__ballot_sync(group, p)`: the group's bits at their lanes)."""
    r = ballot(pred, active, W)
    if mask is None or group_masks(mask, active, W) is None:
        return r
    return (_unsigned(r) & _unsigned(mask)).astype(r.dtype)


def reduce(op: str, val, active: np.ndarray, W: int):
    """SIMD-group reduction (Metal's simd_sum / simd_max / simd_min) over the ACTIVE lanes of each
    warp; every active lane gets the result.  Returns (values, error bound).

    A sum is computed in the value's own type (pairwise, like a hardware tree); its bound holds
    for any summation order: the operands' bounds plus gamma(k-1) * sum |x| for k active lanes.
    max / min pick one operand: the bound is the largest operand bound."""
    v, e = val
    n = active.shape[0]
    x = np.broadcast_to(np.asarray(v), (n,))
    dt = x.dtype
    if dt.kind not in "iuf":
        raise ValueError(f"simd_{op} of {dt}")
    act = active.reshape(-1, W)
    xw = x.reshape(-1, W)
    if op in ("and", "or", "xor"):  # integers (sm_80's __reduce_{and,or,xor}_sync, Metal's simd_and/or/xor)
        if dt.kind == "f":
            raise ValueError(f"simd_{op} of {dt}")
        ident = dt.type(-1) if dt.kind == "i" and op == "and" else (np.iinfo(dt).max if op == "and" else dt.type(0))
        fn = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
        return np.repeat(fn.reduce(np.where(act, xw, dt.type(ident)), axis=1).astype(dt), W), None
    if op == "sum":
        r = np.where(act, xw, dt.type(0)).sum(axis=1, dtype=dt)
    elif dt.kind == "f":
        ident = dt.type(-np.inf) if op == "max" else dt.type(np.inf)
        fn = np.fmax if op == "max" else np.fmin
        r = fn.reduce(np.where(act, xw, ident), axis=1)
    else:
        info = np.iinfo(dt)
        ident = dt.type(info.min) if op == "max" else dt.type(info.max)
        fn = np.maximum if op == "max" else np.minimum
        r = fn.reduce(np.where(act, xw, ident), axis=1)
    out = np.repeat(r.astype(dt), W)
    if dt.kind != "f":
        return out, None
    from .ctype import UNIT_ROUNDOFF
    ew = None if e is None else np.broadcast_to(np.asarray(e, np.float64), (n,)).reshape(-1, W)
    if op == "sum":
        k = act.sum(axis=1)
        u = UNIT_ROUNDOFF[dt]
        gamma = np.where(k > 1, (k - 1) * u / (1 - (k - 1) * u), 0.0)
        s_abs = np.where(act, np.abs(xw.astype(np.float64)), 0.0).sum(axis=1)
        err = gamma * s_abs
        if ew is not None:
            err = err + np.where(act, ew, 0.0).sum(axis=1)
    else:
        if ew is None:
            return out, None
        err = np.where(act, ew, 0.0).max(axis=1)
    return out, np.repeat(err, W)


# ---------------------------------------------------------------------------------------------
# Bit operations
# ---------------------------------------------------------------------------------------------
def popc(x):
    return np.bitwise_count(x).astype(I32)


def ffs(x):
    """Position (1-based) of the least significant set bit, 0 for 0."""
    u = x.astype(np.uint64) if x.dtype.itemsize == 8 else x.astype(np.uint32)
    low = u & (~u + u.dtype.type(1))
    r = np.bitwise_count(low - u.dtype.type(1)).astype(I32) + 1
    return np.where(u == 0, 0, r).astype(I32)


def clz(x):
    bits = x.dtype.itemsize * 8
    u = x.astype(np.uint64) if bits == 64 else x.astype(np.uint32)
    # smear the highest bit down, then count
    s = u
    for k in (1, 2, 4, 8, 16, 32):
        if k < bits:
            s = s | (s >> u.dtype.type(k))
    return (bits - np.bitwise_count(s)).astype(I32)


_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8)


def brev(x):
    """The bits reversed in the value's own width: 32 (`__brev`), 64 (`__brevll` of a 64-bit value)."""
    t = np.uint64 if np.asarray(x).dtype.itemsize == 8 else np.uint32
    u = np.asarray(x).astype(t)
    n = np.dtype(t).itemsize
    b = u.reshape(-1).view(np.uint8)
    r = _REV8[b].reshape(-1, n)[:, ::-1].copy().view(t).reshape(u.shape)
    return r if isinstance(x, np.ndarray) and x.ndim else np.dtype(t).type(r.reshape(-1)[0])
