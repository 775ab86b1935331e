"""Where lint's time goes, by part of kernelport, from a sampling profile (py-spy's raw output).

    py-spy record -r 250 -f raw -o OUT.raw -- python -P -m kernelport lint -j 1 --format json tests/realcorpus
    python bench/profile_shares.py OUT.raw [--under FUNCTION] [--top N]

cProfile (bench/profile_work.py) times every call it sees, so it inflates what makes many small
calls (a tree-sitter cursor step is a call, a `node.type` read is not): its shares of the node
index or the analyses are not their shares of a real run.  A sampling profiler adds nothing per
call.  Only the samples of the analysis thread (`_lint_file`: kernelport's work runs on the thread
of `depth.on_big_stack`) are counted, so the main thread waiting for it is not.  Each sample goes
to the innermost frame that belongs to one of PARTS (first match in that order), so a helper the
analyses call (`text_of`, `call_args`) counts as `source helpers`, and a parse made inside the
include walk counts as `parse`.  `--under F`: only the samples with F on their stack.  py-spy is not
a kernelport dependency: `pip install py-spy` in a scratch environment.
"""
from __future__ import annotations

import argparse
import collections
import re

PARTS = (
    ("parse (tree-sitter)", r"SourceFile\._parse \(|Repair\._parse \("),
    ("node index", r"NodeIndex\."),
    ("macro repair", r"macro_repair\.py|macro_tokens\.py|macro_sites\.py"),
    ("parse preparation", r"_mask_extensions|SourceFile\.read \("),
    ("warpflow", r"/warpflow\.py|/warpwidth\.py|/warpreach\.py|/sweeps\.py|/warpshapes\.py|/warpsites\.py"),
    ("divergence", r"/lint/divergence\.py"),
    ("model", r"/model\.py"),
    ("include walk", r"/includewalk\.py|/includers\.py|/includes\.py"),
    ("lint rules", r"/lint/rules/"),
    ("lint context", r"/lint/context\.py"),
    ("function scopes", r"/fnscopes\.py"),
    ("project", r"/project\.py|/hipbuild\.py|/guards\.py"),
    ("api names", r"/api_names\.py|/dialect\.py"),
    ("source helpers", r"/source\.py"),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("raw")
    ap.add_argument("--under", default="_lint_file")
    ap.add_argument("--top", type=int, default=15, help="also the N functions with the most samples of their own")
    args = ap.parse_args()
    parts = [(name, re.compile(rx)) for name, rx in PARTS]
    shares: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    with open(args.raw) as fh:
        for line in fh:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if args.under not in stack or not count.isdigit():
                continue
            n, frames = int(count), stack.split(";")
            total += n
            own[re.sub(r":\d+\)$", ")", re.sub(r" \(.*/kernelport/", " (", frames[-1]))] += n  # by function
            shares[next((name for f in reversed(frames) for name, rx in parts if rx.search(f)), "other")] += n
    if not total:
        raise SystemExit(f"no samples with {args.under} on their stack")
    print(f"{total} samples under {args.under}")
    for name, n in shares.most_common():
        print(f"{100 * n / total:5.1f}%  {name}")
    print(f"-- the {args.top} functions with the most samples of their own")
    for name, n in own.most_common(args.top):
        print(f"{100 * n / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
