"""Is this code's lint output byte-identical to another checkout's?  A speed change must not move
a finding or a fix: `kernelport lint -j 1 --format json` over each directory, with this code and
with the checkout's, and the SHA-256 of each output.

    python bench/lint_json_same.py CHECKOUT [DIR ...] [--format full]

DIR defaults to tests/realcorpus, every tests/labelled* directory and examples.  CHECKOUT: a
`git worktree add` of the code to compare with (its `kernelport/` is put first on PYTHONPATH).
`--format`: another format (full: the report a pipe gets); stderr (the summary line) is compared with
stdout.  Exit 1 when any output differs.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def lint_output(code: Path, d: str, fmt: str) -> bytes:
    env = dict(os.environ, PYTHONPATH=str(code))
    r = subprocess.run([sys.executable, "-P", "-m", "kernelport", "lint", "-j", "1", "--exit-zero", "--format",
                           fmt, d], env=env, capture_output=True, cwd=HERE)
    return r.stdout + b"\0" + r.stderr


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--format", default="json")
    args = ap.parse_args()
    dirs = args.dirs or (["tests/realcorpus"] + sorted(str(p.relative_to(HERE)) for p in HERE.glob("tests/labelled*")
                                                      if p.is_dir()) + ["examples"])
    differ = 0
    for d in dirs:
        outs = [lint_output(code, d, args.format) for code in (args.checkout.resolve(), HERE)]
        same = outs[0] == outs[1]
        differ += not same
        print(f"{d:28} {hashlib.sha256(outs[0]).hexdigest()[:16]} "
              f"{hashlib.sha256(outs[1]).hexdigest()[:16]} {len(outs[1]):>9} bytes  {'same' if same else 'DIFFERENT'}")
    print("all byte-identical" if not differ else f"{differ} outputs differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
