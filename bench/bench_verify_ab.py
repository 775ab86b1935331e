"""`kernelport verify examples/` cold and unchanged, this code against another checkout's, alternated.

    python bench/bench_verify_ab.py CHECKOUT [PATH ...] [--rounds 2]

CHECKOUT: a `git worktree add` of the code to compare with (its `kernelport/` is put first on
PYTHONPATH).  Each round runs, for the checkout and then this code, a cold verify (an empty cache
home: no verify cache, no precompiled headers; $KERNELPORT_COMPILE_CACHE unset) and then the same
command again on that cache home (nothing changed).  Printed per run: wall seconds, the user+sys
CPU of the verify process and every process it started (RUSAGE_CHILDREN), the load average
before and after, the compiler runs by tool ($KERNELPORT_TOOL_LOG), and whether every check's
verdict equals the checkout's (the JSON report less its seconds).  With --tool-cpu, each compiler
(nvcc, hipcc, clang-15, gcc, cpp) is reached through a shim on PATH that runs it under
/usr/bin/time, and the CPU of each tool's runs (with everything they start: cicc, ptxas, nvcc's
host gcc, clang, lld) is printed (clang++-15: the clang commands of hipcc that kernelport runs itself, through
$HIP_CLANG_PATH set to a shim directory for both codes); the rest of the process tree's CPU is kernelport's own.  The shims are on PATH for
both codes alike.  --busy samples /proc/stat every 0.5 s and prints the run's CPU use per 5 s as a
share of the machine's cores (other sessions' load included: read it beside the load average).  Both trees' bytecode is
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


TOOLS = ("nvcc", "hipcc", "clang-15", "gcc", "cpp")
HIP_CLANG = ("clang++-15", "clang++")


def make_shims(where: str) -> dict:
    """A directory of shims that time each compiler: {tool: real path}; the shims write to $KP_TOOL_CPU."""
    import shutil
    real = {t: shutil.which(t) for t in TOOLS}
    for tool, path in real.items():
        if path:
            shim = os.path.join(where, tool)
            with open(shim, "w") as f:
                f.write(f'#!/bin/sh\n[ -n "$KP_TOOL_TIMED" ] && exec {path} "$@"\nexport KP_TOOL_TIMED=1\n'  # nvcc's gcc: nvcc's
                        f'exec /usr/bin/time -a -o "$KP_TOOL_CPU" -f "{tool} %U %S" {path} "$@"\n')
            os.chmod(shim, 0o755)
    # hipcc runs $HIP_CLANG_PATH/clang++-15 by its full path: a shim directory there (with the ../lib
    # hipcc reads the headers from) times the clang commands that kernelport runs without hipcc too
    # (kernelport.hipcc_direct); under hipcc, the hipcc shim has timed them already
    clang = shutil.which("clang++-15")
    if clang and real.get("hipcc"):
        hip_bin = os.path.join(where, "hipclang", "bin")
        os.makedirs(hip_bin)
        os.symlink(os.path.normpath(os.path.join(os.path.dirname(clang), "..", "lib")),
                   os.path.join(where, "hipclang", "lib"))
        for tool in HIP_CLANG:
            path = shutil.which(tool)
            with open(os.path.join(hip_bin, tool), "w") as f:
                f.write(f'#!/bin/sh\n[ -n "$KP_TOOL_TIMED" ] && exec {path} "$@"\nexport KP_TOOL_TIMED=1\n'
                        f'exec /usr/bin/time -a -o "$KP_TOOL_CPU" -f "{tool} %U %S" {path} "$@"\n')
            os.chmod(os.path.join(hip_bin, tool), 0o755)
        real["HIP_CLANG_PATH"] = hip_bin
    return real


def busy_sampler(samples: list, stop) -> None:
    def ticks():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v) - v[3] - v[4], sum(v)
    before = ticks()
    while not stop.wait(0.5):
        now = ticks()
        samples.append((now[0] - before[0]) / max(1, now[1] - before[1]))
        before = now


def verify(code: Path, paths: list[str], home: str, shims: str | None = None, busy: bool = False,
           hip_clang: str | None = None) -> dict:
    log = os.path.join(home, "tools.log")
    cpu_log = os.path.join(home, "tools.cpu")
    env = {k: v for k, v in os.environ.items()
           if k not in ("KERNELPORT_COMPILE_CACHE", "KERNELPORT_PCH_DIR", "PYTHONDONTWRITEBYTECODE")}
    env.update(PYTHONPATH=str(code), XDG_CACHE_HOME=home, KERNELPORT_TOOL_LOG=log, HIP_PLATFORM="amd")
    if shims:
        env.update(PATH=shims + os.pathsep + env.get("PATH", ""), KP_TOOL_CPU=cpu_log)
        if hip_clang:
            env["HIP_CLANG_PATH"] = hip_clang
    for f in (log, cpu_log):
        if os.path.exists(f):
            os.remove(f)
    samples: list = []
    if busy:
        import threading
        stop = threading.Event()
        sampler = threading.Thread(target=busy_sampler, args=(samples, stop), daemon=True)
        sampler.start()
    load0, c0, t0 = os.getloadavg()[0], children_cpu(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-P", "-m", "kernelport", "verify", *paths, "--format", "json"],
                          env=env, capture_output=True, text=True, cwd=HERE)
    wall, cpu = time.perf_counter() - t0, children_cpu() - c0
    if busy:
        stop.set()
        sampler.join()
    tool_cpu: dict = collections.defaultdict(float)
    if os.path.exists(cpu_log):
        for line in open(cpu_log):
            parts = line.split()
            if len(parts) == 3 and parts[0] in TOOLS + HIP_CLANG:
                tool_cpu[parts[0]] += float(parts[1]) + float(parts[2])
    tools = collections.Counter(line.split("\t")[1].strip() for line in open(log)) if os.path.exists(log) else {}
    report = json.loads(proc.stdout) if proc.stdout.strip().startswith("[") else []
    verdicts = sorted((f["path"], c["kernel"], c["backend"], c["wave"] or 0, c["kind"], c["target"], c["schedule"],
                       c["status"]) for f in report for c in f["checks"])
    by_kind = collections.Counter()
    for f in report:
        for c in f["checks"]:
            by_kind[c["kind"]] += c["seconds"]  # this run's (a cached check's: its lookup)
    return {"rc": proc.returncode, "wall": wall, "cpu": cpu, "load": (load0, os.getloadavg()[0]), "tools": tools,
            "verdicts": verdicts, "by_kind": by_kind, "tool_cpu": tool_cpu, "busy": samples}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("paths", nargs="*", default=["examples"])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--tool-cpu", action="store_true", help="time each compiler's runs (shims on PATH)")
    ap.add_argument("--busy", action="store_true", help="the machine's CPU use over each cold run, per 5 s")
    args = ap.parse_args()
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE).stdout
    theirs = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=args.checkout).stdout
    print(f"# this: {head.strip()}, checkout: {theirs.strip()}; {os.cpu_count()} cores; load {os.getloadavg()}",
          flush=True)
    shim_dir = tempfile.mkdtemp(prefix="kp-bench-shims-") if args.tool_cpu else None
    hip_clang = make_shims(shim_dir).get("HIP_CLANG_PATH") if shim_dir else None
    for code in (args.checkout.resolve(), HERE):
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(code / "kernelport")], check=True)
    same = True
    for rnd in range(1, args.rounds + 1):
        verdicts = {}
        for name, code in (("checkout", args.checkout.resolve()), ("this", HERE)):
            with tempfile.TemporaryDirectory(prefix="kp-bench-verify-") as home:
                for state in ("cold", "unchanged"):
                    r = verify(code, args.paths, home, shim_dir, args.busy and state == "cold", hip_clang)
                    verdicts.setdefault(state, {})[name] = r["verdicts"]
                    tools = ", ".join(f"{t} {n}" for t, n in sorted(r["tools"].items()))
                    kinds = ", ".join(f"{k} {s:.1f}" if s >= 0.05 else f"{k} {s * 1000:.2g} ms"  # measured, never "0.0"
                                      for k, s in r["by_kind"].most_common(4))
                    print(f"round {rnd} {name:8} {state:9}: exit {r['rc']}, {r['wall']:6.1f} s wall, {r['cpu']:6.1f} s CPU, "
                          f"load {r['load'][0]:.1f}-{r['load'][1]:.1f}, {len(r['verdicts'])} checks; tools: {tools or '-'}; "
                          f"check seconds: {kinds}", flush=True)
                    if r["tool_cpu"]:
                        own = r["cpu"] - sum(r["tool_cpu"].values())
                        print("    tool CPU: " + ", ".join(f"{t} {s:.1f}" for t, s in sorted(r["tool_cpu"].items()))
                              + f"; kernelport itself {own:.1f} s", flush=True)
                    if r["busy"]:
                        per5 = [sum(r["busy"][i:i + 10]) / len(r["busy"][i:i + 10])
                                for i in range(0, len(r["busy"]), 10)]
                        print("    machine busy per 5 s: " + " ".join(f"{b:.0%}" for b in per5), flush=True)
        for state, got in verdicts.items():
            if got["checkout"] != got["this"]:
                same = False
                print(f"round {rnd} {state}: VERDICTS DIFFER", flush=True)
    print("every verdict equal to the checkout's" if same else "VERDICTS DIFFER")


if __name__ == "__main__":
    main()
