"""CUDA's directed-rounding arithmetic (__fadd_rd, __fsqrt_ru, __fma_rz, ...) in the emulator
(kernelport/emulator/directed.py): verify stopped at "unknown function `__fsqrt_ru`" on heldout63's
VRP savings kernel (vrp.cu's getCostMatrix), so neither its wave-64 check nor an --oracle original
check could run. Each result is checked against the exact value by test_directed_rounding's checker
(Python's Fraction: the nearest representable value on the asked side, IEEE's zero signs, overflow),
over that test's random and edge operands; the round-to-nearest forms the table already had stay
numpy's own (the look-alike)."""
from __future__ import annotations

import random

import numpy as np

from kernelport.emulator import run_kernel
from port_support import port_text
from test_directed_rounding import F32_OPS, F64_OPS, MODES, SOURCE, _check, _operands, _to_f32

N = 384  # operand triples per type: every 6th an edge triple, then cancellations, subnormals, overflows, raw bits


def _kernel() -> str:
    calls = [(f"t_{op[2:]}_{m}", t) for ops, t in ((F64_OPS, "d"), (F32_OPS, "f")) for op in ops for m in MODES]
    body = "\n".join(f"    {'o' if t == 'd' else 'g'}[i * {len(calls)} + {j}] = {name}"
                     f"({'a' if t == 'd' else 'fa'}[i], {'b' if t == 'd' else 'fb'}[i], {'c' if t == 'd' else 'fc'}[i]);"
                     for j, (name, t) in enumerate(calls))
    return (SOURCE + "__global__ void k(const double* a, const double* b, const double* c, double* o,\n"
            "                  const float* fa, const float* fb, const float* fc, float* g, int n) {\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n" + body + "\n}\n"), len(calls)


def _fused(x: float, y: float, z: float) -> float:
    """fma's result where an operand is not finite (the only cases the checker compares with it):
    a finite product is exact, so an infinite addend decides; otherwise the unfused form agrees."""
    return z if np.isfinite(x) and np.isfinite(y) and not np.isfinite(z) else x * y + z


def _nearest(name: str, a, b, c):
    with np.errstate(all="ignore"):
        if name == "fma":
            return np.array([_fused(float(x), float(y), float(z)) for x, y, z in zip(a, b, c)]).astype(a.dtype)
        one = a.dtype.type(1)
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b, "rcp": one / a, "sqrt": np.sqrt(a)}[name]


def test_every_directed_rounding_intrinsic_runs_and_rounds_to_the_asked_side():
    rng = random.Random("emulated directed rounding")
    d = np.array([o for _, o in zip(range(N), _operands(rng, False))], np.float64)
    f = np.array([[_to_f32(x) for x in o] for _, o in zip(range(N), _operands(rng, True))], np.float32)
    text, width = _kernel()
    args = {"a": d[:, 0].copy(), "b": d[:, 1].copy(), "c": d[:, 2].copy(), "o": np.zeros(N * width, np.float64),
            "fa": f[:, 0].copy(), "fb": f[:, 1].copy(), "fc": f[:, 2].copy(), "g": np.zeros(N * width, np.float32),
            "n": np.int32(N)}
    out = run_kernel(text, "k", args=args, grid=(N // 64,), block=(64,), backend="cuda").outputs
    checked, j = 0, 0
    for ops, vals, res, f32 in ((F64_OPS, d, out["o"], False), (F32_OPS, f, out["g"], True)):
        for _op, (_, name) in ops.items():
            rn = _nearest(name, vals[:, 0], vals[:, 1], vals[:, 2])
            for m in MODES:
                for i in range(N):
                    a, b, c = (float(x) for x in vals[i])
                    _check(name, m, a, b, c, float(res[i * width + j]), float(rn[i]), f32)
                    checked += 1
                j += 1
    assert checked == 2 * 21 * N


def test_the_vrp_distance_kernel_runs_and_its_hip_port_agrees():
    """vrp.cu's shape: a rounded-up distance; the HIP port's prologue helper computes the same values
    (look-alike: __fsqrt_rn, which the table had, still gives numpy's nearest square root)."""
    src = """__global__ void cost(const float* x, const float* y, float* sq, float* up, float* near, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float dx = x[i] - x[0], dy = y[i] - y[0];
        float s = dx * dx + dy * dy;
        sq[i] = s;
        up[i] = __fsqrt_ru(s);
        near[i] = __fsqrt_rn(s);
    }
}
"""
    rng = np.random.default_rng(63)
    n = 64
    x, y = rng.uniform(-100, 100, n).astype(np.float32), rng.uniform(-100, 100, n).astype(np.float32)
    outs = {}
    for backend, text in (("cuda", src), ("hip", port_text(src, "cost.cu", to="hip", dedent=False))):
        args = {"x": x.copy(), "y": y.copy(), "sq": np.zeros(n, np.float32), "up": np.zeros(n, np.float32),
                "near": np.zeros(n, np.float32), "n": np.int32(n)}
        outs[backend] = run_kernel(text, "cost", args=args, grid=(1,), block=(n,), backend=backend).outputs
    s = outs["cuda"]["sq"]  # the sum as the kernel rounds it (contracted or not)
    np.testing.assert_array_equal(outs["cuda"]["near"], np.sqrt(s))
    up = outs["cuda"]["up"]
    assert np.all(up.astype(np.float64) ** 2 >= s.astype(np.float64))  # at or above the exact root
    below = np.nextafter(up, np.float32(-np.inf)).astype(np.float64)
    assert np.all((below ** 2 < s.astype(np.float64)) | (up == 0))  # and the least such value
    assert np.any(up != np.sqrt(s))  # some roots are inexact, so up differs from nearest there
    np.testing.assert_array_equal(outs["hip"]["up"], up)
    np.testing.assert_array_equal(outs["hip"]["near"], outs["cuda"]["near"])


def test_metal_refuses_a_directed_rounding_saying_why():
    """Metal can neither set a rounding mode nor compute the side in double (HIP's helpers do): refused,
    located, now with that reason where it said "it comes from a header the Metal port cannot include".
    Look-alike: the round-to-nearest __fmul_rn is refused for its own reason (Metal's default fast math may
    contract it into an fma); __fsqrt_rn, which precise::sqrt rounds correctly, is ported since h/metal58
    (tests/test_metal_rounding_intrinsics.py)."""
    from test_metal_realcode import errors
    up = errors("__global__ void k(float* a) { a[0] = __fsqrt_ru(a[1]) + __fmul_rz(a[2], a[3]); }\n")
    assert up == ["1:KP223 '__fsqrt_ru' in device code has no Metal meaning (arithmetic with a directed rounding: "
                  "Metal has no rounding modes, nor double to emulate one; the round-to-nearest operation differs by "
                  "up to an ulp)",
                  "1:KP223 '__fmul_rz' in device code has no Metal meaning (arithmetic with a directed rounding: "
                  "Metal has no rounding modes, nor double to emulate one; the round-to-nearest operation differs by "
                  "up to an ulp)"], up
    near = errors("__global__ void k(float* a) { a[0] = __fmul_rn(a[1], a[2]); }\n")
    assert len(near) == 1 and "'__fmul_rn' in device code has no Metal meaning (a round-to-nearest float multiply " \
        "CUDA never contracts into an fma" in near[0], near
