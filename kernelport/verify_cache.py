"""A content-addressed cache of verify's compile and numeric results.

A compile result is keyed by the bytes of the file compiled and of every quoted header it
includes (and of those found on its configured include dirs), the configuration its compiler is
given (kernelport.compile_flags: defines, include dirs, forced includes and their bytes), the backend and architecture, the toolchain's path and version, and the code that
builds the command line and the environment the tools read (toolchains.TOOL_ENV) (not by the file's path: byte-identical files share one run, and the
result is stored with the file's path as a placeholder, put back as the reading file's own:
`without_path` / `at_path`, so a message names the file it is about); a kernel's numeric (and race) checks by the original's and every port's
bytes, the seed, the schedules and the kernel's name.  Both keys also hold kernelport's version
and a digest of its own sources, so an upgraded or edited kernelport never reads an old verdict.
Skipped checks (a missing tool) are never stored: installing the tool must take effect.  Each entry
keeps the seconds its work took where it ran, so a verdict read from the cache still reports a
measured figure (verify's `run_seconds`) beside this run's lookup (`seconds`).

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
import time
from functools import lru_cache
from pathlib import Path

from . import __version__, absent_libraries

_INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.M)
_ANY_INCLUDE = re.compile(rb'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.M)


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


def file_digest(path: Path, _seen: set | None = None, _depth: int = 0, dirs: tuple[str, ...] = ()) -> str:
    """The bytes of `path` and, recursively, of the quoted headers it includes (by name if absent;
    no deeper than any compiler follows, includes.MAX_INCLUDE_DEPTH); with include `dirs`, of the
    headers found there too (a quoted one not beside its includer, an angled one)."""
    from .includes import MAX_INCLUDE_DEPTH, locate, readable
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
    for m in (_ANY_INCLUDE if dirs else _INCLUDE).finditer(data):
        inc, angled = m.group(1) or m.group(2), m.group(1) is None
        name = inc.decode("utf-8", "replace")
        header = None if angled else readable(p, name)  # the include policy: never a device, nothing outside the project
        if header is None and dirs:
            header = locate(p.parent, f"<{name}>", dirs)  # the configured -I dirs, as the emulator reads them
        h.update(b"\0" + inc + b"\0" + (file_digest(header, seen, _depth + 1, dirs) if header else "unread").encode())
    return h.hexdigest()


def kernel_digest(path: Path) -> str:
    """file_digest of a kernel file as the emulator reads it: with the include dirs, defines and
    forced includes it is configured with (its pyproject's [tool.kernelport], compile_commands.json),
    each of which can change what a kernel computes."""
    from .errors import KernelportError
    from .project import Options
    from .project_ports import configured
    try:
        opts = configured(Path(path))
    except KernelportError:  # the emulator reads such a file unconfigured (and translate says why)
        opts = Options()
    forced = [file_digest(Path(f), dirs=opts.include_dirs) for f in opts.forced_includes]
    return hashlib.sha256(repr((file_digest(path, dirs=opts.include_dirs), opts.include_dirs, opts.defines,
                                opts.forced_includes, forced)).encode()).hexdigest()


_PATH = "\x00PATH"


def _spellings(path) -> list[str]:
    """The ways a compile's command and messages name `path`: absolute, and as given (longest first)."""
    given, absolute = str(path), os.path.abspath(path)
    return sorted({given, absolute}, key=len, reverse=True)


def without_path(value, path):
    """A copy of a dataclass `value` (a compile result) whose text fields name `path` by a placeholder."""
    from dataclasses import fields, replace
    pats = [re.compile(r"(?<![\w./-])" + re.escape(s) + r"(?![\w/])") for s in _spellings(path)]

    def swap(text: str) -> str:
        for pat in pats:
            text = pat.sub(_PATH, text)
        return text
    return replace(value, **{f.name: _swap_field(getattr(value, f.name), swap) for f in fields(value)})


def at_path(value, path):
    """`value` stored by `without_path`, naming `path` (the file this run compiled) again."""
    from dataclasses import fields, replace
    given = str(path)
    return replace(value, **{f.name: _swap_field(getattr(value, f.name), lambda t: t.replace(_PATH, given))
                             for f in fields(value)})


def _swap_field(v, swap):
    if isinstance(v, str):
        return swap(v)
    if isinstance(v, list) and all(isinstance(a, str) for a in v):
        return [swap(a) for a in v]
    return v


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


def compile_group(cache: Cache, job) -> list[tuple]:
    """(backend, wave, CompileResult, seconds, ran) per run of one (backend, path, runs[, origin]):
    each cached by the bytes compiled, the architecture and the toolchain, with the seconds it took
    (`ran`, None where compiled now); the misses compiled together (one hipcc run builds every
    architecture), their seconds shared.  `seconds`: this run's (a hit's: its lookup).  `origin`:
    the original a port ports, whose configuration it is compiled with (default: `path`'s own)."""
    from .toolchains import CompileResult, find_tool, steering
    be, p, runs, *origin = job
    t0 = time.perf_counter()
    from .compile_flags import configured, only
    tools = [(t, (tc.path, tc.version) if (tc := find_tool(t)) is not None else None, steering(t)) for t in be.tools]
    config = only(configured(origin[0] if origin else p), be.build_reads)  # what the compiler is given
    read = [file_digest(Path(f), dirs=config.include_dirs) for f in config.forced_includes]  # and the headers it reads
    keys = [key("compile", be.name, run.arch, tools, config, read, file_digest(p, dirs=config.include_dirs))
            for run in runs]
    got = [cache.get(k, (CompileResult, float)) for k in keys]
    misses = [i for i, r in enumerate(got) if r is None]
    ran = [None if r is None else r[1] for r in got]
    got = [None if r is None else at_path(r[0], p) for r in got]  # the key has no path: a message names p
    t1 = time.perf_counter()
    for i, r in zip(misses, be.compile_all(p, [runs[i] for i in misses], config) if misses else []):
        got[i] = r
    each = (time.perf_counter() - t1) / max(1, len(misses))
    for i in misses:  # a missing tool or library is not a verdict: installing it must take effect
        if not got[i].skipped and (got[i].ok or absent_libraries.reason(be.name, got[i].output) is None):
            cache.put(keys[i], (without_path(got[i], p), each))
    look = (t1 - t0) / len(runs)
    return [(be.name, run.wave, r, look + (each if s is None else 0.0), s) for run, r, s in zip(runs, got, ran)]
