"""Inclusive CPU seconds of translate's stages over a tree, measured without a profiler.

    python -P bench/translate_stages.py [--code CHECKOUT] [--alone] [--askers] [--to hip] [DIR]

A profiler inflates Python-heavy code and its shares drift from the real ones (cProfile put 14% of a
tree translate in one listing function that took 2%); here each stage's function is wrapped and
timed with its thread's CPU clock (`time.thread_time`: the stages run on `depth.on_big_stack`'s
threads).  A stage nested in itself counts once; stages nest in each other (the self-check's lint
holds warpflow analyses), so they do not add up.  Default: the one command `translate DIR --to hip
--stdout` (bench_translate.py --command); --alone: each file alone (bench_translate.py --tree).
Warpflow's analyses are also split by model (with includes, include-free) and caller.  --askers: each
stage also under the three kernelport frames that asked for it (how many times each whole pass runs per
file, and for whom: the plan, a lint, a translator, a macro body's inner translator).
"""
from __future__ import annotations

import collections
import sys
import threading
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s shared modules (under -P too)
from checkout_tree import arguments, drive  # noqa: E402


def main() -> None:
    args = arguments(__doc__, flags=("--alone", "--askers"))
    from kernelport import fold_levels, include_search, includewalk, model, project_ports, source, translate, warpflow
    from kernelport.lint import context, engine
    cpu: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    local = threading.local()

    def asker() -> str:
        frames = [f for f in traceback.extract_stack()[:-2] if "/kernelport/" in f.filename and
                  Path(f.filename).stem not in ("depth", "functools")]
        return " < ".join(f"{Path(f.filename).stem}.{f.name}" for f in reversed(frames[-3:]))

    def timed(label: str, f, classify=None):
        def w(*a, **k):
            name = classify(a, k) if classify else label
            if args.askers and name:
                name = f"{name} <- {asker()}"
            running = local.__dict__.setdefault("running", set())
            if name in running:
                return f(*a, **k)
            running.add(name)
            c0 = time.thread_time()
            try:
                return f(*a, **k)
            finally:
                cpu[name] += time.thread_time() - c0
                calls[name] += 1
                running.discard(name)
        return w

    def by_model(a, k) -> str:
        caller = traceback.extract_stack(limit=3)[0].name
        return f"  warpflow, {'with includes' if a[0].visible is not None else 'include-free'}, from {caller}"
    stages = [
        (engine, "lint_text", "the self-check's lints", None),
        (engine, "lint_text", None, lambda a, k: "  of originals" if k.get("parsed") is not None else "  of ports"),
        (context.Context, "__init__", "  their contexts (parse, model, warpflow)", None),
        (engine, "_lint_context", "  their rules", None),
        (project_ports, "_decide", "the planning pass", None),
        (translate.Translator, "run", "the translators (with the original's lint)", None),
        (warpflow, "analyze", "warpflow analyses", None),
        (warpflow, "analyze", None, by_model),
        (model, "build", "model builds", None),
        (source.SourceFile, "_parse", "tree-sitter parses", None),
        (source.NodeIndex, "__init__", "node indexes", None),
        (includewalk.IncludeWalk, "_scan", "include walks", None),
        (include_search.TreeIndex, "files", "  tree listings (headers no -I reaches)", None),
        (fold_levels, "width_dependent_read", "  ladder folds every lane keeps (fold_levels)", None),
    ]
    for owner, attr, label, classify in stages:
        setattr(owner, attr, timed(label or "", getattr(owner, attr), classify))
    c0 = time.process_time()
    drive(args.tree, args.to, args.alone)
    total = time.process_time() - c0
    print(f"{args.code.resolve()}: translate {args.tree} --to {args.to} ({'each file alone' if args.alone else 'one command'}): "
          f"{total:.2f} s CPU")
    for name, s in sorted(cpu.items(), key=lambda kv: -kv[1]):
        print(f"{name:60s} {s:6.2f} s {100 * s / total:5.1f}%  {calls[name]:6d} calls")


if __name__ == "__main__":
    main()
