"""Metal ports of chosen heldout files, main vs a branch, in one process per checkout (bench/port_hashes.py's
way, with each file's project -I/-D from its set's manifest):

    python bench/metal58b_heldout_ports.py --code CHECKOUT --out FILE LIST

LIST: lines `set<TAB>status<TAB>path<TAB>flags` (flags: `-I dir -D x ...`).  One line per file: exit status,
the sha256 of the port and of the diagnostics, and the first error line; `diff` the two --out files."""
from __future__ import annotations

import argparse
import hashlib
import shlex
import sys
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("list", type=Path)
    ap.add_argument("--code", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    from typer.testing import CliRunner
    from kernelport.cli import app
    runner, lines = CliRunner(), []
    for row in args.list.read_text().splitlines():
        _, _, path, flags = row.split("\t")
        r = runner.invoke(app, ["translate", path, "--to", "metal", "--stdout", *shlex.split(flags)])
        err = next((ln for ln in r.stderr.splitlines() if "error:" in ln), "")
        lines.append(f"{path} exit {r.exit_code} port {hashlib.sha256(r.stdout_bytes).hexdigest()[:16]} "
                     f"stderr {hashlib.sha256(r.stderr_bytes).hexdigest()[:16]} | {err[:300]}")
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
