"""`kernelport lint --confirm` on the labelled wave-64 fixes: which found hazards a run confirms.

    python bench/confirm_labelled.py [--inputs tests/labelled/confirm_inputs.kp] [--json]

Every file of tests/labelled/ is linted with --confirm (in process) with the inputs file, and each
labelled line is counted: a hazard line is *found* when a warp-size finding starts on it, then
*confirmed* (its kernel's output differs at wave 64 and 32), *latent* (the same on these inputs)
or *not run* (by reason); a look-alike line is *silent* when no warp-size finding starts on it;
consistent lines (correct at 64, moved to the hardware width anyway) are counted the same way as
hazards, beside them.  The labels are bench/lint_recall.py's.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LABELLED = ROOT / "tests" / "labelled"


def _labels():
    spec = importlib.util.spec_from_file_location("lint_recall", ROOT / "bench" / "lint_recall.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["lint_recall"] = mod
    spec.loader.exec_module(mod)
    return mod.read_labels(LABELLED / "labels.tsv")


def measure(inputs: Path | None) -> dict:
    from kernelport.lint import config as configmod, engine
    from kernelport.lint.confirm import confirm
    from kernelport.wave_inputs import read
    labels = _labels()
    given = read(inputs) if inputs is not None else None
    files = sorted({lb.file for lb in labels})
    t0 = time.perf_counter()
    at: dict[tuple[str, int], list[dict]] = {}
    for f in files:
        res = engine.lint_paths([LABELLED / f], configmod.Overrides(), jobs=1)
        confirm(res, given)
        for r in res:
            for x in r.findings:
                if x.confirmation is not None:
                    at.setdefault((f, x.line), []).append(x.confirmation)
    rows: dict[str, Counter] = {k: Counter() for k in ("hazard", "consistent", "lookalike")}
    examples = []
    for lb in labels:
        c = rows[lb.kind]
        c["labelled"] += 1
        got = at.get((lb.file, lb.line))
        if not got:
            c["silent"] += 1
            continue
        c["found"] += 1
        best = next((g for g in got if g["status"] == "confirmed"), None) or \
            next((g for g in got if g["status"] == "latent"), got[0])
        key = best["status"] if best["status"] != "not run" else f"not run: {best.get('reason', '?')}"
        c[key] += 1
        if best["status"] == "confirmed":
            examples.append(f"{lb.kind} {lb.file}:{lb.line}: {best['detail']}")
    return {"rows": {k: dict(v) for k, v in rows.items()}, "examples": examples,
            "seconds": round(time.perf_counter() - t0, 1), "files": len(files)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=Path, default=LABELLED / "confirm_inputs.kp")
    ap.add_argument("--no-inputs", action="store_true", help="annotations and inference only")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    res = measure(None if a.no_inputs else a.inputs)
    if a.json:
        print(json.dumps(res, indent=2))
        return
    cols = ["labelled", "found", "confirmed", "latent"]
    reasons = sorted({k for r in res["rows"].values() for k in r if k.startswith("not run")})
    cols += reasons + ["silent"]
    print("| lines | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for kind, r in res["rows"].items():
        print(f"| {kind} | " + " | ".join(str(r.get(c, 0)) for c in cols) + " |")
    for e in res["examples"]:
        print(e)
    print(f"{res['files']} files in {res['seconds']} s")


if __name__ == "__main__":
    main()
