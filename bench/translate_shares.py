"""Where translate's time goes, by stage, from a sampling profile (py-spy's raw output).

    py-spy record -r 200 -f raw -o OUT.raw -- python -P bench/bench_translate.py --tree-child . --tree tests/realcorpus --to hip
    python bench/translate_shares.py OUT.raw [--top N]

bench/profile_shares.py counts lint's samples under `_lint_file`; translate's work runs on the threads
of `depth.on_big_stack`, whose stacks start at the thread, not at the caller, so here every sample
of any thread counts except the main thread waiting for one (a `join` or `wait` at the top).  A
stage's share is inclusive (the samples with one of its frames on the stack): stages nest (the
self-check's lint holds warpflow analyses, the planning pass holds models), so they do not add up.
"""
from __future__ import annotations

import argparse
import collections
import re

STAGES = (
    ("the self-check's lints (original and port)", ("lint_unit (",)),
    ("  their contexts (model, warpflow, index)", ("Context.__init__",)),
    ("  their rules", ("_lint_context",)),
    ("the planning pass (project models and analyses)", ("_decide (",)),
    ("translate_one's own model and analysis (after the decisions)", ("translate_one", "Project.analysis (")),
    ("the translator's passes", ("Translator.run (",)),
    ("warpflow analyses, every caller", ("analyze (kernelport/warpflow",)),
    ("models (model.build)", ("build (kernelport/model.py",)),
    ("tree-sitter parses (macro repair's included)", ("SourceFile._parse (", "Repair._parse (")),
    ("node index", ("NodeIndex.",)),
    ("reading files", ("SourceFile.read (",)),
    ("include walks", ("includewalk.py", "includers.py")),
    ("macro repair", ("macro_repair.py",)),
    ("function scopes", ("fnscopes.py",)),
    ("a thread per big-stack call", ("Thread.start",)),
)
_IDLE = ("_wait_for_tstate_lock", "Condition.wait")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("raw")
    ap.add_argument("--top", type=int, default=15, help="also the N functions with the most samples of their own")
    args = ap.parse_args()
    shares: collections.Counter[str] = collections.Counter()
    own: collections.Counter[str] = collections.Counter()
    total = 0
    with open(args.raw) as fh:
        for line in fh:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not count.isdigit():
                continue
            frames = stack.split(";")
            if any(w in frames[-1] for w in _IDLE):
                continue
            n = int(count)
            total += n
            own[re.sub(r":\d+\)$", ")", re.sub(r" \(.*/kernelport/", " (", frames[-1]))] += n
            for name, marks in STAGES:
                if all(m in stack for m in marks) if name.startswith("translate_one") else \
                        any(m in stack for m in marks):
                    shares[name] += n
    if not total:
        raise SystemExit("no busy samples")
    print(f"{total} busy samples")
    for name, _ in STAGES:
        print(f"{100 * shares[name] / total:5.1f}%  {name}")
    print(f"-- the {args.top} functions with the most samples of their own")
    for name, n in own.most_common(args.top):
        print(f"{100 * n / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
