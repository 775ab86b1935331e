"""Mutation campaign over whole projects: lint DIR, translate DIR -o OUT and verify DIR on hostile trees.

    python bench/fuzz_project.py [--inputs 1000] [--commands lint,translate,verify:200] [--minutes M]
                                 [--jobs N] [--seed 0] [--timeout 30] [--memory 4G] [--out bench/fuzz-project-out]
                                 [--mutations a,b] [--replay IDX --keep DIR]

Each input is a small project: a directory of tests/realcorpus (sources with the headers beside
them) or a synthetic annotated one (two or three examples/ kernels that include a shared warp
header; the only kind verify runs on), mutated by one to three of tests/fuzz_project_mutations.py
(include cycles, an include of itself, missing headers, a header that is a directory, symlink
loops, devices and FIFOs named .cuh, binary headers, macro bombs, unterminated `#if`, malformed
compile_commands.json and [tool.kernelport], Latin-1 and UTF-16 text, odd names, the single-file
mutations of tests/fuzz_mutations.py) and hostile -I/-D arguments.  translate writes to an output
directory that is new, the input directory itself, an existing file, a read-only directory or one
inside the inputs.  The project is built again from (seed, index) for every command, so each
command sees the same tree and --replay IDX rebuilds it.

Per command it counts internal errors (exit 3 or a traceback), unlocated exit-2 errors (the
message names no path of the run), inputs changed by the run (every file, link and directory
of the work area hashed before and after: a tool never modifies its inputs), outputs written
outside OUT (lint and verify: anywhere but the verify cache), runs over --timeout CPU seconds,
memory blow-ups, and for verify a verdict that differs between a cold run, a warm (cached) run
and a run over a corrupted cache.  A reproducer (the project as a tar, with the command) of
each problem lands under --out.  In-process, in worker processes, as bench/fuzz_cli.py.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import random
import re
import shutil
import stat
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from fuzz_project_mutations import MUTATIONS, cli_args, mutate_project  # noqa: E402

import fuzz_cli  # noqa: E402  (bench/, beside this script)

HEADERS = (".h", ".hpp", ".cuh", ".inl")


def _bases() -> list[Path]:
    """tests/realcorpus directories with a CUDA source and a header beside it, at most 64 KB."""
    out = []
    for d in sorted({p.parent for p in (ROOT / "tests" / "realcorpus").rglob("*.cu")}):
        files = [p for p in d.iterdir() if p.is_file()]
        if any(p.suffix in HEADERS for p in files) and sum(p.stat().st_size for p in files) < 64_000:
            out.append(d)
    return out


BASES = _bases()
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.cu"))

def build(seed: int, idx: int, work: Path, names: list[str] | None) -> dict:
    """The project of input `idx` under work/proj, and how each command runs on it."""
    rng = random.Random(f"{seed}-{idx}")
    proj = work / "proj"
    proj.mkdir(parents=True)
    annotated = rng.random() < 0.35
    if annotated:
        for src in rng.sample(EXAMPLES, rng.choice([1, 2, 3])):
            text = src.read_text(encoding="utf-8")
            shutil.copyfile(src, proj / src.name)
            (proj / src.name).write_text('#include "kp_shared.cuh"\n' + text, encoding="utf-8")
        (proj / "kp_shared.cuh").write_text("#pragma once\n#define KP_SCALE 1\n", encoding="utf-8")
        base = "examples"
    else:
        d = rng.choice(BASES)
        for p in d.iterdir():
            if p.is_file():
                shutil.copyfile(p, proj / p.name)
        base = str(d.relative_to(ROOT / "tests" / "realcorpus"))
    applied = mutate_project(proj, rng, names)
    extra = cli_args(proj, rng)
    out_kind = rng.choice(["new", "new", "new", "input", "file", "readonly", "inside", "nested"])
    return dict(base=base, annotated=annotated, applied=applied, extra=extra, out_kind=out_kind)


def _out_dir(work: Path, kind: str) -> Path:
    if kind == "input":
        return work / "proj"
    if kind == "file":
        (work / "outfile").write_text("not a directory\n")
        return work / "outfile"
    if kind == "readonly":
        (work / "ro").mkdir()
        os.chmod(work / "ro", 0o555)
        return work / "ro"
    if kind == "inside":
        return work / "proj" / "ported"
    if kind == "nested":
        return work / "a" / "b" / "c"
    return work / "out"


def snapshot(top: Path, skip: Path) -> dict[str, str]:
    """Every path under top (not following links, not under skip): its type and content digest."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(top):
        if Path(dirpath) == skip or skip in Path(dirpath).parents:
            dirnames[:] = []
            continue
        dirnames[:] = [n for n in dirnames if Path(dirpath, n) != skip]
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out[p] = "link:" + os.readlink(p)
            elif stat.S_ISREG(st.st_mode):
                try:
                    with open(p, "rb") as f:
                        out[p] = "file:" + hashlib.sha256(f.read()).hexdigest()
                except OSError:
                    out[p] = f"file-unreadable:{st.st_size}:{st.st_mtime_ns}"
            elif stat.S_ISDIR(st.st_mode):
                out[p] = "dir"
            else:
                out[p] = f"special:{stat.S_IFMT(st.st_mode)}"
            out[p] += f":{stat.S_IMODE(st.st_mode):o}"
    return out


def _init(memory: int) -> None:
    fuzz_cli.init_worker(memory, compilers=False)  # other programs: verify's own code is what is fuzzed


def _argv(command: str, work: Path, spec: dict) -> list[str]:
    proj = str(work / "proj")
    if command == "lint":
        return ["lint", proj, "--format", "concise", "-j", "1", *spec["extra"]]
    if command == "translate":
        return ["translate", proj, "--to", "hip,metal", "-o", str(_out_dir(work, spec["out_kind"])), *spec["extra"]]
    return ["verify", proj, "--schedules", "block", "--timeout", "20", "--format", "json", "-j", "1"]


def _verdict(text: str) -> list | None:
    try:
        data = json.loads(text[text.index("["):])
    except ValueError:
        return None
    return sorted((r.get("path"), r.get("error"), c.get("kernel"), c.get("backend"), c.get("wave"), c.get("kind"),
                   c.get("status"), c.get("target"), c.get("schedule"))
                  for r in data if isinstance(r, dict) for c in (r.get("checks") or []))


def _corrupt(cache: Path, rng: random.Random) -> int:
    import pickle
    n = 0
    for p in sorted(cache.rglob("*.pkl")):
        n += 1
        p.write_bytes(rng.choice([b"", b"garbage", pickle.dumps(None), pickle.dumps(42), pickle.dumps({"x": 1}),
                                  pickle.dumps([1, 2]), p.read_bytes()[: len(p.read_bytes()) // 2]]))
    return n


def _run(task):
    """In a worker: one command on one project; a small dict of what happened."""
    idx, command, seed, timeout, names, outdir = task
    with tempfile.TemporaryDirectory(prefix="kp-pfuzz-") as d:
        work = Path(d)
        spec = build(seed, idx, work, names)
        if command == "verify" and not spec["annotated"]:
            return dict(idx=idx, command=command, skipped=True)
        (work / "cwd").mkdir()
        cache = work / "cache"
        os.environ["XDG_CACHE_HOME"] = str(cache)
        argv = _argv(command, work, spec)
        os.chdir(work / "cwd")
        before = snapshot(work, cache)
        rc, what, text, cpu, wall = fuzz_cli.call_cli(argv, timeout)
        if command == "verify" and what is None and rc != 3:  # warm, then over a corrupted cache: the same verdict
            first = _verdict(text)
            rc2, what2, text2, _, _ = fuzz_cli.call_cli(argv, timeout)
            n = _corrupt(cache, random.Random(idx))
            rc3, what3, text3, _, _ = fuzz_cli.call_cli(argv, timeout)
            what = what2 or what3
            text = "\n".join(t for t in (text, text2, text3) if "internal error" in t or "Traceback" in t) or text
            rc = next((r for r in (rc, rc2, rc3) if r == 3), rc)
            if what is None and rc != 3 and not (rc == rc2 == rc3 and first == _verdict(text2) == _verdict(text3)):
                what = f"verdict-changed (cold {rc}, warm {rc2}, {n} corrupted entries {rc3})"
        after = snapshot(work, cache)
        os.chdir("/")
        for p in sorted(work.rglob("*"), reverse=True):  # a read-only output directory: let it be removed
            if p.is_dir() and not p.is_symlink():
                os.chmod(p, 0o755)
            elif p.is_file() and not p.is_symlink():
                os.chmod(p, 0o644)
        changed = sorted(p for p in before if after.get(p) != before[p])
        out_root = os.path.realpath(work / "out" if command != "translate" else _out_dir_path(work, spec["out_kind"]))
        new = sorted(p for p in after if p not in before and not (command == "translate" and (  # OUT, its parents
            os.path.realpath(p) == out_root or os.path.realpath(p).startswith(out_root + os.sep)
            or out_root.startswith(os.path.realpath(p) + os.sep))))
        body = text.replace(d, "<tmp>")
    if what is None and (rc == 3 or "Traceback" in body):
        what = "internal"
    if what is None and changed:
        what = "input-changed"
    if what is None and new:
        what = "outside-out"
    located = bool(re.search(r"<tmp>/[^:\n]+:\d+:\d+:", body))
    if what is None and rc == 2 and "<tmp>/" not in body and not re.search(r"-[IDo] |--compile-commands", body):
        what = "unlocated"
    line = next((ln for ln in body.splitlines() if "internal error" in ln or "Traceback" in ln), "") or next(
        (ln for ln in body.splitlines() if "error" in ln), "")
    r = dict(idx=idx, command=command, rc=rc, what=what, seconds=round(cpu, 3), wall=round(wall, 3),
             line=line[:300], located=located, applied=spec["applied"], extra=spec["extra"], base=spec["base"],
             out_kind=spec["out_kind"] if command == "translate" else None,
             changed=[p.replace(d, "<tmp>") for p in changed[:5]], new=[p.replace(d, "<tmp>") for p in new[:5]])
    if what:
        r["reproducer"] = _reproduce(seed, idx, names, outdir, command, argv, d)
    return r


def _out_dir_path(work: Path, kind: str) -> Path:
    return {"input": work / "proj", "file": work / "outfile", "readonly": work / "ro", "inside": work / "proj" / "ported",
            "nested": work / "a" / "b" / "c"}.get(kind, work / "out")


def _reproduce(seed, idx, names, outdir, command, argv, old) -> str:
    """The project rebuilt from (seed, idx), as a tar under outdir, with the command line."""
    with tempfile.TemporaryDirectory(prefix="kp-pfuzz-rep-") as d:
        build(seed, idx, Path(d), names)
        rep = Path(outdir) / f"{command}-{idx:05d}.tar"
        try:
            with tarfile.open(rep, "w") as tar:
                tar.add(Path(d) / "proj", arcname="proj")
        except OSError as e:
            return f"(no tar: {e})"
        (Path(outdir) / f"{command}-{idx:05d}.cmd").write_text(
            " ".join(a.replace(old, "WORK") for a in argv) + "\n")
        for p in Path(d).rglob("*"):
            if p.is_dir() and not p.is_symlink():
                os.chmod(p, 0o755)
            elif p.is_file() and not p.is_symlink():
                os.chmod(p, 0o644)
    return str(rep)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inputs", type=int, default=1000, help="mutated projects per command")
    ap.add_argument("--commands", default="lint,translate,verify",
                    help="lint, translate, verify; NAME:N gives a command its own count (verify:200)")
    ap.add_argument("--minutes", type=float, default=None, help="stop starting runs after this long")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--memory", default="4G", help="address-space limit per worker")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "fuzz-project-out")
    ap.add_argument("--mutations", default="", help="comma-separated subset of " + ",".join(MUTATIONS))
    ap.add_argument("--replay", type=int, default=None, help="build input IDX under --keep and print its spec")
    ap.add_argument("--keep", type=Path, default=None)
    a = ap.parse_args()
    names = [m.strip() for m in a.mutations.split(",") if m.strip()] or None
    if a.replay is not None:
        keep = a.keep or Path(tempfile.mkdtemp(prefix="kp-pfuzz-replay-"))
        print(json.dumps({**build(a.seed, a.replay, keep, names), "dir": str(keep)}, indent=2))
        return 0
    memory = int(a.memory[:-1]) << (10 * " KMGT".index(a.memory[-1].upper())) if a.memory[-1].isalpha() \
        else int(a.memory)
    per = {c.split(":")[0].strip(): int(c.split(":")[1]) if ":" in c else a.inputs
           for c in a.commands.split(",") if c.strip()}
    commands = list(per)
    a.out.mkdir(parents=True, exist_ok=True)

    def tasks():
        for i in range(max(per.values())):
            for c in commands:
                if i < per[c]:
                    yield (i, c, a.seed, a.timeout, names, str(a.out))

    counts = {c: collections.Counter() for c in commands}
    slowest = {c: 0.0 for c in commands}
    problems = []
    t_start = time.time()
    deadline = t_start + 60 * a.minutes if a.minutes else None
    gen = tasks()
    pending = {}
    pool = ProcessPoolExecutor(a.jobs, initializer=_init, initargs=(memory,))
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
            pool.shutdown(cancel_futures=True)
            pool = ProcessPoolExecutor(a.jobs, initializer=_init, initargs=(memory,))
            resubmit, pending = list(pending.values()), {}
            for t2 in resubmit:
                pending[pool.submit(_run, t2)] = t2
        except Exception as e:  # the harness itself (building the project): counted, never the end of the run
            r = dict(idx=t[0], command=t[1], rc=-5, what=f"harness {type(e).__name__}: {e}", seconds=0, line="")
        c = r["command"]
        if r.get("skipped"):
            continue
        counts[c]["runs"] += 1
        counts[c][f"exit {r['rc']}" if r["rc"] >= 0 else "no exit"] += 1
        counts[c]["located"] += r.get("located", False)
        slowest[c] = max(slowest[c], r["seconds"])
        if r["what"]:
            counts[c][r["what"].split(" ")[0]] += 1
            problems.append(r)
        fuzz_cli.progress(counts, t_start, 100)
    pool.shutdown()
    summary = {"seconds": round(time.time() - t_start), "seed": a.seed, "timeout": a.timeout, "memory": a.memory,
               "per_command": {c: {"runs": counts[c]["runs"],
                                   "internal_errors": counts[c]["internal"] + counts[c]["escaped"],
                                   "unlocated_exit_2": counts[c]["unlocated"],
                                   "inputs_changed": counts[c]["input-changed"],
                                   "written_outside_out": counts[c]["outside-out"],
                                   "verdict_changed_by_cache": counts[c]["verdict-changed"],
                                   "over_timeout": counts[c]["slow"],
                                   "memory_blowups": counts[c]["memory"] + counts[c]["worker-died"],
                                   "harness_errors": counts[c]["harness"],
                                   "outputs_with_a_located_diagnostic": counts[c]["located"],
                                   "slowest_cpu_s": slowest[c],
                                   "exit_codes": {k: v for k, v in counts[c].items() if k.startswith("exit")}}
                               for c in commands},
               "problems": problems}
    fuzz_cli.report(a.out, summary, " ", 140, 60, 14)
    return 0


if __name__ == "__main__":
    sys.exit(main())
