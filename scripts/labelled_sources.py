"""Bring a labelled set's files in from local clones of their projects, instead of committing them.

    python scripts/labelled_sources.py tests/labelled5 [--mirror /work/.mirror]

A set built this way (tests/labelled5) commits only its labels, its README and `sources.tsv`: one
row per labelled file, `folder  repo  commit  path  license`, tab-separated.  For each row this
writes `git show COMMIT^:PATH` (the file as it was before the fixing commit) to FOLDER/PATH under
the set, the project headers it includes at COMMIT^ (transitively, through the -I that
build_flags.tsv gives the folder: scripts/labelled_headers.py's closure), and the project's license
file as FOLDER/../LICENSE (read at COMMIT^, or at REV where the license cell is `PATH@REV`: a
project that added its license later).  The clone of `owner/name` is MIRROR/owner+name/repo (a bare or
ordinary git directory); nothing is fetched over the network.  The written files are ignored by git
(the set's .gitignore), so a clean checkout holds none of the projects' code; the set's test skips
until this has been run.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from labelled_headers import closure  # noqa: E402  (a sibling script, not a package)

MIRROR = Path("/work/.mirror")


def read_sources(base: Path) -> list[tuple[str, str, str, str, str]]:
    rows = []
    for n, row in enumerate((base / "sources.tsv").read_text(encoding="utf-8").splitlines(), 1):
        if row.strip() and not row.startswith("#"):
            cells = row.split("\t")
            if len(cells) != 5:
                raise SystemExit(f"{base / 'sources.tsv'}:{n}: expected 5 tab-separated cells, got {len(cells)}")
            rows.append(tuple(cells))
    return rows


def include_roots(base: Path, folder: str) -> list[str]:
    """The -I of FOLDER in build_flags.tsv, relative to the project's root."""
    table = base / "build_flags.tsv"
    for row in table.read_text(encoding="utf-8").splitlines() if table.is_file() else []:
        cells = row.split("\t")
        if not row.startswith("#") and len(cells) >= 2 and cells[0] == folder:
            words = cells[1].split()
            return [words[i + 1].strip("/") or "." for i, w in enumerate(words[:-1]) if w == "-I"]
    return []


def _git_dir(mirror: Path, repo: str) -> Path:
    """The git directory of `owner/name`'s clone: MIRROR/owner+name/repo, bare or with a work tree."""
    git = mirror / repo.replace("/", "+") / "repo"
    return git / ".git" if (git / ".git").is_dir() else git


def materialize(base: Path, mirror: Path) -> list[str]:
    """Write every labelled file, its headers and its project's license; the folders written."""
    done = []
    rows = read_sources(base)
    by_folder: dict[tuple[str, str, str], list[str]] = {}
    licenses: dict[str, tuple[str, str, str]] = {}
    for folder, repo, commit, path, license_path in rows:
        by_folder.setdefault((folder, repo, commit), []).append(path)
        licenses.setdefault(folder.split("/")[0], (repo, commit, license_path))
    for (folder, repo, commit), paths in by_folder.items():
        git = _git_dir(mirror, repo)
        if not git.is_dir():
            raise SystemExit(f"{base / 'sources.tsv'}: no clone of {repo} at {git}: fetch it there first")
        found, _absent = closure(str(git), f"{commit}^", paths, include_roots(base, folder))
        for path in paths:  # the labelled files themselves
            text = subprocess.run(["git", "--git-dir", str(git), "show", f"{commit}^:{path}"],
                                  capture_output=True, check=True).stdout
            found[path] = text
        for path, text in found.items():
            out = base / folder / path
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(text)
        done.append(folder)
    for project, (repo, commit, license_path) in licenses.items():
        git = _git_dir(mirror, repo)
        # `PATH@REV`: a project whose tree had no license file before the labelled commit names the
        # commit that added it (the same project's license, read from that commit)
        license_path, _, rev = license_path.partition("@")
        text = subprocess.run(["git", "--git-dir", str(git), "show", f"{rev or commit + '^'}:{license_path}"],
                              capture_output=True, check=True).stdout
        (base / project / "LICENSE").write_bytes(text)
    return done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("set", type=Path, help="the labelled set's folder (tests/labelled5)")
    ap.add_argument("--mirror", type=Path, default=MIRROR, help="where the clones are (owner+name/repo)")
    a = ap.parse_args()
    for folder in materialize(a.set, a.mirror):
        print(f"wrote {a.set / folder}")


if __name__ == "__main__":
    main()
