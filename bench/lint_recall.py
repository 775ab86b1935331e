"""Recall and precision of `kernelport lint` on hazard lines labelled from real wave-64 fixes.

    python bench/lint_recall.py [--kernelport EXE] [--labels tests/labelled/labels.tsv] [--json] [-j 2] [--project]

Each row of the labels (tests/labelled/labels.tsv, tab-separated) is
`kind  file  line  project  commit  why  text`: `hazard`, a line that a public project's commit
changed because it computes wrong (or out of bounds) on a 64-lane AMD wave, in the file as it
was before that commit; `lookalike`, a line of the same files that must not be flagged (a 32
that is not a lane count, a 32-lane logical group the fix kept); `consistent`, a line the same
commit changed from 32 to the hardware width although it was correct at 64 (a 32-lane logical
group: lane, warp, slots and shuffle widths all from 32).  Consistent lines count neither way
(kernelport stays quiet on logical groups by design); how many are flagged is printed.  `text`
is the line's stripped text, checked before measuring so that a label cannot drift off its line.

A label is found when a warp-size finding (a WS code) that claims a hazard starts on its line or names the line among
its related locations as a `site`, in its file or in another labelled file of the set (WS001 lists every use of
a hardcoded constant: "its 3 uses assume 32 lanes"; WS008 names the header parameter a ballot is
passed to); the recall on finding lines alone is printed beside it.  Rule (stop 50): a related location
claims its line only where the finding says the hazard is written there too (`"role": "site"` in the JSON,
kernelport/lint/finding.py's Related); a `context` place explains the finding and claims nothing (SARIF's
relatedLocations are "relevant to understanding the result": WS016 names the correct
`lane = threadIdx.x & (warpSize - 1)` beside a `>> 5` as "warpSize used here").  Stop 42's rule counted every
related line; a build whose JSON has no role (before stop 50) is scored by that rule, so its figures stay
comparable.  Context lines on labels are printed beside the figures, counted neither way.  The EXE is run once
per file (`--format json --exit-zero`, with the -I and -D its project builds it with:
build_flags.tsv beside the labels; the project headers it includes are copied there by
scripts/labelled_headers.py), so a file whose run fails is counted, not fatal, and the build
before and after a change is measured the same way.  Precision is over the labelled lines:
flagged hazards / (flagged hazards + flagged look-alikes); flagged lines that carry no label are
counted beside it.  The naive baseline, measured in the same run, is the grep a reviewer would
type for 32-lane assumptions (NAIVE below).

`--project` (issue 11, stop 42) lints as a user runs `kernelport lint src/`: the set's files of one
commit folder (the project as it stood before that commit: the first two parts of the path) that its
build_flags.tsv row gives the same flags are linted in ONE run, in the set's order; the inputs are exactly
the files the one-file mode lints (no unlabelled file is added; headers reached by #include are read as
includes, as before), and every label is scored the same way.  The only difference is what a run sees of
its other inputs: a header helper's calls in the project's .cu files, host launches and template
instances in another file (kernelport.includers.Elsewhere.calls).  Rule fixed before it was measured:
the project-run figure is issue 11's figure from stop 42 on (it is how lint is used); the one-file
figure is measured beside it in the same conditions, for comparison with every earlier stop.

Only hazard claims count: findings of severity warning or error (`--min-severity`, default
warning).  An `info` finding is advice, not a claim that the line breaks (lint reports a block split
into 32-lane rows that computes the same at 64 as info: kernelport/lint/rowsplits.py); the labelled
lines such findings sit on are printed beside the figures ("advice on N hazards, M look-alikes"),
counted neither way.  `--min-severity info` counts them as claims too (every WS finding, the rule
before info existed).  The naive baseline is a grep and has no severity: it is scored the same
way in both cases, over the same labels.

tests/labelled_heldout/labels.tsv (--labels) is a second set from other projects (baseline:
bench/lint_recall_heldout_baseline.txt), tests/labelled4/labels.tsv a fourth (gsplat, tilelang,
hipCollections; before any change for it: bench/lint_recall_labelled4_before.txt), tests/labelled5/labels.tsv
a fifth (pytorch3d, flashinfer, dietgpu in uccl, mallocMC: bench/lint_recall_labelled5_before.txt), whose
files are not committed: scripts/labelled_sources.py writes them from clones of the projects first;
tests/labelled6 (RWKV-LM-V7), tests/labelled7 (kaldi, pytorch_scatter, QUDA: before any change for
it, bench/lint_recall_labelled7_before.txt), tests/labelled8 (HOOMD-blue, GROMACS, PIConGPU, Kokkos,
Cycles: bench/lint_recall_labelled8_before.txt) and tests/labelled9 (sphexa, cupy, arbor, hypre, QMCPACK,
lucebox: bench/lint_recall_labelled9_before.txt) and tests/labelled10 (qiskit-aer, deepmd-kit, xla, TCLB:
bench/lint_recall_labelled10_before.txt) and tests/labelled11 (four HeCBench programs' 2026 fixes: gc,
graphB+, rsmt, vadd: bench/lint_recall_labelled11_before.txt) the same way.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "labelled" / "labels.tsv"
BUILD_FLAGS = "build_flags.tsv"  # beside the labels: each commit folder's -I and -D, as its project builds it
KINDS = ("hazard", "lookalike", "consistent")
SEVERITIES = ("info", "warning", "error")  # kernelport/lint/finding.py's order
NAIVE = re.compile(r"\b(32|31|16)\b|\b0x1[fF]\b|\b0x[fF]{8}\b|>>\s*5\b")


@dataclass(frozen=True)
class Label:
    kind: str  # hazard | lookalike
    file: str  # relative to the labels' folder
    line: int
    project: str
    commit: str
    why: str
    text: str


def read_labels(path: Path = LABELS) -> list[Label]:
    out = []
    for n, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not row.strip() or row.startswith("#"):
            continue
        kind, file, line, project, commit, why, text = row.split("\t")
        if kind not in KINDS:
            raise SystemExit(f"{path}:{n}: unknown kind {kind!r}")
        out.append(Label(kind, file, int(line), project, commit, why, text))
    return out


def line_matches(line: str, text: str) -> bool:
    """A label's text is the line's stripped text, or `sha1:` and the first hex digits of its SHA-1
    (sets whose files are not committed, tests/labelled5: the label then quotes none of their code)."""
    if text.startswith("sha1:"):
        return hashlib.sha1(line.strip().encode("utf-8")).hexdigest().startswith(text[5:])
    return line.strip() == text


def check_labels(labels: list[Label], base: Path) -> list[str]:
    """Labels whose line no longer holds their text (a file or a label edited by hand)."""
    bad, cache = [], {}
    for lb in labels:
        lines = cache.setdefault(lb.file, (base / lb.file).read_text(encoding="utf-8").splitlines())
        if not (1 <= lb.line <= len(lines)) or not line_matches(lines[lb.line - 1], lb.text):
            bad.append(f"{lb.file}:{lb.line}: expected {lb.text!r}")
    return bad


def build_flags(base: Path, file: str) -> list[str]:
    """The -I (made absolute) and -D its project builds `file` with (build_flags.tsv beside the labels)."""
    table = base / BUILD_FLAGS
    if not table.exists():
        return []
    for row in table.read_text(encoding="utf-8").splitlines():
        if row.strip() and not row.startswith("#"):
            folder, flags = row.split("\t")[:2]
            if file.startswith(folder.rstrip("/") + "/"):
                words = flags.split()
                return [str((base / folder / w).resolve()) if i and words[i - 1] == "-I" else w
                        for i, w in enumerate(words)]
    return []


def executable(exe: list[str]):
    """A runner: lint one file (or, with --project, one project's files) with that kernelport build, as a
    user would (JSON findings, exit code, last stderr)."""
    def run(path, flags: list[str] = ()) -> tuple[str, list[dict], int, str]:
        paths = [str(p) for p in path] if isinstance(path, (list, tuple)) else [str(path)]
        r = subprocess.run([*exe, "lint", "--format", "json", "--exit-zero", "-j", "1", *flags, *paths],
                           capture_output=True, text=True, timeout=600)
        try:
            data = json.loads(r.stdout) if r.stdout.strip() else []
        except json.JSONDecodeError:
            data = []
        return str(path), data, r.returncode, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
    run.name = " ".join(exe)  # type: ignore[attr-defined]
    return run


def project_runs(base: Path, files: list[str]) -> list[tuple[list[str], list[str]]]:
    """--project: the files of one commit folder (a project as it stood before one commit: the first two
    parts of the path) that its project builds with the same flags, as one run's inputs, in the set's order."""
    runs: dict[tuple, list[str]] = {}
    for f in files:
        flags = build_flags(base, f)
        runs.setdefault((tuple(f.split("/")[:2]), tuple(flags)), []).append(f)
    return [(fs, list(key[1])) for key, fs in runs.items()]


def measure(run, labels: list[Label], base: Path, jobs: int = 2, min_severity: str = "warning",
            project: bool = False) -> dict:
    files = sorted({lb.file for lb in labels})
    groups = project_runs(base, files) if project else [([f], build_flags(base, f)) for f in files]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        grouped = list(pool.map(lambda g: run([base / f for f in g[0]], g[1]), groups))
    # each file's findings (a run over several files reports each finding under its own path) and its run's outcome
    where = {(base / f).resolve(): f for f in files}
    got = {f: [] for f in files}
    outcome = {}
    for (fs, _), (_, data, rc, err) in zip(groups, grouped):
        for d in data:
            owner = where.get(Path(d.get("path", "")).resolve(), fs[0] if len(fs) == 1 else None)
            if owner is not None:
                got[owner].append(d)
        for f in fs:
            outcome[f] = (rc, err if not any(got[g] for g in fs) else "")
    runs = [(str(base / f), got[f], *outcome[f]) for f in files]
    flagged: dict[str, dict[int, set[str]]] = {}  # a hazard claim's line, or a related line it names
    advised: dict[str, set[int]] = {}  # the same for findings below min_severity (advice)
    primary: dict[str, set[int]] = {}
    context: dict[str, set[int]] = {}  # lines a claim names as context only (not counted)
    floor = SEVERITIES.index(min_severity)
    failures, internal = [], []
    # A related location in another labelled file of the set flags that file's line too (a call's
    # finding naming the header parameter it passes a mask to).
    by_path = {(base / f).resolve(): f for f in files}
    for f, (path, data, rc, err) in zip(files, runs):
        lines = flagged.setdefault(f, {})
        for d in data:
            if d["code"].startswith("WS") and SEVERITIES.index(d.get("severity", "error")) < floor:
                advised.setdefault(f, set()).add(d["line"])
                for r in d.get("related") or ():
                    other = by_path.get(Path(r["path"]).resolve())
                    if other is not None:
                        advised.setdefault(other, set()).add(r["line"])
            elif d["code"].startswith("WS"):
                lines.setdefault(d["line"], set()).add(d["code"])
                primary.setdefault(f, set()).add(d["line"])
                for r in d.get("related") or ():
                    other = by_path.get(Path(r["path"]).resolve())
                    if other is not None and r.get("role", "site") == "site":
                        flagged.setdefault(other, {}).setdefault(r["line"], set()).add(d["code"] + " (related)")
                    elif other is not None:
                        context.setdefault(other, set()).add(r["line"])
            if d["code"] == "KP006":
                internal.append(f"{f}: {d['message']}")
        if rc != 0 or (not data and err):
            failures.append(f"{f}: exit {rc}: {err}")
    texts = {f: (base / f).read_text(encoding="utf-8").splitlines() for f in files}
    labelled = {(lb.file, lb.line) for lb in labels}

    def score(hit) -> dict:
        hz = [lb for lb in labels if lb.kind == "hazard"]
        la = [lb for lb in labels if lb.kind == "lookalike"]
        tp = [lb for lb in hz if hit(lb.file, lb.line)]
        fp = [lb for lb in la if hit(lb.file, lb.line)]
        cs = [lb for lb in labels if lb.kind == "consistent"]
        return {"hazards": len(hz), "lookalikes": len(la), "found": len(tp), "false_positives": len(fp),
                "consistent": len(cs), "consistent_flagged": sum(1 for lb in cs if hit(lb.file, lb.line)),
                "recall": len(tp) / len(hz) if hz else 0.0,
                "precision": len(tp) / (len(tp) + len(fp)) if tp or fp else 1.0,
                "misses": [f"{lb.file}:{lb.line}: {lb.text}" for lb in hz if lb not in tp],
                "flagged_lookalikes": [f"{lb.file}:{lb.line}: {lb.text}" for lb in fp],
                "by_project": {p: [sum(1 for lb in tp if lb.project == p), sum(1 for lb in hz if lb.project == p)]
                               for p in sorted({lb.project for lb in hz})}}

    lint = score(lambda f, n: n in flagged.get(f, {}))
    lint["recall_primary"] = score(lambda f, n: n in primary.get(f, set()))["recall"]
    lint["min_severity"] = min_severity
    advice = [lb for lb in labels if lb.line in advised.get(lb.file, set()) and not hit_any(flagged, lb)]
    lint["advised"] = {k: sum(1 for lb in advice if lb.kind == k) for k in KINDS}
    named = [lb for lb in labels if lb.line in context.get(lb.file, set()) and not hit_any(flagged, lb)]
    lint["context_only"] = {k: sum(1 for lb in named if lb.kind == k) for k in KINDS}
    lint["unlabelled_flagged_lines"] = sum(1 for f, ls in flagged.items() for n in ls if (f, n) not in labelled)
    lint["codes"] = {f"{f}:{n}": sorted(c) for f, ls in flagged.items() for n, c in ls.items() if (f, n) in labelled}
    naive = score(lambda f, n: bool(NAIVE.search(texts[f][n - 1].split("//")[0])))
    return {"exe": getattr(run, "name", "kernelport"), "files": len(files), "flagged": flagged, "lint": lint, "naive": naive,
            "failures": failures, "internal_errors": internal}


def hit_any(flagged: dict[str, dict[int, set[str]]], lb: Label) -> bool:
    return lb.line in flagged.get(lb.file, {})


def _exe(arg: str | None) -> list[str]:
    if arg:
        return [arg]
    local = ROOT / ".venv" / "bin" / "kernelport"
    if local.exists():
        return [str(local)]
    found = shutil.which("kernelport")
    return [found] if found else [sys.executable, "-m", "kernelport"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernelport", help="the kernelport executable to measure (default: this checkout's)")
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--json", action="store_true", help="print the whole result as JSON")
    ap.add_argument("-j", type=int, default=2, help="files linted at once (default 2)")
    ap.add_argument("--min-severity", choices=SEVERITIES, default="warning",
                    help="lowest severity that claims a hazard (default warning: info is advice)")
    ap.add_argument("--project", action="store_true",
                    help="lint each commit folder's files (one build-flags row) in one run, as `kernelport lint src/` does")
    a = ap.parse_args()
    labels = read_labels(a.labels)
    bad = check_labels(labels, a.labels.parent)
    if bad:
        raise SystemExit("labels off their lines:\n" + "\n".join(bad))
    res = measure(executable(_exe(a.kernelport)), labels, a.labels.parent, a.j, a.min_severity, a.project)
    res["mode"] = "project runs" if a.project else "one file per run"
    if a.json:
        res["flagged"] = {f: {str(n): sorted(c) for n, c in ls.items()} for f, ls in res["flagged"].items()}
        print(json.dumps(res, indent=1))
        return
    projects = sorted({lb.project for lb in labels})
    print(f"{res['exe']} ({res['mode']}): {res['files']} files, {res['lint']['hazards']} hazard lines, "
          f"{res['lint']['lookalikes']} look-alike lines, {res['lint']['consistent']} consistent lines, "
          f"{len(projects)} projects ({', '.join(projects)})")
    for name in ("lint", "naive"):
        r = res[name]
        per = ", ".join(f"{p} {a}/{b}" for p, (a, b) in r["by_project"].items())
        prim = f" (finding lines alone {r['recall_primary']:.3f})" if "recall_primary" in r else ""
        print(f"  {name:<5}  recall {r['recall']:.3f} ({r['found']}/{r['hazards']}){prim}  precision {r['precision']:.3f} "
              f"({r['false_positives']} look-alike{'s' if r['false_positives'] != 1 else ''} flagged)  "
              f"consistent flagged {r['consistent_flagged']}/{r['consistent']}  [{per}]")
    adv = res["lint"]["advised"]
    print(f"  hazard claims: {res['lint']['min_severity']} and above; advice below it (not counted) on "
          f"{adv['hazard']} hazards, {adv['lookalike']} look-alikes, {adv['consistent']} consistent lines")
    ctx_only = res["lint"]["context_only"]
    print(f"  named as context only (not counted): {ctx_only['hazard']} hazards, {ctx_only['lookalike']} look-alikes, "
          f"{ctx_only['consistent']} consistent lines")
    print(f"  lint flagged {res['lint']['unlabelled_flagged_lines']} unlabelled lines; "
          f"{len(res['failures'])} file runs failed, {len(res['internal_errors'])} internal errors")
    for title, items in (("misses", res["lint"]["misses"]), ("look-alikes flagged", res["lint"]["flagged_lookalikes"]),
                         ("failed runs", res["failures"]), ("internal errors", res["internal_errors"])):
        if items:
            print(f"\n{title}:")
            for i in items:
                print("  " + i)


if __name__ == "__main__":
    main()
