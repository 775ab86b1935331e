"""cuComplex.h's float complex in the emulator (kernelport/emulator/frontend/cucomplex_model.py): an original that
names cuFloatComplex, cuCmulf, cuCdivf, cuCabsf ... runs (before: "cannot lower for the emulator"), so `verify`
compares a Metal port (its prologue's inline functions, tests/test_metal_cucomplex60.py) with it.  Checked: the
original and its Metal port give the same bits; cuCdivf's scaling keeps a quotient of huge operands finite
(the unscaled formula overflows to inf / NaN); cuCabsf's overflow case.  Look-alike: a file that defines its
own cuCmulf runs its own (the model is not added)."""
from __future__ import annotations

import numpy as np

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

KERNEL = r"""
#include <cuComplex.h>
OWN
__global__ void cm(int n, const cuFloatComplex *a, const cuFloatComplex *b, cuFloatComplex *o, float *m) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        o[2 * i] = cuCdivf(cuCmulf(a[i], cuConjf(b[i])), b[i]);
        o[2 * i + 1] = cuCfmaf(a[i], b[i], cuCsubf(a[i], make_cuFloatComplex(cuCrealf(b[i]), 1.0f)));
        m[i] = cuCabsf(a[i]);
    }
}
"""


def _inputs():
    rng = np.random.default_rng(3)
    a = rng.uniform(-4, 4, (64, 2)).astype(np.float32)
    b = rng.uniform(-4, 4, (64, 2)).astype(np.float32)
    a[0], b[0] = (1e38, 1e38), (1e38, -1e38)  # cuCdivf(a, b) = i: finite only scaled (1e38^2 overflows)
    a[1], b[1] = (0.0, 0.0), (1e-30, 1e-30)   # cuCabsf of 0 (v == 0); a tiny divisor
    a[2] = (np.inf, 1.0)                        # cuCabsf's overflow case: v + w
    return dict(n=64, a=a.ravel(), b=b.ravel(), o=np.zeros(256, np.float32), m=np.zeros(64, np.float32))


def _run(source: str, backend: str | None = None):
    return run_kernel(source, "cm", args=_inputs(), grid=(1, 1, 1), block=(64, 1, 1), backend=backend,
                      contract=False).outputs


def test_the_original_runs_and_its_metal_port_gives_the_same_bits():
    src = KERNEL.replace("OWN", "")
    orig = _run(src)
    port = translate(SourceFile.from_text(src, "cm.cu"), "metal")[1]
    metal = _run(port, "metal")
    for k in ("o", "m"):
        assert orig[k].tobytes() == metal[k].tobytes(), (k, orig[k][:8], metal[k][:8])
    o = orig["o"].reshape(-1, 2, 2)
    assert np.isfinite(o[3:, 0]).all() and orig["m"][2] == np.inf and orig["m"][1] == 0.0
    a, b = _inputs()["a"].reshape(-1, 2)[3:], _inputs()["b"].reshape(-1, 2)[3:]
    want = ((a[:, 0] + 1j * a[:, 1]) * (b[:, 0] - 1j * b[:, 1])) / (b[:, 0] + 1j * b[:, 1])
    assert np.allclose(o[3:, 0, 0] + 1j * o[3:, 0, 1], want, rtol=1e-5, atol=1e-5)
    for backend, text in ((None, src), ("metal", port)):  # 1e38(1 + i) / 1e38(1 - i) = i only scaled
        direct = _run(text.replace("cuCdivf(cuCmulf(a[i], cuConjf(b[i])), b[i])", "cuCdivf(a[i], b[i])"), backend)
        assert tuple(direct["o"][:2]) == (0.0, 1.0), (backend, direct["o"][:2])


def test_a_file_that_defines_cuCmulf_runs_its_own():
    own = ("__device__ cuFloatComplex cuCmulf(cuFloatComplex x, cuFloatComplex y) "
           "{ cuFloatComplex r; r.x = x.x * y.x; r.y = 0.0f; return r; }")
    src = KERNEL.replace("OWN", "typedef float2 cuFloatComplex;\n" + own).replace(
        "o[2 * i] = cuCdivf(cuCmulf(a[i], cuConjf(b[i])), b[i]);", "o[2 * i] = cuCmulf(a[i], b[i]);").replace(
        "o[2 * i + 1] = cuCfmaf(a[i], b[i], cuCsubf(a[i], make_cuFloatComplex(cuCrealf(b[i]), 1.0f)));", "").replace(
        "m[i] = cuCabsf(a[i]);", "m[i] = 1.0f;")
    out = _run(src)
    inputs = _inputs()
    o = out["o"].reshape(-1, 2, 2)[:, 0]
    assert (o[3:, 1] == 0.0).all() and np.array_equal(o[3:, 0], inputs["a"][6::2] * inputs["b"][6::2])
