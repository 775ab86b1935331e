"""Which quoted #include files kernelport reads: one policy for the emulator's preprocessor,
lint's header macros and verify's cache key.

A kernel file is hostile input in CI: `#include "/dev/zero"` must not hang a run, and
`#include "../../../etc/shadow"` must not read a file outside the code under review.  So a
header is read only when it is a regular file of at most MAX_HEADER_BYTES inside the project
(the nearest enclosing directory that holds .git, else the nearest that holds a pyproject.toml
with a [tool.kernelport] table -- the project verify's model reads -- else the kernel file's own
directory) or
inside a directory of $KERNELPORT_INCLUDE_PATH (os.pathsep-separated); an absolute name is never
read.  A name that does not exist there is a system or absent header (not read, as before).
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from . import lazy_re

HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".cuh", ".inl", ".inc")  # a header, not a source

MAX_HEADER_BYTES = 1 << 20  # no kernel header is larger; a larger one is not read
MAX_INCLUDE_DEPTH = 200  # includes nested deeper are not followed (GCC's limit: a deeper chain compiles nowhere)
INCLUDE_PATH_ENV = "KERNELPORT_INCLUDE_PATH"


class Refused(Exception):
    """A quoted include kernelport will not read; the message says why (the caller locates it)."""


def is_regular(path: str | Path) -> bool:
    """Whether `path` is a regular file (through links); never raises: a loop of links, a device,
    a FIFO or a name the system refuses is not one (what a directory walk may read)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def project_root(path: str | Path) -> Path:
    """The nearest directory above `path` holding .git; outside any work tree, the nearest holding a
    pyproject.toml with a [tool.kernelport] table (a configured project: a release tarball, a
    vendored copy; its headers beside the sources, `../shared/x.hpp`, are its own); else the
    directory of `path`."""
    start = Path(os.path.abspath(path)).parent
    for d in (start, *start.parents):
        if (d / ".git").exists():
            return d
    for d in (start, *start.parents):
        if _configured(d / "pyproject.toml"):
            return d
    return start


_TOOL_TABLE = lazy_re.compile(r"^\s*\[\s*tool\s*\.\s*kernelport\s*\]", re.M)


def _configured(pyproject: Path) -> bool:
    """Whether `pyproject` is a regular file (of at most MAX_HEADER_BYTES) with a [tool.kernelport]
    table, as kernelport.lint.config reads it (without parsing TOML: it is read on every include)."""
    try:
        st = os.stat(pyproject)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_HEADER_BYTES:
            return False
        return _TOOL_TABLE.search(pyproject.read_text(encoding="utf-8", errors="replace")) is not None
    except OSError:
        return False


def allowed_roots(path: str | Path) -> list[Path]:
    roots = [project_root(path)]
    roots += [Path(p) for p in os.environ.get(INCLUDE_PATH_ENV, "").split(os.pathsep) if p.strip()]
    return [Path(os.path.realpath(r)) for r in roots]


def _inside(real: Path, roots: list[Path]) -> bool:
    return any(real == r or r in real.parents for r in roots)


def within_project(including: str | Path, real: Path) -> bool:
    """Whether the project model may read `real`, a header `including` names: inside the includer's
    git work tree or $KERNELPORT_INCLUDE_PATH; outside any work tree there is no boundary to keep
    (a user's own checkout without git), so anywhere."""
    start = Path(os.path.abspath(including)).parent
    if not any((d / ".git").exists() for d in (start, *start.parents)):
        return True
    return _inside(real, allowed_roots(including))


def resolve(including: str | Path, name: str, roots: list[Path] | None = None) -> Path | None:
    """The header a quoted `#include "name"` in `including` reads, None when there is none to read
    (absent: a system header), or Refused (absolute, outside the project and the include path, not
    a regular file, too large)."""
    if os.path.isabs(name):
        raise Refused(f'#include "{name}": an absolute path is not read (kernelport reads headers of the '
                      f"project and ${INCLUDE_PATH_ENV} only)")
    real = Path(os.path.realpath(Path(os.path.abspath(including)).parent / name))
    roots = roots if roots is not None else allowed_roots(including)
    try:
        st = os.stat(real)
    except OSError:
        return None
    if not _inside(real, roots):
        raise Refused(f'#include "{name}" names {real}, outside the project ({roots[0]}) and '
                      f"${INCLUDE_PATH_ENV}: not read")
    if not stat.S_ISREG(st.st_mode):
        raise Refused(f'#include "{name}" is not a regular file: not read')
    if st.st_size > MAX_HEADER_BYTES:
        raise Refused(f'#include "{name}" is larger than {MAX_HEADER_BYTES >> 20} MiB: not read')
    return real


def locate(here: Path, include: str, include_dirs: tuple[str, ...] = ()) -> Path | None:
    """The project header an include names (its text with quotes or brackets): `"x"` beside the
    including file, then on the include path; `<x>` on the include path only (as project.py)."""
    inner, quoted = include[1:-1], include.startswith('"')
    for d in ([str(here)] if quoted else []) + list(include_dirs):  # (strings: a long -I list is tried per include)
        p = os.path.join(d, inner)
        if is_regular(p):  # never raises (a name too long, a loop of links)
            return Path(p).resolve()
    return None


def readable(including: str | Path, name: str) -> Path | None:
    """resolve() for callers that only skip what they may not read (lint's macros, cache keys)."""
    try:
        return resolve(including, name)
    except Refused:
        return None


_DIRECTIVE = lazy_re.compile(r'^\s*#\s*(include|include_next|import)\b\s*(?:"([^"]*)"|<([^>]*)>|(.*))')


def _logical_lines(text: str):
    """(line number, text) of each logical line: continued lines joined, comments dropped."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        start, logical = i, lines[i]
        while logical.endswith("\\") and i + 1 < len(lines):
            i += 1
            logical = logical[:-1] + lines[i]
        yield start + 1, re.sub(r"/\*.*?(\*/|$)", " ", logical)
        i += 1


def problems(path: str | Path, text: str, _seen: frozenset = frozenset()) -> list[tuple[str, int, int, str]]:
    """(file, line, column, message) of every include directive of `text` (and of the project
    headers it reads, recursively) that would make a compiler or the preprocessor read what the
    policy refuses, or that cannot be checked (a name from a macro)."""
    out = []
    roots = allowed_roots(path)
    for line, ln in _logical_lines(text):
        if "#" not in ln:
            continue
        m = _DIRECTIVE.match(ln)
        if m is None:
            continue
        col = ln.index("#") + 1
        quoted, system, other = m.group(2), m.group(3), m.group(4)
        if quoted is not None:
            try:
                header = resolve(path, quoted, roots)
            except Refused as e:
                out.append((str(path), line, col, str(e)))
                continue
            if header is not None and header not in _seen and len(_seen) < 16:
                out += problems(header, header.read_text(encoding="utf-8", errors="replace"), _seen | {header})
        elif system is not None:
            if os.path.isabs(system) or ".." in Path(system).parts:
                out.append((str(path), line, col, f"#include <{system}>: a system header named by a path is not read"))
        else:
            out.append((str(path), line, col, f"#{m.group(1)} {other.strip()[:40]}: an include whose name comes from "
                        "a macro is not followed (kernelport cannot check what it would read)"))
    return out

def has_include_guarded(src, node, inner: str) -> bool:
    """Whether the include stands under an `#if __has_include(<inner>)` (llm.c's `<nvml.h>`): the
    author's own guard, whose #else is what a toolchain without the header compiles.  Read from the
    lines above (the grammar does not always nest an include under such a test)."""
    test = re.compile(r"__has_include\s*\(\s*<\s*" + re.escape(inner) + r"\s*>\s*\)")
    depth, later_branch = 0, False  # later_branch: the include is past this conditional's first test
    for line in reversed(src.data[:node.start_byte].decode("utf-8", "replace").splitlines()):
        d = line.strip()
        if not d.startswith("#"):
            continue
        word = d[1:].lstrip().split("(")[0].split()[0] if d[1:].strip() else ""
        if word == "endif":
            depth += 1
        elif depth:
            depth -= word in ("if", "ifdef", "ifndef")
        elif word in ("if", "elif") and test.search(d) and not later_branch:
            return True
        elif word in ("elif", "else"):
            later_branch = True
        elif word in ("if", "ifdef", "ifndef"):
            later_branch = False
    return False


def check_includes(path: Path, text: str) -> None:
    """verify's: compilers, the preprocessor and the emulator read what a file includes: never a device or a
    file outside the project and $KERNELPORT_INCLUDE_PATH, on hostile input (a located KernelportError)."""
    from .errors import KernelportError, Location
    bad = problems(path, text)
    if bad:
        where, line, col, message = bad[0]
        raise KernelportError(message, Location(where, line, col),
                              hint=f"verify reads the regular files of the project only; name a trusted directory "
                                   f"in ${INCLUDE_PATH_ENV} to read headers there")
