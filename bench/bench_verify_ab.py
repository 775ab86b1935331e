"""`kernelport verify examples/` cold and unchanged, this code against another checkout's, alternated.

    python bench/bench_verify_ab.py CHECKOUT [PATH ...] [--rounds 2]

CHECKOUT: a `git worktree add` of the code to compare with (its `kernelport/` is put first on
PYTHONPATH).  Each round runs, for the checkout and then this code, a cold verify (an empty cache
home: no verify cache, no precompiled headers; $KERNELPORT_COMPILE_CACHE unset) and then the same
command again on that cache home (nothing changed).  Printed per run: wall seconds, the user+sys
CPU of the verify process and every process it started (RUSAGE_CHILDREN), the load average
before and after, the compiler runs by tool ($KERNELPORT_TOOL_LOG), and whether every check's
verdict equals the checkout's (the JSON report less its seconds).  Both trees' bytecode is
compiled first and $PYTHONDONTWRITEBYTECODE is dropped, as for an installed package (pip writes
it at install): otherwise every process compiles kernelport's sources again (~0.3-0.5 s CPU each).
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def verify(code: Path, paths: list[str], home: str) -> dict:
    log = os.path.join(home, "tools.log")
    env = {k: v for k, v in os.environ.items()
           if k not in ("KERNELPORT_COMPILE_CACHE", "KERNELPORT_PCH_DIR", "PYTHONDONTWRITEBYTECODE")}
    env.update(PYTHONPATH=str(code), XDG_CACHE_HOME=home, KERNELPORT_TOOL_LOG=log, HIP_PLATFORM="amd")
    if os.path.exists(log):
        os.remove(log)
    load0, c0, t0 = os.getloadavg()[0], children_cpu(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-P", "-m", "kernelport", "verify", *paths, "--format", "json"],
                          env=env, capture_output=True, text=True, cwd=HERE)
    wall, cpu = time.perf_counter() - t0, children_cpu() - c0
    tools = collections.Counter(line.split("\t")[1].strip() for line in open(log)) if os.path.exists(log) else {}
    report = json.loads(proc.stdout) if proc.stdout.strip().startswith("[") else []
    verdicts = sorted((f["path"], c["kernel"], c["backend"], c["wave"] or 0, c["kind"], c["target"], c["schedule"],
                       c["status"]) for f in report for c in f["checks"])
    by_kind = collections.Counter()
    for f in report:
        for c in f["checks"]:
            by_kind[c["kind"]] += c["seconds"]
    return {"rc": proc.returncode, "wall": wall, "cpu": cpu, "load": (load0, os.getloadavg()[0]), "tools": tools,
            "verdicts": verdicts, "by_kind": by_kind}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("paths", nargs="*", default=["examples"])
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    for code in (args.checkout.resolve(), HERE):
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(code / "kernelport")], check=True)
    same = True
    for rnd in range(1, args.rounds + 1):
        verdicts = {}
        for name, code in (("checkout", args.checkout.resolve()), ("this", HERE)):
            with tempfile.TemporaryDirectory(prefix="kp-bench-verify-") as home:
                for state in ("cold", "unchanged"):
                    r = verify(code, args.paths, home)
                    verdicts.setdefault(state, {})[name] = r["verdicts"]
                    tools = ", ".join(f"{t} {n}" for t, n in sorted(r["tools"].items()))
                    kinds = ", ".join(f"{k} {s:.1f}" for k, s in r["by_kind"].most_common(4))
                    print(f"round {rnd} {name:8} {state:9}: exit {r['rc']}, {r['wall']:6.1f} s wall, {r['cpu']:6.1f} s CPU, "
                          f"load {r['load'][0]:.1f}-{r['load'][1]:.1f}, {len(r['verdicts'])} checks; tools: {tools or '-'}; "
                          f"check seconds: {kinds}", flush=True)
        for state, got in verdicts.items():
            if got["checkout"] != got["this"]:
                same = False
                print(f"round {rnd} {state}: VERDICTS DIFFER", flush=True)
    print("every verdict equal to the checkout's" if same else "VERDICTS DIFFER")


if __name__ == "__main__":
    main()
