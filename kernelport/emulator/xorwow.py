"""cuRAND's XORWOW generator (curandState, the default of curand_kernel.h): the state a
`curand_init(seed, subsequence, offset, &state)` leaves, for every lane at once.

From cuRAND's public definition (the cuRAND device API: XORWOW, Marsaglia's xorshift of five 32-bit
words plus a Weyl counter `d` that each draw adds 362437 to; `curand_init` salts and multiplies the
64-bit seed into the six words, then skips `subsequence` * 2^67 draws and `offset` draws ahead).
A draw is linear over GF(2) in the 160 xorshift bits, so n draws ahead is the n-th power of one
draw's 160x160 bit matrix: the powers 2^k (k < 64) and 2^(67 + k) are computed here by squaring at
first use and cached (no table is copied from any library); a jump applies one matrix per set bit
of n.  The counter `d` moves by 362437 * n (mod 2^32: 2^67 draws move it by 0).

rocRAND's XORWOW (hipRAND on AMD) steps and jumps the same way but salts the seed with other
constants: the same seed draws other numbers there (README, "Random numbers").
"""
from __future__ import annotations

import numpy as np

WEYL = 362437
SUBSEQUENCE_LOG2 = 67
# cuRAND's seeding (curand_init): salts of the seed's halves, their odd multipliers, the words' bases
SALT = (0xAAD26B49, 0xF7DCEFDD)
MULT = (1099087573, 2591861531)
BASE_D = 6615241
BASE_V = (123456789, 362436069, 521288629, 88675123, 5783321)

_POWERS: dict[int, np.ndarray] = {}  # k -> the bit matrix of 2^k draws (uint8, 160 x 160, column = input bit)


def step_words(v: np.ndarray) -> np.ndarray:
    """One draw's xorshift on words v (..., 5) of uint32 (the counter aside)."""
    t = v[..., 0] ^ (v[..., 0] >> np.uint32(2))
    x4 = v[..., 4]
    out = np.empty_like(v)
    out[..., :4] = v[..., 1:]
    out[..., 4] = (x4 ^ (x4 << np.uint32(4))) ^ (t ^ (t << np.uint32(1)))
    return out


def _one_draw() -> np.ndarray:
    """The 160x160 bit matrix of one draw: column i is the draw applied to the state with bit i set."""
    unit = np.zeros((160, 5), np.uint32)
    for i in range(160):
        unit[i, i // 32] = np.uint32(1 << (i % 32))
    return _bits(step_words(unit)).T.copy()


def _bits(words: np.ndarray) -> np.ndarray:
    """(..., 5) uint32 -> (..., 160) uint8 bits, word-major, least significant bit first."""
    shifts = np.arange(32, dtype=np.uint32)
    return ((words[..., :, None] >> shifts) & np.uint32(1)).astype(np.uint8).reshape(*words.shape[:-1], 160)


def _words(bits: np.ndarray) -> np.ndarray:
    weights = (np.uint64(1) << np.arange(32, dtype=np.uint64))
    b = bits.reshape(*bits.shape[:-1], 5, 32).astype(np.uint64)
    return (b * weights).sum(axis=-1).astype(np.uint32)


def power(k: int) -> np.ndarray:
    """The bit matrix of 2^k draws (squared from the one below it, cached)."""
    m = _POWERS.get(k)
    if m is None:
        if k == 0:
            m = _one_draw()
        else:
            below = power(k - 1).astype(np.int32)
            m = ((below @ below) & 1).astype(np.uint8)
        _POWERS[k] = m
    return m


def jump(v: np.ndarray, n: np.ndarray, log2_unit: int) -> np.ndarray:
    """Words v (lanes, 5) each moved n[lane] * 2^log2_unit draws ahead (n: uint64 per lane)."""
    n = n.astype(np.uint64)
    bits = None
    for k in range(64):
        lanes = np.flatnonzero((n >> np.uint64(k)) & np.uint64(1))
        if not lanes.shape[0]:
            if not (n >> np.uint64(k)).any():
                break
            continue
        if bits is None:
            bits = _bits(v).astype(np.int32)
        m = power(log2_unit + k).astype(np.int32)
        bits[lanes] = (bits[lanes] @ m.T) & 1
    return v if bits is None else _words(bits)


def init_state(seed, subsequence, offset) -> tuple[np.ndarray, np.ndarray]:
    """(d, v): the counter (lanes,) and words (lanes, 5) `curand_init(seed, subsequence, offset, &s)`
    leaves, each argument a uint64 scalar or per-lane array."""
    seed, subsequence, offset = (np.atleast_1d(np.asarray(a).astype(np.uint64)) for a in (seed, subsequence, offset))
    n = max(seed.shape[0], subsequence.shape[0], offset.shape[0])
    seed, subsequence, offset = (np.broadcast_to(a, (n,)) for a in (seed, subsequence, offset))
    with np.errstate(over="ignore"):
        s0 = (seed & np.uint64(0xFFFFFFFF)).astype(np.uint32) ^ np.uint32(SALT[0])
        s1 = (seed >> np.uint64(32)).astype(np.uint32) ^ np.uint32(SALT[1])
        t0 = np.uint32(MULT[0]) * s0
        t1 = np.uint32(MULT[1]) * s1
        d = np.uint32(BASE_D) + t1 + t0
        v = np.stack([np.uint32(BASE_V[0]) + t0, np.uint32(BASE_V[1]) ^ t0, np.uint32(BASE_V[2]) + t1,
                      np.uint32(BASE_V[3]) ^ t1, np.uint32(BASE_V[4]) + t0], axis=-1)
        v = jump(v, subsequence, SUBSEQUENCE_LOG2)
        v = jump(v, offset, 0)
        d = d + np.uint32(WEYL) * offset.astype(np.uint32)
    return d.astype(np.uint32), v


class InitWords:
    """`__kp_xorwow_init(seed, subsequence, offset, k)` (frontend/curand_model.py's curand_init):
    word k of the state, 0 the counter, 1..5 the xorshift words.  The six calls of one curand_init
    share one computation (the last arguments' state is kept)."""

    def __init__(self):
        self._last = None

    def word(self, seed, subsequence, offset, k: int, n: int):
        key = tuple(np.asarray(a).tobytes() for a in (seed, subsequence, offset))
        if self._last is None or self._last[0] != key:
            d, v = init_state(seed, subsequence, offset)
            self._last = (key, np.concatenate([d[:, None], v], axis=1))
        w = self._last[1][:, k]
        return np.broadcast_to(w, (n,)).copy() if w.shape[0] == 1 and n > 1 else w


def init_word_call(fc, args, node):
    """The compiled call (calls.py): evaluates the four arguments per lane, returns the word."""
    from .errors import EmulatorError
    if len(args) != 4:
        raise fc.err(node, f"{len(args)} arguments to curand_init's state word (4 expected)")
    fns = [fc.ex(a) for a in args]

    def f(fr, m):
        seed, sub, off, k = (fn(fr, m)[0] for fn in fns)
        ctx = fr.g.ctx
        words = getattr(ctx, "xorwow", None)
        if words is None:
            words = ctx.xorwow = InitWords()
        try:
            return words.word(seed, sub, off, int(k), fr.g.n), None
        except (TypeError, ValueError) as e:
            raise EmulatorError(f"curand_init: {e}", ctx.path, *fc.pos(node)) from None
    return f
