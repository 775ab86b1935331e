"""Translate's whole passes counted by what they read: how many run again over input already seen.

    python -P bench/translate_repeats.py [--code CHECKOUT] [--alone] [--to hip,metal] [DIR]

translate_stages.py times each pass and says who asked; this counts, for each pass, the calls and
the distinct inputs (a parse: its text and macros; a model build: its text; a warpflow analysis: its
text and whether the model has includes; a lint: its text, path and targets), so a pass that runs
again over the same input (a repeat a key could serve) is told from one that reads new input.  The
repeats are listed by the kernelport frames that asked.  Default: the one command `translate DIR
--to ... --stdout`; --alone: each file alone in one process (bench_translate.py --tree's loop).
"""
from __future__ import annotations

import collections
import hashlib
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s shared modules (under -P too)
from checkout_tree import arguments, drive  # noqa: E402


def _h(text) -> str:
    return hashlib.blake2b(text.encode() if isinstance(text, str) else bytes(text), digest_size=8).hexdigest()


def main() -> None:
    args = arguments(__doc__, flags=("--alone",))
    from kernelport import model, source, warpflow
    from kernelport.lint import engine
    calls: collections.Counter = collections.Counter()
    keys: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    askers: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)

    def asker() -> str:
        frames = [f for f in traceback.extract_stack()[:-3] if "/kernelport/" in f.filename and
                  Path(f.filename).stem not in ("depth", "functools")]
        return " < ".join(f"{Path(f.filename).stem}.{f.name}" for f in reversed(frames[-3:]))

    def counted(label: str, f, key):
        def w(*a, **k):
            k_ = key(a, k)
            calls[label] += 1
            if keys[label][k_]:
                askers[label][asker()] += 1
            keys[label][k_] += 1
            return f(*a, **k)
        return w

    passes = [
        (source.SourceFile, "_parse", "parse", lambda a, k: (_h(a[0]), _h(repr(sorted((a[2] or {}).items()))))),
        (model, "build", "model build", lambda a, k: _h(a[0].data)),
        (warpflow, "analyze", "warpflow analysis", lambda a, k: (_h(a[0].source.data), a[0].visible is not None)),
        (engine, "lint_text", "lint", lambda a, k: (_h(a[0]), str(a[1]), tuple(k.get("targets") or ()),
                                                    k.get("parsed") is not None)),
    ]
    for owner, attr, label, key in passes:
        setattr(owner, attr, counted(label, getattr(owner, attr), key))
    c0 = time.process_time()
    drive(args.tree, args.to, args.alone)
    print(f"{args.code.resolve()}: translate {args.tree} --to {args.to} "
          f"({'each file alone' if args.alone else 'one command'}): {time.process_time() - c0:.2f} s CPU")
    for _, _, label, _ in passes:
        n, distinct = calls[label], len(keys[label])
        print(f"{label:20s} {n:6d} calls, {distinct:6d} distinct inputs, {n - distinct:6d} again over an input seen")
        for who, c in askers[label].most_common(6):
            print(f"    {c:6d} again <- {who}")


if __name__ == "__main__":
    main()
