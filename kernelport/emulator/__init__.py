"""SIMT emulator on numpy: runs a (lowered) CUDA/HIP/Metal kernel for a whole grid on the CPU.

    from kernelport.emulator import run_kernel, EmulatorError
    res = run_kernel(src, "block_sum", args={"x": x, "out": out, "n": n}, grid=(g, 1, 1),
                     block=(256, 1, 1), wave=64, schedule="thread")

Modules: `frontend` (kernel text -> pycparser's C AST), `ctype` (C types and conversions), `ops`
(C arithmetic with error bounds), `memory` (buffers, pointers, atomics, race detector), `warp`
(collectives), `intrinsics` (concept implementations), `lanes` (groups of lanes and frames),
`compiler` with `statements`, `expressions` and `calls` (AST -> closures), `compaction` (sparse
branches on few lanes), `schedule` (block / warp / thread schedules), `run` (run_kernel).
"""
from .errors import BudgetExceeded, Diagnostic, EmulatorError, HeapExhausted, KernelFault, Race, TimedOut
from .run import SCHEDULES, RunResult, run_kernel

__all__ = ["run_kernel", "EmulatorError", "KernelFault", "BudgetExceeded", "TimedOut", "HeapExhausted", "RunResult", "Diagnostic", "Race", "SCHEDULES"]
