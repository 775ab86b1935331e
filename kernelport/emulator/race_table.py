"""The shared-memory race detector's tables (kernelport.emulator.memory's race_access reads and
writes them): the last write and the last read of every location, stamped per barrier epoch."""
from __future__ import annotations

import numpy as np

# A race-table entry: (stamp << shift) | (line id << tbits) | thread, int32; the thread is the
# thread's linear index in its block (tbits: 10 bits for up to 1024 threads), the line id one of
# the run's first 1024 source lines with a shared access, the stamp the rest (11 bits at 1024).
LINE_IDS = 1 << 10


class RaceTable:
    """Last write and last read of every shared location, stamped with the barrier epoch they
    were made in (an older stamp: no access this epoch), and the warp-sync count of the accessing
    warp (kept only once a warp of the batch has synchronised)."""
    __slots__ = ("size", "epoch", "stamp", "w", "r", "w_ws", "r_ws", "w_dirty", "r_dirty", "tbits", "tmask",
                 "shift", "max_stamp", "cleared", "unwritten")

    def __init__(self, size: int, threads_per_block: int = 1024):
        self.size = max(size, 1)
        self.epoch = 0
        self.stamp = 0
        self.tbits = max(10, (threads_per_block - 1).bit_length())  # (run.py: at most 20)
        self.tmask = (1 << self.tbits) - 1
        self.shift = self.tbits + 10
        self.max_stamp = max((1 << (31 - self.shift)) - 1, 1)
        self.w_dirty = self.r_dirty = False  # something recorded in this epoch
        self.cleared = False  # the tables were cleared: a -1 no longer says "never written"
        self.unwritten: list = []  # reads of never-written locations: (address, thread, line, block)
        self.w = np.full(self.size, -1, np.int32)
        self.r = np.full(self.size, -1, np.int32)
        self.w_ws = np.zeros(self.size, np.int32)
        self.r_ws = np.zeros(self.size, np.int32)

    def next_epoch(self, epoch: int):
        """A barrier passed: no access of an earlier epoch can race with a later one.  The next
        stamp marks this epoch's entries (a barrier costs no pass over the tables, which are as
        large as the batch's shared memory while a compacted branch touches a few lanes); only
        when the stamps run out are the tables cleared."""
        if self.w_dirty or self.r_dirty:
            if self.stamp >= self.max_stamp:
                self.w.fill(-1)
                self.r.fill(-1)
                self.stamp = 0
                self.cleared = True
            else:
                self.stamp += 1
        self.w_dirty = self.r_dirty = False
        self.epoch = epoch
