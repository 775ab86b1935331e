"""Compare a kernel's outputs with the reference under a tolerance derived from the operation.

`auto` tolerance: the emulator carries a rigorous per-element absolute error bound through every
rounding operation of the port (`kernel_bound`), and the reference is bounded the same way
when it is interpreted (`ref_bound`); the difference of two approximations of the same exact
value can be at most the sum of their bounds.  No bare `1e-6`: a reduction over a million
floats gets the bound its own operations earned.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

U32 = 2.0 ** -24  # unit roundoff of float32
UNSET = " (stored from a value never written)"  # (a Mismatch's never_written, in a check's detail)


@dataclass
class Mismatch:
    """The first element of a buffer outside its bound."""
    buffer: str
    index: int
    got: float
    want: float
    bound: float
    count: int  # how many elements are outside the bound
    max_abs: float
    max_rel: float
    member: str = ""  # in an array of structs, the field of element `index`: ".pos.x", ".keys[3]"
    # the kernel stored there a value never written where the reference stored one (emulator.undefined)
    never_written: bool = False

    @property
    def where(self) -> str:
        """`buf[3]`, or `buf[3].x` in an array of structs."""
        return f"{self.buffer}[{self.index}]{self.member}"


@dataclass
class Comparison:
    """A port's outputs against the reference's: the verdict and the largest errors."""
    ok: bool
    max_abs: float
    max_rel: float
    mismatch: Mismatch | None
    mode: str
    # buffer -> {"n", "index", "diff", "bound"}: per bin of the buffer, the element nearest its
    # bound (largest |port - reference| / bound), for a plot; only when compare(profile_bins=N).
    profiles: dict | None = None
    # (buffer, index, got, want) of the first of `unknown` elements that differ where a bound is
    # unknown (NaN: lost through a float's bits, emulator.bitbounds): neither passed nor failed
    unknown: int = 0
    unknown_at: tuple | None = None
    # the first unknown element's bound was inf on a finite value (an overflow, a division by a
    # value whose bound reaches 0: emulator.infinities; an fmod near a jump: emulator.remainders), not NaN
    unbounded: bool = False
    # elements the reference stored from values never written (emulator.undefined): not compared; per buffer
    undefined: int = 0
    undefined_in: dict | None = None


def _profile(diff: np.ndarray, bound: np.ndarray, bins: int) -> dict:
    n = diff.size
    edges = np.linspace(0, n, min(bins, n) + 1).astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(bound > 0, diff / bound, np.where(diff > 0, np.inf, 0.0))
    idx = [int(a + np.argmax(ratio[a:b])) for a, b in zip(edges[:-1], edges[1:]) if b > a]
    return {"n": int(n), "index": idx, "diff": [float(diff[i]) for i in idx], "bound": [float(bound[i]) for i in idx]}


def _entries(outputs: dict[str, np.ndarray], expected: dict[str, np.ndarray]):
    """(name, got, want, member) per buffer; an array of structs (a structured array) as one
    flat entry per number field, `member(i)` naming flat element i: (struct index, ".f[j]")."""
    for name, want in expected.items():
        got = outputs[name]
        if want.dtype.names is None or got.dtype != want.dtype:
            yield name, got, want, None, 1
            continue
        for path in _field_paths(want.dtype):
            g, w = got, want
            for f in path:
                g, w = g[f], w[f]
            per = int(np.prod(w.shape[1:], dtype=np.int64))
            sub = w.shape[1:]

            def member(i, path=path, per=per, sub=sub):
                k = i % per
                idx = "".join(f"[{j}]" for j in np.unravel_index(k, sub)) if sub else ""
                return i // per, "." + ".".join(path) + idx
            member.path = path  # type: ignore[attr-defined]  # (the field's bounds: _field_bound)
            yield name, np.ascontiguousarray(g).reshape(-1), np.ascontiguousarray(w).reshape(-1), member, per


def _field_bound(bounds: dict[str, np.ndarray] | None, name: str, member) -> np.ndarray | None:
    """The bound of buffer `name` (one flat field of an array of structs where `member`: the run's
    structured array of field bounds, emulator.struct_bounds, walked along the field's path)."""
    b = bounds.get(name) if bounds else None
    if b is None or member is None:
        return b if member is None else None
    if b.dtype.names is None:
        return None
    path = member.path
    for f in path:
        if b.dtype.names is None or f not in b.dtype.names:
            return None
        b = b[f]
    return np.ascontiguousarray(b).reshape(-1)


def _field_paths(dt: np.dtype, path: tuple[str, ...] = ()):
    assert dt.names is not None and dt.fields is not None
    for f in dt.names:
        sub = dt.fields[f][0]
        base = sub.subdtype[0] if sub.subdtype else sub
        if base.names is not None and not sub.subdtype:
            yield from _field_paths(sub, path + (f,))
        elif base.names is None:
            yield path + (f,)


def compare(outputs: dict[str, np.ndarray], expected: dict[str, np.ndarray], mode: str,
            values: dict[str, float] | None = None, kernel_bounds: dict[str, np.ndarray] | None = None,
            ref_bounds: dict[str, np.ndarray] | None = None, profile_bins: int = 0,
            undefined: dict[str, np.ndarray] | None = None, got_undefined: dict[str, np.ndarray] | None = None
            ) -> Comparison:
    """Compare every buffer in `expected` (the kernel's out/inout buffers).  undefined: the elements
    the reference stored from values never written (RunResult.undefined), left out; got_undefined:
    the compared run's, a mismatch where the reference's element is defined (unknown, not judged, where its
    `unknown` is set: a run whose comparisons within their bounds decided stores, emulator.flips.Marks)."""
    worst_abs = worst_rel = 0.0
    unknown, unknown_at, unbounded = 0, None, False
    unset_in: dict[str, int] = {}
    profiles: dict = {}
    first: Mismatch | None = None
    for name, got, want, member, per in _entries(outputs, expected):
        if got.shape != want.shape:
            return Comparison(False, np.inf, np.inf, Mismatch(name, 0, float("nan"), float("nan"), 0.0,
                                                              max(got.size, want.size), np.inf, np.inf), mode)
        skip, unset = (_marks(d, name, per, got.shape) for d in (undefined, got_undefined))
        if skip is not None:  # (the reference's value there is no value: the kernel's is not judged)
            unset_in[name] = unset_in.get(name, 0) + int(skip.sum())
            got = np.where(skip, want.astype(got.dtype), got)
            unset = None if unset is None else unset & ~skip
        g, w = got.astype(np.float64), want.astype(np.float64)
        both_nan = np.isnan(g) & np.isnan(w)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.where(both_nan, 0.0, np.abs(g - w))
            # Bounds are for finite rounding errors: where either value is NaN or infinite (after
            # rounding the reference to the buffer's type) the two must be the same value.
            wr = want.astype(got.dtype).astype(np.float64) if got.dtype.kind == "f" else w
            nonfinite = ~np.isfinite(g) | ~np.isfinite(wr)
            same = both_nan | (g == wr)
            diff = np.where(nonfinite & same, 0.0, np.where(nonfinite, np.inf, diff))
        diff = np.where(np.isnan(diff), np.inf, diff)
        nonfinite_bad = nonfinite & ~same
        if mode == "exact":
            bound = np.zeros_like(w)
            bad = (got != want) & ~both_nan if got.dtype.kind == "f" else got != want
        else:
            if mode == "explicit":
                v = values or {}
                with np.errstate(invalid="ignore"):  # rel * inf: the non-finite rule decides there
                    bound = v.get("abs", 0.0) + v.get("rel", 0.0) * np.abs(w)
            else:
                kb, rb = (_field_bound(bs, name, member) for bs in (kernel_bounds, ref_bounds))
                bound = np.zeros_like(w) if kb is None else kb.astype(np.float64)
                # The reference's own error (its bound if known) and the rounding of an exact
                # value to the buffer's type: the unit roundoff of any float narrower than the
                # float64 reference (half's 2^-11 as float's 2^-24).
                bound = bound + (rb.astype(np.float64) if rb is not None else 0.0) + (
                    np.finfo(got.dtype).eps / 2 * np.abs(w) if got.dtype.kind == "f" and got.dtype.itemsize < 8
                    else 0.0)
                if got.dtype.kind != "f":
                    bound = np.zeros_like(w)
            # a bound lost through bits (NaN) or unbounded (inf on a finite value): those elements
            # are not judged, only counted (an inf bound never passes silently)
            lost = np.isnan(bound) | (np.isinf(bound) & ~nonfinite)
            if lost.any():
                judged_out = lost & (diff > 0)
                if judged_out.any():
                    i = int(np.argmax(judged_out))
                    unknown += int(judged_out.sum())
                    if unknown_at is None:
                        unbounded = bool(np.isinf(np.broadcast_to(bound, diff.shape).ravel()[i]))
                    unknown_at = unknown_at or (name, member(i)[0] if member is not None else i, got[i].item(),
                                                want[i].item())
                bound = np.where(lost, np.inf, bound)
            bad = (diff > bound) | nonfinite_bad
        if unset is not None and getattr(got_undefined, "unknown", False):  # (a flip's marks: emulator.flips)
            judged_out = unset & (diff > 0)
            if judged_out.any():
                i = int(np.argmax(judged_out))
                unknown += int(judged_out.sum())
                unknown_at = unknown_at or (name, member(i)[0] if member is not None else i, got[i].item(),
                                            want[i].item())
            bad = bad & ~unset
        elif unset is not None:
            bad = bad | unset
        if profile_bins and diff.size:
            profiles[name] = _profile(diff.ravel(), np.broadcast_to(bound, diff.shape).ravel(), profile_bins)
        with np.errstate(divide="ignore", invalid="ignore"):
            rel = np.where(w != 0, diff / np.abs(w), np.where(diff == 0, 0.0, np.inf))
        if diff.size:
            worst_abs = max(worst_abs, float(diff.max()))
            worst_rel = max(worst_rel, float(rel.max()))
        if first is None and bad.any():
            i = int(np.argmax(bad))
            at, field = member(i) if member is not None else (i, "")
            first = Mismatch(name, at, got[i].item(), want[i].item(), float(bound[i]), int(bad.sum()),
                             float(diff.max()), float(rel.max()), field, bool(unset is not None and unset[i]))
    return Comparison(first is None, worst_abs, worst_rel, first, mode, profiles or None, unknown, unknown_at, unbounded,
                      sum(unset_in.values()), {k: n for k, n in unset_in.items() if n} or None)


def _marks(d, name, per, shape):
    """The marks of buffer `name` in d (RunResult.undefined: per element, or per struct) as the compared
    entry's elements (`per` of them per struct), or None."""
    u = d.get(name) if d else None
    if u is None:
        return None
    u = np.repeat(u, per) if per > 1 else u
    return u.reshape(shape) if u.size == int(np.prod(shape)) else None


def unknown_detail(cmp: Comparison, lost) -> str:
    """What a comparison could not judge: the elements that differ where a bound was lost, and where."""
    b, i, got, want = cmp.unknown_at or ("?", 0, 0.0, 0.0)
    return (f"{cmp.unknown} element(s) differ where the emulator's bound is unknown ({b}[{i}] = {got!r}, "
            f"the emulator gives {want!r}): " + (
                "the bound is unbounded (inf: an overflow, a division by a value whose bound reaches 0, or an fmod "
                "within its operands' bound of a multiple of its divisor, where the remainder jumps by it)"
                if cmp.unbounded else f"bound lost at {lost[0]}" if lost else
                "the bound's own arithmetic gave NaN (no site recorded)"))
