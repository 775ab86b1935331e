"""Verify's compile jobs of one file, run on threads while the verifier's own thread goes on.

The original's compile is begun before its ports are translated (its job reads the original and its
configuration only, nothing a translation makes): nvcc of the original is a file's longest compile
(~0.6 s CPU against ~0.1 s per HIP part and less for the Metal check), and it ran after the drift
check's translations, on the file's critical path.  The ports' jobs are added when their texts are
known.  The results come back in the order the jobs were begun (the original's, then each port's),
so the checks stand where they always stood; every job is the one it was, so every verdict too.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

from . import backends


def compile_jobs(path: Path, ports: dict | None, *, original: bool = True) -> list[tuple]:
    """(backend, file, its compile runs, the original) of the original `path` (unless `original` is False)
    and of each port of `ports` written to a file (backend -> (its path or None, ...)); every job reads
    the original's configuration."""
    files = [(backends.source(), path)] if original else []
    files += [(backends.get(name), p) for name, (p, *_) in (ports or {}).items() if p is not None]
    return [(be, p, be.compile_runs(), path) for be, p in files]


class Compiles:
    """Compile jobs begun on a thread pool; `results` waits for them, in the order begun.  `run` is
    None for no compiles at all (tests that judge every other check)."""

    def __init__(self, run: Callable[[tuple], list] | None):
        self._run = run
        # threads start as jobs come (at most one per job): the bound is the machine's cores
        self._pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1) if run is not None else None
        self._futures: list = []

    def begin(self, jobs: list[tuple]) -> "Compiles":
        if self._pool is not None:
            self._futures += [self._pool.submit(self._run, job) for job in jobs]
        return self

    def results(self) -> list:
        """Every job's results, in the order the jobs were begun (each job's list flattened)."""
        if self._pool is None:
            return []
        with self._pool:
            return [r for f in self._futures for r in f.result()]

    @contextmanager
    def abandoned_on_error(self):
        """A block that may fail before the results are asked for: then the jobs not started are dropped
        (the running ones end on their own) and the error goes on."""
        try:
            yield
        except BaseException:
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
            raise
