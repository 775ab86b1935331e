"""CPU seconds of lint and translate on generated projects whose size is in their headers, this
code against another checkout's, alternated in one run: is the cost linear in the number of files?

    python bench/bench_project_scale.py CHECKOUT [--this DIR] [--chains 50,200,800] [--fan 200] [--rounds 2]

- chain N: one kernel file that includes h0.cuh, which includes h1.cuh, ... h{N-1}.cuh (each
  header a macro and a device function; the last defines WARP_SIZE, which the kernel's shuffle
  ladder uses: lint must see through the whole chain to find it);
- fan S: S kernel files that each include common.cuh, which includes 20 more headers.

CHECKOUT: a tree holding the code to compare with (`git archive BASE kernelport templates | tar -x
-C DIR`); its directory is put first on PYTHONPATH (`--this`: a tree of the code measured as "this",
the same way; default this checkout).  Each command runs as a child process and its
user+sys time is read from RUSAGE_CHILDREN; the best of the rounds is printed with every round,
and whether the two outputs are byte-identical (translate: the ports written, their generated-file
header's tool version aside).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

KERNEL = """#include "{first}"
__global__ void reduce_k(const float* in, float* out, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v + f0(0));
}}
"""
HEADER = """#pragma once
{include}#define V{i} {i}
__device__ inline int f{i}(int x) {{ return x + V{i}; }}
"""


def chain(root: Path, n: int) -> Path:
    d = root / f"chain{n}"
    d.mkdir()
    for i in range(n):
        inc = f'#include "h{i + 1}.cuh"\n' if i + 1 < n else "#define WARP_SIZE 32\n"
        (d / f"h{i}.cuh").write_text(HEADER.format(include=inc, i=i))
    (d / "main.cu").write_text(KERNEL.format(first="h0.cuh"))
    return d


def fan(root: Path, sources: int, headers: int = 20) -> Path:
    d = root / f"fan{sources}"
    d.mkdir()
    for i in range(headers):
        (d / f"h{i}.cuh").write_text(HEADER.format(include="", i=i + 1))
    (d / "common.cuh").write_text("#pragma once\n#define WARP_SIZE 32\n" +
                                  "".join(f'#include "h{i}.cuh"\n' for i in range(headers)) +
                                  HEADER.format(include="", i=0).replace("#pragma once\n", ""))
    for s in range(sources):
        (d / f"s{s}.cu").write_text(KERNEL.format(first="common.cuh").replace("reduce_k", f"reduce_{s}"))
    return d


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(code: Path, args: list[str], cwd: Path) -> tuple[float, bytes]:
    env = dict(os.environ, PYTHONPATH=str(code))
    c0 = children_cpu()
    p = subprocess.run([sys.executable, "-P", "-m", "kernelport", *args], env=env, capture_output=True, cwd=cwd)
    return children_cpu() - c0, p.stdout + p.stderr[-2000:]


def ports(out: Path) -> bytes:
    """The ports written, without the generated-file header's version and checksum lines."""
    blob = []
    for p in sorted(out.rglob("*")):
        if p.is_file():
            lines = [ln for ln in p.read_text(errors="replace").splitlines()
                     if "kernelport" not in ln.lower() or "#include" in ln]
            blob.append(p.relative_to(out).as_posix() + "\n" + "\n".join(lines))
    return "\n".join(blob).encode()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("--this", type=Path, default=HERE)
    ap.add_argument("--chains", default="50,200,800")
    ap.add_argument("--fan", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--only", choices=("lint", "translate"), default=None)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="kp_scale_"))
    try:
        projects = [chain(root, int(n)) for n in args.chains.split(",") if n] + ([fan(root, args.fan)] if args.fan else [])
        codes = (("checkout", args.checkout.resolve()), ("this", args.this.resolve()))
        print(f"load average {os.getloadavg()[0]:.1f}; CPU seconds (user+sys), best of {args.rounds}")
        for proj in projects:
            files = len(list(proj.iterdir()))
            for cmd in ("lint", "translate"):
                if args.only and cmd != args.only:
                    continue
                cpus: dict[str, list[float]] = {"checkout": [], "this": []}
                outs: dict[str, bytes] = {}
                for _ in range(args.rounds):
                    for name, code in codes:
                        out = root / f"out_{name}"
                        shutil.rmtree(out, ignore_errors=True)
                        argv = (["lint", "-j", "1", "--format", "json", "."] if cmd == "lint" else
                                ["translate", ".", "--to", "hip", "-o", str(out), "--allow-unported"])
                        cpu, text = run(code, argv, proj)
                        cpus[name].append(cpu)
                        outs[name] = text if cmd == "lint" else ports(out)
                same = "identical" if outs["checkout"] == outs["this"] else "DIFFER"
                print(f"{proj.name:>9} ({files:4d} files) {cmd:9s} " +
                      "  ".join(f"{name} {min(c):7.2f} s ({', '.join(f'{x:.2f}' for x in c)})" for name, c in cpus.items()) +
                      f"  outputs {same}", flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
