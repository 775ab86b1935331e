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

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", nargs="?", type=Path, default=ROOT / "tests" / "realcorpus")
    ap.add_argument("--code", type=Path, default=ROOT)
    ap.add_argument("--to", default="hip")
    args = ap.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    from kernelport import fnscopes, macro_tokens, rewrite
    from kernelport.errors import KernelportError
    from kernelport.project_ports import expand, make, single
    from kernelport.source import SourceFile
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
    for f in expand([args.tree]):
        try:
            src = SourceFile.read(f)
            src.check_syntax()
            make(single(f, src), args.to.split(","), None, True)
        except KernelportError:
            pass
    counts["distinct models given a Scopes"] = len(models)
    print(f"{args.code.resolve()}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) +
          f"; {time.process_time() - c0:.1f} s CPU")


if __name__ == "__main__":
    main()
