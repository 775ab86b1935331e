"""Atomics whose outcome depends on the order threads run them in (emulator.global_races' third
watch).  An atomicAdd/Sub/Min/Max/And/Or/Xor (and Inc/Dec of one limit) leaves the same integer
whatever the order (a float sum differs by rounding only: the oracle's tolerance); these do not:

- exchange: unordered exchanges of different values to one location (the last one's value stays,
  and each returns another's); watched as stores (GlobalWrites.store, kind "exchange");
- lost claim: a compare-and-swap that failed because an unordered thread's swap of another value
  came first from the value this one compared with (it would have won in another order:
  `atomicCAS(&owner, -1, tid)`), and whose thread never tried that location again.  A spin lock's
  acquire and a CAS loop's update retry until they succeed: never reported (nor is a loser that
  would have stored the winner's value, a lock's `1`).

Every atomic marks its block synchronised (GlobalWrites.sync): the atomics of one launch are the
protocols (locks, tickets, flags) the emulator cannot prove anything about.
"""
from __future__ import annotations

import numpy as np

from .global_races import MAX_WATCHED


class AtomicOrder:
    def __init__(self, writes):
        self.w = writes
        # id(buffer) -> (buffer, swapper, old value, new value, line: the last successful swap of each location;
        #                loser, winner, line, winner's line: the last lost claim not yet retried)
        self.tables: dict[int, tuple] = {}

    def before(self, g, op: str, p, v, m, node) -> None:
        """An atomic of lanes m is about to run (v: its values, the pointer's type)."""
        w = self.w
        if p.buf.kind != "global":
            return
        if op == "exch":
            w.store(g, p, p.addr(), v, m, node, kind="exchange")
        w.sync(g, m)

    def cas(self, g, p, a, sel, compare, new, old, node) -> None:
        """A compare-and-swap ran: lanes sel (None: all) of g at addresses a compared with `compare`,
        swapped in `new` where they matched, got `old` (lane order is the emulator's order)."""
        buf, w = p.buf, self.w
        if buf.kind != "global" or not w.watched(p) or buf.data.shape[0] > MAX_WATCHED:
            return
        me = w.ids(g)
        me = me if sel is None else me[sel]
        line = w.ctx.pos(node)[0]
        t = self.tables.get(id(buf))
        if t is None or t[0] is not buf:
            n, dt = buf.data.shape[0], buf.data.dtype
            t = self.tables[id(buf)] = (buf, np.full(n, -1, np.int64), np.zeros(n, np.int64), np.zeros(n, dt),
                                        np.zeros(n, dt), np.zeros(n, np.int32), np.full(n, -1, np.int64),
                                        np.zeros(n, np.int64), np.zeros(n, np.int32), np.zeros(n, np.int32))
        _, swapper, s_when, s_old, s_new, s_line, loser, winner, l_line, w_line = t
        retried = loser[a] == me
        loser[a[retried]] = -1
        won = old == compare
        fail = np.flatnonzero(~won)
        if fail.shape[0]:
            af, mf = a[fail], me[fail]
            # the winner: the location's last swap before this instruction (unordered: another block, or
            # another warp in this barrier epoch), unless a lane earlier in lane order swapped at the address
            # in this one (lanes of one atomic: never ordered)
            who, was, put, wln = swapper[af].copy(), s_old[af].copy(), s_new[af].copy(), s_line[af].copy()
            who[(who < 0) | ~w.apart(who, mf, s_when[af])] = -1
            ws = np.flatnonzero(won)
            if ws.shape[0]:
                ua, first = np.unique(a[ws], return_index=True)
                pos = np.minimum(np.searchsorted(ua, af), ua.shape[0] - 1)
                inside = (ua[pos] == af) & (ws[first[pos]] < fail)
                wl = ws[first[pos[inside]]]
                who[inside], was[inside], put[inside], wln[inside] = me[wl], compare[wl], new[wl], line
            lost = np.flatnonzero((who >= 0) & (was == compare[fail]) & (put != new[fail]))
            if lost.shape[0]:
                al = af[lost]
                loser[al], winner[al], l_line[al], w_line[al] = mf[lost], who[lost], line, wln[lost]
        ok = np.flatnonzero(won)
        if ok.shape[0]:
            ao = a[ok]
            swapper[ao], s_when[ao], s_old[ao], s_new[ao], s_line[ao] = me[ok], w.ctx.epoch, compare[ok], new[ok], line

    def finish(self) -> None:
        """The launch ended: a claim lost and never retried is order-dependent."""
        for buf, *_, loser, winner, l_line, w_line in self.tables.values():
            k = np.flatnonzero(loser >= 0)
            if k.shape[0]:
                j = int(k[0])
                self.w.report("lost-claim", buf, j, int(loser[j]), int(winner[j]), int(l_line[j]), int(w_line[j]))
