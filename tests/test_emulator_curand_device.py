"""The emulator's cuRAND model (emulator/frontend/curand_model.py) against cuRAND's draws recorded on an
NVIDIA H100 (bench/device/curand_reference_h100.txt, made by bench/device/curand_reference.cu: CUDA 13.0,
driver 580.159.04): each (seed, subsequence, offset) from a fresh state, eight draws of each kind.

curand() and the uniform draws are integer arithmetic and exact roundings: they must be equal.  The
float normals go through the device's `__sincosf`, whose error is absolute (2^-21.41 on [-pi, pi],
PTX's 2^-20.5 up to 100 pi): the GPU's value must lie within the emulator's own bound of its value,
also next to a zero of the sine where a relative bound would be far too tight (stop 50's device run:
3.6e-7 apart, the old bound 5e-8)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kernelport.emulator import run_kernel

REF = Path(__file__).resolve().parents[1] / "bench" / "device" / "curand_reference_h100.txt"
N = 8


def _cases():
    cases, cur = [], None
    for line in REF.read_text().splitlines():
        if line.startswith("case "):
            kv = dict(p.split("=") for p in line.split()[1:])
            cur = {"case": (int(kv["seed"]), int(kv["subsequence"]), int(kv["offset"]))}
            cases.append(cur)
        elif line.strip():
            name, *vals = line.split()
            cur[name] = vals
    return cases


SRC = r"""
#include <curand_kernel.h>
__global__ void draw(unsigned long long seed, unsigned long long sub, unsigned long long off,
                     unsigned int* u32, float* uf, float* nf, double* ud, double* nd) {
    curandState s;
    curand_init(seed, sub, off, &s);
    for (int i = 0; i < 8; ++i) u32[i] = curand(&s);
    curand_init(seed, sub, off, &s);
    for (int i = 0; i < 8; ++i) uf[i] = curand_uniform(&s);
    curand_init(seed, sub, off, &s);
    for (int i = 0; i < 8; ++i) nf[i] = curand_normal(&s);
    curand_init(seed, sub, off, &s);
    for (int i = 0; i < 8; ++i) ud[i] = curand_uniform_double(&s);
    curand_init(seed, sub, off, &s);
    for (int i = 0; i < 8; ++i) nd[i] = curand_normal_double(&s);
}
"""


@pytest.mark.parametrize("case", _cases(), ids=lambda c: "seed%d-sub%d-off%d" % c["case"])
def test_the_model_draws_what_an_h100_drew(case):
    seed, sub, off = case["case"]
    args = dict(seed=seed, sub=sub, off=off, u32=np.zeros(N, np.uint32), uf=np.zeros(N, np.float32),
                nf=np.zeros(N, np.float32), ud=np.zeros(N, np.float64), nd=np.zeros(N, np.float64))
    res = run_kernel(SRC, "draw", args=args, grid=(1, 1, 1), block=(1, 1, 1), wave=32)
    out, bounds = res.outputs, res.bounds
    assert [int(x) for x in out["u32"]] == [int(x) for x in case["curand"]]
    assert np.array_equal(out["uf"], np.array(case["curand_uniform"], np.float32))
    assert np.array_equal(out["ud"], np.array(case["curand_uniform_double"], np.float64))
    gpu = np.array(case["curand_normal"], np.float64)
    gap = np.abs(out["nf"].astype(np.float64) - gpu)
    # the GPU's value within the emulator's bound (plus the recorded text's own rounding, 9 digits)
    assert (gap <= bounds["nf"] + 1e-9 * np.abs(gpu)).all(), (gap, bounds["nf"])
    gpu_d = np.array(case["curand_normal_double"], np.float64)
    assert (np.abs(out["nd"] - gpu_d) <= bounds["nd"] + 1e-16 * np.abs(gpu_d)).all()
