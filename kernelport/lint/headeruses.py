"""A header's warp-size definition judged with its includers' uses (a tree or project run: WS001 quiet).

A header linted alone has no uses of its `#define WARP_SIZE 32` (or `const int WARP_SIZE = 32;`) to judge
by: they are in the files that include it, which a user's library may not ship.  So WS001 names the
definition.  In a run over a tree those files are linted too, and their findings say what the uses do:

    limitz gpu.h      `#define warpSize 32`: included by wav.h and gpu.cu, which never name it
    bitonic config.cuh  `#define WARP_SIZE 32`: its uses (an xor ladder's bound, a bank-conflict
                        interleave) are quiet where they are, in the files that include it

A definition a header reports without a use in its own file (`Finding.subject`) is dropped from the run's
report when (1) at least one other file of the run includes the header (directly or through other
headers), and (2) no use of the name in those files or in what they include (a word match outside
comments; a `#define X ... NAME` or `X = ... NAME` on the line adds X's uses) lies on a line where
any finding of the run is, or names (a related place).  A header no file of the run includes keeps
its finding (a library's public header), and so does a header linted by itself.
"""
from __future__ import annotations

import re
from pathlib import Path

from .. import lazy_re, run_paths

_COMMENT = lazy_re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
_DEFINE = lazy_re.compile(r"^\s*#\s*define\s+(\w+)")
_ASSIGN = lazy_re.compile(r"\b(\w+)\s*(?:\[[^\]]*\]\s*)*=(?!=)")


def quiet_unused(results, project) -> None:
    """Drop, in place, the header definitions whose includers in the run use them nowhere that a
    finding names (the module's docstring).  `results`: the run's FileResults; `project`: its Project."""
    todo = [(r, f) for r in results for f in r.findings if f.subject]
    if not todo:
        return
    units = [Path(u) for u in getattr(project, "units", None) or ()]
    loud = _loud_lines(results)
    texts: dict[Path, list[str] | None] = {}
    headers: dict[Path, list[Path]] = {}
    drop = set()
    for r, f in todo:
        h = run_paths.resolved(Path(r.path))
        seen_by = [g for g in units if g != h and h in _headers(project, g, headers)]
        if not seen_by:
            continue  # no file of the run includes it: its uses are elsewhere (or it is linted alone)
        files = list(dict.fromkeys(p for g in seen_by for p in [g] + _headers(project, g, headers) if p != h))
        if not _any_loud_use(f.subject, files, texts, loud):
            drop.add(id(f))
    if drop:
        for r in results:
            r.findings = [f for f in r.findings if id(f) not in drop]


def _headers(project, g: Path, cache: dict) -> list[Path]:
    if g not in cache:
        try:
            cache[g] = [run_paths.resolved(Path(p)) for p in project.headers(g)]
        except Exception:  # noqa: BLE001 - an unreadable includer decides nothing (the finding stays)
            cache[g] = []
    return cache[g]


def _loud_lines(results) -> set[tuple[Path, int]]:
    """(file, line) of every finding of the run and of every place one names."""
    out = set()
    for r in results:
        for f in r.findings:
            out.add((Path(f.path).resolve(), f.line))
            out.update((Path(x.path).resolve(), x.line) for x in f.related)
    return out


def _any_loud_use(name: str, files: list[Path], texts: dict, loud: set) -> bool:
    """Whether a use of `name` (or of a name defined from it) in `files` is on a loud line."""
    names, done = [name.split("::")[-1]], set()
    while names:
        n = names.pop()
        if n in done:
            continue
        done.add(n)
        word = re.compile(rf"\b{re.escape(n)}\b")
        for p in files:
            for i, line in enumerate(_lines(p, texts), 1):
                m = word.search(line)
                if m is None:
                    continue
                if (p, i) in loud:
                    return True
                d = _DEFINE.match(line)
                if d is not None and d.group(1) != n:
                    names.append(d.group(1))
                    continue
                a = _ASSIGN.search(line[:m.start()])
                if a is not None and a.group(1) != n:
                    names.append(a.group(1))
    return False


def _lines(p: Path, texts: dict) -> list[str]:
    if p not in texts:
        try:
            text = p.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        # comments blanked, their newlines kept (line numbers stay the file's)
        texts[p] = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n") if m.group(0)[0] == "/" else m.group(0),
                                text).split("\n")
    return texts[p]
