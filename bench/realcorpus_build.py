#!/usr/bin/env python3
"""Materialise a real-code corpus from pinned git commits (tests/realcorpus, /work/heldout).

    python bench/realcorpus_build.py MANIFEST.toml DEST [--mirrors DIR]

The manifest names, per project, the repository, the pinned commit, its license files, the
include dirs and defines its own build uses, and the CUDA sources taken. Each source is copied
with every local header it reaches through `#include` (resolved like the compiler: `"..."`
beside the includer first, then the include dirs; `<...>` through the include dirs), in the
project's original relative layout, so that include resolution on the copy is real.
DEST/<project>/SOURCE.md records what was taken and from where. A path that is a symbolic link
in the repository (gamer keeps its GPU `.cu` units as links to the shared `CPU_*.cpp` sources) is
written as a file holding what the link reaches, as the compiler reads it: its includes are then
resolved beside the link, where the compiler looks for them.

Blobs are read with `git show COMMIT:PATH` from a bare mirror `MIRRORS/<owner>+<name>/repo`
(default /work/.mirror); make one with
`git clone --bare https://github.com/OWNER/NAME MIRRORS/OWNER+NAME/repo`.
"""
from __future__ import annotations

import argparse
import posixpath
import re
import subprocess
import sys
import tomllib
from pathlib import Path

# A UTF-8 byte-order mark may precede a file's first line (rigaya/NVEnc's sources): the include
# there is still an include (nvcc and kernelport read it), so the selection must see it too.
INCLUDE = re.compile(rb'^(?:\xef\xbb\xbf)?[ \t]*#[ \t]*include[ \t]*([<"])([^">\n]+)[">]', re.M)


def git(mirror: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(mirror), *args], check=True,
                          capture_output=True).stdout


LINK_MODE = "120000"
MAX_LINK_HOPS = 8


def read_tree(mirror: Path, commit: str) -> tuple[set[str], set[str]]:
    """The repository's paths, and those of them that are symbolic links."""
    paths, links = set(), set()
    for line in git(mirror, "ls-tree", "-r", commit).decode().splitlines():
        meta, path = line.split("\t", 1)
        paths.add(path)
        if meta.split()[0] == LINK_MODE:
            links.add(path)
    return paths, links


def show(mirror: Path, commit: str, path: str, links: set[str]) -> bytes:
    """PATH's content, following symbolic links inside the tree (a link that leaves it, or a
    chain longer than MAX_LINK_HOPS, gives its own text, as git stores it)."""
    target = path
    for _ in range(MAX_LINK_HOPS):
        if target not in links:
            return git(mirror, "show", f"{commit}:{target}")
        text = git(mirror, "show", f"{commit}:{target}").decode("utf-8", "replace").strip()
        target = posixpath.normpath(posixpath.join(posixpath.dirname(target), text))
    return git(mirror, "show", f"{commit}:{path}")


def resolve(includer: str, quote: bytes, name: str, incdirs: list[str], tree: set[str]) -> str | None:
    """The repository path `#include` reaches, or None for a system or missing header."""
    candidates = [posixpath.dirname(includer)] if quote == b'"' else []
    for base in candidates + incdirs:
        path = posixpath.normpath(posixpath.join(base, name))
        if path in tree:
            return path
    return None


def closure(mirror: Path, commit: str, sources: list[str], incdirs: list[str],
            tree: set[str], links: set[str] = frozenset()) -> dict[str, bytes]:
    """Every source with the local headers it reaches, path -> content."""
    todo, seen = list(sources), {}
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen[path] = show(mirror, commit, path, links)
        for quote, name in INCLUDE.findall(seen[path]):
            hit = resolve(path, quote, name.decode("utf-8", "replace").strip(), incdirs, tree)
            if hit is not None and hit not in seen:
                todo.append(hit)
    return seen


def build_project(name: str, spec: dict, dest: Path, mirrors: Path) -> tuple[int, int]:
    mirror = mirrors / spec["repo"].replace("/", "+") / "repo"
    if not mirror.is_dir():
        sys.exit(f"{mirror}: no mirror of {spec['repo']}; "
                 f"git clone --bare https://github.com/{spec['repo']} {mirror}")
    commit = spec["commit"]
    tree, links = read_tree(mirror, commit)
    missing = [p for p in spec["sources"] + spec.get("license_files", []) if p not in tree]
    if missing:
        sys.exit(f"{name}: not in {spec['repo']}@{commit}: {', '.join(missing)}")
    files = closure(mirror, commit, spec["sources"], spec.get("include_dirs", []), tree, links)
    for lic in spec.get("license_files", []):
        files[lic] = show(mirror, commit, lic, links)
    root = dest / name
    for path, data in files.items():
        out = root / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    headers = sorted(set(files) - set(spec["sources"]) - set(spec.get("license_files", [])))
    lines = [f"# {name}", "",
             f"- repository: https://github.com/{spec['repo']}",
             f"- commit: {commit}",
             f"- license: {spec['license']} (files: {', '.join(spec.get('license_files', [])) or 'none in the repository'})",
             f"- include dirs of its build: {', '.join(spec.get('include_dirs', [])) or '(none)'}",
             f"- defines of its build: {', '.join(spec.get('defines', [])) or '(none)'}",
             "", "Files keep their own license headers and their path in the repository.",
             "Rebuild: `python bench/realcorpus_build.py MANIFEST DEST` (see its docstring).", "",
             f"## CUDA sources ({len(spec['sources'])})", ""]
    lines += [f"- {p}" for p in sorted(spec["sources"])]
    lines += ["", f"## Local headers they include ({len(headers)})", ""]
    lines += [f"- {p}" for p in headers]
    (root / "SOURCE.md").write_text("\n".join(lines) + "\n")
    return len(spec["sources"]), len(headers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("manifest", type=Path)
    ap.add_argument("dest", type=Path)
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    args = ap.parse_args()
    # a rule may take no project at all (a thin frame: heldout99): the tree is then empty, not an error
    projects = tomllib.loads(args.manifest.read_text()).get("project", {})
    args.dest.mkdir(parents=True, exist_ok=True)
    total = 0
    for name, spec in projects.items():
        n, h = build_project(name, spec, args.dest, args.mirrors)
        total += n
        print(f"{name}: {n} sources, {h} headers")
    copy = args.dest / "manifest.toml"  # the scoreboard finds a tree's include dirs and defines here
    if not copy.exists() or not copy.samefile(args.manifest):
        copy.write_bytes(args.manifest.read_bytes())
    print(f"{total} sources in {len(projects)} projects under {args.dest}")


if __name__ == "__main__":
    main()
