"""When each compiler runs inside a cold `verify examples/`: the critical path of each file.

    python bench/verify_timeline.py [--code CHECKOUT] [PATH ...] [--rows]

Runs `verify PATH...` (default examples/) of this code or CHECKOUT's `kernelport/` on an empty cache
home, with each compiler (nvcc, hipcc, clang-15, gcc, and hipcc's clang++ through $HIP_CLANG_PATH) reached
through a shim that logs its start and end, and each file's verify timed in its worker process.
Printed: the wall, per file the seconds from its start to its original's nvcc run and that run's
length, the seconds the file waited for its compiles after its own work (lint, emulator), and the
sums.  Wall clock under whatever load there is: compare two codes in one run of this script each,
back to back, and read the offsets (work moved off a file's critical path), not the wall.
"""
from __future__ import annotations

import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
TOOLS = ("nvcc", "hipcc", "clang-15", "gcc")
SHIM = """#!/bin/sh
[ -n "$KP_TL_IN" ] && exec {real} "$@"
export KP_TL_IN=1
s=$(date +%s.%N); {real} "$@"; rc=$?; e=$(date +%s.%N)
echo "{tool} $s $e $(echo "$@" | tr ' ' '\\n' | grep -E '\\.(cu|hip|metal|cpp|c)$' | head -1)" >> "$KP_TL_LOG"
exit $rc
"""
DRIVER = """
import os, sys, time, pathlib
from kernelport import verify as V
log = os.environ["KP_TL_LOG"]
def note(kind, s, e, what):
    with open(log, "a") as f:
        f.write(f"{kind} {s} {e} {what}\\n")
verify, checks = V.Verifier.verify, V.Verifier._compile_checks
def timed_verify(self, path):
    s = time.time(); r = verify(self, path); note("file", s, time.time(), path); return r
def timed_checks(self, compiling):
    s = time.time(); r = checks(self, compiling); note("wait", s, time.time(), "-"); return r
V.Verifier.verify, V.Verifier._compile_checks = timed_verify, timed_checks
s = time.time()
V.verify_paths([pathlib.Path(p) for p in sys.argv[1:]])
note("total", s, time.time(), "-")
"""


def shims(where: Path) -> dict:
    env = {}
    for tool in TOOLS:
        real = shutil.which(tool)
        if real:
            (where / tool).write_text(SHIM.format(real=real, tool=tool))
            (where / tool).chmod(0o755)
    clang = shutil.which("clang++-15")
    if clang:  # hipcc runs $HIP_CLANG_PATH/clang++-15 (and kernelport runs hipcc's clang commands itself)
        hip_bin = where / "hipclang" / "bin"
        hip_bin.mkdir(parents=True)
        os.symlink(os.path.normpath(os.path.join(os.path.dirname(clang), "..", "lib")), where / "hipclang" / "lib")
        for tool in ("clang++-15", "clang++"):
            real = shutil.which(tool)
            if real:
                (hip_bin / tool).write_text(SHIM.format(real=real, tool=tool))
                (hip_bin / tool).chmod(0o755)
        env["HIP_CLANG_PATH"] = str(hip_bin)
    return env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", default=["examples"])
    ap.add_argument("--code", type=Path, default=HERE, help="a checkout whose kernelport/ is run (default: this)")
    ap.add_argument("--rows", action="store_true", help="print every compiler run")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="kp-timeline-") as tmp:
        tmp = Path(tmp)
        (tmp / "shims").mkdir()
        (tmp / "home").mkdir()
        log = tmp / "timeline.log"
        env = {k: v for k, v in os.environ.items()
               if k not in ("KERNELPORT_COMPILE_CACHE", "KERNELPORT_PCH_DIR", "PYTHONDONTWRITEBYTECODE")}
        env.update(shims(tmp / "shims"), PATH=f"{tmp / 'shims'}{os.pathsep}{env.get('PATH', '')}", KP_TL_LOG=str(log),
                   XDG_CACHE_HOME=str(tmp / "home"), HIP_PLATFORM="amd", PYTHONPATH=str(args.code.resolve()))
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(args.code / "kernelport")], check=True)
        load0 = os.getloadavg()[0]
        proc = subprocess.run([sys.executable, "-P", "-c", DRIVER, *args.paths], env=env, cwd=HERE,
                              capture_output=True, text=True)
        if proc.returncode:
            sys.exit(proc.stderr[-2000:])
        rows = [line.split(maxsplit=3) for line in log.read_text().splitlines()]
    t0 = min(float(r[1]) for r in rows)
    rows = [(r[0], float(r[1]) - t0, float(r[2]) - t0, r[3] if len(r) > 3 else "") for r in rows]
    total = next(r for r in rows if r[0] == "total")
    print(f"# code {args.code}; load {load0:.1f}-{os.getloadavg()[0]:.1f}; wall {total[2] - total[1]:.2f} s")
    busy = collections.defaultdict(float)
    for kind, s, e, what in sorted(rows, key=lambda r: r[1]):
        busy[kind] += e - s
        if args.rows and kind not in ("total",):
            print(f"  {kind:10} {s:7.2f} {e:7.2f} {e - s:6.2f} {what}")
    files = sorted((r for r in rows if r[0] == "file"), key=lambda r: r[1])
    nvcc = {Path(r[3]).name: r for r in rows if r[0] == "nvcc" and r[3]}
    waits = sorted((r for r in rows if r[0] == "wait"), key=lambda r: r[2])
    offsets = []
    print(f"  {'file':22} {'start':>7} {'end':>7} {'nvcc at':>8} {'nvcc s':>7} {'waited':>7}")
    for _, s, e, what in files:
        n = nvcc.get(Path(what).name)
        w = next((r for r in waits if abs(r[2] - e) < 0.05), None)  # the wait that ends with the file
        if n:
            offsets.append(n[1] - s)
        print(f"  {Path(what).name:22} {s:7.2f} {e:7.2f} {(n[1] - s) if n else float('nan'):8.2f} "
              f"{(n[2] - n[1]) if n else float('nan'):7.2f} {(w[2] - w[1]) if w else float('nan'):7.2f}")
    print(f"  the original's nvcc begun {sum(offsets) / max(1, len(offsets)):.2f} s after its file's start on average "
          f"({len(offsets)} files); waits for compiles {busy['wait']:.2f} s in all; "
          + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(busy.items()) if k not in ("file", "wait", "total")))


if __name__ == "__main__":
    main()
