"""Precompiled system headers for the HIP compile check (toolchains.compile_hip_each).

Nearly all of a HIP compile check is clang parsing hip_runtime.h (~68k lines) three times, for the
host and for each GPU architecture: measured with ROCm 5.2's hipcc, a file that only includes it
costs what a port does.  Here a file's first `#include <...>` (when only blank and `//` lines
come before it; in every port kernelport writes, the HIP runtime; a portable port's kp_warp.h,
whose own text is the prefix: kernelport.guarded_headers) is compiled once per toolchain,
flags and target into a precompiled header (clang's -emit-pch),
kept in a directory keyed by all of those, and the file is built against it: the host object
(`--cuda-host-only`) and each architecture's code object (`--cuda-device-only`, device code
compiled and linked by lld, as in `hipcc -c`); only the bundling of the code objects into the
host object is not done.  The file itself is still the whole translation unit: its own include
line comes after the precompiled one and is skipped by the header's guard.  One include, not the
file's whole opening run of them: the PCHs of a tree are then a few (~10 MB and ~1 s CPU each),
not one set per combination of includes, which would cost more than it saves.

A build that fails with a PCH is never a verdict: the caller compiles the plain way, so a failure
and its message are exactly `hipcc -c`'s (and a PCH clang refuses, its headers changed since, is
deleted and built again).  The directory: $KERNELPORT_PCH_DIR, else
$XDG_CACHE_HOME/kernelport/pch (~/.cache); `KERNELPORT_PCH_DIR=off` turns PCHs off.

Pruning: a PCH is 10-30 MB and a new one is made for every toolchain, flag set and target ever
used, so the directory is pruned each time a PCH is built (never on a compile that reuses one):
an entry (its .pch, .hip and .lock) not used for MAX_AGE_DAYS is deleted, and then, while the
directory holds more than MAX_BYTES, the least recently used ones, except those used within the
last KEEP_RECENT_S (a run in progress may be about to read them).  Use is recorded by the
entry's .lock file's modification time (touched at each reuse; the .pch and .hip are never
touched: clang checks the date of the PCH's source).  A build directory a killed build left
behind is deleted after a day.  A PCH deleted under a compile that was about to use it fails
that build, which is no verdict: the plain build gives it.
"""
from __future__ import annotations

import hashlib
import os
import re
import subprocess
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ENV = "KERNELPORT_PCH_DIR"
_PREFIX_LINE = re.compile(r"[ \t]*(?://[^\n]*)?")  # a blank or comment-only line
_SYSTEM_INCLUDE = re.compile(r"[ \t]*#[ \t]*include[ \t]*<([^<>\n]+)>[ \t]*(?://[^\n]*)?")
MAX_AGE_DAYS = 30
MAX_BYTES = 1 << 30  # 1 GiB: ~40-100 PCHs
KEEP_RECENT_S = 3600
# The header's own pending template instantiations made once, in the PCH, rather than at the end of
# every file built against it (CMake's default for its PCHs): measured with ROCm 5.2, a port's host
# part 0.16 -> 0.09 s CPU and each architecture's 0.25 -> 0.16 s, the objects byte-identical (the 14
# examples' ports and 15 of tests/, every part); building the PCH costs the same.  A clang without
# the option builds no PCH, and the plain `hipcc -c` runs give the verdict.
BUILD_FLAGS = ("-fpch-instantiate-templates",)
_ENTRY_FILES = (".pch", ".hip", ".lock")  # an entry's files: the PCH, the prefix it was built from, its lock


@contextmanager
def directory(path):
    """$KERNELPORT_PCH_DIR set to `path` for a block (and the processes it starts)."""
    before = os.environ.get(ENV)
    os.environ[ENV] = str(path)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before


def pch_dir() -> Path | None:
    d = os.environ.get(ENV)
    if d is not None:
        d = d.strip()
        return None if d.lower() in ("", "off") else Path(d)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "kernelport" / "pch"


def system_prefix(text: str) -> str:
    """The `#include <...>` line that opens `text` (blank and `//` lines before it skipped), or ""
    when the file opens with anything else: a macro defined before a system header may change what
    it declares, so only a system include that comes first is precompiled."""
    for line in text.split("\n"):
        m = _SYSTEM_INCLUDE.fullmatch(line)
        if m:
            return f"#include <{m.group(1).strip()}>\n"
        if not _PREFIX_LINE.fullmatch(line):
            break
    return ""


def _identity(exe: str) -> str:
    st = os.stat(os.path.realpath(exe))
    return f"{os.path.realpath(exe)}\0{st.st_size}\0{st.st_mtime_ns}"


def build(exe: str, flags: list[str], prefix: str, env: dict, timeout: float, *, tool: str = "hipcc",
          header: Path | None = None, build_flags=None) -> Path | None:
    """The PCH of `prefix` compiled with `exe` and `flags` (the compile's own, less its source and
    output), built once and kept; None when PCHs are off or clang cannot build one.  `header`: the
    file whose text `prefix` is, built in place (its path in the key), so that diagnostics name it
    and clang checks its date; else a copy of `prefix` kept beside the PCH.  `tool`: whose
    environment variables steer the build (toolchains.TOOL_ENV); `build_flags`: BUILD_FLAGS unless given."""
    root = pch_dir()
    build_flags = BUILD_FLAGS if build_flags is None else build_flags
    if root is None or not prefix:
        return None
    try:
        ident = _identity(exe)
    except OSError:
        return None
    from .toolchains import steering  # what hipcc reads from the environment (HIPCC_COMPILE_FLAGS_APPEND, ...)
    env_text = [f"{k}={v}" for k, v in steering(tool, env)]
    place = [str(header)] if header is not None else []
    parts = [ident, *flags, *build_flags, prefix, *env_text, *place]
    key = hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:40]
    out = root / f"{key}.pch"
    if out.is_file():
        _used(root / f"{key}.lock")
        return out
    try:
        root.mkdir(parents=True, exist_ok=True)
        with open(root / f"{key}.lock", "w") as lock:  # a second process waits for the first's build
            import fcntl
            fcntl.flock(lock, fcntl.LOCK_EX)
            if out.is_file():
                return out
            src = header
            if src is None:
                src = root / f"{key}.hip"  # kept: clang reads the PCH's source back (and checks its date)
                src.write_text(prefix)
            with tempfile.TemporaryDirectory(dir=root, prefix=".build-") as tmp:
                part = os.path.join(tmp, "prefix.pch")
                from .compile_cache import note
                cmd = [exe, *flags, *build_flags, "-S", "-Xclang", "-emit-pch", "-o", part, str(src)]
                note("uncached", cmd)
                from .subproc import run as run_group  # a timeout ends hipcc's clang too
                proc = run_group(cmd, timeout=timeout, env=env)
                if proc.returncode != 0 or not os.path.isfile(part):
                    return None
                os.replace(part, out)
    except (OSError, subprocess.SubprocessError):
        return None
    prune(root, keep=key)
    return out


def _used(lock: Path) -> None:
    try:
        os.utime(lock)
    except OSError:
        pass  # no lock (an older directory's entry): its .pch's date stands for its use


def prune(root: Path, *, keep: str = "", now: float | None = None, max_age_days: float = MAX_AGE_DAYS,
          max_bytes: int = MAX_BYTES, keep_recent_s: float = KEEP_RECENT_S) -> list[str]:
    """Delete the entries of `root` not used for `max_age_days`, then the least recently used ones
    (never `keep`, nor one used within `keep_recent_s`) while the directory holds over `max_bytes`;
    the keys deleted, oldest first."""
    now = time.time() if now is None else now
    entries: dict[str, dict] = {}
    try:
        names = os.listdir(root)
    except OSError:
        return []
    for name in names:
        path = root / name
        if name.startswith(".build-"):
            try:
                if now - path.stat().st_mtime > 86400:
                    shutil.rmtree(path, ignore_errors=True)
            except OSError:
                pass
            continue
        k, dot, ext = name.rpartition(".")
        if not dot or dot + ext not in _ENTRY_FILES:
            continue
        try:
            st = path.stat()
        except OSError:
            continue
        e = entries.setdefault(k, {"files": [], "bytes": 0, "used": None, "made": 0.0})
        e["files"].append(path)
        e["bytes"] += st.st_size
        if dot + ext == _ENTRY_FILES[2]:
            e["used"] = st.st_mtime
        e["made"] = max(e["made"], st.st_mtime)
    for e in entries.values():
        e["used"] = e["used"] if e["used"] is not None else e["made"]
    gone: list[str] = []
    total = sum(e["bytes"] for e in entries.values())
    for k, e in sorted(entries.items(), key=lambda kv: kv[1]["used"]):
        if k == keep:
            continue
        age = now - e["used"]
        if age > max_age_days * 86400 or (total > max_bytes and age > keep_recent_s):
            for f in e["files"]:
                try:
                    f.unlink()
                except OSError:
                    pass
            total -= e["bytes"]
            gone.append(k)
    return gone


def forget(pch: Path) -> None:
    """A PCH that failed where the plain build passed (clang refuses a PCH whose headers changed):
    the next build makes it again."""
    for p in (pch, pch.with_suffix(".hip")):
        try:
            p.unlink()
        except OSError:
            pass
