"""Blocks a kernel splits into 32-lane rows by its own arithmetic: `lane = tid & 31` with
`warp = tid >> 5` (or `% 32` with `/ 32`) of the same thread index.

Such a kernel means rows of 32 lanes whatever the hardware wave is: its per-warp slots, leaders
(`lane == 0`) and warp counts (`BLOCK / 32`) agree on 32.  Whether it also computes the same on a
64-lane wave (two rows to a wave) depends on its warp operations: lint decides that
(kernelport/lint/rowsplits.py).  Translate does not read this: it ports such a kernel to the
whole wave, which is correct too and uses every lane.

A function that names the hardware wave (`warpSize`, a `WARP_SIZE`-style name whose value is not
known to be 32, `__lane_id()`) mixes the two widths and is reported apart (`wave_named`).
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from . import fnscopes
from .model import Module
from .source import ident_name
from .warpsites import WARP_SIZE_NAME, int_value
from . import lazy_re

_LANE = {"&": 31, "%": 32}
_WARP = {">>": 5, "/": 32}
_THREAD = lazy_re.compile(r"^threadIdx\.x$")
_HARDWARE_LANE = {"__lane_id", "__laneid", "laneid"}


@dataclass
class Split:
    warp: Node  # the warp index's expression (`tid >> 5`)
    lanes: frozenset[str]  # locals holding the row's lane (`lane`), and the expression's text
    threads: frozenset[str]  # `threadIdx.x` and locals initialised from it (`tid`)


def _flat(text: str) -> str:
    return " ".join(text.split())


def find(module: Module, known32: frozenset[str] = frozenset()) -> tuple[dict[str, Split], set[str]]:
    """(functions that split the block into 32-lane rows -> their Split, functions that name the
    hardware wave), by key (fnscopes: `a::reduce` is not `b::reduce`).  `known32`: warp-size names known to be the constant 32 (`#define WARP_SIZE 32`),
    which are the rows' width, not the wave's."""
    src = module.source
    splits: dict[str, Split] = {}
    wave_named: set[str] = set()
    for f in module.functions.values():
        if f.body is None:
            continue
        if any((WARP_SIZE_NAME.search(t) and t not in known32) or t in _HARDWARE_LANE
               for t in src.texts_under(f.body, "identifier")):
            wave_named.add(fnscopes.of(module).key(f))
            continue
        values: dict[str, Node] = {}
        for d in src.index.under(f.body, "init_declarator"):
            v, name = d.child_by_field_name("value"), ident_name(d.child_by_field_name("declarator"))
            if v is not None and name:
                values[name] = v
        threads = {"threadIdx.x"} | {k for k, v in values.items() if _THREAD.match(_flat(src.text_of(v)))}
        lanes: set[str] = set()  # the lane expressions (`tid & 31`)
        warp: Node | None = None
        for n in src.index.under(f.body, "binary_expression"):
            op, left, right = (n.child_by_field_name(k) for k in ("operator", "left", "right"))
            if op is None or left is None or right is None:
                continue
            o, x, k = src.text_of(op), _flat(src.text_of(left)), int_value(src.text_of(right))
            if x not in threads:
                continue
            if _LANE.get(o) == k:
                lanes.add(_flat(src.text_of(n)))
            elif _WARP.get(o) == k and warp is None:
                warp = n
        if lanes and warp is not None:
            names = {k for k, v in values.items() if _flat(src.text_of(v)).strip("()") in lanes}
            splits[fnscopes.of(module).key(f)] = Split(warp, frozenset(names | lanes), frozenset(threads))
    return splits, wave_named
