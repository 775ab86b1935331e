"""Check the HIP table's thrust_algorithm_headers (kernelport/thrust_headers.py) against rocThrust: for each header,
hipcc -fsyntax-only of `#include <thrust/H>` + `using thrust::NAME;` for each name the table gives it (a using-
declaration fails where the header does not declare the name).  Needs rocThrust's headers (bench/rocm_libs.py).

    python bench/thrust_headers_check.py [--include ~/.cache/kernelport/rocm-libs/rocm-5.3.3/include] > OUT
"""
from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path

from kernelport import backends


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--include", default=os.path.expanduser("~/.cache/kernelport/rocm-libs/rocm-5.3.3/include"))
    ap.add_argument("--arch", default="gfx90a")
    args = ap.parse_args()
    by_header: dict[str, list[str]] = defaultdict(list)
    for name, header in backends.get("hip").thrust_algorithm_headers.items():
        by_header[header].append(name)
    env = {**os.environ, "HIP_PLATFORM": "amd"}
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for header, names in sorted(by_header.items()):
            f = Path(tmp) / "t.hip"
            f.write_text("#include <hip/hip_runtime.h>\n" + f"#include <{header}>\n" +
                         "".join(f"using thrust::{n};\n" for n in names))
            r = subprocess.run(["hipcc", "-std=c++17", f"--offload-arch={args.arch}", "-fsyntax-only", "-I", args.include,
                                str(f)], capture_output=True, text=True, env=env)
            errors = [line for line in r.stderr.splitlines() if "error:" in line]
            bad += r.returncode != 0
            print(("ok  " if r.returncode == 0 else "BAD ") + f"<{header}>: {' '.join(names)}" +
                  ("" if r.returncode == 0 else f"\n    {errors[:2]}"), flush=True)
    print(f"{len(by_header) - bad} of {len(by_header)} headers declare every name the table gives them")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
