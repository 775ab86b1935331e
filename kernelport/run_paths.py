"""Path facts read once per project (one run): a path's resolved form, and the compile_commands.json a
file finds (kernelport.compile_commands.find).

Each file of a run asked the filesystem again for both: `Path.resolve` stats every component of the path
(~30 us here) and the database search stats `compile_commands.json` and `build/compile_commands.json` in
the file's directory and each of its parents; a lint of tests/realcorpus + examples made 4,980 resolves and
883 searches for ~450 files in ~40 directories (stop 60).  What the filesystem says does not change within
a run, which reads every file once (the project's parses are kept the same way); a new Project (each run,
each translate of a file alone) and `lint.config.clear_cache` (each command) forget them, so a file or a
database made between two runs of one process is seen by the second, as before.
"""
from __future__ import annotations

import os
from pathlib import Path

_RESOLVED: dict = {}  # an absolute path, or (the working directory, a relative path) -> its resolved form
_FOUND: dict[Path, "Path | None"] = {}


def resolved(p: Path) -> Path:
    """`p.resolve()`, once per run (what it raises is raised again on the next ask, never kept; a
    relative path is kept with the working directory it was resolved from)."""
    key = p if p.is_absolute() else (os.getcwd(), p)
    got = _RESOLVED.get(key)
    if got is None:
        got = _RESOLVED[key] = p.resolve()
        _RESOLVED.setdefault(got, got)  # (a resolved path resolves to itself: the project asks with both)
    return got


def found(directory: Path, search) -> "Path | None":
    """`search(directory)` (a resolved directory's database search), once per run and directory."""
    if directory in _FOUND:
        return _FOUND[directory]
    got = _FOUND[directory] = search(directory)
    return got


def clear() -> None:
    _RESOLVED.clear()
    _FOUND.clear()
