"""`[tool.kernelport]` in the nearest pyproject.toml.

    [tool.kernelport]
    targets = ["cuda", "hip-cdna", "hip-rdna"]      # default: all four
    select = ["WS", "SY", "PT001"]                   # default: every rule
    ignore = ["WS007"]
    per-file-ignores = { "legacy/*.cu" = ["SY002"], "*_nvidia.cu" = ["WS"] }
    portable-macros = ["WARP_SIZE"]                  # defined per architecture by the build
    exclude = ["third_party/"]                       # gitignore-style, relative to this file
    fail-on = "warning"                              # error | warning | info
    include-dirs = ["include", "../common"]          # -I for every file (relative to this file)
    defines = ["USE_FAST_MATH", "BLOCK=256"]         # -D for every file
    hip-defines = ["MYPROJ_AMD"]                     # macros only the project's HIP build defines

The nearest pyproject.toml with a `[tool.kernelport]` table, searched upward from each linted
file, applies to it; command-line options override `targets`, `select` and `fail-on`, and extend
`ignore`.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from .. import run_paths
from ..errors import KernelportError, Location
from .rule import check_selectors, parse_targets

KEYS = {"targets", "select", "ignore", "per-file-ignores", "portable-macros", "exclude", "fail-on", "include-dirs",
        "defines", "hip-defines"}
FAIL_LEVELS = ("error", "warning", "info")


@dataclass(frozen=True)
class Config:
    """The lint settings read from pyproject.toml."""
    path: Path | None = None  # the pyproject.toml
    targets: frozenset[str] | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    portable_macros: frozenset[str] = frozenset()
    exclude: tuple[str, ...] = ()
    fail_on: str | None = None
    include_dirs: tuple[str, ...] = ()  # absolute
    defines: tuple[tuple[str, str], ...] = ()
    hip_defines: tuple[str, ...] = ()  # what the project's HIP build defines (kernelport.hipbuild)

    @property
    def root(self) -> Path | None:
        return self.path.parent if self.path else None

    def ignored_for(self, file: Path) -> tuple[str, ...]:
        if not self.per_file_ignores or self.root is None:
            return ()
        try:
            rel = file.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            rel = file.as_posix()
        out: list[str] = []
        for pattern, codes in self.per_file_ignores:
            p = pattern.rstrip("/")
            if fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(rel, p + "/*") or \
                    ("/" not in p and fnmatch.fnmatch(rel.rsplit("/", 1)[-1], p)):
                out.extend(codes)
        return tuple(out)


EMPTY = Config()


def _strings(value, key: str, where: str, at: Location | None = None) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise KernelportError(f"{where}: `{key}` must be a list of strings", at)
    return tuple(value)


def load(path: Path) -> Config:
    try:  # Python 3.11+; imported here, where a pyproject.toml is read (a lint with none above its files never is)
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        # Python < 3.14 gives the position only in the message: "(at line 2, column 17)".
        import re
        text = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", text)
        line, col = (int(m.group(1)), int(m.group(2))) if m else (getattr(e, "lineno", None), getattr(e, "colno", 1))
        if line is None:  # "(at end of document)"
            line = path.read_text(encoding="utf-8", errors="replace").count("\n") or 1
            col = 1
        msg = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", text)
        raise KernelportError(f"invalid TOML: {msg}", Location(where, line, col),
                              hint=f"fix {path.name}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise KernelportError(f"{where}: cannot read: {e}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise KernelportError(f"{where}: `tool` must be a table", _key_at(path.read_text(encoding="utf-8"), path, "tool"),
                              hint="write [tool.kernelport] as a table of keys")
    table = tool.get("kernelport")
    if table is None:
        return EMPTY
    if not isinstance(table, dict):
        raise KernelportError(f"{where}: [tool.kernelport] must be a table")
    where = f"{path} [tool.kernelport]"
    unknown = sorted(set(table) - KEYS)
    if unknown:
        raise KernelportError(f"{where}: unknown key '{unknown[0]}'", hint="keys: " + ", ".join(sorted(KEYS)))
    targets = parse_targets(_strings(table["targets"], "targets", where), f"{where} targets") \
        if "targets" in table else None
    select = tuple(check_selectors(_strings(table["select"], "select", where), f"{where} select")) \
        if "select" in table else None
    ignore = tuple(check_selectors(_strings(table.get("ignore", []), "ignore", where), f"{where} ignore"))
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise KernelportError(f"{where}: `per-file-ignores` must be a table of glob = [codes]")
    per_file = tuple((k, tuple(check_selectors(_strings(v, f"per-file-ignores.{k}", where), f"{where} per-file-ignores")))
                     for k, v in pfi.items())
    fail_on = table.get("fail-on")
    if fail_on is not None and fail_on not in FAIL_LEVELS:
        raise KernelportError(f"{where}: `fail-on` must be one of {', '.join(FAIL_LEVELS)}")
    text = path.read_text(encoding="utf-8", errors="replace")
    at = _key_at(text, path, "include-dirs")
    dirs = tuple(_directory(path.parent / d, where, at) for d in _strings(table.get("include-dirs", []),
                                                                          "include-dirs", where, at))
    from ..project import parse_define
    defines = tuple(parse_define(d, _key_at(text, path, "defines"))
                    for d in _strings(table.get("defines", []), "defines", where, _key_at(text, path, "defines")))
    hip = tuple(parse_define(d, _key_at(text, path, "hip-defines"))[0]
                for d in _strings(table.get("hip-defines", []), "hip-defines", where, _key_at(text, path, "hip-defines")))
    return Config(path, targets, select, ignore, per_file,
                  frozenset(_strings(table.get("portable-macros", []), "portable-macros", where)),
                  _strings(table.get("exclude", []), "exclude", where), fail_on, dirs, defines, hip)


def _directory(p: Path, where: str, at: Location) -> str:
    try:
        return str(p.resolve())
    except (OSError, ValueError, RuntimeError) as e:  # a NUL in the name, a loop of links
        raise KernelportError(f"{where}: `include-dirs` entry {str(p)!r} is not a usable path ({e})", at,
                              hint="name a directory, relative to the pyproject.toml") from None


def _key_at(text: str, path: Path, key: str) -> Location:
    """Where `key = ...` is written in the pyproject (for errors in its value)."""
    import re
    m = re.search(rf"(?m)^[ \t]*{re.escape(key)}[ \t]*=", text)
    if m is None:
        return Location(str(path), 1, 1)
    line = text.count("\n", 0, m.start()) + 1
    return Location(str(path), line, m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1)


@lru_cache(maxsize=None)
def _for_dir(d: Path) -> Config:
    p = d / "pyproject.toml"
    if p.is_file():
        cfg = load(p)
        if cfg is not EMPTY:
            return cfg
    if d.parent == d:
        return EMPTY
    return _for_dir(d.parent)


_EXPLICIT: list[Config] = []  # --config FILE: one configuration for every path


def use(path: Path) -> None:
    """`--config FILE`: this file's [tool.kernelport] applies to every path (paths in it are relative
    to its directory), instead of the nearest pyproject.toml."""
    _EXPLICIT[:] = [load(path)]
    if _EXPLICIT[0] is EMPTY:
        raise KernelportError(f"{path}: no [tool.kernelport] table", hint="add one, or drop --config")


def find(path: Path) -> Config:
    """The configuration that applies to `path` (a file or directory)."""
    if _EXPLICIT:
        return _EXPLICIT[0]
    p = run_paths.resolved(path)
    return _for_dir(p if p.is_dir() else p.parent)


def clear_cache() -> None:
    _for_dir.cache_clear()
    run_paths.clear()
    _EXPLICIT.clear()


@dataclass
class Overrides:
    """What the command line says (None: not given)."""
    targets: frozenset[str] | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    fail_on: str | None = None
    extra: dict = field(default_factory=dict)
    include_dirs: tuple[str, ...] = ()  # -I (absolute)
    defines: tuple[tuple[str, str], ...] = ()  # -D
    hip_defines: tuple[str, ...] = ()  # --hip-define
    compile_commands: Path | None = None  # --compile-commands (else found beside the file or in build/)


def options_for(overrides: Overrides):
    """A run's `Project` options function (kernelport.project): each file's `includes_for` under the
    run's command line, so that every analysis that walks a file's includes or looks for its includers
    (lint's and translate's alike) resolves `#include "sub/x.cu"` with the run's -I/-D,
    [tool.kernelport] and compile_commands.json."""
    return lambda path: includes_for(path, find(path), overrides)


def includes_for(path: Path, cfg: Config, overrides: Overrides):
    """A file's include path and defines: [tool.kernelport], then the command line's -I/-D, then its
    compile_commands.json entry (given, or found: kernelport.compile_commands.find)."""
    from ..project import Options
    from .. import compile_commands as cc
    opts = Options(cfg.include_dirs, cfg.defines, hip_defines=cfg.hip_defines).merged(
        Options(overrides.include_dirs, overrides.defines, hip_defines=overrides.hip_defines))
    db = overrides.compile_commands or cc.find(path)
    if db is not None:
        entry = cc.options_for(path, db)
        if entry is not None:
            opts = opts.merged(entry)
    return opts
