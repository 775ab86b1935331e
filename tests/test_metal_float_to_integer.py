"""C's float-to-integer roundings (`lrintf`, `llrintf`: to nearest even; `lroundf`, `llroundf`: half
away from zero) on Metal: the float_math table defines each in the prologue with CUDA's signature,
`long(rint(x))` / `long(round(x))` (CUDA's long and long long are 64-bit, as Metal's long is).  They
were refused (KP223 "'llrintf' is defined neither in this file nor in Metal's standard library":
pedsim's CUDA tick, `xs[idx] = llrintf(xs[idx] + diff_x / len)`, held-out set 39)."""
from __future__ import annotations

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from port_support import port_text

KERNEL = """__global__ void step(float *x, const float *d, long long *r, long *s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = llrintf(x[i] + d[i]);
        r[i] = llroundf(d[i]) + lrintf(d[i] * 3.0f);
        s[i] = lroundf(d[i] * 5.0f);
    }
}
"""
D = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49, -0.51, 3.7, -3.7, 100.25, 7.5], np.float32)


def test_the_prologue_defines_each_with_cudas_signature():
    whole = port_text(KERNEL, "step.cu", to="metal", dedent=False)
    for fn, metal in (("llrintf", "rint"), ("lrintf", "rint"), ("llroundf", "round"), ("lroundf", "round")):
        assert f"inline long {fn}(float x) {{ return long({metal}(x)); }}" in whole, whole


def test_a_kernel_that_uses_none_gets_no_definition():
    whole = port_text("__global__ void k(float *x) { x[threadIdx.x] = rintf(x[threadIdx.x]); }\n", "step.cu",
                      to="metal", dedent=False)
    assert "llrintf" not in whole and "lroundf" not in whole


def test_the_port_passes_the_checker():
    from kernelport.backends.metal.check import MetalCheckUnavailable, run_check
    try:
        report = run_check(port_text(KERNEL, "step.cu", to="metal", dedent=False), "step.metal")
    except MetalCheckUnavailable as e:
        pytest.skip(str(e))
    assert report.ok, report.errors


def test_the_port_computes_what_the_original_computes():
    n = len(D)
    outs = {}
    for backend, text in (("cuda", KERNEL), ("metal", port_text(KERNEL, "step.cu", to="metal", dedent=False))):
        args = {"x": np.linspace(-3, 3, n).astype(np.float32), "d": D.copy(), "r": np.zeros(n, np.int64),
                "s": np.zeros(n, np.int64), "n": np.int32(n)}
        outs[backend] = run_kernel(text, "step", args=args, grid=(1,), block=(n,), backend=backend).outputs
    for k in ("x", "r", "s"):
        np.testing.assert_array_equal(outs["metal"][k], outs["cuda"][k])
    # half-way cases: rint to even, round away from zero (the CUDA side, as C's library rounds)
    assert outs["cuda"]["s"][:6].tolist() == [3, 8, 13, -3, -8, -13]
    assert outs["cuda"]["r"][:3].tolist() == [1 + 2, 2 + 4, 3 + 8]  # llroundf(0.5) + lrintf(1.5), ...: 4.5 -> 4
