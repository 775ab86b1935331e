"""The whole passes translate makes over each file, counted by kind and by who asked, with their CPU.

    python -P bench/translate_passes.py [--code CHECKOUT] [--to hip] [DIR]

Each file under DIR alone, as `kernelport translate FILE --to B --stdout` makes it (bench_translate.py
--tree's loop, one process).  A pass is one call of: a tree-sitter parse (`SourceFile._parse`), a node
index, a model build, a warpflow analysis, a lint (of an original: `parsed` given; of a port), the
planning pass, a translator run (the file's and its headers', and the macro bodies' inner ones).  Each
is counted under the three kernelport frames above it (who asked) with the CPU of its thread
(`time.thread_time`, inclusive: a lint holds its warpflow analysis).  Read it beside
translate_stages.py: this says how many times each whole pass runs per file, that one where the time goes.
"""
from __future__ import annotations

import argparse
import collections
import sys
import threading
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", nargs="?", type=Path, default=ROOT / "tests" / "realcorpus")
    ap.add_argument("--code", type=Path, default=ROOT)
    ap.add_argument("--to", default="hip")
    args = ap.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    from kernelport import model, project_ports, source, translate, warpflow
    from kernelport.errors import KernelportError
    from kernelport.lint import engine
    count: collections.Counter = collections.Counter()
    cpu: collections.Counter = collections.Counter()
    local = threading.local()

    def asker() -> str:
        frames = [f for f in traceback.extract_stack()[:-2] if "/kernelport/" in f.filename and
                  Path(f.filename).stem not in ("depth", "functools")]
        return " < ".join(f"{Path(f.filename).stem}.{f.name}" for f in reversed(frames[-3:]))

    def counted(kind: str, f, sub=None):
        def w(*a, **k):
            key = (kind + (sub(a, k) if sub else ""), asker())
            running = local.__dict__.setdefault("running", set())
            if key in running:  # nested in itself: counted once
                return f(*a, **k)
            running.add(key)
            c0 = time.thread_time()
            try:
                return f(*a, **k)
            finally:
                cpu[key] += time.thread_time() - c0
                count[key] += 1
                running.discard(key)
        return w

    source.SourceFile._parse = counted("parse", source.SourceFile._parse)
    source.NodeIndex.__init__ = counted("node index", source.NodeIndex.__init__)
    model.build = counted("model build", model.build)
    warpflow.analyze = counted("warpflow", warpflow.analyze,
                               lambda a, k: " (with includes)" if a[0].visible is not None else " (include-free)")
    engine.lint_text = counted("lint", engine.lint_text,
                               lambda a, k: " of an original" if k.get("parsed") is not None else " of a port")
    project_ports._decide = counted("plan", project_ports._decide)
    translate.Translator.run = counted("translator run", translate.Translator.run)
    files = lines = 0
    c0 = time.process_time()
    for f in project_ports.expand([args.tree]):
        try:
            src = source.SourceFile.read(f)
            files, lines = files + 1, lines + src.text.count("\n") + 1
            src.check_syntax()
            project_ports.make(project_ports.single(f, src), args.to.split(","), None, True)
        except KernelportError:
            pass
    total = time.process_time() - c0
    print(f"{args.code.resolve()}: translate --to {args.to}, each of {files} files of {args.tree} alone "
          f"({lines:,} lines): {total:.2f} s CPU")
    kinds: collections.Counter = collections.Counter()
    for (kind, _), n in count.items():
        kinds[kind] += n
    print(f"{'pass':34s} {'calls':>6s} {'per file':>8s} {'CPU s':>6s}")
    for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]):
        s = sum(v for (k, _), v in cpu.items() if k == kind)
        print(f"{kind:34s} {n:6d} {n / max(files, 1):8.2f} {s:6.2f}")
        for (k, who), m in sorted(count.items(), key=lambda kv: -kv[1]):
            if k == kind and m * 20 >= n:  # the askers of at least 5% of the kind's calls
                print(f"    {m:6d} {cpu[(k, who)]:6.2f} s  {who}")


if __name__ == "__main__":
    main()
