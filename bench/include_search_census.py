#!/usr/bin/env python3
"""How many files of materialised held-out sets include a project header that no -I names
(kernelport/include_search.py): each source translated alone to HIP, from its project's root, with
no -I/-D (as a user runs it), and the notes of the run counted.

    python bench/include_search_census.py KERNELPORT_EXE DIR... [-j 2] [--match REGEX]

DIR holds a manifest.toml (bench/realcorpus_build.py's). Per file: the includes a search of the
tree answered (found: one file; ambiguous: several) and, for KERNELPORT_EXE without the search
(main), the quoted includes it said were found nowhere.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

FOUND = re.compile(r"note: '([^']+)' is not on the include path: found by searching")
AMBIGUOUS = re.compile(r"note: '([^']+)' is not on the include path and names (\d+) files")
NOWHERE = re.compile(r"note: '([^']+)' not found beside the file or on the include path")


def one(exe: str, root: Path, src: str) -> tuple[str, int, list[str], list[str], list[str]]:
    with tempfile.TemporaryDirectory(prefix="kp-census-") as tmp:
        try:
            p = subprocess.run([exe, "translate", str(root / src), "--to", "hip", "-o", tmp], cwd=root,
                               capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
            text, rc = p.stdout + p.stderr, p.returncode
        except subprocess.TimeoutExpired:
            text, rc = "", -1
    return (src, rc, FOUND.findall(text), [f"{n} ({k})" for n, k in AMBIGUOUS.findall(text)],
            NOWHERE.findall(text))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--match")
    a = ap.parse_args()
    jobs = []
    for d in a.dirs:
        m = tomllib.loads((d / "manifest.toml").read_text())
        for name, p in m["project"].items():
            if not (d / name).is_dir():
                continue
            jobs += [(d.name, name, d / name, s) for s in p["sources"]
                     if not a.match or re.search(a.match, f"{name}/{s}")]
    totals = {"files": 0, "found": 0, "ambiguous": 0, "nowhere": 0}
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        futs = [(j, ex.submit(one, a.exe, j[2], j[3])) for j in jobs]
        for (setname, name, _, _), fut in futs:
            src, rc, found, amb, nowhere = fut.result()
            totals["files"] += 1
            for k, v in (("found", found), ("ambiguous", amb), ("nowhere", nowhere)):
                totals[k] += bool(v)
            if found or amb or nowhere:
                print(f"{setname} {name}/{src} exit {rc}: found {sorted(set(found))} ambiguous {sorted(set(amb))} "
                      f"nowhere {sorted(set(nowhere))}", flush=True)
    print(f"files {totals['files']}: with a header found by search {totals['found']}, with an ambiguous "
          f"name {totals['ambiguous']}, with a quoted include found nowhere {totals['nowhere']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
