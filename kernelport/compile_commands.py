"""`compile_commands.json` (CMake's CMAKE_EXPORT_COMPILE_COMMANDS, Bear): each file's -I, -D, -include.

`-isystem` directories are kept apart: headers found there are the toolchain's or a library's,
never ported and never parsed (like the system's own directories).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from . import run_paths
from .errors import KernelportError, Location
from .project import Options, parse_define

NAME = "compile_commands.json"


def find(path: Path) -> Path | None:
    """compile_commands.json in the directory of `path` (or `path` itself), else in `build/` of it
    or of one of its parents.  What a directory finds is searched once per run (kernelport/run_paths.py)."""
    d = run_paths.resolved(path)
    if not d.is_dir():
        d = d.parent
    return run_paths.found(d, _search)


def _search(d: Path) -> Path | None:
    if (d / NAME).is_file():
        return d / NAME
    for p in (d, *d.parents):
        if (p / "build" / NAME).is_file():
            return p / "build" / NAME
    return None


def _entry_lines(text: str) -> list[int]:
    """The line on which each top-level entry (`{` at depth 1) starts, for located errors."""
    lines, depth, line, in_str, esc = [], 0, 1, False, False
    for ch in text:
        if ch == "\n":
            line += 1
        if in_str:
            esc = not esc and ch == "\\"
            if ch == '"' and not esc:
                in_str = False
            continue
        if ch == '"':
            in_str, esc = True, False
        elif ch in "[{":
            if ch == "{" and depth == 1:
                lines.append(line)
            depth += 1
        elif ch in "]}":
            depth -= 1
    return lines


def load(path: Path) -> dict[Path, Options]:
    """Resolved source path -> its options.  Errors name the file and the entry's line."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return _load(path, stamp)


@lru_cache(maxsize=8)
def _load(path: Path, stamp: int) -> dict[Path, Options]:
    import json
    import shlex  # (both only where a compile_commands.json is read: not at a lint's start-up)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as unreadable:
        raise KernelportError(f"cannot read {path}: {unreadable}", Location(str(path), 1, 1)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as bad:
        raise KernelportError(f"invalid JSON: {bad.msg}", Location(str(path), bad.lineno, bad.colno),
                              hint="compile_commands.json is a list of {directory, file, arguments|command}") from None
    if not isinstance(data, list):
        raise KernelportError("compile_commands.json must be a list of entries", Location(str(path), 1, 1))
    lines = _entry_lines(text)
    out: dict[Path, Options] = {}
    for i, e in enumerate(data):
        where = Location(str(path), lines[i] if i < len(lines) else 1, 1)
        if not isinstance(e, dict) or not isinstance(e.get("file"), str) or not isinstance(e.get("directory", ""), str):
            raise KernelportError("an entry needs \"file\" and \"directory\" strings", where)
        args = e.get("arguments")
        if args is None:
            cmd = e.get("command")
            if not isinstance(cmd, str):
                raise KernelportError("an entry needs \"arguments\" (a list) or \"command\" (a string)", where)
            try:
                args = shlex.split(cmd)
            except ValueError as err:
                raise KernelportError(f"cannot split \"command\": {err}", where) from None
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise KernelportError("\"arguments\" must be a list of strings", where)
        base = path.parent / (e.get("directory") or ".")  # a relative directory: from the database's own
        out[(base / e["file"]).resolve()] = options(args, base, where)
    return out


def options(args: list[str], base: Path, where: Location) -> Options:
    """The -I/-D/-include of one command line (paths relative to `base`)."""
    dirs: list[str] = []
    defines: list[tuple[str, str]] = []
    forced: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        for flag, kind in (("-I", "dir"), ("-D", "define"), ("-include", "forced"), ("-isystem", "system")):
            if a == flag or (a.startswith(flag) and flag in ("-I", "-D")):
                value = a[len(flag):] if a != flag else (args[i + 1] if i + 1 < len(args) else None)
                if a == flag:
                    i += 1
                if value is None:
                    raise KernelportError(f"{flag} without a value", where)
                if kind == "dir":
                    dirs.append(str((base / value).resolve()))
                elif kind == "define":
                    defines.append(parse_define(value, where))
                elif kind == "forced":
                    forced.append(str((base / value).resolve()))
                break
        i += 1
    return Options(tuple(dirs), tuple(defines), tuple(forced))


def options_for(file: Path, db: Path) -> Options | None:
    return load(db.resolve()).get(file.resolve())
