"""Copy the project headers a labelled file includes, as they were at the labelled commit's parent,
into tests/labelled/PROJECT/COMMIT10/ under their own paths, so that lint reads each labelled file
with the definitions its project gave it (kWarpSize, a helper's shuffle) and not alone.

    python scripts/labelled_headers.py GIT_DIR REV DEST [-I ROOT ...] FILE...

GIT_DIR is a clone or mirror of the project (`git --git-dir` accepts a bare one); REV the commit
the labelled files were taken at (COMMIT^, or the commit itself where the labels are of a port in
the same commit); DEST the labelled commit's folder; ROOT a folder of the project searched for
`#include <x>` and for a quoted name not beside its includer (the project's -I); FILE a labelled
file's path in the project.  Includes are followed transitively; a name the project does not hold
(a system or third-party header) is skipped and listed.  Nothing is fetched: the text is
`git show REV:PATH`'s, byte for byte.
"""
from __future__ import annotations

import argparse
import posixpath
import re
import subprocess
from pathlib import Path

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def _show(git: str, rev: str, path: str) -> bytes | None:
    r = subprocess.run(["git", "--git-dir", git, "show", f"{rev}:{path}"], capture_output=True)
    return r.stdout if r.returncode == 0 else None


def closure(git: str, rev: str, files: list[str], roots: list[str]) -> tuple[dict[str, bytes], set[str]]:
    """The project's headers `files` include (transitively), by path; and the names not in it."""
    found: dict[str, bytes] = {}
    absent: set[str] = set()
    todo = list(files)
    seen = set(files)
    while todo:
        path = todo.pop()
        text = _show(git, rev, path)
        if text is None:
            raise SystemExit(f"{path}: not in {rev}")
        if path not in files:
            found[path] = text
        for kind, name in INCLUDE.findall(text.decode("utf-8", "replace")):
            near = [posixpath.normpath(posixpath.join(posixpath.dirname(path), name))] if kind == '"' else []
            for cand in near + [posixpath.normpath(posixpath.join(r, name)) for r in roots]:
                if cand in seen:
                    break
                if _show(git, rev, cand) is not None:
                    seen.add(cand)
                    todo.append(cand)
                    break
            else:
                absent.add(name)
    return found, absent - {Path(p).name for p in seen}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("git")
    ap.add_argument("rev")
    ap.add_argument("dest", type=Path)
    ap.add_argument("-I", dest="roots", action="append", default=[])
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    found, absent = closure(a.git, a.rev, a.files, [r.strip("/") or "." for r in a.roots])
    for path, text in sorted(found.items()):
        out = a.dest / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(text)
        print(f"copied {path}")
    print(f"{len(found)} headers copied; not in the project: {', '.join(sorted(absent)) or 'none'}")


if __name__ == "__main__":
    main()
