"""Long-run mutation campaign: lint, translate and verify on mutated examples and corpus files.

    python bench/fuzz_cli.py [--inputs 10000] [--commands lint,translate,verify:1000] [--minutes M] [--jobs N]
                             [--seed 0] [--timeout 30] [--memory 4G] [--out bench/fuzz-out] [--mutations a,b]

Each input is a mutated copy of a file from examples/, tests/corpus/ or tests/corpus2/ (token
deletion, truncation, byte flips, deep nesting, huge literals, bad annotation values, endless
loops: tests/fuzz_mutations.py), run through the CLI in-process in worker processes, each run
under an address-space limit (--memory); a run over --timeout seconds of CPU is "slow" (CPU,
not wall clock: on a shared machine a niced run waits), and a wall-clock alarm at three times
--timeout stops a run for good.  It counts, per
command: runs, exit codes, internal errors (exit 3 or a traceback), rules that failed (lint's
KP006), runs over the timeout and memory blow-ups (MemoryError, or a worker killed), and writes
a reproducer of each problem under --out.  A located diagnostic (exit 1 or 2) is a good outcome;
an exit 2 without a file:line:col of the input is listed as "unlocated".  verify runs one
schedule without its cache, and without the external compilers unless --compilers.
"""
from __future__ import annotations

import argparse
import collections
import io
import json
import os
import random
import resource
import signal
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fuzz_mutations import mutate  # noqa: E402

SOURCES = sorted([*ROOT.glob("examples/*.cu"), *ROOT.glob("tests/corpus/*.cu*"), *ROOT.glob("tests/corpus2/*.cu*"),
                  *ROOT.glob("tests/realcode/*.cu")])
COMMANDS = {
    "lint": lambda p: ["lint", p, "--format", "concise", "-j", "1"],
    "translate": lambda p: ["translate", p, "--to", "hip,metal", "-o", str(Path(p).parent / "out"), "--force"],
    # one schedule, no cache: the emulator, the reference (child process, gcc), lint and translate on every
    # input; --timeout 20 bounds an endless loop's one run per kernel (a loop with a body over 100k lanes
    # reaches the step budget only after minutes)
    "verify": lambda p: ["verify", p, "--no-cache", "--schedules", "block", "--timeout", "20", "--format", "json"],
}
TOOLS = ("nvcc", "hipcc", "clang")  # external compilers: verify's fuzz skips them (--compilers keeps them)


class Slow(BaseException):
    pass


def init_worker(memory: int, compilers: bool) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    if not compilers:  # they are other programs, seconds a file: verify's own code is what is fuzzed
        from kernelport import toolchains
        for tool in TOOLS:
            toolchains._FINDERS[tool] = lambda: None
            setattr(toolchains, f"find_{tool}", lambda: None)

    def alarm(signum, frame):
        raise Slow()
    signal.signal(signal.SIGALRM, alarm)


def call_cli(argv: list[str], timeout: int) -> tuple[int, str | None, str, float, float]:
    """`kernelport ARGV` in this process: (exit code, what went wrong or None, stdout + stderr, CPU s,
    wall s).  A hard stop at three times `timeout`; "slow" is judged on CPU time (this machine's 2
    cores are shared, runs are niced)."""
    from kernelport import cli
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["kernelport", *argv]
    t0, c0 = time.perf_counter(), time.process_time()
    rc, what = 0, None
    signal.alarm(3 * timeout)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            cli.run()
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 0
    except Slow:
        rc, what = -1, "slow"
    except MemoryError:
        rc, what = -2, "memory"
    except BaseException as e:  # noqa: BLE001 - anything escaping run() is an internal error
        rc, what = -3, f"escaped {type(e).__name__}: {e}"
    finally:
        signal.alarm(0)
    cpu = time.process_time() - c0
    if what is None and cpu > timeout:
        what = "slow"
    return rc, what, out.getvalue() + err.getvalue(), cpu, time.perf_counter() - t0


def _run(task):
    """In a worker: one command on one mutated input; a small dict of what happened."""
    idx, command, name, data, timeout = task
    with tempfile.TemporaryDirectory(prefix="kp-fuzz-") as d:
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        rc, what, text, cpu, secs = call_cli(COMMANDS[command](path), timeout)
    text = text.replace(d, "<tmp>")
    if what is None and (rc == 3 or "Traceback" in text):
        what = "internal"
    if what is None and "KP006" in text:
        what = "rule-failed"
    import re
    located = bool(re.search(r"<tmp>/[^:\s]+:\d+:\d+:", text))  # file:line:col of the input
    if what is None and rc == 2 and "<tmp>/" not in text:
        what = "unlocated"  # bad input, told without naming the file
    if what is None and rc == 1 and command != "verify" and not located:
        what = "unlocated"  # a lint finding or a translation stopped, without file:line:col
    line = next((ln for ln in text.splitlines() if "internal error" in ln or "KP006" in ln or "error" in ln), "")
    return dict(idx=idx, command=command, rc=rc, what=what, seconds=round(cpu, 3), wall=round(secs, 3), line=line[:300],
                located=located)


def progress(counts, t_start: float, every: int) -> None:
    """A line of counts per command every `every` runs (a campaign runs for minutes)."""
    n = sum(cc["runs"] for cc in counts.values())
    if n % every == 0:
        print(f"[{time.time() - t_start:6.0f}s] {n} runs: " + "; ".join(
            f"{k}: {dict(v)}" for k, v in counts.items()), flush=True)


def report(out, summary: dict, sep: str, width: int, most: int, what_width: int) -> None:
    """summary.json in `out`, the per-command counts, and the commonest problems by kind and line."""
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary["per_command"], indent=2))
    kinds = collections.Counter((p["command"], p["what"].split(sep)[0], p["line"][:width]) for p in summary["problems"])
    for (c, w, line), n in kinds.most_common(most):
        print(f"{n:5}  {c:9} {w:{what_width}} {line}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=10000, help="mutated inputs per command")
    ap.add_argument("--commands", default="lint,translate",
                    help="lint, translate, verify; NAME:N gives a command its own count (verify:1000)")
    ap.add_argument("--compilers", action="store_true", help="verify: run nvcc, hipcc and clang too (slow)")
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long (counts so far)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--memory", default="4G", help="address-space limit per worker")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "fuzz-out")
    ap.add_argument("--mutations", default="", help="comma-separated subset of tests/fuzz_mutations.MUTATIONS")
    ap.add_argument("--sources", choices=("all", "annotated"), default="all",
                    help="annotated: only files with // @kp kernels (what verify checks; the corpus has none)")
    a = ap.parse_args()
    memory = int(a.memory[:-1]) << (10 * " KMGT".index(a.memory[-1].upper())) if a.memory[-1].isalpha() \
        else int(a.memory)
    per = {c.split(":")[0].strip(): int(c.split(":")[1]) if ":" in c else a.inputs
           for c in a.commands.split(",") if c.strip()}
    commands = list(per)
    names = [m.strip() for m in a.mutations.split(",") if m.strip()] or None
    rng = random.Random(a.seed)
    sources = [p for p in SOURCES if a.sources == "all" or "// @kp kernel" in p.read_text(encoding="utf-8")]
    a.out.mkdir(parents=True, exist_ok=True)
    inputs = {}

    def tasks():
        for i in range(max(per.values())):
            src = rng.choice(sources)
            text, applied = mutate(src.read_text(encoding="utf-8"), rng, names)
            data = text.encode("utf-8", errors="surrogateescape")
            inputs[i] = (src.name, applied, data)
            for c in commands:
                if i < per[c]:
                    yield (i, c, src.name, data, a.timeout)

    counts = {c: collections.Counter() for c in commands}
    slowest = {c: 0.0 for c in commands}
    slowest_wall = {c: 0.0 for c in commands}
    problems = []
    t_start = time.time()
    deadline = t_start + 60 * a.minutes if a.minutes else None
    gen = tasks()
    pending = {}
    pool = ProcessPoolExecutor(a.jobs, initializer=init_worker, initargs=(memory, a.compilers))
    done_all = False
    while True:
        while not done_all and len(pending) < 4 * a.jobs and (deadline is None or time.time() < deadline):
            t = next(gen, None)
            if t is None:
                done_all = True
                break
            pending[pool.submit(_run, t)] = t
        if not pending:
            break
        fut = next(as_completed(pending))
        t = pending.pop(fut)
        try:
            r = fut.result()
        except BrokenProcessPool:  # a worker died (killed for memory, or a crash in native code)
            r = dict(idx=t[0], command=t[1], rc=-4, what="worker-died", seconds=0, line="")
            for f2, t2 in list(pending.items()):
                f2.cancel()
            pool.shutdown(cancel_futures=True)
            pool = ProcessPoolExecutor(a.jobs, initializer=init_worker, initargs=(memory, a.compilers))
            resubmit, pending = list(pending.values()), {}
            for t2 in resubmit:
                pending[pool.submit(_run, t2)] = t2
        c = r["command"]
        counts[c]["runs"] += 1
        counts[c][f"exit {r['rc']}" if r["rc"] >= 0 else "no exit"] += 1
        counts[c]["located"] += r.get("located", False)
        slowest[c] = max(slowest[c], r["seconds"])
        slowest_wall[c] = max(slowest_wall[c], r.get("wall", 0.0))
        if r["what"]:
            counts[c][r["what"].split(" ")[0]] += 1
            name, applied, data = inputs[r["idx"]]
            rep = a.out / f"{c}-{r['idx']:05d}-{r['what'].split(' ')[0]}-{name}"
            rep.write_bytes(data)
            problems.append({**r, "source": name, "mutations": applied, "reproducer": str(rep)})
        progress(counts, t_start, 200)
    pool.shutdown()
    summary = {"seconds": round(time.time() - t_start), "seed": a.seed, "timeout": a.timeout, "memory": a.memory,
               "per_command": {c: {"runs": counts[c]["runs"],
                                   "internal_errors": counts[c]["internal"] + sum(
                                       v for k, v in counts[c].items() if k.startswith("escaped")),
                                   "rule_failures_KP006": counts[c]["rule-failed"],
                                   "over_timeout": counts[c]["slow"],
                                   "memory_blowups": counts[c]["memory"] + counts[c]["worker-died"],
                                   "unlocated_exit_2": counts[c]["unlocated"],
                                   "outputs_with_a_located_diagnostic": counts[c]["located"],
                                   "slowest_cpu_s": slowest[c],
                                   "slowest_wall_s": slowest_wall[c],
                                   "exit_codes": {k: v for k, v in counts[c].items() if k.startswith("exit")}}
                               for c in commands},
               "problems": problems}
    report(a.out, summary, ":", 120, 40, 12)
    return 0


if __name__ == "__main__":
    sys.exit(main())
