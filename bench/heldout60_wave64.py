#!/usr/bin/env python3
"""Held-out set 60's HIP ports with warp shuffles, run on the emulator at wave 64 against the original at 32
(as bench/heldout40_wave64.txt did): bitonic-sort-cuda's v3 and v5 kernels (`__shfl_xor_sync` below WARP_SIZE).

    python bench/heldout60_wave64.py [/work/heldout60]     # -> stdout (bench/heldout60_wave64.txt)

The emulator runs one file without its includes and namespaces: each harness is the unit with config.cuh's
two macros and util.cuh's device helpers pasted in front, `util::` and the anonymous namespace dropped, the
host code (namespace vN) cut.  GPUPrefixSums, the set's other warp-heavy file, is refused by translate (KP219).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

from kernelport.emulator.run import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

CASES = {  # unit -> [(kernel, scalar args, grid, block, dynamic shared bytes)]
    "v3": [("kernel_intra_block_sort", {"n": 1024, "max_size": 256}, 4, 256, 1024),
           ("kernel_intra_block_refine", {"n": 1024, "size": 512, "max_size": 256}, 4, 256, 1024)],
    "v5": [("kernel_intra_block_sort", {"chunk_size": 512}, 2, 256, 2048),
           ("kernel_intra_block_refine", {"size": 1024, "chunk_size": 512}, 2, 256, 2048)],
}


def harness(root: Path, v: str) -> str:
    util = (root / "include/util.cuh").read_text()
    dev = util[util.index("namespace util {") + len("namespace util {"):]
    dev = dev[:dev.index("__host__")]
    src = re.sub(r'#include "[^"]+"\n', "", (root / f"src/bitonic_sort_{v}.cu").read_text())
    src = src[:src.index(f"namespace {v} {{")].replace("namespace {", "", 1)
    k = src.rindex("}")  # the anonymous namespace's close
    return ("#define WARP_SIZE 32\n#define BLOCK_SIZE 256\n" + dev + src[:k] + src[k + 1:]).replace("util::", "")


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/heldout60") / "bitonic-georrous6"
    rng, bad = np.random.default_rng(7), 0
    for v, runs in CASES.items():
        src = harness(root, v)
        port, text = translate(SourceFile.from_text(src, f"bitonic_sort_{v}.cu"), "hip")
        assert port.ok, [d.format() for d in port.diagnostics]
        for kernel, scalars, grid, block, shared in runs:
            data = rng.integers(0, 1000, 1024).astype(np.int32)
            run = dict(grid=(grid, 1, 1), block=(block, 1, 1), shared_bytes=shared)
            want = run_kernel(src, kernel, args={"data": data.copy(), **scalars}, wave=32, **run).outputs["data"]
            for wave in (64, 32):
                got = run_kernel(text, kernel, args={"data": data.copy(), **scalars}, wave=wave, backend="hip", **run)
                same = np.array_equal(got.outputs["data"], want)
                bad += not same or bool(got.races)
                print(f"bitonic_sort_{v}.cu {kernel} (grid {grid}, block {block}): HIP port at wave {wave} "
                      f"{'stores what the original stores at 32' if same else 'DIFFERS from the original at 32'}"
                      f"{'; races ' + str(got.races) if got.races else ', no race'} (the kernel moved "
                      f"{int((want != data).sum())} of 1024 values)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
