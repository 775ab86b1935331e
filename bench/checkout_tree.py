"""What the bench scripts that run a checkout's translate over a tree share: their command line (a tree,
default tests/realcorpus; `--code CHECKOUT`, whose kernelport is put first on sys.path, e.g. a `git
worktree add` of main; `--to`) and the tree's translation, each file alone in this process
(bench_translate.py --tree's loop) or as the one command `translate TREE --to ... --stdout`.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def arguments(doc: str, to: str | None = "hip", flags: tuple[str, ...] = ()) -> argparse.Namespace:
    """The script's arguments (its `doc` the help text; `--to` defaulting to `to` unless None; each of
    `flags` a store_true option), with `--code`'s kernelport first on sys.path."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", nargs="?", type=Path, default=ROOT / "tests" / "realcorpus")
    ap.add_argument("--code", type=Path, default=ROOT)
    if to is not None:
        ap.add_argument("--to", default=to)
    for flag in flags:
        ap.add_argument(flag, action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    return args


def drive(tree: Path, to: str, alone: bool) -> None:
    """Translate `tree` with the kernelport on sys.path to `to` (comma-separated backends): each file
    alone in this process (bench_translate.py --tree's loop; a file kernelport refuses is passed over),
    or the one command `translate TREE --to ... --stdout`."""
    from kernelport import source
    if alone:
        from kernelport.errors import KernelportError
        from kernelport.project_ports import expand, make, single
        for f in expand([tree]):
            try:
                src = source.SourceFile.read(f)
                src.check_syntax()
                make(single(f, src), to.split(","), None, True)
            except KernelportError:
                pass
    else:
        from typer.testing import CliRunner
        from kernelport.cli import app
        CliRunner().invoke(app, ["translate", str(tree), "--to", to, "--stdout"])
