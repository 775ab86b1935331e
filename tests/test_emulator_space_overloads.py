"""Overloads that differ only in a Metal address space are one definition to the emulator (flat
memory).  The Metal port's memcpy polyfill calls `kp_bytes(dst)`, defined once per space (`thread`,
`device`, `threadgroup`): verify failed shfl_scan's Metal port ("cannot choose the definition of
kp_bytes") on a device run of bench/oracle_corpus.py, a false failure of a right port."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel
from conftest import metal_port

CODE = """\
__global__ void k(const int *in, int *out) {
    __shared__ int tile[64];
    int mine[2];
    memcpy(mine, in + 2 * threadIdx.x, 2 * sizeof(int));
    memcpy(&tile[2 * threadIdx.x], mine, sizeof(mine));
    __syncthreads();
    int back[2];
    memcpy(back, &tile[2 * (31 - threadIdx.x)], sizeof(back));
    memcpy(out + 2 * threadIdx.x, back, sizeof(back));
}
"""


def _run(source: str, backend: str | None) -> np.ndarray:
    args = dict(**{"in": np.arange(64, dtype=np.int32)}, out=np.zeros(64, np.int32))
    return run_kernel(source, "k", args=args, grid=(1, 1, 1), block=(32, 1, 1), backend=backend).outputs["out"]


def test_the_metal_memcpy_polyfill_runs_through_thread_device_and_threadgroup_pointers():
    port, text = metal_port(CODE)
    assert port.ok, [d.format() for d in port.diagnostics]
    assert text.count("kp_bytes(") >= 3  # one overload per address space, as the port writes them
    # (the CUDA original runs C's memcpy of the emulator: test_emulator_class_data.py)
    want = [v for t in range(32) for v in (2 * (31 - t), 2 * (31 - t) + 1)]
    assert _run(text, "metal").tolist() == want
