"""Every warp-width / lockstep finding lint reports over materialised held-out sets, for classifying by hand.

    python bench/lint_heldout_findings.py /work/heldout52 [/work/heldout53 ...] [--kernelport EXE] [--codes WS,SY]

Each project of a set (its manifest.toml, written by bench/realcorpus_build.py) is linted as a user runs it,
`kernelport lint -j 1 --format json --exit-zero PROJECT -I... -D...`, with the include dirs and defines its
build passes (bench/scoreboard.py's project_flags).  One line per finding of the selected codes:
`set  project  file:line:col  code  source line`.  The precision a hand count of these gives is lint's on
code it was never tuned to (issue 11).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scoreboard import load_projects, project_flags  # noqa: E402  (a sibling script)


def findings(exe: list[str], root: Path, flags: list[str]) -> list[dict]:
    r = subprocess.run(exe + ["lint", "-j", "1", "--format", "json", "--exit-zero", str(root), *flags],
                       capture_output=True, text=True, cwd=root)
    if r.returncode:
        sys.exit(f"{root}: lint exited {r.returncode}: {r.stderr[-2000:]}")
    return json.loads(r.stdout or "[]")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("sets", nargs="+", type=Path)
    ap.add_argument("--kernelport", default=None, help="the executable (default: this checkout's, by -m)")
    ap.add_argument("--codes", default="WS,SY", help="code prefixes kept (default WS,SY)")
    a = ap.parse_args()
    exe = [a.kernelport] if a.kernelport else [sys.executable, "-P", "-m", "kernelport"]
    keep = tuple(c.strip() for c in a.codes.split(",") if c.strip())
    total = 0
    for s in a.sets:
        for p in load_projects(str(s)):
            for f in findings(exe, p.root, project_flags(p)):
                if not f["code"].startswith(keep):
                    continue
                path = Path(f["path"])
                path = path if path.is_absolute() else p.root / path
                lines = path.read_text(errors="replace").splitlines()
                text = lines[f["line"] - 1].strip() if 0 < f["line"] <= len(lines) else ""
                rel = path.resolve().relative_to(p.root.resolve())
                print(f"{s.name}\t{p.name}\t{rel}:{f['line']}:{f['column']}\t{f['code']}\t{text}")
                total += 1
    print(f"# {total} findings ({', '.join(keep)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
