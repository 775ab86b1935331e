"""How deeply real CUDA code nests: the syntax-tree depth (kernelport/depth.py's measure) of every
.cu/.cuh file of the public projects mirrored as bare git directories, and of local files.

    python bench/nesting_depth.py [--git DIR]... [FILE]...

Prints the depth distribution and the deepest files: the evidence for depth.MAX_DEPTH."""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kernelport.depth import too_deep  # noqa: E402
from kernelport.source import _mask_extensions, _parser  # noqa: E402


def depth(data: bytes) -> int:
    hit = too_deep(_parser().parse(_mask_extensions(data)), 0)
    return hit[0] if hit else 0


def git_files(repo: str):
    names = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD"], capture_output=True,
                           text=True, check=True).stdout.split("\n")
    names = [n for n in names if n.endswith((".cu", ".cuh"))]
    p = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for n in names:
        p.stdin.write(f"HEAD:{n}\n".encode())
        p.stdin.flush()
        head = p.stdout.readline().split()
        if len(head) < 3 or head[1] != b"blob":
            continue
        data = p.stdout.read(int(head[2]))
        p.stdout.read(1)
        yield f"{Path(repo).parent.name}:{n}", data
    p.stdin.close()
    p.wait()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--git", action="append", default=[])
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    rows = []
    for repo in a.git:
        rows += [(depth(data), name) for name, data in git_files(repo)]
    rows += [(depth(Path(f).read_bytes()), f) for f in a.files]
    rows.sort()
    if not rows:
        return 1
    ds = [d for d, _ in rows]
    print(f"{len(rows)} files; depth median {ds[len(ds) // 2]}, 99th percentile {ds[int(len(ds) * 0.99)]}, "
          f"max {ds[-1]}")
    for d, n in rows[-10:]:
        print(f"{d:6}  {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
