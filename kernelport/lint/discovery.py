"""Which files to lint, and what kind of input each is.

- A backend's source files (`.cu`, `.cuh`, `.hip`, `.metal`: each backend's `source_extensions`)
  are read in that backend's dialect.  Headers (`.h`, `.hpp`, `.hh`, `.hxx`, `.inl`) and C++ sources
  (`.cc`, `.cpp`, `.cxx`: HIP kernels a build compiles as HIP, the host code that picks a launch's
  block sizes) are linted as the source dialect when they hold device code (or are named on the
  command line).
- `.py` files are an input kind of their own, not a backend: CUDA source in the string literals
  given to cupy `RawKernel`/`RawModule` or `torch.utils.cpp_extension.load_inline` (`units.py`).
- Directories are walked recursively; `.gitignore` files (from the repository root down) and
  `exclude` patterns are honoured; VCS and virtual-environment directories are skipped.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pathspec

from .. import backends
from ..includes import is_regular
from ..backends import Backend
from .. import lazy_re, run_paths

# Input kinds besides a backend's own source files.
PYTHON = "python"  # CUDA kernels in Python strings
HEADER = "header"  # a C/C++ header or C++ source: the source dialect, linted when it holds device code
PYTHON_EXT = ".py"
HEADER_EXT = {".h", ".hpp", ".hh", ".hxx", ".inl", ".cuh", ".cc", ".cpp", ".cxx"}
CXX_SOURCES = {".cc", ".cpp", ".cxx"}  # of HEADER_EXT, the translation units (the rest are headers: uncalledptx)
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", ".tox", ".mypy_cache",
             ".pytest_cache", ".ruff_cache", "build", "dist", ".eggs"}
DEVICE_MARKERS = lazy_re.compile(r"__global__|__device__|__shared__|threadIdx|__syncthreads|__shfl|warpSize|__ballot")
PY_MARKERS = lazy_re.compile(r"RawKernel|RawModule|load_inline")


def kind(path: Path) -> Backend | str | None:
    """The backend whose source file this is, else PYTHON or HEADER; None: not a lint input."""
    ext = path.suffix.lower()
    if ext == PYTHON_EXT:
        return PYTHON
    b = backends.by_source_extension(path.name)
    if b is not None:
        return b
    if ext in HEADER_EXT:
        return HEADER
    return None


def dialect_of(path: Path) -> Backend:
    """The dialect a source file or header is read in (headers: the source dialect)."""
    k = kind(path)
    return k if isinstance(k, Backend) else backends.source()


# -- discovery --------------------------------------------------------------------------------
def _repo_root(d: Path) -> Path | None:
    for p in (d, *d.parents):
        if (p / ".git").exists():
            return p
    return None


@lru_cache(maxsize=None)
def _ignore_spec(d: Path) -> pathspec.PathSpec | None:
    f = d / ".gitignore"
    if not f.is_file():
        return None
    import pathspec  # only where a .gitignore exists (a one-file lint needs none)
    try:
        return pathspec.GitIgnoreSpec.from_lines(f.read_text(encoding="utf-8", errors="replace").splitlines())
    except Exception:  # a malformed .gitignore line: ignore the file rather than fail
        return None


def _ignored(path: Path, is_dir: bool, specs: list[tuple[Path, pathspec.PathSpec]]) -> bool:
    for base, spec in specs:
        try:
            rel = path.relative_to(base).as_posix()
        except ValueError:
            continue
        if spec.match_file(rel + ("/" if is_dir else "")):
            return True
    return False


def discover(paths: list[Path], exclude_for=lambda p: ()) -> list[tuple[Path, bool]]:
    """Files to lint as (path, named explicitly), in a deterministic order."""
    out: list[tuple[Path, bool]] = []
    seen: set[Path] = set()
    for root in paths:
        if not root.is_dir():  # a file, a missing path, a FIFO or device: linted as named (its error located)
            if root not in seen:
                seen.add(root)
                out.append((root, True))
            continue
        top = root.resolve()
        repo = _repo_root(top)
        specs: list[tuple[Path, pathspec.PathSpec]] = []
        if repo is not None:
            chain = [top, *top.parents]
            for d in reversed(chain[:chain.index(repo) + 1] if repo in chain else [top]):
                if d != top:
                    s = _ignore_spec(d)
                    if s is not None:
                        specs.append((d, s))
        found: list[Path] = []

        def walk(d: Path, specs: list) -> None:
            s = _ignore_spec(d)
            local = specs + [(d, s)] if s is not None else specs
            ex = exclude_for(d)
            try:
                entries = sorted(os.scandir(d), key=lambda e: e.name)
            except OSError:
                return
            for e in entries:
                p = Path(e.path)
                is_dir = e.is_dir(follow_symlinks=False)
                if is_dir and (e.name in SKIP_DIRS or e.name.startswith(".")):
                    continue
                if _ignored(p, is_dir, local) or (ex and _excluded(p, is_dir, ex)):
                    continue
                if is_dir:
                    walk(p, local)
                elif kind(p) is not None and is_regular(p):  # not a device, FIFO or loop of links
                    found.append(p)

        walk(top, specs)
        for p in found:
            s = shown(p)
            if s not in seen:
                seen.add(s)
                out.append((s, False))
    return out


def _under(p: Path, d: Path) -> bool:
    try:
        run_paths.resolved(p).relative_to(run_paths.resolved(d))
        return True
    except ValueError:
        return False


def _excluded(p: Path, is_dir: bool, ex: tuple[Path, pathspec.PathSpec]) -> bool:
    base, spec = ex
    try:
        rel = run_paths.resolved(p).relative_to(base).as_posix()
    except ValueError:
        return False
    return spec.match_file(rel + ("/" if is_dir else ""))


def shown(p: Path) -> Path:
    """How a found file is displayed: relative to the working directory when under it."""
    return Path(os.path.relpath(p, Path.cwd())) if _under(p, Path.cwd()) else p
