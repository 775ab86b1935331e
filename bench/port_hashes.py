"""A hash of every port and of everything translate says about it, to show a speed change kept both.

    python bench/port_hashes.py [--code CHECKOUT] [--to hip,metal] [--out FILE] [DIR_OR_FILE ...]

Each CUDA file under the inputs (as `kernelport translate DIR` finds them; default:
tests/realcorpus and examples) is translated alone, as `kernelport translate FILE --to B --stdout`,
once per backend, in one process (the CLI through typer's test runner, with `--code`'s kernelport:
e.g. a `git worktree add` of main).  One line per file and backend: the sha256 of the port (stdout),
of the diagnostics (stderr) and the exit status; then one digest of all lines.  Run it from the
same directory for both checkouts (ports name their sources relative to it) and compare the
digests, or `diff` the two --out files.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="*", type=Path)
    ap.add_argument("--code", type=Path, default=ROOT, help="the checkout whose kernelport runs (default: this one)")
    ap.add_argument("--to", default="hip,metal")
    ap.add_argument("--out", type=Path, help="write the per-file lines here")
    args = ap.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    from typer.testing import CliRunner
    import kernelport
    from kernelport.cli import app
    from kernelport.project_ports import expand
    inputs = args.inputs or [ROOT / "tests" / "realcorpus", ROOT / "examples"]
    files = expand([Path(p) for p in inputs])
    runner = CliRunner()
    lines = []
    for f in files:
        for backend in args.to.split(","):
            r = runner.invoke(app, ["translate", str(f), "--to", backend, "--stdout"])
            port = hashlib.sha256(r.stdout_bytes).hexdigest()[:16]
            said = hashlib.sha256(r.stderr_bytes).hexdigest()[:16]
            lines.append(f"{f} {backend} exit {r.exit_code} port {port} stderr {said}")
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text)
    print(f"{len(files)} files x {args.to}: digest {hashlib.sha256(text.encode()).hexdigest()[:16]} "
          f"(kernelport from {Path(kernelport.__file__).parent})")


if __name__ == "__main__":
    main()
