"""A content-addressed cache of verify's compile and numeric results.

A compile result is keyed by the bytes of the file compiled and of every quoted header it
includes, the backend and architecture, the toolchain's path and version, and the code that
builds the command line; a kernel's numeric (and race) checks by the original's and every port's
bytes, the seed, the schedules and the kernel's name.  Both keys also hold kernelport's version
and a digest of its own sources, so an upgraded or edited kernelport never reads an old verdict.
Skipped checks (a missing tool) are never stored: installing the tool must take effect.

Entries live under $XDG_CACHE_HOME/kernelport (default ~/.cache/kernelport), one pickle per key,
written atomically; an unreadable entry is a miss, and so is one whose value is not of the shape
its reader asks for (`conforms`: a truncated, foreign or hand-edited pickle never reaches a verdict).  `kernelport verify --no-cache` bypasses it.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import re
import tempfile
from functools import lru_cache
from pathlib import Path

from . import __version__

_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.M)


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "kernelport" / "verify"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """kernelport's version and a digest of its sources (what builds commands and emulates)."""
    h = hashlib.sha256(__version__.encode())
    root = Path(__file__).resolve().parent
    for p in sorted(root.rglob("*")):
        if p.suffix in (".py", ".h", ".j2", ".json") and p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def file_digest(path: Path, _seen: set | None = None, _depth: int = 0) -> str:
    """The bytes of `path` and, recursively, of the quoted headers it includes (by name if absent;
    no deeper than any compiler follows, includes.MAX_INCLUDE_DEPTH)."""
    from .includes import MAX_INCLUDE_DEPTH, readable
    seen = _seen if _seen is not None else set()
    h = hashlib.sha256()
    p = Path(path).resolve()
    if p in seen or _depth > MAX_INCLUDE_DEPTH:
        return ""
    seen.add(p)
    try:
        data = p.read_bytes()
    except OSError:
        return "missing:" + str(p)
    h.update(data)
    for inc in _INCLUDE.findall(data):
        name = inc.decode("utf-8", "replace")
        header = readable(p, name)  # the include policy: never a device, nothing outside the project
        h.update(b"\0" + inc + b"\0" + (file_digest(header, seen, _depth + 1) if header else "unread").encode())
    return h.hexdigest()


def key(*parts: object) -> str:
    h = hashlib.sha256(code_digest().encode())
    for part in parts:
        h.update(b"\x1f" + (part if isinstance(part, bytes) else repr(part).encode()))
    return h.hexdigest()


def conforms(value, shape) -> bool:
    """Is `value` of `shape`: a type or union (`str | None`), `[S]` a list of S, `(S1, S2)` a tuple
    of exactly those, `{K: V}` a dict of those?"""
    if isinstance(shape, list):
        return isinstance(value, list) and all(conforms(v, shape[0]) for v in value)
    if isinstance(shape, tuple):
        return isinstance(value, tuple) and len(value) == len(shape) and all(map(conforms, value, shape))
    if isinstance(shape, dict):
        (ks, vs), = shape.items()
        return isinstance(value, dict) and all(conforms(k, ks) and conforms(v, vs) for k, v in value.items())
    return isinstance(value, shape)


class Cache:
    """get/put of pickled values by key; `enabled=False` (--no-cache) makes every get a miss and
    stores nothing."""

    def __init__(self, enabled: bool = True, root: Path | None = None):
        self.enabled = enabled
        self.root = root or cache_dir()
        self.hits = self.misses = 0

    def _path(self, k: str) -> Path:
        return self.root / k[:2] / f"{k}.pkl"

    def get(self, k: str, shape: object = object):
        """The value stored under k, or None: absent, unreadable, or not of `shape` (conforms)."""
        if not self.enabled:
            return None
        try:
            with open(self._path(k), "rb") as f:
                value = pickle.load(f)
        except Exception:  # absent, truncated or from an incompatible version: a miss
            value = None
        if value is None or not conforms(value, shape):
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, k: str, value) -> None:
        if not self.enabled:
            return
        p = self._path(k)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, p)
        except OSError:
            pass  # a read-only or full cache directory: verify still runs, uncached
