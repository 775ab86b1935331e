"""Index shuffles from an absolute lane of plain data (`__shfl_sync(m, v, 3)`, `src_lane[tid]`, a parameter).

CUDA's `__shfl_sync(m, v, k)` reads lane `k mod 32` of the thread's own 32-lane warp.  A port at the
wave's default width reads lane k of the 64-lane wave: threads 32-63 read the other warp's lane.  That is
right only where the port makes the code's warp the wave: the shuffled value is a warp operation's result
the port widens (the broadcast after a widened reduction), or the function (or a caller) has its lane
math ported to the wave or written with `warpSize`.  Elsewhere, where the source lane is plain (no width,
wave lane id or warp result reaches it: a load, a literal, `threadIdx.x % 5 + 5` as written, whose lane
CUDA takes mod 32 in the thread's own warp as width 32 does), the port names CUDA's width, 32 (the
concept's `width`, spelled by each backend).  A helper no caller in the file calls is judged by the calls
the run shows (kernelport.abscallers: CUDA's width, the wave, or KP219).  warpflow notes each such
shuffle (`note`); translate asks `width`.
"""
from __future__ import annotations

from . import abscallers, backends, fnscopes, macro_bodies, macro_contexts
from .warpsites import BDIM, FIVE, HALF, MASK, ONE, OPAQUE, TID, VOTE, WRES

SOME_LANES = (OPAQUE, -2)  # any other literal (warpflow._literal): a number, no width
_NUMBERS = (ONE, FIVE, HALF)
_AS_WRITTEN = (TID, BDIM, OPAQUE)  # a thread index, a block size, a caller's load: the port keeps them
# The result of an index shuffle (warpflow): another lane's value, no sum the port widens.  `a =
# __shfl_sync(m, a, src_lane[t])` joins it into `a` itself, the permutation's plain data.
INDEXED = -3

# Roles of sites that are masks, not lane math: a full mask widened to 64 bits does not make the
# function's warp the wave.
_MASK_ROLES = frozenset({"full", "type32", "arg32", "full_value"})
_WIDENED = frozenset({WRES, VOTE, MASK})  # a warp operation's result: the port widens it to the wave


def note(an, call, c, bound_idx: dict, arg_facts: list) -> tuple:
    """Record an index shuffle with no width argument: its lane's facts, its value's kinds; the wave
    shuffle's row of warpflow (call, concept key, function)."""
    row = (call, c.key, an.cur or None)
    if c.key != "shfl" or "width" in bound_idx or "lane" not in bound_idx or "value" not in bound_idx:
        return row
    lane = arg_facts[bound_idx["lane"]]
    value = frozenset("number" if (k, s) == SOME_LANES else "shuffled" if (k, s) == (WRES, INDEXED) else k
                      for k, s in arg_facts[bound_idx["value"]])
    an.a.abs_lanes[(call.start_byte, call.end_byte)] = (lane, value, an.cur or None)
    return row


def _ported(site) -> bool:
    """A confirmed site the port rewrites to the wave: a 5 only as a shift's count (`lane >> 5`);
    `x + 5` reaching a shuffle's lane is lane 5, kept (translate's rewrite_shift)."""
    if not site.confirmed:
        return False
    if site.role != FIVE:
        return True
    shift = site.node.parent
    return shift is not None and shift.type == "binary_expression" and \
        shift.child_by_field_name("right") == site.node and shift.child_by_field_name("operator").type in (">>", "<<")


def _plain(analysis, lane: frozenset) -> bool:
    """A lane no width, wave lane id or warp result reaches: literals (a 1, 5 or 16 only while the port
    keeps it), thread indices and block sizes as written (`threadIdx.x % 5 + 5`: CUDA reads it mod 32 in
    the thread's own warp, as width 32 does) and what only they reach; a load, a table, a parameter have
    no facts."""
    return all(f[0] in _AS_WRITTEN or (f[0] in _NUMBERS and not _ported(analysis.sites[f[1]]))
               for f in lane)


def _wave_functions(module, analysis) -> set[str]:
    """Functions whose lane math is the wave's in the port (a site it widens, or `warpSize` as written:
    `lane = threadIdx.x % warpSize` means the wave's lanes), and every function they call."""
    wide = {s.function for s in analysis.sites if _ported(s) and s.role not in _MASK_ROLES and s.function}
    scopes = fnscopes.of(module)  # (text, not module.uses: a macro body's model holds only the body's uses)
    wide |= {scopes.key(f) for f in module.functions.values() if f.body is not None and
             any(True for _ in module.source.named_under(f.body, "identifier", {"warpSize"}))}
    out, todo = set(wide), list(wide)
    while todo:
        for g in analysis.calls.get(todo.pop(), ()):
            if g not in out:
                out.add(g)
                todo.append(g)
    return out


def _widened(analysis, value: frozenset, fn: str | None, wave: set[str]) -> bool:
    """Whether the shuffled value is a warp operation's result the port widens: a vote's or a mask's, or a
    shuffle's (WRES) where the port widens a warp operation of `fn` or of a helper it calls (a ladder's site:
    `wave`), or a file-scope constant any function may read (`constexpr int kW = 32` starting a ladder).  A shuffle's result the port leaves as CUDA computes it (`v += __shfl_xor_sync(m, v, 1)`, one step
    of no ladder, joined into v before or after the broadcast) is plain data: lane k of the wave is then
    another warp's lane for threads 32-63 (lint63's review: `__shfl(v, 0)` computed something else)."""
    if value & (_WIDENED - {WRES}):
        return True
    return WRES in value and fn is not None and (fn in wave or bool(analysis.calls.get(fn, set()) & wave) or any(
        not s.function and s.role not in _MASK_ROLES and _ported(s) for s in analysis.sites))


def _broadcasts_widened(analysis, fn: str, wave: set[str]) -> bool:
    """`fn` has an index shuffle of a warp operation's result the port widens (`s = reduce(x);
    __shfl_sync(m, s, 0)`), which the port leaves at the wave's width: the function's group is then the
    wave, and its other index shuffles (`w` set by lane 0 and broadcast) name the wave too, not CUDA's 32
    lanes (lanes 32-63 would read lane 32, which computed nothing)."""
    return any(f == fn and _widened(analysis, value, f, wave) and _plain(analysis, lane)
               for lane, value, f in analysis.abs_lanes.values())


def width(tr, call) -> str | None:
    """'32' where an index shuffle of plain data from a plain lane keeps CUDA's 32-lane warp; None where
    the wave's width is right (or KP219 was recorded: the caller leaves the call as written)."""
    got = tr.analysis.abs_lanes.get((call.start_byte, call.end_byte))
    if got is None or not _plain(tr.analysis, got[0]) or all(r.wave <= 32 for r in backends.get(tr.backend).runs):
        return None  # (a backend whose every wave is 32 lanes, Metal's SIMD-group: lane k is the warp's)
    _, value, fn = got
    if macro_contexts.MARK in tr.src.text:
        return None  # a macro body ported in an expander's context: macro_contexts decides its widths (not yet here)
    wave = tr.__dict__.get("_kp_wave_functions")
    if wave is None:
        wave = tr.__dict__["_kp_wave_functions"] = _wave_functions(tr.module, tr.analysis)
    if _widened(tr.analysis, value, fn, wave):
        return None  # the broadcast of a widened result: the wave's lane k holds the wave's value
    if fn in wave:
        return None  # the function's warp is the wave in the port: its lane k is the wave's
    if fn is not None and got[0] and all(f == SOME_LANES or f[0] in _NUMBERS for f in got[0]) and \
            _broadcasts_widened(tr.analysis, fn, wave):
        # the function broadcasts a widened result at the wave's width: its warp is the wave, and a literal lane
        # (lane 0's value) is the wave's.  Not a loaded lane (`perm[lane]`, a table of 32 lanes' numbers: lanes
        # 32-63 would read the first half): it keeps 32 (or the self-check refuses), as before.
        return None
    f = tr.module.function_at(call)
    if f is not None and not f.is_kernel and not any(fn in called for called in tr.analysis.calls.values()):
        if tr.src.text.startswith(macro_bodies.WRAP[0]):
            return None  # a macro body's own port (macro_bodies): its expanders decide (macro_contexts), as before
        kind, why = abscallers.judge(tr, f, _wave_functions)  # a helper no caller in the file shows: the run's
        if kind == abscallers.REFUSED:
            abscallers.refuse(tr, call, f, why)
        return "32" if kind == abscallers.WIDTH else None
    return "32"
