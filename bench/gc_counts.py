"""The garbage collector's work during one kernelport command, counted: collections per generation
and the collector's CPU seconds (`gc.callbacks`), beside the command's CPU.

    python bench/gc_counts.py [--code CHECKOUT] -- translate tests/realcorpus --to hip,metal --stdout

The command runs in this process through the CLI (typer's test runner: its stdout is captured, not
printed), with `--code`'s kernelport (e.g. a `git worktree add` of main), so two checkouts compare
by running this twice from the same directory.  Counts move with the code, not with the load; the
seconds do move with the load.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--code", type=Path, default=ROOT, help="the checkout whose kernelport runs (default: this one)")
    ap.add_argument("argv", nargs=argparse.REMAINDER, help="the kernelport command line (after --)")
    args = ap.parse_args()
    argv = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
    sys.path.insert(0, str(args.code.resolve()))
    from typer.testing import CliRunner
    from kernelport.cli import for_argv
    app = for_argv(argv)
    collections = [0, 0, 0]
    spent = [0.0]
    started = [0.0]

    def count(phase, info):
        if phase == "start":
            started[0] = time.process_time()
        else:
            collections[info["generation"]] += 1
            spent[0] += time.process_time() - started[0]
    gc.callbacks.append(count)
    c0 = time.process_time()
    try:
        res = CliRunner().invoke(app, argv)
    finally:
        gc.callbacks.remove(count)
    cpu = time.process_time() - c0
    import kernelport
    print(f"{Path(kernelport.__file__).parent.parent}: kernelport {' '.join(argv)}: exit {res.exit_code}; "
          f"collections {collections[0]} / {collections[1]} / {collections[2]} (young / middle / full), "
          f"the collector {spent[0]:.2f} s of {cpu:.2f} s CPU; threshold after {gc.get_threshold()}; "
          f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
