"""The project's warp-size decisions as a unit sees them, with a log of which were read (issue 15).

A unit's model and warpflow analysis are built once per run and shared (Project.module / analysis).
The planning pass (project_ports._decide) settles which header macros are the wave width while it
analyses the units one by one, so a unit analysed early sees fewer decisions than the run ends with;
main built its model and analysis again whenever any decision on a macro of a file it reaches changed
(tests/realcorpus: 20 of 397 analyses in one command, 78 of 693 each file alone).  But a model and its
analysis read the decisions only by name (`name in decided`, `decided.get(name)`), so they stand
where no name they read changed: then the model takes the new decisions (what a rebuild would hold,
for the readers that come after, the translators) and keeps its analysis.

`Decisions` is the dict `Visible.confirmed` holds: every read by name is logged, and any read of the
whole (iteration, size, truth, comparison, a copy) marks the whole as read, after which any change
means a rebuild, as before.
"""
from __future__ import annotations


class Decisions(dict):
    """name -> why, logging what was read (see the module's doc)."""

    __slots__ = ("asked", "whole")

    def __init__(self, *a, **k) -> None:
        super().__init__(*a, **k)
        self.asked: set[str] = set()
        self.whole = False

    # -- reads by name ----------------------------------------------------------------------
    def __contains__(self, name) -> bool:
        self.asked.add(name)
        return super().__contains__(name)

    def __getitem__(self, name):
        self.asked.add(name)
        return super().__getitem__(name)

    def get(self, name, default=None):
        self.asked.add(name)
        return super().get(name, default)

    # -- reads of the whole ------------------------------------------------------------------
    def _all(self):
        self.whole = True
        return self

    def __iter__(self):
        return super(Decisions, self._all()).__iter__()

    def __len__(self) -> int:
        return super(Decisions, self._all()).__len__()

    def __bool__(self) -> bool:
        return super(Decisions, self._all()).__len__() > 0

    def __eq__(self, other) -> bool:
        return super(Decisions, self._all()).__eq__(other)

    def __ne__(self, other) -> bool:
        return super(Decisions, self._all()).__ne__(other)

    __hash__ = None  # type: ignore[assignment]  (a dict: unhashable)

    def keys(self):
        return super(Decisions, self._all()).keys()

    def values(self):
        return super(Decisions, self._all()).values()

    def items(self):
        return super(Decisions, self._all()).items()

    def copy(self):
        return dict(super(Decisions, self._all()).items())

    def __repr__(self) -> str:
        return f"Decisions({dict.__repr__(self)})"

    # -- the question ------------------------------------------------------------------------
    def stands_with(self, new: dict) -> bool:
        """Whether what was read of these decisions reads the same in `new` (so what was built from
        them is what `new` builds).  Reads nothing itself."""
        if self.whole:
            return dict.__eq__(self, new)
        return all(dict.get(self, n, _NONE) == dict.get(new, n, _NONE) for n in self.asked)

    def become(self, new: dict) -> None:
        """Take `new`'s decisions in place (for the readers still to come), keeping the log."""
        dict.clear(self)
        dict.update(self, new)


_NONE = object()
