"""Device helpers that work on the hardware wave, whatever their caller's lanes (lint's WS021 reads them).

DeepEP's `get_lane_id()` is `threadIdx.x % warpSize` in its HIP build, `elect_one_sync()` is
`get_lane_id() == 0`, and `warp_reduce_sum<kNumLanesPerGroup = kWarpSize>` folds every lane of
the wave: each one spans 64 lanes on AMD CDNA.  A caller that lays its threads out in groups of
32 (`lane = tid % 32`, `warp = tid / 32`) and calls one of them has two groups in one wave: the
reduction sums both, the election picks only the first group's leader.

A helper is wave-wide when its text (either branch of an `#ifdef`: the HIP one is the port's)
takes the lane modulo the run-time wave width or from the lane-id built-in, defaults a width or
group size (a parameter or a template parameter) to a warp-size name (`kWarpSize`, `warpSize`),
or calls a wave-wide helper.  A warp-size name the project hardcodes as 32 is left to the caller
to judge (`defaults_to` names it).
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from .laneslots import lane_pattern
from .model import Module
from .warpsites import WARP_SIZE_NAME
from . import lazy_re

# `int width = kWarpSize` / `template <int kNumLanesPerGroup = kWarpSize>`: the default is the warp.
_DEFAULT = lazy_re.compile(r"=\s*(?P<name>[A-Za-z_]\w*)\s*[,)>]")
# A fold whose first step is half the run-time width takes in every lane of the wave.
_LADDER = lazy_re.compile(r"\bwarpSize\s*(/\s*2|>>\s*1)\b")


@dataclass(frozen=True)
class WaveHelper:
    """A helper that spans the whole wave, and why."""
    why: str  # what makes it span the wave
    path: str
    line: int
    defaults_to: str | None = None  # the warp-size name a default width is (None: the lane itself)


def wave_helpers(module: Module, path: str, known: dict[str, WaveHelper] | None = None) -> dict[str, WaveHelper]:
    """The device functions of `module` that work on the hardware wave (through `known`, those of
    the headers before it, too)."""
    src = module.source
    known = dict(known or {})
    out: dict[str, WaveHelper] = {}
    fns = [f for f in module.functions.values() if f.body is not None and f.is_device and not f.is_kernel]
    for f in fns:
        head = src.text_of(f.template_node or f.node)[: f.body.start_byte - (f.template_node or f.node).start_byte]
        body = src.text_of(f.body)
        m = lane_pattern().search(body) or _LADDER.search(body)
        if m is not None:
            out[f.name] = WaveHelper(f"its lanes are those of `{m.group(0).strip()}`, the hardware wave's", path,
                                     src.loc(f.node).line)
            continue
        for d in _DEFAULT.finditer(head):
            if WARP_SIZE_NAME.search(d.group("name")) or d.group("name") == "warpSize":
                out[f.name] = WaveHelper(f"its group defaults to `{d.group('name')}` lanes", path,
                                         src.loc(f.node).line, d.group("name"))
                break
    changed = True
    while changed:  # callers of wave-wide helpers, in this file or the headers before it
        changed = False
        for f in fns:
            if f.name in out:
                continue
            for name in _callees(src, f.body):
                h = out.get(name) or known.get(name)
                if h is not None and name != f.name:
                    out[f.name] = WaveHelper(f"it calls `{name}`, whose {h.why.removeprefix('its ')}", path,
                                             src.loc(f.node).line, h.defaults_to)
                    changed = True
                    break
    return out


def _callees(src, body: Node) -> list[str]:
    names = []
    for c in src.index.under(body, "call_expression"):
        fn = c.child_by_field_name("function")
        if fn is not None and fn.type == "template_function":
            fn = fn.child_by_field_name("name")
        if fn is not None and fn.type in ("identifier", "qualified_identifier"):
            names.append(src.text_of(fn).split("::")[-1])
    return names
