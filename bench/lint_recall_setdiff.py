"""Which findings move between two kernelport builds on one labelled set, run as lint_recall.py --project runs it.

    python bench/lint_recall_setdiff.py tests/labelled11 EXE_A EXE_B

Every commit folder of the set (lint_recall.project_runs: its files with one build-flags row) is linted by each
executable (`lint --format json --exit-zero -j 1 FLAGS FILES`, nice'd); a line `- (path, line, code, message)` is a
finding only A reports, `+` one only B reports.  For explaining a changed `== SET` block of two pooled runs.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import lint_recall as L  # noqa: E402  (a sibling script)


def main() -> None:
    set_dir, exes = Path(sys.argv[1]), sys.argv[2:4]
    files = list(dict.fromkeys(lb.file for lb in L.read_labels(set_dir / "labels.tsv")))
    for fs, flags in L.project_runs(set_dir, files):
        out = []
        for exe in exes:
            r = subprocess.run(["nice", "-n", "10", exe, "lint", "--format", "json", "--exit-zero", "-j", "1", *flags, *fs],
                               capture_output=True, text=True, cwd=set_dir)
            out.append({(d["path"], d["line"], d["code"], d["message"]) for d in json.loads(r.stdout or "[]")})
        for x in sorted(out[0] - out[1]):
            print("-", x)
        for x in sorted(out[1] - out[0]):
            print("+", x)


if __name__ == "__main__":
    main()
