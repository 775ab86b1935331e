"""Mutation testing of kernelport's core modules with cosmic-ray (the `mutation` extra: pip install ".[mutation]").

    .venv/bin/python -P scripts/mutation_test.py                       # every module, every mutant
    .venv/bin/python -P scripts/mutation_test.py --sample 20 --seed 1  # 20 random mutants a module
    .venv/bin/python -P scripts/mutation_test.py --modules compare warpflow --sample 10
    .venv/bin/python -P scripts/mutation_test.py --sample 25 --seed 1 --shard 3/16 --json s3.json  # one of 16
    .venv/bin/python -P scripts/mutation_test.py --combine s*.json          # the 16 shards' one report

Each module is mutated in place, one mutant at a time (cosmic-ray restores the file after each),
and the tests that guard it run against the mutant; a mutant that no test fails "survived".
Prints, per module and in total, killed / survived / timed-out counts and the score
killed / (killed + survived), then every survivor's diff for review: each is either a missing
test or a mutant to record in scripts/mutation_known.toml (equivalent: skipped before sampling;
accepted: still counted), with why; the script prints the entry to paste.  `--shard I/N` runs the
I-th of N disjoint parts of the same sample (each in its own copy of the tree, on as many cores), and
`--json` / `--combine` merge the parts' results into the report one process would print.  Sessions are kept under
--work (default /tmp/kernelport-mutation) for `cr-report` / `cr-html`.

Run it on the modules a change touches before a stop; the whole set takes hours, a sample of
10-20 per module some minutes.  Never run two at once on one tree: mutants are written in place.
"""
from __future__ import annotations

import argparse
import json
import random
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = shlex.quote(sys.executable)
PYTEST = f"{PY} -P -m pytest -x -q -p no:cacheprovider -p no:randomly"

# module key: (paths, the tests that guard them).  Keep each command fast: it runs once per mutant.
_VOTES = " ".join(f"'tests/test_warp_primitives.py::test_primitive_matches_model[{c}-{b}-32-block-partial]'"
                  for c in ("vote", "shfl_down") for b in ("cuda", "hip", "metal"))
# test_warpflow_ladder_steps: a lane test that is a ladder step's own threshold (warpflow leaves its literal)
_WARPFLOW_TESTS = ("tests/test_warpflow_forms.py tests/test_warpflow_ladder_steps.py tests/test_rewrites.py "
                   "tests/test_lint_rules.py")
# test_lint_layouts: cub's warp collectives, read at the template position the backend's table gives.
_TABLE_TESTS = (f"tests/test_dialect_table.py {_WARPFLOW_TESTS} tests/test_lint_layouts.py "
                f"tests/test_emulator_metal.py {_VOTES}")
MODULES = {
    "dialect": (("kernelport/dialect.py",), _TABLE_TESTS),
    # The registry, each backend's data and the API table; not hip_probe.py (it runs hipcc, its tests
    # take minutes) nor Metal's translator modules (translation, not the table).  The portable test of
    # test_verify_cache: compile_all hands each dialect its own runs (compilers stubbed; 1 s).
    "backends": (tuple(f"kernelport/backends/{m}.py" for m in ("__init__", "base", "cuda", "hip", "portable",
                                                                 "api_table", "metal/__init__")),
                 _TABLE_TESTS + " tests/test_hip_api.py 'tests/test_verify_cache.py::"
                                "test_portable_compiles_each_dialect_once_for_all_its_architectures'"),
    "warpflow": (("kernelport/warpflow.py",), _WARPFLOW_TESTS),
    "compare": (("kernelport/compare.py",), "tests/test_compare.py -k 'not verify'"),
    # test_trust_annotations: the generators' and expressions' checks (bounds, integer parameters)
    "annotations": (("kernelport/annotations.py",), "tests/test_annotations.py tests/test_trust_annotations.py"),
    "cexpr": (("kernelport/cexpr.py",), "tests/test_trust_annotations.py"),  # the annotations' expression evaluator
    "warp": (("kernelport/emulator/warp.py",), "tests/test_warp_bits_reduce.py tests/test_warp_primitives.py -k "
                                               "'block or half or mask or uniform or lanemask or model_defines or bit "
                                               "or simd'"),
    # test_emulator_races: the race tables' reports (threads, lines, one store's lanes on one location)
    "memory": (("kernelport/emulator/memory.py",), "tests/test_atomics_semantics.py tests/test_emulator.py "
                                                   "tests/test_emulator_metal.py tests/test_emulator_races.py"),
}
# Survivors reviewed and classified (equivalent: skipped before sampling; accepted: run and counted).
KNOWN = Path(__file__).with_name("mutation_known.toml")


def _session(key: str, work: Path, sample: int, seed: int, timeout: float, known: dict,
             shard: tuple[int, int] = (0, 1), first: int = 0) -> tuple[Path, int]:
    paths, tests = MODULES[key]
    cfg = work / f"{key}.toml"
    db = work / f"{key}.sqlite"
    command = (PYTEST + " " + tests).replace("\\", "\\\\").replace('"', '\\"')  # a TOML basic string
    cfg.write_text("\n".join(["[cosmic-ray]", "module-path = [" + ", ".join(f'"{p}"' for p in paths) + "]",
                              f"timeout = {timeout}", "excluded-modules = []", f'test-command = "{command}"', "",
                              "[cosmic-ray.distributor]", 'name = "local"', ""]))
    if db.exists():
        db.unlink()
    subprocess.run(["cosmic-ray", "init", str(cfg), str(db)], cwd=ROOT, check=True, env=_env())
    from cosmic_ray.work_db import use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    spans = {p: _annotation_spans(ROOT / p) for p in paths}
    with use_db(str(db)) as wdb:
        items, pending = [], list(wdb.pending_work_items)  # a list first: set_result while iterating loses rows
        for it in pending:
            m = it.mutations[0]
            _ON_LINE.setdefault((str(m.module_path), m.operator_name, m.start_pos[0]), []).append(m.occurrence)
        for it in pending:
            m = it.mutations[0]
            why = "in a type annotation" if _in_annotation(spans[str(m.module_path)], m.start_pos) else None
            entry = known_entry(known, mutation_id(m)) if why is None else None
            if entry is not None and entry["kind"] == "equivalent":
                why = entry["why"]
            if why is not None:
                wdb.set_result(it.job_id, WorkResult(output=f"equivalent: {why}",
                                                     worker_outcome=WorkerOutcome.SKIPPED))
            else:
                items.append(it)
        # The work items come in the database's order, which follows cosmic-ray's random job ids: sort them
        # by place first, so that a seed draws the same sample in every run and every part (--shard).
        items.sort(key=lambda it: (str(it.mutations[0].module_path), tuple(it.mutations[0].start_pos),
                                   it.mutations[0].operator_name, it.mutations[0].occurrence))
        chosen = random.Random(f"{seed}:{key}").sample(items, min(sample, len(items))) if sample else items
        # A shard is every N-th chosen mutant counted across the modules in their order (`first`: how many
        # the modules before this one chose), so the parts are disjoint, cover the sample and stay balanced.
        part, of = shard
        keep = {it.job_id for i, it in enumerate(chosen) if (first + i) % of == part}
        in_sample = {it.job_id for it in chosen}
        for it in items:
            if it.job_id not in keep:
                wdb.set_result(it.job_id, WorkResult(
                    output="in another shard" if it.job_id in in_sample else "not in the sample",
                    worker_outcome=WorkerOutcome.SKIPPED))
    return cfg, len(chosen)


_SOURCES: dict[str, list[str]] = {}


def mutation_id(m) -> tuple[str, str, str, int]:
    """A mutant's id that survives edits elsewhere in the file: (module, operator, the source line
    it changes, which of that operator's mutants on that line), e.g. ("kernelport/compare.py",
    "core/NumberReplacer", "tol = 1e-6", 0).  Line numbers would go stale at every edit above."""
    path = str(m.module_path)
    lines = _SOURCES.setdefault(path, (ROOT / path).read_text(encoding="utf-8").splitlines())
    return path, m.operator_name, lines[m.start_pos[0] - 1].strip(), _nth_on_line(m)


_ON_LINE: dict[tuple[str, str, int], list[int]] = {}


def _nth_on_line(m) -> int:
    """Index of this mutant among the same operator's mutants on its line (occurrence order)."""
    return sorted(_ON_LINE.get((str(m.module_path), m.operator_name, m.start_pos[0]), [m.occurrence])).index(
        m.occurrence)


def load_known(path: Path = KNOWN) -> dict:
    """The reviewed survivors: (module, line) -> entries {"operator", "nth"?, "kind", "why"}.  An
    entry's operator is an fnmatch pattern (`..._Gt_*`: every operator of that family) and its nth may be
    left out (every mutant of that operator on the line): a line that only sizes a cache, say."""
    import tomllib

    out: dict = {}
    for e in tomllib.loads(path.read_text(encoding="utf-8")).get("mutant", []):
        if e.get("kind") not in ("equivalent", "accepted") or not e.get("why"):
            raise SystemExit(f"{path}: {e}: kind must be equivalent or accepted, with a why")
        out.setdefault((e["module"], e["line"].strip()), []).append(e)
    return out


def known_entry(known: dict, mid: tuple[str, str, str, int]) -> dict | None:
    from fnmatch import fnmatchcase

    module, operator, line, nth = mid
    return next((e for e in known.get((module, line), ()) if fnmatchcase(operator, e["operator"])
                 and e.get("nth", nth) == nth), None)


def _annotation_spans(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Source spans of type annotations: with `from __future__ import annotations` they are never
    evaluated, so a mutant there (`str | None` -> `str + None`) is equivalent by construction."""
    import ast

    text = path.read_text()
    if "from __future__ import annotations" not in text:
        return []
    tree = ast.parse(text)
    spans = []
    for node in ast.walk(tree):
        anns = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            anns.append(node.returns)
        elif isinstance(node, ast.arg) and node.annotation is not None:
            anns.append(node.annotation)
        elif isinstance(node, ast.AnnAssign):
            anns.append(node.annotation)
        spans += [((a.lineno, a.col_offset), (a.end_lineno, a.end_col_offset)) for a in anns]
    return spans


def _in_annotation(spans, pos) -> bool:
    return any(lo <= tuple(pos) < hi for lo, hi in spans)


def _env():
    import os
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.pop("PYTHONPATH", None)
    return env


def _results(db: Path, known: dict):
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    counts = {"killed": 0, "survived": 0, "incompetent": 0, "timeout": 0, "total": 0, "equivalent": 0,
              "not_run": 0}
    survivors, ran = [], []
    with use_db(str(db), WorkDB.Mode.open) as wdb:
        counts["total"] = wdb.num_work_items
        counts["not_run"] = sum(1 for _ in wdb.pending_work_items)  # past a --deadline
        for item, res in wdb.completed_work_items:
            if res.worker_outcome == WorkerOutcome.SKIPPED:
                counts["equivalent"] += (res.output or "").startswith("equivalent")
                continue
            ran.append(list(mutation_id(item.mutations[0])))
            if res.worker_outcome == WorkerOutcome.ABNORMAL and res.output and "timeout" in res.output.lower():
                counts["timeout"] += 1  # an infinite loop the tests stopped: killed in effect
            elif res.test_outcome == TestOutcome.KILLED:
                counts["killed"] += 1
            elif res.test_outcome == TestOutcome.SURVIVED:
                counts["survived"] += 1
                m = item.mutations[0]
                entry = known_entry(known, mutation_id(m))
                survivors.append((f"{m.module_path}:{m.start_pos[0]} {m.operator_name}", mutation_id(m),
                                  f"{entry['kind']}: {entry['why']}" if entry else None, res.diff or ""))
            else:
                counts["incompetent"] += 1
    return counts, survivors, ran


def _baseline(modules: list[str]) -> int:
    bad = 0
    for key in modules:
        r = subprocess.run(f"{PYTEST} -rs {MODULES[key][1]}", shell=True, cwd=ROOT, env=_env(), capture_output=True,
                           text=True)
        summary = (r.stdout.strip().splitlines() or ["(no output)"])[-1]
        skipped = " skipped" in summary
        bad += r.returncode != 0 or skipped
        print(f"{key:12s} {'ok  ' if r.returncode == 0 and not skipped else 'BAD '} {summary}", flush=True)
        if r.returncode != 0 or skipped:
            print("\n".join(r.stdout.splitlines()[-30:]), flush=True)
    return 1 if bad else 0


def _shard(text: str) -> tuple[int, int]:
    part, _, of = text.partition("/")
    if not (part.isdigit() and of.isdigit() and 0 < int(part) <= int(of)):
        raise argparse.ArgumentTypeError(f"{text!r}: write I/N with 1 <= I <= N (the I-th of N parts)")
    return int(part) - 1, int(of)


_COUNTS = ("total", "killed", "survived", "timeout", "incompetent", "equivalent", "not_run")


def _run(a, known: dict) -> dict:
    """Run the sample (or this shard of it): {"modules": {key: counts}, "survivors": [...]}."""
    dirty = subprocess.run(["git", "status", "--porcelain", "kernelport"], cwd=ROOT, capture_output=True, text=True)
    if dirty.stdout.strip():
        raise SystemExit("kernelport/ has uncommitted changes: commit first (mutants are written in place)")
    out: dict = {"seed": a.seed, "sample": a.sample, "modules": {}, "survivors": []}
    first, start = 0, time.monotonic()
    try:
        for key in a.modules:
            cfg, chosen = _session(key, a.work, a.sample, a.seed, a.timeout, known, a.shard, first)
            first += chosen
            db = cfg.with_suffix(".sqlite")
            _exec(cfg, db, None if a.deadline is None else start + a.deadline - time.monotonic())
            c, surv, ran = _results(db, known)
            out["modules"][key] = c
            out["ran"] = out.get("ran", []) + ran
            out["survivors"] += [{"where": w, "id": list(mid), "why": why, "diff": diff} for w, mid, why, diff in surv]
            if a.shard[1] == 1:
                _print_module(key, c)
    finally:
        restored = subprocess.run(["git", "status", "--porcelain", "kernelport"], cwd=ROOT, capture_output=True,
                                  text=True).stdout
        if restored.strip():
            print(f"WARNING: kernelport/ differs from HEAD after the run:\n{restored}", file=sys.stderr)
    return out


def _exec(cfg: Path, db: Path, seconds: float | None) -> None:
    """cosmic-ray's run of a session; at the deadline it is stopped with its tests, the mutant it had
    written is undone (kernelport/ was committed: checkout restores it) and the mutants it had not
    reached count as not run."""
    import os
    import signal

    p = subprocess.Popen(["cosmic-ray", "exec", str(cfg), str(db)], cwd=ROOT, env=_env(), start_new_session=True)
    try:
        if p.wait(timeout=max(seconds, 0.0) if seconds is not None else None):
            raise subprocess.CalledProcessError(p.returncode, p.args)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        subprocess.run(["git", "checkout", "--", "kernelport"], cwd=ROOT, check=True)
        print(f"deadline: stopped {cfg.stem}'s run; the mutants it had not reached are not counted", flush=True)


def _combine(paths: list[Path], known: dict) -> dict:
    """The shards' JSON results as one run's; a survivor reviewed since its shard ran gets its entry now."""
    out: dict = {"modules": {}, "survivors": []}
    for path in paths:
        r = json.loads(path.read_text())
        if out.setdefault("seed", r["seed"]) != r["seed"] or out.setdefault("sample", r["sample"]) != r["sample"]:
            raise SystemExit(f"{path}: seed {r['seed']} / sample {r['sample']} differ from the other parts'")
        for key, c in r["modules"].items():
            m = out["modules"].setdefault(key, dict.fromkeys(_COUNTS, 0))
            for k in _COUNTS:  # every part counts the module's equivalents and total: keep one
                m[k] = c[k] if k in ("total", "equivalent") else m[k] + c.get(k, 0)
        out["survivors"] += r["survivors"]
        out["ran"] = out.get("ran", []) + r.get("ran", [])
    twice = len(out["ran"]) - len({tuple(m) for m in out["ran"]})
    if twice:  # the parts must sample alike: same tree, seed, sample and reviewed list
        raise SystemExit(f"{twice} mutants ran in more than one part: the parts did not draw the same sample")
    for s in out["survivors"]:
        entry = known_entry(known, tuple(s["id"]))
        s["why"] = f"{entry['kind']}: {entry['why']}" if entry else None
    return out


def _print_module(key: str, c: dict) -> None:
    run = c["killed"] + c["survived"]
    score = (c["killed"] + c["timeout"]) / (run + c["timeout"]) if run + c["timeout"] else float("nan")
    print(f"{key:12s} mutants {c['total']:5d}  run {run + c['timeout'] + c['incompetent']:4d}  "
          f"killed {c['killed']:4d}  timeout {c['timeout']:3d}  survived {c['survived']:4d}  "
          f"incompetent {c['incompetent']:3d}  equivalent {c['equivalent']:4d}  score {score:.1%}"
          + (f"  NOT RUN {c['not_run']} (deadline)" if c.get("not_run") else ""), flush=True)


def _report(r: dict, per_module: bool) -> None:
    total = dict.fromkeys(_COUNTS, 0)
    for key, c in r["modules"].items():
        if per_module:
            _print_module(key, c)
        for k in total:
            total[k] += c[k]
    run = total["killed"] + total["survived"] + total["timeout"]
    print(f"TOTAL killed {total['killed']} + timeout {total['timeout']} of {run} run: "
          f"score {(total['killed'] + total['timeout']) / run:.1%}" if run else "TOTAL nothing run")
    if total["not_run"]:
        print(f"NOT RUN: {total['not_run']} mutants of the sample (the deadline came first)")
    surv = r["survivors"]
    reviewed = sum(s["why"] is not None for s in surv)
    print(f"survivors: {len(surv) - reviewed} not reviewed, {reviewed} reviewed (listed in {KNOWN.name})")
    for s in surv:
        module, operator, line, nth = s["id"]
        print(f"\n--- survived: {s['where']}" + (f" ({s['why']})" if s["why"] else ""))
        if s["why"] is None:  # the entry to add once reviewed
            print(f"[[mutant]]\nmodule = {json.dumps(module)}\noperator = {json.dumps(operator)}\n"
                  f"line = {json.dumps(line)}\nnth = {nth}")
        print(s["diff"].strip())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--modules", nargs="*", default=list(MODULES), choices=list(MODULES))
    ap.add_argument("--sample", type=int, default=0, help="random mutants per module (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds one mutant's tests may take")
    ap.add_argument("--work", type=Path, default=Path("/tmp/kernelport-mutation"))
    ap.add_argument("--shard", type=_shard, default=(0, 1), metavar="I/N",
                    help="run only the I-th of N disjoint parts of the sample (1 <= I <= N)")
    ap.add_argument("--deadline", type=float, metavar="SECONDS",
                    help="stop after this long; what ran is reported (the rest of the sample is not run)")
    ap.add_argument("--json", type=Path, help="also write the results here (for --combine)")
    ap.add_argument("--baseline", action="store_true",
                    help="run nothing mutated: each module's tests once on this tree; exit 1 unless all pass "
                         "with no skip (a failing or skipping test would count mutants killed or survived wrongly)")
    ap.add_argument("--combine", type=Path, nargs="+", metavar="JSON",
                    help="run nothing: print the report of these parts' --json results as one run")
    a = ap.parse_args()
    if a.baseline:  # with --shard, the I-th of N parts of the module list (the parts run at once)
        return _baseline(a.modules[a.shard[0]::a.shard[1]])
    known = load_known()
    if a.combine:
        r = _combine(a.combine, known)
        print(f"seed {r['seed']}, sample {r['sample'] or 'all'} per module, {len(a.combine)} parts combined, "
              f"{sum(map(len, known.values()))} reviewed survivors in {KNOWN.name}")
        _report(r, per_module=True)
        return 0
    a.work.mkdir(parents=True, exist_ok=True)
    part = f", part {a.shard[0] + 1} of {a.shard[1]}" if a.shard[1] > 1 else ""
    print(f"seed {a.seed}, sample {a.sample or 'all'} per module{part}, {sum(map(len, known.values()))} reviewed "
          f"survivors in {KNOWN.name}", flush=True)
    r = _run(a, known)
    if a.json:
        a.json.write_text(json.dumps(r, indent=1))
    _report(r, per_module=a.shard[1] > 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
