#!/usr/bin/env python3
"""The held-out files whose HIP ports stopped at a missing rocThrust/hipCUB header, materialised
again for measuring with and without ROCm's libraries (bench/rocm_libs.py).

    python bench/rocm_libs_sets.py DEST [N=AFTER ...]
    python bench/rocm_libs_sets.py --combine MEASURED.json... [N=AFTER ...]

For each held-out set N and its after-scoreboard's --json (default: the SETS below), the rows
whose hipcc error is `'thrust/...'`, `'hipcub/...'` or `'cub/...' file not found` name the files;
their projects' sections of bench/heldoutN.toml are written to DEST/heldoutN/manifest.toml and
materialised there with bench/realcorpus_build.py (bare mirrors under /work/.mirror: the fetch
tool). It prints, per set, the tree and the `--match` regex that selects exactly those files, for
`bench/scoreboard.py DEST/heldoutN --match REGEX [--hip-include DIR]` in the after-scoreboard's
mode (`--project-flags` where it had it: its first line says).

--combine: per set, the after-scoreboard's HIP done-when as it was measured (of its rows whose
original compiles with nvcc, those whose port compiles), and the same with the rows of those files
taken from MEASURED (scoreboard --json of the re-measure with --hip-include): the figure with ROCm's
libraries, the other rows as the after-scoreboard measured them.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
MISSING = re.compile(r"'(?:thrust|hipcub|cub)/[^']*' file not found")
# set -> its latest after-scoreboard with a --json (sets 17, 13 and 11 have none: their rocThrust
# measure is bench/scoreboard_rocthrust_heldout{17,13,11}.txt; 15's last has no such row left)
SETS = {31: "31_after", 28: "28_after", 27: "27_after", 26: "26_after", 25: "25_after",
        24: "24_after", 22: "22_after39b", 20: "20_after", 19: "19_after38", 18: "18_after38",
        16: "16_after"}


def sections(manifest: str, keep: set[str]) -> str:
    """The manifest's preamble and the `[project."NAME"]` sections of the projects in KEEP."""
    parts = re.split(r'(?m)^(?=\[project\.)', manifest)
    name = re.compile(r'^\[project\.(?:"([^"]+)"|([^\]]+))\]')
    out = [parts[0]]
    for part in parts[1:]:
        m = name.match(part)
        if m and (m.group(1) or m.group(2)) in keep:
            out.append(part)
    return "".join(out)


def done_when(rows: list[dict]) -> tuple[int, int]:
    """(ports that compile for both archs, originals that compile with nvcc): the scoreboard's HIP figure."""
    den = [r for r in rows if r["nvcc"] == "pass"]
    return sum(r["hipcc"] == "pass" for r in den), len(den)


def combine(measured: list[Path], sets: dict[int, str]) -> int:
    again = {(r["project"], r["file"]): r for m in measured for r in json.loads(m.read_text())["rows"]}
    for n, after in sets.items():
        rows = json.loads((BENCH / f"scoreboard_heldout{after}.json").read_text())["rows"]
        stopped = [r for r in rows if MISSING.search(r.get("hipcc_error", ""))]
        if not stopped:
            continue
        now = [again.get((r["project"], r["file"]), r) for r in rows]
        missing = [r for r in stopped if (r["project"], r["file"]) not in again]
        (a, b), (c, d) = done_when(rows), done_when(now)
        fixed = [again[(r["project"], r["file"])] for r in stopped if (r["project"], r["file"]) in again]
        print(f"heldout{n} (scoreboard_heldout{after}.json): without {a} of {b} ({100 * a / b:.1f}%), "
              f"with ROCm's libraries {c} of {d} ({100 * c / d:.1f}%); {len(stopped)} rows stopped at a missing "
              f"header: now {sum(r['hipcc'] == 'pass' for r in fixed)} compile, "
              f"{sum(r['hipcc'] != 'pass' for r in fixed)} do not"
              + "".join(f"\n    {r['project']}/{r['file']}: nvcc {r['nvcc']}, hipcc {r['hipcc']}"
                        + (f" ({r['hipcc_error'][:150]})" if r["hipcc"] != "pass" else "") for r in fixed)
              + (f"; {len(missing)} not re-measured" if missing else ""))
    return 0


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "--combine":
        given = [Path(a) for a in argv[1:] if "=" not in a]
        return combine(given, dict((int(a.split("=")[0]), a.split("=")[1]) for a in argv[1:] if "=" in a) or SETS)
    dest = Path(argv[0])
    sets = dict((int(a.split("=")[0]), a.split("=")[1]) for a in argv[1:]) or SETS
    for n, after in sets.items():
        rows = [r for r in json.loads((BENCH / f"scoreboard_heldout{after}.json").read_text())["rows"]
                if MISSING.search(r.get("hipcc_error", ""))]
        if not rows:
            print(f"heldout{n}: no row of scoreboard_heldout{after}.json stops at a missing thrust/hipcub header")
            continue
        tree = dest / f"heldout{n}"
        tree.mkdir(parents=True, exist_ok=True)
        (tree / "manifest.toml").write_text(sections((BENCH / f"heldout{n}.toml").read_text(),
                                                     {r["project"] for r in rows}))
        subprocess.run([sys.executable, str(BENCH / "realcorpus_build.py"), str(tree / "manifest.toml"), str(tree)],
                       check=True, stdout=subprocess.DEVNULL)
        regex = "^(" + "|".join(re.escape(f"{r['project']}/{r['file']}") for r in rows) + ")$"
        print(f"heldout{n}: {len(rows)} files of scoreboard_heldout{after}.json; {tree} --match '{regex}'")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
