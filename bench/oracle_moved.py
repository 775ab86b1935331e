"""Per kernel, what moved between two `bench/oracle_corpus.py --json` runs of one tree (bench/oracle_heldout59_moved.txt).

    python bench/oracle_moved.py BEFORE.json AFTER.json [NAME]

Prints, per run: kernels found, run (the original ran: the oracle), run with every compared port passing, run with a
port failing, files ending in an internal error; then each kernel whose outcome or not-run reason changed.
"""
from __future__ import annotations

import json
import re
import sys


def load(path: str) -> dict:
    out = {}
    for r in json.load(open(path)):
        p = r["path"].split("/", 3)[-1]
        for n, k in r["kernels"].items():
            st = [x[3] for x in k["ports"]]
            out[(p, n)] = (k["oracle"] == "pass", "fail" in st, "pass" in st,
                           re.sub(r".*?not run: ", "", k["reason"] or "")[:150], [(x[0], x[1], x[3]) for x in k["ports"]])
        if r.get("internal"):
            out[(p, "<internal>")] = (False, False, False, r["internal"][:100], [])
    return out


def counts(d: dict) -> str:
    k = [v for key, v in d.items() if key[1] != "<internal>"]
    return (f"found {len(k)} run {sum(v[0] for v in k)} match {sum(v[0] and v[2] and not v[1] for v in k)} "
            f"failed {sum(v[0] and v[1] for v in k)} internal {sum(1 for key in d if key[1] == '<internal>')}")


def main() -> None:
    b, a = load(sys.argv[1]), load(sys.argv[2])
    print(f"{sys.argv[3] if len(sys.argv) > 3 else ''}: before {counts(b)} | after {counts(a)}")
    for key in sorted(set(a) | set(b)):
        vb, va = b.get(key), a.get(key)
        if vb is None or va is None or vb[:3] != va[:3] or (not va[0] and vb[3][:40] != va[3][:40]):
            was = ("RUN " + str(vb[4])) if vb and vb[0] else (vb[3][:90] if vb else None)
            now = ("RUN " + ("FAIL " if va[1] else "") + str([x for x in va[4] if x[2] != "pass"])) if va and va[0] \
                else (va[3][:110] if va else None)
            print("   ", key[0], key[1], "| before:", was, "| after:", now)


if __name__ == "__main__":
    main()
