"""CPU seconds of `kernelport lint -j 1 --format json DIR`, this code against another checkout's,
alternated in one run, beside a bare tree-sitter parse of the same files (the floor for any linter).

    python bench/bench_lint_ab.py CHECKOUT [DIR ...] [--rounds 3] [--jobs 2]

CHECKOUT: a `git worktree add` of the code to compare with (its `kernelport/` is put first on
PYTHONPATH).  Each round runs the checkout's lint, then this code's, as child processes: their
user+sys time is read from RUSAGE_CHILDREN, so start-up counts as it does for a user.  The best
of the rounds is printed (a shared machine only ever adds time), and whether the two JSON outputs
are byte-identical.  `--jobs N`: each round also runs this code's lint with `-j N`, whose wall and CPU
seconds are printed beside `-j 1`'s (a worker pool should cost little CPU more and take less wall time).
`--select CODES`: both codes lint with `--select CODES` (a run of a few rules: the analyses no selected rule
reads are not made, lint.context `analysis`).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "bench"))
from bench_lint import bare_parse_cpu, children_cpu  # noqa: E402  (the same measures as bench_lint.py)


def lint_cpu(code: Path, dirs: list[str], jobs: int = 1, select: str | None = None) -> tuple[float, bytes, float]:
    """(CPU s, the JSON, wall s) of one lint run."""
    env = dict(os.environ, PYTHONPATH=str(code))
    c0, w0 = children_cpu(), time.perf_counter()
    sel = ["--select", select] if select else []
    out = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "-j", str(jobs), *sel, "--format", "json", *dirs],
                         env=env, capture_output=True, cwd=HERE).stdout
    return children_cpu() - c0, out, time.perf_counter() - w0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("dirs", nargs="*", default=["tests/realcorpus"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=0, help="also run this code with -j N each round")
    ap.add_argument("--select", default=None, help="lint only these rules (both codes)")
    args = ap.parse_args()
    from kernelport.lint.discovery import kind  # the files lint reads (headers and Python included)
    files = sorted(p for d in args.dirs for p in (HERE / d).rglob("*") if p.is_file() and kind(p) is not None)
    lines = sum(f.read_bytes().count(b"\n") for f in files)
    runs: dict[str, list[float]] = {"checkout": [], "this": []}
    walls: dict[str, list[float]] = {"this": [], "jobs": []}
    jobs_cpu: list[float] = []
    parses, outs = [], {}
    for _ in range(args.rounds):
        for name, code in (("checkout", args.checkout.resolve()), ("this", HERE)):
            cpu, outs[name], wall = lint_cpu(code, args.dirs, select=args.select)
            runs[name].append(cpu)
            walls.setdefault(name, []).append(wall)
        if args.jobs:
            cpu, outs["jobs"], wall = lint_cpu(HERE, args.dirs, args.jobs, args.select)
            jobs_cpu.append(cpu)
            walls["jobs"].append(wall)
        parses.append(bare_parse_cpu(files))
    parse = min(parses)
    sel = f"; --select {args.select}" if args.select else ""
    print(f"{len(files)} files, {lines:,} lines{sel}; load average {os.getloadavg()[0]:.1f}; bare parse {parse:.3f} s CPU")
    for name, cpus in runs.items():
        best = min(cpus)
        print(f"{name}: best {best:.2f} s CPU = {lines / best / 1000:.1f}k lines per CPU-s, {best / parse:.0f}x a parse "
              f"(runs: {', '.join(f'{c:.2f}' for c in cpus)})")
    print("JSON byte-identical" if outs["checkout"] == outs["this"] else "JSON DIFFERS")
    if args.jobs:
        print(f"this, -j 1: {', '.join(f'{w:.1f}' for w in walls['this'])} s wall; -j {args.jobs}: "
              f"{', '.join(f'{w:.1f}' for w in walls['jobs'])} s wall, {', '.join(f'{c:.2f}' for c in jobs_cpu)} s CPU "
              f"(load average {os.getloadavg()[0]:.1f}); "
              + ("the same JSON as -j 1" if outs["jobs"] == outs["this"] else "JSON DIFFERS from -j 1"))


if __name__ == "__main__":
    main()
