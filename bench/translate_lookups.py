"""Repeated look-ups of a tree translate, counted (not timed: the counts do not drift with the load).

    python bench/translate_lookups.py [--code CHECKOUT] [--to hip] [DIR]

Every CUDA file under DIR (default tests/realcorpus) translated alone, as bench_translate.py --tree
does, with `--code`'s kernelport (e.g. a `git worktree add` of main); prints how often the run read
a file's `using namespace` directives (fnscopes: one read per look-up that went through them), how
often the port's writer sorted (rewrite.py), how many function-scope tables (fnscopes.Scopes) were
built and for how many distinct models, and how many files the attribute-spelling pass tokenised
(macro_tokens.tokens calls), with the run's CPU seconds.
"""
from __future__ import annotations

import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/'s shared modules (under -P too)
from checkout_tree import arguments, drive  # noqa: E402


def main() -> None:
    args = arguments(__doc__)
    from kernelport import fnscopes, macro_tokens, rewrite
    counts: collections.Counter = collections.Counter()
    models: dict[int, object] = {}  # (each model kept alive, so that no id is reused)

    class Reads(list):
        def __iter__(self):
            counts["directive reads"] += 1
            return super().__iter__()

    init = fnscopes.Scopes.__init__

    def counted_init(self, module):
        init(self, module)
        counts["Scopes built"] += 1
        models[id(module)] = module
        self._usings = Reads(self._usings)
    fnscopes.Scopes.__init__ = counted_init
    rewrite.sorted = lambda it, **k: counts.update(["writer sorts"]) or sorted(it, **k)
    tokens = macro_tokens.tokens
    macro_tokens.tokens = lambda data: counts.update(["tokenisations"]) or tokens(data)
    c0 = time.process_time()
    drive(args.tree, args.to, True)
    counts["distinct models given a Scopes"] = len(models)
    print(f"{args.code.resolve()}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) +
          f"; {time.process_time() - c0:.1f} s CPU")


if __name__ == "__main__":
    main()
