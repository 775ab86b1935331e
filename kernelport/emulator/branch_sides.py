"""Which side of which divergent if/else a store ran on (emulator.global_races): CUDA orders neither
side of a divergent branch before the other (since Volta a warp's diverged paths are scheduled
independently; before it, which side runs first is the compiler's), so when two lanes of one warp
store different values to one global location on the two sides of one divergent `if`, what memory
holds is the GPU's choice.  The emulator runs the then-side first: without this a warp's stores were
ordered by the program, the oracle compared a value the GPU need not give (heldout89 fuzzy.cu's
FillWeightArrayS_out_Kernel: threads 0-2 all store `WeightArray_dev[0]`, two on one side, one on the
other, since `int x = horizontal_line - i` truncates; the GPU kept the other side's value).

A group's path is the stack of (if statement, side) of the divergent branches it is inside; each
path gets an id, stored per watched location beside its last writer.  Two stores of one warp in one
barrier epoch are unordered where their paths part at one `if` on its two sides.  A branch the
whole group takes one way (a uniform condition) is no divergence and pushes nothing.
"""
from __future__ import annotations

import numpy as np


class Sides:
    def __init__(self):
        self.stacks: dict[int, list] = {}  # id(group) -> [(if id, side), ...]
        self.ids: dict[tuple, int] = {(): 0}
        self.paths: list[tuple] = [()]
        self.tables: dict[int, tuple] = {}

    def _stack(self, g) -> list:
        """g's stack, behind its own: a compacted branch's SubGroup runs inside its parent's path."""
        own = self.stacks.get(id(g))
        parent = getattr(g, "parent", None)
        return (self._stack(parent) if parent is not None else []) + (own or [])

    def push(self, g, node, side: bool) -> None:
        self.stacks.setdefault(id(g), []).append((id(node), side))

    def pop(self, g) -> None:
        self.stacks[id(g)].pop()

    def tag(self, g) -> int:
        st = self._stack(g)
        if not st:
            return 0
        key = tuple(st)
        k = self.ids.get(key)
        if k is None:
            k = self.ids[key] = len(self.paths)
            self.paths.append(key)
        return k

    def table(self, buf) -> np.ndarray:
        t = self.tables.get(id(buf))
        if t is None or t[0] is not buf:
            t = self.tables[id(buf)] = (buf, np.zeros(buf.data.shape[0], np.int32))
        return t[1]

    def _parted(self, a: int, b: int) -> bool:
        for x, y in zip(self.paths[a], self.paths[b]):
            if x != y:
                return x[0] == y[0]  # one if, its two sides
        return False

    def apart(self, prev_tags, tag: int, prev, me, epoch, ctx) -> np.ndarray:
        """Per element: the earlier store (thread prev, its path prev_tags) and this one (me, path tag) are
        lanes of one warp in one barrier epoch on the two sides of one divergent if."""
        out = np.zeros(prev.shape[0], bool)
        if not tag and not prev_tags.any():
            return out
        pt, W = ctx.padded_threads, ctx.W
        same = (prev // pt == me // pt) & ((prev % pt) // W == (me % pt) // W) & (epoch == ctx.epoch)
        for t in np.unique(prev_tags[same]):
            if self._parted(int(t), tag):
                out |= same & (prev_tags == t)
        return out
