#!/usr/bin/env python3
"""Two test-suite CPU profiles (tests/cpu_profile.py: KERNELPORT_CPU_PROFILE) compared over the tests
both hold, so that runs cut short, or made beside other load, still compare: CPU seconds (the
pytest process and its waited-for children) do not grow with the load as wall time does.

    python bench/cpu_profile_ab.py BEFORE AFTER [N]   # each: the joined TSV or a run's *.part files

BEFORE and AFTER are a file, or a glob of part files in quotes ('/tmp/p.tsv.*.part').  Prints the
totals over the common tests and the N test files whose CPU moved most.
"""
from __future__ import annotations

import glob
import sys
from collections import defaultdict


def tests(pattern: str) -> dict[str, float]:
    """test id -> CPU seconds (the last row of an id, if a part repeats it)."""
    out = {}
    for path in sorted(glob.glob(pattern)) or [pattern]:
        with open(path) as f:
            for line in f:
                row = line.rstrip("\n").split("\t")
                if row[0] == "test":
                    out[row[1]] = float(row[3])
    return out


def compare(before: dict[str, float], after: dict[str, float], n: int = 15) -> str:
    common = sorted(before.keys() & after.keys())
    b, a = sum(before[t] for t in common), sum(after[t] for t in common)
    lines = [f"tests: {len(before)} before, {len(after)} after, {len(common)} in both",
             f"CPU over the common tests: before {b:.1f} s, after {a:.1f} s ({a / b:.3f} of before)" if b else
             "no common tests"]
    files = defaultdict(lambda: [0.0, 0.0, 0])
    for t in common:
        f = files[t.split("::", 1)[0]]
        f[0] += before[t]
        f[1] += after[t]
        f[2] += 1
    lines.append(f"\n{'before':>8} {'after':>8} {'moved':>8} tests  file")
    for name, (x, y, k) in sorted(files.items(), key=lambda kv: kv[1][1] - kv[1][0])[:n]:
        lines.append(f"{x:8.1f} {y:8.1f} {y - x:+8.1f} {k:5d}  {name}")
    return "\n".join(lines)


if __name__ == "__main__":
    args = sys.argv[1:]
    top = int(args.pop()) if len(args) == 3 else 15
    print(compare(tests(args[0]), tests(args[1]), top))
