"""The emulator's double fma (emulator/fused.py) against the C library's `fma`, element by element, and
its cost beside another checkout's.

    PYTHONPATH=. python bench/fma64_exactness.py [--other CHECKOUT] [--seeds 1 2 3] [--n 200000]

Operand triples per seed from several families: uniform in [-1, 1]; wide exponents (2^-1100 ..
2^1100, signs mixed, with infinities, NaN and zeros); c near -a*b (cancellation); small dyadic values
(exact products, midpoints of the sum); and rows whose th + RN(tl + ul) lands on a midpoint (fused.py's
screen: redone rounded to odd).  Every result is compared bit for bit with gcc's fma (compiled here,
-ffp-contract=off).  With --other, the CPU seconds of one fma over 2^16 uniform elements, this code and
the other's, alternated.
"""
from __future__ import annotations

import argparse
import ctypes
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_emulator_ab import _import_other  # noqa: E402
from kernelport.emulator import fused  # noqa: E402

C = r"""
#include <math.h>
void run(int n, const double* a, const double* b, const double* c, double* r)
{ for (int i = 0; i < n; ++i) r[i] = fma(a[i], b[i], c[i]); }
"""


def c_fma():
    d = Path(tempfile.mkdtemp(prefix="fma64_"))
    (d / "f.c").write_text(C)
    subprocess.run(["cc", "-O1", "-ffp-contract=off", "-fPIC", "-shared", "-o", str(d / "f.so"), str(d / "f.c"),
                    "-lm"], check=True)
    so = ctypes.CDLL(str(d / "f.so"))

    def run(a, b, c):
        r = np.zeros(a.size)
        p = lambda x: x.ctypes.data_as(ctypes.c_void_p)  # noqa: E731
        so.run(ctypes.c_int(a.size), p(a), p(b), p(c), p(r))
        return r
    return run


def families(rng, n):
    u = lambda: rng.uniform(-1, 1, n)  # noqa: E731
    yield "uniform", u(), u(), u()
    e = lambda: np.ldexp(rng.uniform(1, 2, n) * rng.choice([-1, 1], n), rng.integers(-1100, 1100, n))  # noqa: E731
    a, b, c = e(), e(), e()
    for x in (a, b, c):
        x[rng.integers(0, n, n // 50)] = rng.choice([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324], n // 50)
    yield "wide exponents", a, b, c
    a, b = u(), u()
    yield "cancellation", a, b, -(a * b) * (1 + rng.integers(-4, 5, n) * 2.0 ** -52)
    d = lambda: rng.integers(-2 ** 20, 2 ** 20, n) * 2.0 ** rng.integers(-30, 30, n)  # noqa: E731
    yield "dyadic", d(), d(), d()
    # c + RN(a*b) a tie (c = +-2^m, RN(a*b) = +-2^(m-53)) and a*b's rounding error on either side:
    # th + RN(tl + ul) lands on a midpoint, tl + ul inexact (a = 2^(m-53) x, b = RN(1/x), x in [1, 2))
    x = rng.uniform(1, 2, n)
    m, s = rng.integers(-200, 200, n), rng.choice([-1.0, 1.0], n)
    yield "midpoints", np.ldexp(x, m - 53) * s, 1 / x, np.ldexp(1.0, m) * s * rng.choice([1.0, 1.0, -1.0], n)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--other", type=Path)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=21)
    a = ap.parse_args()
    ref = c_fma()
    total = bad = 0
    for seed in a.seeds:
        rng = np.random.default_rng(seed)
        with np.errstate(over="ignore"):  # (the wide family's exponents past double's: infinities)
            rows = list(families(rng, a.n))
        for name, x, y, z in rows:
            got = fused.fma(x, y, z, np.dtype(np.float64))
            want = ref(x, y, z)
            same = (got.view(np.uint64) == want.view(np.uint64)) | (np.isnan(got) & np.isnan(want))
            total += same.size
            bad += int((~same).sum())
            print(f"seed {seed} {name:15s} {same.size} triples, {int((~same).sum())} differ", flush=True)
    print(f"all: {total} triples, {bad} differ from the C library's fma")
    if a.other:
        other, tmp = _import_other(a.other.resolve())
        ofused = sys.modules["kernelport_other.emulator.fused"] if "kernelport_other.emulator.fused" in sys.modules \
            else __import__("kernelport_other.emulator.fused", fromlist=["fma"])
        rng = np.random.default_rng(0)
        x, y, z = (rng.uniform(-1, 1, 1 << 16) for _ in range(3))
        f64, plain = np.dtype(np.float64), (lambda p, q, s, dt: p * q + s)
        cpu = {"this": [], "other": [], "a*b+c": []}
        for r in range(a.rounds):
            for k, f in ((("this", fused.fma), ("other", ofused.fma), ("a*b+c", plain)) if r % 2 == 0 else
                         (("a*b+c", plain), ("other", ofused.fma), ("this", fused.fma))):
                c0 = time.process_time()
                for _ in range(20):
                    f(x, y, z, f64)
                cpu[k].append((time.process_time() - c0) / 20)
        med = {k: sorted(v)[len(v) // 2] for k, v in cpu.items()}
        ratio = sorted(o / t for t, o in zip(cpu["this"], cpu["other"]))[len(cpu["this"]) // 2]
        print(f"one double fma over 2^16 elements, CPU us (median of {a.rounds} rounds): this {med['this'] * 1e6:.0f}, "
              f"other {med['other'] * 1e6:.0f}, unfused a*b+c {med['a*b+c'] * 1e6:.0f}; median ratio other/this "
              f"{ratio:.2f}")


if __name__ == "__main__":
    main()
