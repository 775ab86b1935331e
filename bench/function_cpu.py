"""Thread CPU of named functions inside one kernelport command, in one process (a timer per function, no profiler).

    python -P bench/function_cpu.py [--code CHECKOUT] --time MODULE:FUNCTION [--time ...] -- translate DIR --to hip --stdout
    python -P bench/function_cpu.py --time kernelport.warpwidth:decide -- lint -j 1 --exit-zero --format json DIR
    python -P bench/function_cpu.py --time kernelport.source:NodeIndex.__init__ -- lint ...   # a method: CLASS.NAME

Each named function is wrapped and timed on its thread's CPU clock (`time.thread_time`: kernelport's work runs on
`depth.on_big_stack`'s thread), a call nested in the same function counted once; the command runs through typer's
test runner with `--code`'s kernelport (a `git archive` of main, say).  Prints the process CPU, the output's size and
SHA-256 (the same command must give the same bytes with either code) and each function's seconds and calls.  A name
a code lacks is reported as absent.  Alternate the codes in one shell loop to compare them under one load.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import importlib
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--code", type=Path, default=ROOT)
    ap.add_argument("--time", action="append", default=[], metavar="MODULE:FUNCTION")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    sys.path.insert(0, str(args.code.resolve()))
    cpu: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    local = threading.local()
    absent = []
    for spec in args.time:
        mod_name, _, name = spec.partition(":")
        mod = importlib.import_module(mod_name)
        owner, _, name = name.rpartition(".")  # `Class.method`: timed on its class
        for part in owner.split(".") if owner else ():
            mod = getattr(mod, part, None)
        f = getattr(mod, name, None) if mod is not None else None
        if f is None:
            absent.append(spec)
            continue

        def timed(*a, _f=f, _spec=spec, **k):
            running = local.__dict__.setdefault("running", set())
            if _spec in running:
                return _f(*a, **k)
            running.add(_spec)
            c0 = time.thread_time()
            try:
                return _f(*a, **k)
            finally:
                cpu[_spec] += time.thread_time() - c0
                calls[_spec] += 1
                running.discard(_spec)
        setattr(mod, name, timed)
    from typer.testing import CliRunner

    from kernelport.cli import app
    c0 = time.process_time()
    result = CliRunner().invoke(app, command)
    total = time.process_time() - c0
    out = result.output.encode()
    print(f"{args.code}: {' '.join(command)}: {total:.2f} s process CPU; output {len(out)} bytes, sha256 "
          f"{hashlib.sha256(out).hexdigest()[:16]}")
    for spec in args.time:
        if spec in absent:
            print(f"  {spec}: absent in this code")
        else:
            print(f"  {spec}: {cpu[spec]:.2f} s thread CPU in {calls[spec]:,} calls ({100 * cpu[spec] / total:.1f}%)")


if __name__ == "__main__":
    main()
