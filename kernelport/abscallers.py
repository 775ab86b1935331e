"""An index shuffle of a helper no caller in its file shows, judged by the calls the run shows.

A header's helper (`my_shfl(mask, x, lane)`, a permutation a .cu of the project calls) is ported once for
all its includers.  Whether its `__shfl_sync(m, v, k)` from a plain lane reads the thread's own 32-lane
warp (width 32, CUDA's lanes) or the wave's depends on its callers: a caller whose lane math the port
makes the wave (kernelport.abslanes' wave functions) means the wave; a caller with no warp operation but
the helper's call passes it nothing the port widens, so CUDA's width is exact.  The run's files, the
headers they include and the file itself are looked in (kernelport.includers.Elsewhere.calls): every
call must say the same.  Callers that disagree, or one with warp operations of its own (its argument may
be a result the port widens), are KP219 at the shuffle, naming the calls; where the run shows no call,
the helper is declared unavailable with a warning (a call does not compile: kernelport.unavailable), or
refused where that cannot be done.
"""
from __future__ import annotations

from pathlib import Path

from . import fnscopes, unavailable

WIDTH, WAVE, REFUSED = "32", "wave", "refused"


def _analysis(m):
    from .warpflow import analyze
    got = m.__dict__.get("_kp_abscallers_analysis")
    if got is None:
        got = m.__dict__["_kp_abscallers_analysis"] = analyze(m)
    return got


def _own_warp_ops(m, an, caller, name: str) -> bool:
    """Whether `caller` runs a warp operation other than calls of `name` (directly or through a
    warp-level function of its file): a value it passes may be a result the port widens."""
    lo, hi = caller.node.start_byte, caller.node.end_byte
    direct = any(u.concept.warp_level and lo <= u.node.start_byte < hi for u in m.uses)
    callees = an.calls.get(fnscopes.of(m).key(caller), set()) & an.warp_level
    return direct or any(k.rsplit("::", 1)[-1] != name for k in callees)


def judge(tr, f, wave_functions) -> tuple[str, str]:
    """(WIDTH, WAVE or REFUSED, what the run shows) for helper `f`; `wave_functions(module, analysis)`:
    the functions of a file whose warp the port makes the wave."""
    cache = tr.__dict__.setdefault("_kp_abscallers", {})
    one = (f.name, f.node.start_byte)  # (each overload of a name judged by its own calls)
    if one in cache:
        return cache[one]
    vis = tr.module.visible
    calls, looked = vis.elsewhere.calls(f.name.split("::")[-1], callee=f) if vis is not None and \
        vis.elsewhere is not None else ([], [])
    seen: dict[str, list[str]] = {}
    for m, call, caller in calls:
        loc = m.source.loc(call)
        at = f"{Path(loc.path).name}:{loc.line}"
        if caller is None:
            kind = REFUSED  # a call at file scope (an initialiser): no lanes to judge
        else:
            an = _analysis(m)
            kind = WAVE if fnscopes.of(m).key(caller) in wave_functions(m, an) else \
                REFUSED if _own_warp_ops(m, an, caller, f.name) else WIDTH
        seen.setdefault(kind, []).append(at)
    if not seen:
        got = (REFUSED, f"no call of '{f.name}' in the {len(looked)} file(s) of this run that see it" if looked
               else "the file is translated with no run around it: no call of it can be seen")
    elif len(seen) == 1 and REFUSED not in seen:
        kind = next(iter(seen))
        got = (kind, f"every call of '{f.name}' this run shows is in " +
               ("code whose warp the port makes the wave" if kind == WAVE else "code with no other warp operation") +
               f": {', '.join(seen[kind][:8])}")
    else:
        says = {WIDTH: "with no other warp operation (CUDA's 32-lane warp)", WAVE: "whose warp the port makes the wave",
                REFUSED: "with warp operations of their own (an argument may be a result the port widens)"}
        got = (REFUSED, "the calls of '" + f.name + "' this run shows disagree: " +
               "; ".join(f"{', '.join(v[:4])} {says[k]}" for k, v in seen.items()))
    cache[one] = got
    return got


def refuse(tr, call, f, why: str) -> None:
    """KP219 at the shuffle (or the helper declared unavailable, with a warning, where no call is seen)."""
    message = (f"cannot decide whether this shuffle of '{f.name}' reads an absolute lane of the thread's own "
               f"32-lane warp or of the 64-lane wave: {why}")
    unavailable.declare(tr, call, "KP219", message) or tr.problem(
        "KP219", call, message, "translate the helper with the files that call it; give the shuffle CUDA's width "
        "(`__shfl_sync(m, v, k, 32)`) where its lanes are the 32-lane warp's, or write its lanes with warpSize "
        "where they are the wave's")
