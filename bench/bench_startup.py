"""Start-up of the commands a pre-commit hook runs, beside bare Python start-up, in one run.

    python bench/bench_startup.py [--repeat 7] [--against CHECKOUT] [--instructions]

Each figure is the best of N runs, wall and CPU (user+sys of the child): CPU time is what to read
on a loaded machine, where wall time drifts with the other processes.  `--against CHECKOUT` (a `git
worktree add` of the code to compare with, put first on PYTHONPATH) runs each kernelport command
with that code too, alternated run by run with this code's.  Both are compiled to bytecode first
and nothing is compiled during a run (as after `pip install`), whatever PYTHONDONTWRITEBYTECODE says.
`--instructions` also counts each command's instructions under valgrind's callgrind (once each,
threads included): a figure no load moves, where CPU seconds drift by tens of milliseconds.
kernelport keeps its dataclass methods compiled in a cache directory (kernelport/dataclass_code.py):
the rows run with one made for this run and filled by a first run, as every run after the first
finds it; `--cold` adds the lint rows of this code with an empty one each run (a first run).
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def once(cmd: list[str], env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def instructions(cmd: list[str], env: dict) -> int | None:
    """Instructions the command executes (callgrind's "Collected"), None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], cwd=ROOT, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"Collected : (\d+)", r.stderr)
    return int(m.group(1)) if m else None


def measure(cmd: list[str], envs: list[dict], repeat: int) -> list[tuple[float, float]]:
    """The best wall and CPU of `repeat` runs under each env, the envs alternated run by run."""
    runs: list[list[tuple[float, float]]] = [[] for _ in envs]
    for _ in range(repeat):
        for i, env in enumerate(envs):
            runs[i].append(once(cmd, env))
    return [(min(w for w, _ in r), min(c for _, c in r)) for r in runs]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--against", type=Path, default=None, metavar="CHECKOUT")
    ap.add_argument("--instructions", action="store_true", help="count each command's instructions (callgrind)")
    ap.add_argument("--cold", action="store_true", help="also the lint rows with an empty dataclass code cache")
    args = ap.parse_args()
    py = sys.executable
    kp = [py, "-P", "-m", "kernelport"]
    tmp = tempfile.TemporaryDirectory(prefix="kp-bench-startup-")
    cache = os.path.join(tmp.name, "warm")  # filled by the first run of each command
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base["KERNELPORT_CODE_CACHE"] = cache
    codes = [("this", ROOT)] + ([("checkout", args.against.resolve())] if args.against else [])
    for _, code in codes:  # bytecode, as an installed package has it
        subprocess.run([py, "-m", "compileall", "-q", str(code / "kernelport")], stdout=subprocess.DEVNULL, env=base)
    envs = [dict(base, PYTHONPATH=str(code)) for _, code in codes]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; best of {args.repeat}"
          + (f"; this code ({ROOT}) and the checkout's ({codes[1][1]}) alternated" if args.against else ""))
    for name, cmd in [("python -c pass", [py, "-c", "pass"]),
                      ("python -c 'import typer' (the CLI's floor)", [py, "-c", "import typer"]),
                      ("kernelport lint examples/saxpy.cu (clean)", kp + ["lint", "examples/saxpy.cu"]),
                      ("kernelport --version", kp + ["--version"]),
                      ("kernelport lint examples/warp_reduce.cu", kp + ["lint", "examples/warp_reduce.cu"]),
                      ("kernelport lint --help", kp + ["lint", "--help"])]:
        ours = cmd[:len(kp)] == kp
        if ours:
            for env in envs:
                once(cmd, env)  # (fills the code cache)
        got = measure(cmd, envs if ours else envs[:1], args.repeat)
        print(f"{name:46} " + "   ".join(f"{label if ours and len(got) > 1 else '':8} {wall:6.3f} s wall  {cpu:6.3f} s CPU"
                                          for (label, _), (wall, cpu) in zip(codes, got)))
        if args.instructions:
            counts = [instructions(cmd, env) for env in (envs if ours else envs[:1])]
            print(f"{'':46} " + "   ".join(f"{label if ours and len(counts) > 1 else '':8} "
                                           + (f"{n / 1e6:7.1f} M instructions" if n is not None else "(no valgrind)")
                                           for (label, _), n in zip(codes, counts)))

    if args.cold:
        for name, cmd in [("  first run, lint examples/saxpy.cu (clean)", kp + ["lint", "examples/saxpy.cu"]),
                          ("  first run, lint examples/warp_reduce.cu", kp + ["lint", "examples/warp_reduce.cu"])]:
            runs = [once(cmd, dict(envs[0], KERNELPORT_CODE_CACHE=tempfile.mkdtemp(dir=tmp.name)))
                    for _ in range(args.repeat)]
            print(f"{name:46} {'this':8} {min(w for w, _ in runs):6.3f} s wall  {min(c for _, c in runs):6.3f} s CPU")
            if args.instructions:
                n = instructions(cmd, dict(envs[0], KERNELPORT_CODE_CACHE=tempfile.mkdtemp(dir=tmp.name)))
                print(f"{'':46} {'this':8} " + (f"{n / 1e6:7.1f} M instructions" if n is not None else "(no valgrind)"))
    tmp.cleanup()


if __name__ == "__main__":
    main()
