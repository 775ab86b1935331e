"""The macros the parse saw as blanks that go with a function (`#define HD __host__ __device__`;
`HD float f()`), found by position: model.device_references (a device function's: the port needs
their definitions) and metal/headers.device_macro_uses (a host function's: left out with it).
A scan of every mask per function made those a product of the two counts (heldout48's
fractal_renderer.cu: its spliced headers, once per splice round)."""
from __future__ import annotations

import bisect
from itertools import accumulate

from . import lazy_re

_NONBLANK = lazy_re.compile(rb"[^ \t\n\r\x0b\x0c]")  # what bytes.strip() keeps


def masks_before(src, masks) -> dict[int, list]:
    """The first non-blank byte at or after each mask's end -> the masks (see `right_before`)."""
    out: dict[int, list] = {}
    for m in masks:
        out.setdefault(_next_nonblank(src.data, m.end), []).append(m)
    return out


def right_before(src, before: dict[int, list], start: int) -> list:
    """The masks of `before` (masks_before) that end at or before `start` with only blanks between
    (`not data[m.end:start].strip()`): exactly those whose first non-blank byte after their end is
    the first at or after `start`."""
    return [m for m in before.get(_next_nonblank(src.data, start), ()) if m.end <= start]


def _next_nonblank(data: bytes, pos: int) -> int:
    nb = _NONBLANK.search(data, pos)
    return nb.start() if nb else len(data)


def qualifier_macros(src, fns) -> list[str]:
    """The names of the attribute masks in each of `fns` or right before it, one per mask and function."""
    attrs = sorted((m for m in src.masks if m.reason == "attribute"), key=lambda m: m.start)
    starts = [m.start for m in attrs]
    before = masks_before(src, attrs)
    out = []
    for f in fns:
        start = (f.template_node or f.node).start_byte
        out += [m.name for m in attrs[bisect.bisect_left(starts, start):bisect.bisect_left(starts, f.node.end_byte)]]
        out += [m.name for m in right_before(src, before, start)]
    return out


class Spans:
    """Byte spans (start, end), possibly nested, asked whether one holds a position: a bisect on the
    starts and the furthest end reached so far, not a scan of every span per question."""

    def __init__(self, spans):
        spans = sorted(spans)
        self.starts = [s for s, _ in spans]
        self.reach = list(accumulate((e for _, e in spans), max))

    def holds(self, pos: int) -> bool:
        i = bisect.bisect_right(self.starts, pos)
        return i > 0 and self.reach[i - 1] > pos
