"""The garbage collector's pace for a run over many files.

CPython collects its youngest generation after every 700 net allocations of tracked objects (lists,
dicts, instances).  A lint run allocates millions of them, nearly all of which live as long as the
file's analysis or the run (a parse's index and models, each unit's tables): over tests/realcorpus
the collector ran ~780 times and took ~0.8 of ~7 CPU-seconds (measured with `gc.callbacks`),
finding a little cyclic garbage each time in work proportional to what survived.  `batch()` lets
the youngest generation grow to `YOUNG` objects first: the same garbage is found, ~14x less often,
and a collection still comes after every `YOUNG` allocations, so what a run can hold as garbage
between two collections stays bounded (10,000 objects; the peak RSS over tests/realcorpus is the same, 376-378 MB).
The lint engine's `lint_paths` runs in a batch, and so do the whole `translate` and `verify` commands (kernelport/cli.py).

Inside a batch, `settle()` says that what the process holds now lives for the rest of the block: `translate`'s
plan (every file's parse, model and warpflow analysis, which each backend's translators then read) is frozen
once made, so a full collection while the ports are made no longer traverses it (over tests/realcorpus to HIP
the one full collection of the run traversed it: ~0.4 of ~14 CPU-seconds).  The block's end thaws it
(`gc.unfreeze`), so a caller's later collections free it as before; outside a batch `settle()` does nothing.

The executable (kernelport/entry.py) also pauses the collector while a command imports its modules
(`imports()`): what an import makes (modules, functions, classes, tables) lives as long as the
process, so every collection during the ~160 imports of a one-file lint traversed a growing heap to
find nothing; they are frozen after (never traversed again), and so is everything at exit
(`at_exit_unswept()`), where the interpreter's last collection would traverse the whole heap (the
run's parses and analyses) only to free what the process's end frees anyway.  Only the executable
does either: kernelport used as a library leaves its caller's collector alone.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

YOUNG = 10_000
_batch = {"open": 0, "settled": False}  # batches open (nested: the outermost thaws), and whether one settled


@contextmanager
def imports() -> Iterator[None]:
    """The collector off for the block (a command's imports), then what the block made frozen."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was:
            gc.enable()


def at_exit_unswept() -> None:
    """Freeze every object as the process exits, before the interpreter's final collection."""
    import atexit
    atexit.register(gc.freeze)


@contextmanager
def batch() -> Iterator[None]:
    """The youngest generation's threshold raised to `YOUNG` (never lowered) for the block."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], YOUNG), *old[1:])
    _batch["open"] += 1
    try:
        yield
    finally:
        gc.set_threshold(*old)
        _batch["open"] -= 1
        if not _batch["open"] and _batch["settled"]:
            _batch["settled"] = False
            gc.unfreeze()


def settle() -> None:
    """Inside a batch: everything the process holds now frozen until the outermost batch ends (once per
    batch: a second call would also keep the garbage made since the first from every collection)."""
    if _batch["open"] and not _batch["settled"]:
        _batch["settled"] = True
        gc.freeze()
