"""Lines per second of `kernelport translate --to hip`, beside a bare tree-sitter parse, by file size.

    python bench/bench_translate.py [--sizes 1000,6800,13600] [--to hip]

One generated file per size (bench_lint.py's corpus: reductions, scans, tiles, block reductions,
host launches, templates): translate must stay linear in the file's size.  CPU seconds are the
figure to read on a loaded machine.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lint import bare_parse_cpu, generate  # noqa: E402
from kernelport.source import SourceFile  # noqa: E402
from kernelport.translate import port_file  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,6800,13600")
    ap.add_argument("--to", default="hip")
    args = ap.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as d:
        for size in (int(x) for x in args.sizes.split(",") if x):
            root = Path(d) / f"t{size}"
            root.mkdir()
            total = generate(root, size, 1)
            f = next(root.iterdir())
            parse = bare_parse_cpu([f])
            w0, c0 = time.perf_counter(), time.process_time()
            port, text = port_file(SourceFile.read(f), args.to, root, allow_unported=True)
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            print(f"translate --to {args.to}, {total:>7,} lines: {cpu:6.2f} s CPU ({wall:6.2f} s wall) = "
                  f"{total / cpu:>7,.0f} lines per CPU-s; bare parse {parse:.3f} s: translate/parse "
                  f"{cpu / max(parse, 1e-9):.0f}x; {len(port.notes)} rewrites")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
