"""cProfile of translate or lint over a tree, with the analyses in the profile.

    python -P bench/profile_work.py translate tests/realcorpus OUT.prof [--to hip]
    python -P bench/profile_work.py lint tests/realcorpus OUT.prof
    python -P bench/profile_work.py translate-command tests/realcorpus OUT.prof [--to hip]

`python -m cProfile` profiles the main thread only, and kernelport runs its analyses on the thread
of `depth.on_big_stack` (a stack for deep trees): such a profile shows them as `lock.acquire`.
Here the profiler is enabled inside one big-stack call, where every nested on_big_stack runs on
the same thread.  translate: each CUDA file alone, as `translate FILE --to B --stdout` makes it
(bench_translate.py's tree mode); translate-command: the one command `translate TREE --to B --stdout`
(bench_translate.py --command); lint: `lint -j 1 --format json TREE`.  Read the profile with
`python -c "import pstats; pstats.Stats('OUT.prof').sort_stats('cumulative').print_stats(60)"`.
A profile inflates Python-heavy parts: compare its shares, and time a change with the bench scripts.
"""
from __future__ import annotations

import argparse
import cProfile
import sys
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("translate", "translate-command", "lint"))
    ap.add_argument("tree", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--to", default="hip")
    args = ap.parse_args()
    from kernelport.depth import on_big_stack
    from kernelport.errors import KernelportError
    from kernelport.project_ports import expand, make, single
    from kernelport.source import SourceFile
    import kernelport.lint.engine  # noqa: F401 - imported before the profile, as a long run has them
    import kernelport.templates  # noqa: F401

    def translate() -> None:
        for f in expand([args.tree]):
            try:
                src = SourceFile.read(f)
                src.check_syntax()
                make(single(f, src), args.to.split(","), None, True)
            except KernelportError:
                pass

    def lint() -> None:
        from typer.testing import CliRunner
        from kernelport.cli import app
        CliRunner().invoke(app, ["lint", "-j", "1", "--exit-zero", "--format", "json", str(args.tree)])

    def translate_command() -> None:
        from typer.testing import CliRunner
        from kernelport.cli import app
        CliRunner().invoke(app, ["translate", str(args.tree), "--to", args.to, "--stdout"])

    def profiled() -> None:
        pr = cProfile.Profile(time.process_time)  # CPU seconds: the default clock is wall time, which the load moves
        c0 = time.process_time()
        pr.enable()
        {"translate": translate, "translate-command": translate_command, "lint": lint}[args.command]()
        pr.disable()
        print(f"{args.command} of {args.tree}: {time.process_time() - c0:.1f} s CPU under the profiler; "
              f"profile in {args.out}", file=sys.stderr)
        pr.dump_stats(str(args.out))
    on_big_stack(profiled)


if __name__ == "__main__":
    main()
