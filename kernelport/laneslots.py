"""Helpers that store through a pointer parameter at a full-wave lane index (lint's WS011 reads them),
and per-warp arrays whose 32 slots hold at either width (wave_sized_slots).

LightGBM's `ShufflePrefixSum(T value, T* buf)` (in a header) runs `buf[warpLane] = warp_sum` for
every lane of warp 0, `warpLane = threadIdx.x % warpSize`: a caller's `__shared__ T buf[32]` is
written at lanes 32-63 on a 64-lane wave.  The lane is the hardware one (taken modulo the
run-time wave width, or the lane-id built-in), so the slots needed are the wave's, not 32.  A
warp index (`threadIdx.x / warpSize`) counts at most 1024 / 64 = 16 warps there: no hazard; a
store under a test that bounds the lane from above (`if (lane < nwarps)`) is left alone.
"""
from __future__ import annotations

import re
from functools import lru_cache

from tree_sitter import Node

from . import backends, dialect, lazy_re
from .source import walk


@lru_cache(maxsize=None)
def lane_pattern() -> re.Pattern:
    """`x % warpSize`, `x & (warpSize - 1)`, the lane-id built-in: in the source dialect's spelling."""
    src = backends.source().name
    ws = re.escape(dialect.concept("warp_size").spelling(src) or "warpSize")
    lane_id = dialect.concept("lane_id").spelling(src)
    alts = [rf"%\s*{ws}\b", rf"&\s*\(\s*{ws}\s*-\s*1\s*\)"] + ([rf"\b{re.escape(lane_id)}\b"] if lane_id else [])
    return re.compile("|".join(alts))


def _lane_vars(src, body: Node) -> set[str]:
    out = set()
    for n in src.index.under(body, "init_declarator"):
        v, d = n.child_by_field_name("value"), n.child_by_field_name("declarator")
        if v is not None and d is not None and d.type == "identifier" and lane_pattern().search(src.text_of(v)):
            out.add(src.text_of(d))
    return out


def _is_lane(src, idx: Node | None, lanes: set[str]) -> bool:
    if idx is None:
        return False
    t = src.text_of(idx).strip()
    return t in lanes or bool(lane_pattern().search(t))


def _bounded(src, store: Node, body: Node, lanes: set[str]) -> bool:
    """Whether an enclosing `if` (or `?:`) tests a lane against an upper bound (`lane < n`), or the
    thread index a lane local is taken from (`(threadIdx.x < nwarps) ? s[lane] : 0` with `lane =
    threadIdx.x & (warpSize - 1)`: a lane is at most its index, so the bound holds for it too)."""
    bound = lanes | _lane_sources(src, body, lanes)
    n = store.parent
    while n is not None and n != body:
        cond = n.child_by_field_name("condition") if n.type in ("if_statement", "conditional_expression") else None
        for c in (walk(cond) if cond is not None else ()):
            if c.type == "binary_expression" and src.text_of(c.child_by_field_name("operator")) in ("<", "<="):
                if _is_lane(src, c.child_by_field_name("left"), bound):
                    return True
            if c.type == "binary_expression" and src.text_of(c.child_by_field_name("operator")) in (">", ">="):
                if _is_lane(src, c.child_by_field_name("right"), bound):
                    return True
        n = n.parent
    return False


_THREAD_INDEX = lazy_re.compile(r"threadIdx\.[xyz]")


def _lane_sources(src, body: Node, lanes: set[str]) -> set[str]:
    """The block thread indices (`threadIdx.x`) the lane locals of `body` are taken from, modulo the
    wave (`lane = threadIdx.x % warpSize`, `& (warpSize - 1)`): lane <= index, never above it."""
    out = set()
    for n in src.index.under(body, "init_declarator"):
        v, d = n.child_by_field_name("value"), n.child_by_field_name("declarator")
        if v is None or d is None or src.text_of(d) not in lanes or v.type != "binary_expression":
            continue
        left = v.child_by_field_name("left")
        while left is not None and left.type == "parenthesized_expression" and left.named_child_count == 1:
            left = left.named_children[0]
        if left is not None and _THREAD_INDEX.fullmatch(t := " ".join(src.text_of(left).split())) and \
                lane_pattern().search(src.text_of(v)):
            out.add(t)
    return out


def lane_written_params(module) -> dict[str, tuple[frozenset[int], Node]]:
    """Function name -> (positions of its pointer parameters stored at a full-wave lane index, the
    first such store)."""
    src = module.source
    out: dict[str, tuple[frozenset[int], Node]] = {}
    for f in module.functions.values():
        if f.body is None:
            continue
        params = {p.name: i for i, p in enumerate(f.params) if p.pointer}
        if not params:
            continue
        lanes = _lane_vars(src, f.body)
        found: dict[int, Node] = {}
        for a in src.index.under(f.body, "assignment_expression"):
            left = a.child_by_field_name("left")
            if left is None or left.type != "subscript_expression":
                continue
            base, idx = left.child_by_field_name("argument"), left.child_by_field_name("indices")
            if base is None or base.type != "identifier" or src.text_of(base) not in params or idx is None:
                continue
            named = [c for c in idx.named_children if c.type != "comment"]
            if len(named) == 1 and _is_lane(src, named[0], lanes) and not _bounded(src, a, f.body, lanes):
                found.setdefault(params[src.text_of(base)], a)
        if found:
            out[f.name] = (frozenset(found), min(found.values(), key=lambda n: n.start_byte))
    return out


_WS_INDEX = lazy_re.compile(r"/\s*warpSize\b")
# a block's warp index counted in 32-lane groups (`threadIdx.x >> 5`, `threadIdx.x / 32`): at most 1024 / 32 = 32
# on any wave, so it stays inside 32 slots (its own width hazard is WS003's)
_WARP32_INDEX = lazy_re.compile(r"^\(?\s*threadIdx\.[xyz]\s*\)?\s*(>>\s*5|/\s*32)$")
_NAME = lazy_re.compile(r"\b[A-Za-z_]\w*\b")


def wave_sized_slots(src, body: Node, name: str) -> bool:
    """Whether every subscript of the array `name` in `body` indexes it by a warp index or a lane taken
    from the run-time wave width (`tid / warpSize`, `tid % warpSize`: no hardcoded 32 the port makes the
    wave; or a 32-lane warp index of the block, `threadIdx.x >> 5`, at most 1024 / 32 = 32), each lane under an
    upper bound (`(lane < nwarps) ? s[lane] : 0`): at most 1024 / 64 = 16
    warps, and lanes below the warp count, so 32 slots hold at either width (the softmax samples' block max)."""
    portable = {src.text_of(d) for n in src.index.under(body, "init_declarator")
                if (v := n.child_by_field_name("value")) is not None and
                (d := n.child_by_field_name("declarator")) is not None and d.type == "identifier" and
                (lane_pattern().search(t := src.text_of(v)) or _WS_INDEX.search(t) or _WARP32_INDEX.match(t.strip()))}
    for n in src.index.under(body, "identifier"):  # passed to a helper or aliased: its indices are not seen here
        p = n.parent
        if src.text_of(n) == name and p is not None and p.type != "array_declarator" and \
                not (p.type == "subscript_expression" and p.child_by_field_name("argument") == n):
            return False
    lanes, seen = _lane_vars(src, body), False
    for n in src.index.under(body, "subscript_expression"):
        base = n.child_by_field_name("argument")
        if base is None or base.type != "identifier" or src.text_of(base) != name:
            continue
        seen = True
        idx = n.child_by_field_name("indices")
        used = set(_NAME.findall(src.text_of(idx))) if idx is not None else {""}
        if not used or not used <= portable or used & lanes and not _bounded(src, n, body, lanes):
            return False
    return seen
