"""The emulator's error bounds where a GPU row would compare them, without a GPU: runs
bench/oracle_corpus.py (--oracle-only, --device cuda) with verify_device.device_against_oracle
replaced by a recorder.  Each device row becomes one JSON line in --out: per output buffer its
size, bound count that is unknown (NaN: a bound lost), max and sum of its bounds, a digest of the
bound array, and the value/bound at --at's elements.  Compare two runs with --diff A B.

  PYTHONPATH=. python -P bench/oracle_bound_probe.py --out b.jsonl [--at normed:1086007] -- \
      -j 2 --timeout 90 --match 'fused_residual' --json o.json
  python bench/oracle_bound_probe.py --diff before.jsonl after.jsonl
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np


def _record(out: str, at: list[tuple[str, int]]):
    def probe(verifier, src, kernel, spec, args, targs, outs, oracle, rep, unlike):
        row = {"path": str(src.path), "kernel": kernel.name, "unlike": unlike, "outputs": {},
               "lost": [str(x) for x in getattr(oracle, "bounds_lost", None) or ()]}
        for k in sorted(outs):
            b = (oracle.bounds or {}).get(k)
            v = oracle.outputs[k]
            if b is None:
                row["outputs"][k] = None
                continue
            b64 = np.asarray(b, np.float64)
            nan = np.isnan(b64)
            fin = np.where(nan, 0.0, b64)
            row["outputs"][k] = {"n": int(b64.size), "unknown": int(nan.sum()), "max": float(fin.max(initial=0.0)),
                                 "sum": float(fin.sum()),
                                 "digest": hashlib.sha1(np.ascontiguousarray(b64.astype(np.float32)).tobytes())
                                 .hexdigest()[:16]}
            for name, i in at:
                if name == k and i < b64.size:
                    row["outputs"][k][f"at{i}"] = [float(np.asarray(v).reshape(-1)[i]), float(b64[i])]
        with open(out, "a") as f:
            f.write(json.dumps(row) + "\n")
    return probe


def _diff(a: str, b: str) -> None:
    def load(p):
        return {(r["path"].split("realcorpus/")[-1], r["kernel"]): r for r in map(json.loads, Path(p).read_text()
                                                                                      .splitlines())}
    ra, rb = load(a), load(b)
    same = changed = 0
    for key in sorted(set(ra) | set(rb)):
        x, y = ra.get(key), rb.get(key)
        if x is None or y is None:
            print(f"{key[0]} {key[1]}: {'only after' if x is None else 'only before'}")
            continue
        for out in sorted(set(x["outputs"]) | set(y["outputs"])):
            p, q = x["outputs"].get(out), y["outputs"].get(out)
            if (p or {}).get("digest") == (q or {}).get("digest"):
                same += 1
                continue
            changed += 1
            def show(s):
                return "none" if s is None else f"n {s['n']} max {s['max']:.4g} sum {s['sum']:.4g} unknown {s['unknown']}"
            resized = p is not None and q is not None and p["n"] != q["n"]  # (sizes chosen differently: not comparable)
            print(f"{key[0]} {key[1]} {out}: before {show(p)} -> after {show(q)}{' [sizes differ]' if resized else ''}"
                  + (f"; lost at {', '.join(y['lost'][:2])}" if y.get("lost") else ""))
    print(f"{same} output bounds identical, {changed} changed")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--diff":
        _diff(sys.argv[2], sys.argv[3])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--at", action="append", default=[], help="NAME:INDEX: record that element's value and bound")
    argv = sys.argv[1:]
    rest = argv[argv.index("--") + 1:] if "--" in argv else []
    a = ap.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    at = [(s.rsplit(":", 1)[0], int(s.rsplit(":", 1)[1])) for s in a.at]
    Path(a.out).write_text("")
    import kernelport.verify_device as vd
    vd.device_against_oracle = _record(os.path.abspath(a.out), at)  # (workers fork: they inherit it)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import oracle_corpus
    sys.argv = ["oracle_corpus.py", "--oracle-only", "--device", "cuda", *rest]
    oracle_corpus.main()


if __name__ == "__main__":
    main()
