"""How much work a tree translate does, counted (not timed: the counts do not drift with the load).

    python bench/translate_work.py [--code CHECKOUT] [--to hip,metal] [DIR]

Every CUDA file under DIR (default tests/realcorpus) translated alone, as bench_translate.py
--tree does, with `--code`'s kernelport (e.g. a `git worktree add` of main); prints the number of
translations per backend (`translate.port_file`) and of warpflow analyses, those of a model with its
includes' view and the include-free ones (the self-check's lints), the self-check's lints of originals
and of ports (`lint_text` runs: those a cache answers are not counted), and the CPU seconds of the run.
"""
from __future__ import annotations

import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s shared modules (under -P too)
from checkout_tree import arguments, drive  # noqa: E402


def main() -> None:
    args = arguments(__doc__, "hip,metal")
    from kernelport import translate, warpflow
    counts: collections.Counter = collections.Counter()
    analyze, port_file = warpflow.analyze, translate.port_file

    def counted_analyze(m):
        counts["warpflow analyses, " + ("with includes" if m.visible is not None else "include-free")] += 1
        return analyze(m)

    def counted_port_file(src, backend, *a, **k):
        counts[f"translations to {backend}"] += 1
        return port_file(src, backend, *a, **k)
    warpflow.analyze, translate.port_file = counted_analyze, counted_port_file
    from kernelport.lint import engine
    lint_text = engine.lint_text

    def counted_lint_text(text, *a, **k):
        counts["self-check lints of " + ("originals" if k.get("parsed") is not None else "ports")] += 1
        return lint_text(text, *a, **k)
    engine.lint_text = counted_lint_text
    c0 = time.process_time()
    drive(args.tree, args.to, True)
    print(f"{args.code.resolve()}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) +
          f"; {time.process_time() - c0:.1f} s CPU")


if __name__ == "__main__":
    main()
