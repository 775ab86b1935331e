#!/usr/bin/env python3
"""Stop 49 (h/hip49): count-guarded ladders, each shape's HIP port run at wave 64 against the original at 32.

    PYTHONPATH=. python bench/wave64_guards49.py [--hipcc]

For every shape of tests/test_count_guards.py (WAVE: translate keeps the wave; REFUSED: look-alikes that must stay
KP219; KEPT32: a count-guarded fold of a count that is not the block's, handed on by each warp's leader) it prints translate's verdict with this checkout's kernelport and, on the emulator, the original at wave 32
beside (a) the port translate writes, at 64, and (b) the wave port written with fold_levels' evidence switched off
(what a guard-blind exception would write), at 64: blocks 32, 64, 128, 256 (res of both blocks; 'same' or the first
difference).  --hipcc compiles each written port with `HIP_PLATFORM=amd hipcc -c --offload-arch=gfx90a
--offload-arch=gfx1030`.  Run it with main's kernelport on the path for the 'before' column.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]

import numpy as np  # noqa: E402

from kernelport import fold_levels  # noqa: E402
from kernelport.emulator import run_kernel  # noqa: E402
from kernelport.source import SourceFile  # noqa: E402
from kernelport.translate import translate  # noqa: E402
from test_count_guards import CONST_COUNT, PER_WARP, REFUSED, WAVE  # noqa: E402

BLOCKS = (32, 64, 128, 256)


def _res(src: str, block: int, wave: int, backend=None):
    ints = "int*" in src
    x = np.random.default_rng(block).integers(-9, 9, 2 * block).astype(np.int32 if ints else np.float32)
    res = np.zeros(2 * block, x.dtype)
    more = {"n": 16} if "unsigned n)" in src else {}  # (a count that is not the block's: 16)
    try:
        return run_kernel(src, "rowsum", args=dict(x=x, res=res, **more), grid=(2,), block=(block,), wave=wave,
                          backend=backend).outputs["res"].tolist()
    except Exception as e:  # (an emulator error is a result here: a mask naming lanes the block lacks)
        return f"error: {str(e).splitlines()[0][:90]}"


def _compare(name: str, src: str, port: str) -> str:
    out = []
    for b in BLOCKS:
        want, got = _res(src, b, 32), _res(port, b, 64, "hip")
        if isinstance(want, str):
            out.append(f"{b}: original {want}")
        elif got == want:
            out.append(f"{b}: same")
        elif isinstance(got, str):
            out.append(f"{b}: port {got}")
        else:
            i = next(i for i, (p, q) in enumerate(zip(got, want)) if p != q)
            out.append(f"{b}: res[{i}] {got[i]} (CUDA {want[i]})")
    return "; ".join(out)


def _hipcc(text: str) -> str:
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "k.hip"
        f.write_text(text)
        r = subprocess.run(["hipcc", "-c", "--offload-arch=gfx90a", "--offload-arch=gfx1030", str(f), "-o",
                            str(Path(d) / "k.o")], capture_output=True, text=True, env={**os.environ,
                                                                                      "HIP_PLATFORM": "amd"})
        return "hipcc gfx90a+gfx1030 ok" if r.returncode == 0 else "hipcc FAILED: " + r.stderr.strip()[:200]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hipcc", action="store_true")
    args = ap.parse_args()
    kept = {"per_warp_leaders_param_16": PER_WARP, "per_warp_leaders_constant_16": CONST_COUNT}
    for group, shapes in (("WAVE", WAVE), ("REFUSED", REFUSED), ("KEPT32", kept)):
        for name, src in shapes.items():
            p, text = translate(SourceFile.from_text(src, "k.cu"), "hip")
            verdict = "written" if p.ok else "refused " + ",".join(d.code for d in p.diagnostics)
            print(f"{group:8} {name:30} translate: {verdict}")
            if p.ok:
                print(f"{'':8} {'':30} port at 64 vs CUDA at 32: {_compare(name, src, text)}")
                if args.hipcc:
                    print(f"{'':8} {'':30} {_hipcc(text)}")
            saved = fold_levels.width_dependent_read
            fold_levels.width_dependent_read = lambda *a, **k: None  # the guard-blind wave port
            try:
                q, blind = translate(SourceFile.from_text(src, "k.cu"), "hip")
            finally:
                fold_levels.width_dependent_read = saved
            if q.ok:
                print(f"{'':8} {'':30} wave port (fold_levels off) at 64: {_compare(name, src, blind)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
