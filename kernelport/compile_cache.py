"""A content-addressed store of compiler runs, for sessions that compile the same bytes many times
(the test suite and CI compile each bundled port in several tests).  Off unless
$KERNELPORT_COMPILE_CACHE names a directory; `kernelport verify` keeps its own cache of verdicts.

A run is keyed by what decides its result: the compiler executable (its path, size and mtime), the
environment variables that steer it, its command line with the source, output and include
directories taken out, and the bytes of the source and, recursively, of every header it includes
found as the compiler finds it (a quoted one in the includer's directory, then, as an angled one, in
the include directories the caller names; one found in neither is a system header).  So the same bytes compiled from two directories run once, and the stored
output names the directory of the run that reads it.  A command with an include option the caller
did not name (-I..., -include) is never stored: its headers are not all known here.  Only finished
runs are stored (not a timeout, not a compiler that could not start), their declared output files
with them, so a reader of the assembly gets the same bytes.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import re
import subprocess
import tempfile
from pathlib import Path

ENV = "KERNELPORT_COMPILE_CACHE"
LOG_ENV = "KERNELPORT_TOOL_LOG"  # tests/cpu_profile.py counts toolchain runs per test through it
_STEERING = re.compile(r"^(PATH|CPATH|C_INCLUDE_PATH|CPLUS_INCLUDE_PATH|LIBRARY_PATH|(HIP|ROCM|HCC|CUDA|NVCC|LLVM)\w*)$")
_UNKNOWN_INCLUDES = ("-I", "-i", "--include")  # -I, -isystem, -iquote, -include, -idirafter, ...
_SEPARATE = ("I", "isystem", "iquote", "idirafter", "include", "imacros", "include-directory", "include-pch")
_INCLUDED = re.compile(rb'^\s*#\s*(?:include|import)\s*(?:"([^"]+)"|<([^>]+)>)', re.M)


def cache_root() -> Path | None:
    d = os.environ.get(ENV, "").strip()
    return Path(d) if d else None


def note(event: str, cmd: list[str]) -> None:
    """Append `event` (hit, miss: run and stored, uncached: run) and the tool's name to $KERNELPORT_TOOL_LOG
    when it names a file: a profile of the test suite counts the runs of CLI subprocesses too."""
    log = os.environ.get(LOG_ENV)
    if log:
        try:
            with open(log, "a") as f:
                f.write(f"{event}\t{os.path.basename(cmd[0]) if cmd else '?'}\n")
        except OSError:
            pass


def _tree_digest(path: Path, dirs: tuple[Path, ...], h, seen: set, depth: int = 0) -> None:
    """Feed `path`'s bytes and, recursively, its quoted headers' (or their absence) into `h`, no
    deeper than a compiler follows (includes.MAX_INCLUDE_DEPTH)."""
    from .includes import MAX_INCLUDE_DEPTH, is_regular
    real = os.path.realpath(path)
    if real in seen or depth > MAX_INCLUDE_DEPTH:
        return
    seen.add(real)
    try:
        data = Path(real).read_bytes()
    except OSError:
        h.update(b"\0unreadable")
        return
    h.update(b"\0" + str(len(data)).encode() + b"\0" + data)
    for quoted, angled in _INCLUDED.findall(data):
        name = quoted or angled
        text = name.decode("utf-8", "replace")
        beside = (Path(real).parent / text,) if quoted else ()  # an angled one: the include dirs only
        found = next((c for c in (*beside, *(d / text for d in dirs)) if is_regular(c)), None)
        h.update(b"\0include " + (b'"' if quoted else b"<") + name)
        if found is None:
            h.update(b"\0absent")  # a system header (fixed by the toolchain) or a compile error
        else:
            _tree_digest(found, dirs, h, seen, depth + 1)


def _places(source: Path | None, search_dirs, inputs, outputs) -> list[tuple[str, str]]:
    """(path text, placeholder) pairs, longest first, so that a file's path goes before its directory.
    Only absolute paths other than the root: a placeholder for "." or "/" would rewrite any text."""
    pairs = [(str(source), "\x00SRC"), (str(source.parent), "\x00DIR")] if source is not None else []
    pairs += [(str(d), f"\x00INC{i}") for i, d in enumerate(search_dirs)]
    pairs += [(str(f), f"\x00FILE{i}") for i, f in enumerate(inputs)]
    pairs += [(str(Path(o).parent), f"\x00OUT{i}") for i, o in enumerate(outputs)]
    pairs = [(a, b) for a, b in pairs if os.path.isabs(a) and a != os.sep or b == "\x00SRC"]
    return sorted(pairs, key=lambda p: -len(p[0]))


def _named(args: list[str], i: int) -> bool:
    """Whether the include option at args[i] (joined or followed by its value) names a directory or
    file the caller declared, so that its headers are in the key."""
    separate = args[i].lstrip("-") in _SEPARATE and i + 1 < len(args)
    value = args[i + 1] if separate else args[i]
    return "\x00INC" in value or "\x00FILE" in value


def _swap(text: str, pairs) -> str:
    for a, b in pairs:
        text = text.replace(a, b)
    return text


def _key(cmd: list[str], env: dict | None, source: Path | None, search_dirs, inputs, pairs,
         input_text: str | None) -> str | None:
    generic = [_swap(a, pairs) for a in cmd[1:]]
    if any(a.startswith(_UNKNOWN_INCLUDES) and not _named(generic, i) for i, a in enumerate(generic)):
        return None
    try:
        exe = os.path.realpath(cmd[0])
        st = os.stat(exe)
    except OSError:
        return None
    h = hashlib.sha256(f"{exe}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    environ = os.environ if env is None else env
    for name in sorted(n for n in environ if _STEERING.match(n)):
        h.update(f"\0{name}={environ[name]}".encode())
    h.update(b"\0cmd\0" + "\x1f".join(generic).encode())
    h.update(b"\0stdin\0" + (input_text.encode() if input_text is not None else b"\0none"))
    dirs = tuple(Path(d) for d in search_dirs)
    for f in (*([source] if source is not None else []), *inputs):
        _tree_digest(Path(f), dirs, h, set())
    return h.hexdigest()


# Runs kept for this process's life by `run(..., memo=True)`: a check that writes no file, made again
# on the same bytes (translate's Metal self-check of a port, then verify's compile check of it)
_MEMO: dict[str, tuple[int, str, str]] = {}


def run(cmd: list[str], source=None, *, search_dirs=(), inputs=(), outputs=(), env: dict | None = None,
        timeout: float | None = None, input_text: str | None = None, cwd=None,
        memo: bool = False) -> subprocess.CompletedProcess:
    """`subprocess.run(cmd)` (text, captured; stdin `input_text` or none) compiling `source` (None:
    a probe such as `--version`), answered from the cache when an identical run is stored.
    `search_dirs`: the include directories `cmd` names; `inputs`: other files it reads (a forced
    -include, or each of many sources); `outputs`: the files it writes (restored on a hit); `cwd`:
    where it runs (not in the key: name every file it reads by an absolute path).  `memo` (a run
    with no `outputs`): an identical run made earlier in this process answers, by the same key,
    with or without the cache directory."""
    root = cache_root()
    source = Path(source) if source is not None else None
    pairs = _places(source, search_dirs, inputs, outputs)
    memo = memo and not outputs
    k = _key(cmd, env, source, search_dirs, inputs, pairs, input_text) if root is not None or memo else None
    back = [(b, a) for a, b in pairs]
    if memo and k in _MEMO:
        rc, out, err = _MEMO[k]
        note("hit", cmd)
        return subprocess.CompletedProcess(cmd, rc, _swap(out, back), _swap(err, back))
    entry = root / k[:2] / f"{k}.pkl" if k and root is not None else None
    if entry is not None:
        try:
            with open(entry, "rb") as f:
                rc, out, err, files = pickle.load(f)
        except Exception:  # absent or unreadable: a miss
            pass
        else:
            for name, data in zip(outputs, files):
                if data is not None:
                    Path(name).write_bytes(data)
            note("hit", cmd)
            if memo:
                _MEMO[k] = (rc, out, err)
            return subprocess.CompletedProcess(cmd, rc, _swap(out, back), _swap(err, back))
    from .subproc import run as run_group  # a timeout ends the compiler's children too
    proc = run_group(cmd, timeout=timeout, env=env, input=input_text, cwd=cwd)
    note("miss" if entry is not None else "uncached", cmd)
    if memo and k:
        _MEMO[k] = (proc.returncode, _swap(proc.stdout, pairs), _swap(proc.stderr, pairs))
    if entry is not None:
        files = [Path(o).read_bytes() if os.path.isfile(o) else None for o in outputs]
        _store(entry, (proc.returncode, _swap(proc.stdout, pairs), _swap(proc.stderr, pairs), files))
    return proc


def _store(entry: Path, value) -> None:
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, entry)  # atomic: a concurrent reader sees the whole entry or none
    except OSError:
        pass  # a full or read-only directory: the run's result still stands, uncached
