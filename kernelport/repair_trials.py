"""The candidates the macro repair (kernelport/macro_repair.py) tried without gain, and where each acts.

The repair keeps a candidate mask only where the parse's error shrinks; after it keeps one, a
candidate that did not help before may help now (a statement macro masked first lets the next line's
attribute macro parse), so each must be tried again, at a parse of the whole file each.  Tried
again everywhere, a file with errors at hundreds of places (a header read without the macros that
its includer defines: OpenHurricane's cuArrayBase.hpp, 393 error sites) spends its parse bound
trying the same failed masks at the top of the file after each kept mask further down, a cost that
grows with the errors times the file.  A mask acts where its bytes are and where the parse's
structure changed with it (tree-sitter's changed ranges of its trial parse): a failed candidate is
tried again only where that place meets, within a few lines, the place of the mask kept since.
"""
from __future__ import annotations

import bisect

Span = tuple[int, int]
_NEAR_LINES = 3  # a candidate's shape reads the tokens around it, as far as its error's window (3 lines)


class Trials:
    """Keys of candidates tried without gain, each with the byte spans where it acts."""

    def __init__(self, line_ends: list[int], size: int):
        self.line_ends, self.size = line_ends, size
        self.failed: dict[tuple, list[Span]] = {}
        self.unplaced: set[tuple] = set()  # tried without a parse (it would hide an error): asked again after any change
        self.sites: dict[Span, tuple[list[tuple], Span]] = {}  # error site -> the keys it gave, the bytes they read

    def at(self, site: Span, candidates, reach):
        """The candidates of an error site; none where every key it gave when last asked is still a
        failed trial, so nothing kept since acted within the bytes its candidates read (`reach()`):
        generated again, they would all be skipped (a site's shapes cost more than its failed parses)."""
        got = self.sites.get(site)
        if got is not None and all(k in self for k in got[0]):
            return
        keys = []
        for c in candidates:
            keys.append(c[0])
            yield c
        self.sites[site] = (keys, reach())  # (all given without one kept: a kept one ends the loop)

    def __contains__(self, key: tuple) -> bool:
        return key in self.failed or key in self.unplaced

    def fail(self, key: tuple, edits, changed) -> None:
        """`key` did not help: its edits and its trial parse's changed ranges are where it acts."""
        self.failed[key] = sorted([(s, e) for s, e, _ in edits] + [(r.start_byte, r.end_byte) for r in changed])

    def skip(self, key: tuple) -> None:
        self.unplaced.add(key)

    def kept(self, edits, changed) -> None:
        """A mask was kept (its edits; the ranges whose structure its parse changed): forget every
        failed candidate that acts near it, so that it is tried again in the new context."""
        near = sorted(self._widened(s, e) for s, e in [(s, e) for s, e, _ in edits] +
                      [(r.start_byte, r.end_byte) for r in changed])
        starts, ends = [s for s, _ in near], _running_max([e for _, e in near])
        self.failed = {k: spans for k, spans in self.failed.items() if not _meets(spans, starts, ends)}
        self.sites = {site: got for site, got in self.sites.items() if not _meets([got[1]], starts, ends)}
        self.unplaced.clear()

    def _widened(self, s: int, e: int) -> Span:
        """[s, e) from the start of the line _NEAR_LINES above to the end of the line _NEAR_LINES below."""
        ends = self.line_ends
        a = bisect.bisect_left(ends, s) - _NEAR_LINES - 1
        b = bisect.bisect_left(ends, e) + _NEAR_LINES
        return (ends[a] + 1 if a >= 0 else 0), (ends[b] + 1 if b < len(ends) else self.size)


def _running_max(xs: list[int]) -> list[int]:
    out, m = [], -1
    for x in xs:
        m = max(m, x)
        out.append(m)
    return out


def _meets(spans: list[Span], starts: list[int], ends: list[int]) -> bool:
    """Whether one of `spans` overlaps one of the sorted spans (`starts`, running max of `ends`)."""
    for s, e in spans:
        i = bisect.bisect_left(starts, max(e, s + 1)) - 1  # the last span starting before this one ends
        if i >= 0 and ends[i] > s:
            return True
    return False
