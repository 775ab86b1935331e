"""The wave-64 fold shapes stop 50 decided on the emulator's word, their CUDA originals on a real NVIDIA GPU.

    PYTHONPATH=devdeps:. python3 -P bench/device/wave64_shapes_device.py     # on the device machine (CuPy)

tests/test_wide_steps.py and tests/test_select_folds.py prove each HIP port at wave 64 equal to its original
at 32 ON THE EMULATOR: a ladder stepped from a block count, a select-form (argmax) fold from 16 and its ternary
form, a full xor butterfly combined through shared memory, a scan bounded by the block.  Here each original is
compiled by NVRTC (CuPy) and run on the GPU with the tests' inputs (x[40] the maximum, in lane 40, which a
64-lane fold reaches and CUDA's warp 0 does not) and with random inputs; its outputs are compared exactly with
the emulator's run of the original at 32 and with the emulator's run of the HIP port at 64 (for the shapes the
code bounds by its own width, `warpSize / 2`, the port is wave-wide by design and may differ at 64: shown, not
counted).  GPU = emulator(32)
closes the chain GPU = original = port at 64 for these shapes (no AMD GPU here: the port at 64 stays the
emulator's)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import cupy as cp  # noqa: E402
import numpy as np  # noqa: E402

import test_select_folds as sf  # noqa: E402
import test_wide_steps as ws  # noqa: E402
from kernelport.emulator import run_kernel  # noqa: E402
from kernelport.source import SourceFile  # noqa: E402
from kernelport.translate import translate  # noqa: E402

GRID, BLOCK, N = 4, 256, 1024
CASES = {**{f"wide_steps/{k}": v for k, v in {**ws.KEPT, **ws.WAVE}.items()},
         "select_folds/if_select": sf.SELECT, "select_folds/ternary": sf.TERNARY,
         "select_folds/butterfly": sf.BUTTERFLY}


def inputs(seed: int) -> np.ndarray:
    if seed == 0:
        x = -np.arange(N, dtype=np.float32)
        x[40] = 1e4
        return x
    return np.random.default_rng(seed).permutation(N).astype(np.float32)  # distinct: one argmax


def gpu_run(text: str, x: np.ndarray, n_out: int) -> np.ndarray:
    fn = cp.RawModule(code=text, options=("-std=c++17",), name_expressions=["top1"]).get_function("top1")
    dx, dout = cp.asarray(x), cp.zeros(n_out, cp.int32)
    fn((GRID,), (BLOCK,), (dx, dout, np.int32(N)))
    cp.cuda.Device().synchronize()
    return cp.asnumpy(dout)


def main() -> int:
    print(f"device: {cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}; grid {GRID} x block {BLOCK}")
    print("| case | seed | GPU = emulator(original, 32) | GPU = emulator(HIP port, 64) |")
    print("|---|---|---|---|")
    bad = 0
    for name, text in CASES.items():
        port, out = translate(SourceFile.from_text(text, "t.cu"), "hip")
        n_out = N if "scan_bounded_by_block" in name else GRID
        for seed in (0, 1, 2):
            x = inputs(seed)
            args = {"x": x, "out": np.zeros(n_out, np.int32), "n": N}
            gpu = gpu_run(text, x, n_out)
            e32 = run_kernel(text, "top1", args=args, grid=(GRID, 1, 1), block=(BLOCK, 1, 1), wave=32).outputs["out"]
            cols = [np.array_equal(gpu, e32)]
            if port.ok:
                p64 = run_kernel(out, "top1", args=args, grid=(GRID, 1, 1), block=(BLOCK, 1, 1), wave=64,
                                 backend="hip").outputs["out"]
                cols.append(np.array_equal(gpu, p64))
            wave_wide = name.startswith("wide_steps/") and name.split("/")[1] in ws.WAVE
            bad += not cols[0] or (not wave_wide and not all(cols))
            print(f"| {name} | {seed} | {'yes' if cols[0] else 'NO ' + str(gpu[:8]) + ' vs ' + str(e32[:8])} | "
                  + ("not written: " + ",".join(d.code for d in port.diagnostics) if not port.ok
                     else ("yes" if cols[1] else "no: wave-wide by the code's own width (warpSize or < 32),"
                           " the port folds the wave at 64, as written" if wave_wide else "NO")) + " |")
    print(f"{bad} rows differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
