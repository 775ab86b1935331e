"""heldout88 mini-nbody's nbody-orig.cu (an n-body sum into `Body *p`, an array of structs): every port
failed against the original (`p[0].vx` off by 1.5e-7, bound 2.16e-08) and the GPU's run against the
emulator's (bound 3.03e-07), while its float4 siblings passed.  Two causes, both verify's:

1. A HIP or Metal port's `F += a*b` on a local float was never contracted into an fma: those backends'
   vector types have `operator+=` built in, so the assignment took the vector-operator path, which on a
   scalar added the rounded product.  The original (CUDA) contracted it: the same code computed two
   results.  Now a scalar there contracts as the original's does.
2. An array of structs had no error bound (run.py left it out): compare judged each field on the
   final rounding alone.  Now each number field's bound is read from its bytes' shadow
   (emulator/struct_bounds.py) and compare walks it along the field.  A look-alike: a struct field the
   port computes wrong by more than its bound still fails."""
from __future__ import annotations

import numpy as np

from kernelport.compare import compare
from kernelport.emulator import run_kernel

KERNEL = """
typedef struct { float x, y, z, vx, vy, vz; } Body;
__global__ void k(Body *p, float dt, int n) {
    int i = threadIdx.x;
    if (i < n) {
        float F = 0.0f;
        for (int j = 0; j < n; j++) {
            float dx = p[j].x - p[i].x;
            float inv = rsqrtf(dx*dx + 1e-9f);
            F += dx * inv;
        }
        p[i].vx += dt*F%s;
    }
}
"""
DT = np.dtype([(f, "f4") for f in ("x", "y", "z", "vx", "vy", "vz")])


def _bodies(n=48):
    rng = np.random.default_rng(7)
    p = np.zeros(n, DT)
    for f in DT.names:
        p[f] = rng.uniform(-1, 1, n).astype(np.float32)
    return p


def _run(text, backend, p):
    return run_kernel(text, "k", args={"p": p.copy(), "dt": np.float32(0.01), "n": len(p)}, grid=(1,), block=(64,),
                      backend=backend)


def test_a_scalar_accumulation_contracts_in_every_dialect():
    """The same text read as CUDA and as HIP computes the same bits (both fuse `F += dx * inv`); the
    float loop is the one that differed before (4.8e-7 after 48 terms)."""
    p = _bodies()
    cuda, hip = (_run(KERNEL % "", b, p).outputs["p"] for b in (None, "hip"))
    np.testing.assert_array_equal(cuda["vx"], hip["vx"])
    # the CUDA side is fused: F's sum as one rounding per term of the exact dx*inv + F
    src = """__global__ void k(const float *a, const float *b, float *o, int n) {
        int i = threadIdx.x; float F = 0.0f;
        for (int j = 0; j < n; j++) F += a[j] * b[i];
        o[i] = F; }"""
    rng = np.random.default_rng(3)
    a, b = rng.uniform(-1, 1, 64).astype(np.float32), rng.uniform(-1, 1, 32).astype(np.float32)
    want = np.zeros(32, np.float32)
    for j in range(64):
        want = (want.astype(np.float64) + np.float64(a[j]) * b.astype(np.float64)).astype(np.float32)
    for backend in (None, "hip"):
        got = run_kernel(src, "k", args={"a": a, "b": b, "o": np.zeros(32, np.float32), "n": 64}, grid=(1,),
                         block=(32,), backend=backend).outputs["o"]
        np.testing.assert_array_equal(got, want, err_msg=str(backend))


def test_a_vector_variable_keeps_the_builtin_operator():
    """The look-alike: `v += w` on HIP's float4 still adds component by component."""
    src = """__global__ void k(const float4 *a, float4 *o) {
        int i = threadIdx.x; float4 v = a[i]; v += a[i]; o[i] = v; }"""
    a = np.arange(16, dtype=np.float32)
    got = run_kernel(src, "k", args={"a": a, "o": np.zeros(16, np.float32)}, grid=(1,), block=(4,),
                     backend="hip").outputs["o"]
    np.testing.assert_array_equal(got, 2 * a)


def test_struct_fields_carry_their_bound():
    p = _bodies()
    res = _run(KERNEL % "", None, p)
    b = res.bounds["p"]
    assert b.dtype.names == DT.names
    assert (b["vx"] > 0).all() and not b["x"].any()  # the sum's bound; x was never stored
    # the sum's bound holds the double-precision value of the same operations
    F = np.zeros(len(p))
    for j in range(len(p)):
        dx = p["x"][j].astype(np.float64) - p["x"].astype(np.float64)
        F += dx / np.sqrt(dx * dx + 1e-9)
    exact = p["vx"].astype(np.float64) + 0.01 * F
    assert (np.abs(res.outputs["p"]["vx"].astype(np.float64) - exact) <= b["vx"] + 6e-8 * np.abs(exact)).all()


def test_a_port_with_the_same_sum_passes_and_a_wrong_one_fails():
    p = _bodies()
    orig = _run(KERNEL % "", None, p)
    for backend in (None, "hip"):
        port = _run(KERNEL % "", backend, p)
        assert compare({"p": port.outputs["p"]}, {"p": orig.outputs["p"]}, "auto", None, port.bounds, orig.bounds).ok
    # the look-alike: a port whose sum is off by far less than the old 1e-6 tolerances but more than its bound
    wrong = _run(KERNEL % " + 1e-5f", "hip", p)
    c = compare({"p": wrong.outputs["p"]}, {"p": orig.outputs["p"]}, "auto", None, wrong.bounds, orig.bounds)
    assert not c.ok and c.mismatch.where.endswith(".vx")


def test_a_field_holding_part_of_another_element_is_unknown():
    """Bytes of a field written as a wider value (a double over two floats) have no bound of the field's
    size: NaN (unknown), never 0."""
    from kernelport.emulator.struct_bounds import field_bounds
    lay = np.dtype([("a", "f4"), ("b", "f4")], align=True)
    bnd, size = np.zeros(16, np.float32), np.zeros(16, np.int8)
    size[0], size[1:8] = 8, -1  # struct 0: one 8-byte element over a and b
    bnd[0] = 1e-3
    size[8], size[9:12] = 4, -1  # struct 1: a whole float in a
    bnd[8] = 2e-7
    got = field_bounds(lay, 16, (bnd, size))
    assert np.isnan(got["a"][0]) and np.isnan(got["b"][0])
    assert np.float32(got["a"][1]) == np.float32(2e-7) and got["b"][1] == 0.0
