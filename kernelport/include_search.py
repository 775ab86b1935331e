"""Headers found without -I: an include that names a project header nothing on the include path
reaches is looked for under the project's tree, as a user who runs `translate src/ -o hip/`
without the build's -I expects (the build's `-I include` lets `<lib/x.h>` reach `include/lib/x.h`;
a header left unported keeps its CUDA and its includer's port does not compile).

The tree is the includer's project: its git work tree (or configured pyproject.toml, as
kernelport.includes reads it); outside one, the outermost of the current directory and the run's
input directories that holds the includer (a user runs from the project's root; never `/` or a
home directory). A file of that tree whose path ends with the include's name (`a/b.h`:
`.../a/b.h`) is a candidate, and the nearest directory above the includer that holds any decides
(a monorepo's sibling project is searched only where the includer's own holds none): exactly one
there is used and said (a note, and the --statistics count); several are none, and a note names
them and `-I`. Never searched: a name the backend maps (`<cuda_runtime.h>`), an absolute name or
one with `..`, an angled name without a directory part (`<omp.h>`: a system header the tree may
vendor).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .includes import MAX_HEADER_BYTES, is_regular

MAX_FILES = 200_000  # a tree is listed up to this many files (a bound on a run from a huge tree)
_SKIP = {"__pycache__", "node_modules", "venv", "build", "dist"}  # and every hidden directory


@dataclass(frozen=True)
class Found:
    """Where an include's name was found in the tree: one header, several, or none."""
    name: str
    header: Path | None  # the one candidate, or None
    candidates: tuple[Path, ...]  # every candidate (several: ambiguous)
    root: Path


def toolkit_header(name: str) -> bool:
    """A header the source dialect's table maps (`cuda_runtime.h`, `cub/cub.cuh`): never the project's."""
    from . import backends, dialect
    c = dialect.lookup(backends.source().name, name)
    return c is not None and c.kind == "header"


def searchable(name: str, angled: bool, toolkit=toolkit_header) -> bool:
    parts = name.split("/")
    if os.path.isabs(name) or ".." in parts or "." in parts or "" in parts:
        return False
    if angled and len(parts) < 2:
        return False
    return not toolkit(name)


def tree_root(including: Path, dirs: list[Path], cwd: Path) -> Path | None:
    """The project tree an includer belongs to (see the module's docstring); None: no tree to search."""
    from .includes import _configured, project_root
    marked = project_root(including)  # (its own directory where nothing marks a project)
    if (marked / ".git").exists() or _configured(marked / "pyproject.toml"):
        return marked
    home = Path(os.path.expanduser("~")).resolve()
    holding = [d for d in [cwd, *dirs] if including.is_relative_to(d) and len(d.parts) > 1 and d != home]  # (no
    # project is `/` or a home directory: a run from there searches no tree it would have to list whole)
    return min(holding, key=lambda d: len(d.parts)) if holding else None


class TreeIndex:
    """Each tree's files by base name, listed once per run."""

    def __init__(self) -> None:
        self._trees: dict[Path, dict[str, list[str]]] = {}

    def files(self, root: Path) -> dict[str, list[str]]:
        """Base name -> the directories under `root` that hold a file of that name (up to MAX_FILES).
        Directories as os.walk spells them: a Path per file of the tree cost 60% of a listing, and a
        search looks at the few files of one name (a listing is once per run, and a run of `translate
        FILE` lists the whole work tree)."""
        if root not in self._trees:
            byname: dict[str, list[str]] = {}
            n = 0
            for d, dirs, names in os.walk(root):
                dirs[:] = sorted(x for x in dirs if x not in _SKIP and not x.startswith("."))
                for f in names:
                    byname.setdefault(f, []).append(d)
                n += len(names)
                if n > MAX_FILES:
                    break
            self._trees[root] = byname
        return self._trees[root]

    def search(self, including: Path, name: str, root: Path) -> Found | None:
        """The files under `root` that `name` can name (None: none)."""
        parts = name.split("/")
        byname = self.files(root)
        got = []
        for p in (Path(d) / parts[-1] for d in byname.get(parts[-1], [])):
            rel = p.relative_to(root).parts
            if rel[-len(parts):] == tuple(parts) and len(rel) >= len(parts) and is_regular(p) \
                    and p.stat().st_size <= MAX_HEADER_BYTES and (real := Path(os.path.realpath(p))) != including:
                got.append(real)
        if not got:
            return None
        for d in (including.parent, *including.parent.parents):  # the nearest directory that holds one decides
            near = sorted({p for p in got if p.is_relative_to(d)})
            if near or d == root:
                break
        near = near or sorted(set(got))
        return Found(name, near[0] if len(near) == 1 else None, tuple(near), d if near else root)


def note_text(f: Found, shown) -> tuple[str, str]:
    """(message, hint) of the note said at the include."""
    if f.header is not None:
        d = Path(str(f.header)[: len(str(f.header)) - len(f.name) - 1])
        return (f"'{f.name}' is not on the include path: found by searching {shown(f.root)} "
                f"(the one file that name reaches): {shown(f.header)}, which this port uses",
                f"say so with -I {shown(d)}")
    names = ", ".join(str(shown(c)) for c in f.candidates[:4]) + (", ..." if len(f.candidates) > 4 else "")
    return (f"'{f.name}' is not on the include path and names {len(f.candidates)} files under "
            f"{shown(f.root)}: {names}; none is used (its port keeps the include as written)",
            "name the right one's directory with -I DIR")
