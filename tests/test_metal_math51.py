"""C's hypotf and modff in Metal ports (heldout42: both were KP223, "defined neither in this file nor in
Metal's standard library").  MSL has modf(x, thread T& intval) but no hypot (its math functions, MSL 6.5;
PyTorch's MPS kernels carry their own c10::metal::hypot for that reason): the prologue defines kp_modff
(CUDA's pointer may point into any address space) and kp_hypotf (scaled, so that no square overflows or
underflows).  Checked three ways: the Metal checker passes the ports, the emulator runs them beside the
original, and the hypot formula itself, compiled as C++ from the prologue's text, is measured against
the double-precision hypot over every binade."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_port_causes46 import _port, _write

KERNEL = """
__global__ void k(const float* x, const float* y, float* h, float* frac, float* whole, float* frac2,
                  float* whole2, float* group, int n)
{
    __shared__ float w[64];
    int i = threadIdx.x;
    if (i < n) {
        h[i] = hypotf(x[i], y[i]);
        float ip;
        frac[i] = modff(x[i], &ip);               // a thread variable
        whole[i] = ip;
        frac2[i] = modff(y[i], &whole2[i]);       // device memory
        group[i] = modff(x[i] * 0.5f, &w[i]);     // threadgroup memory
        group[i] += w[i];
    }
}
"""


def _inputs():
    big, tiny = 2.0e38, 1.0e-30
    x = [3.0, -3.5, 0.0, -0.0, big, tiny, 1e-45, np.inf, -np.inf, np.nan, 7.25, -1e30, 1e-20, 65536.5, -2.75, 1.0]
    y = [4.0, 2.25, 0.0, -0.0, big / 2, 2 * tiny, 3e-45, np.nan, 1.0, 2.0, -0.5, 1e30, -1e-20, 0.125, np.inf, -np.nan]
    return np.array(x, dtype=np.float32), np.array(y, dtype=np.float32)


def test_the_port_calls_the_prologue_s_definitions_and_passes_the_checker(tmp_path: Path):
    _write(tmp_path, {"k.cu": KERNEL})
    text = _port(tmp_path / "k.cu")
    assert "h[i] = kp_hypotf(x[i], y[i]);" in text
    assert "frac[i] = kp_modff(x[i], &ip);" in text and "kp_modff(y[i], &whole2[i])" in text
    assert "inline float kp_hypotf(float x, float y)" in text and "modf(x, whole)" in text


def test_a_look_alike_the_file_defines_itself_stays(tmp_path: Path):
    """The file's own hypotf (a device function of that name) is the one its calls mean: no prologue copy."""
    _write(tmp_path, {"k.cu": """
        __device__ float hypotf(float a, float b) { return a + b; }
        __global__ void k(const float* x, float* h) { h[threadIdx.x] = hypotf(x[threadIdx.x], 1.0f); }
    """})
    text = _port(tmp_path / "k.cu")
    assert "kp_hypotf" not in text and "h[tid.x] = hypotf(x[tid.x], 1.0f);" in text


OUTPUTS = ("h", "frac", "whole", "frac2", "whole2", "group")


def _run(source: str, backend: str, outputs=OUTPUTS):
    """The kernel `k` of `source` over `_inputs()`, one thread an element: its `outputs`."""
    x, y = _inputs()
    n = len(x)
    args = {"x": x, "y": y, "n": n, **{k: np.zeros(n, np.float32) for k in outputs}}
    return run_kernel(source, "k", args=args, grid=(1,), block=(n,), backend=backend).outputs


def test_the_emulator_runs_the_original_and_the_port_alike(tmp_path: Path):
    _write(tmp_path, {"k.cu": KERNEL})
    text = _port(tmp_path / "k.cu")
    cuda, metal = _run(KERNEL, "cuda"), _run(text, "metal")
    x, y = _inputs()
    with np.errstate(all="ignore"):
        want_h = np.hypot(x.astype(np.float64), y.astype(np.float64))
        fx, wx = np.modf(x)
        fy, wy = np.modf(y)
        fh, wh = np.modf(x * np.float32(0.5))
    for out in (cuda, metal):
        np.testing.assert_array_equal(out["frac"], fx.astype(np.float32))  # exact, signs included
        np.testing.assert_array_equal(out["whole"], wx.astype(np.float32))
        np.testing.assert_array_equal(out["frac2"], fy.astype(np.float32))
        np.testing.assert_array_equal(out["whole2"], wy.astype(np.float32))
        np.testing.assert_array_equal(out["group"], (fh + wh).astype(np.float32))
        assert np.signbit(out["frac"][3]) and np.signbit(out["whole"][3])  # modff(-0.0): -0.0 and -0.0
        assert out["frac"][7] == 0 and out["whole"][7] == np.inf  # modff(inf): +0 and inf
        h = out["h"].astype(np.float64)
        same = np.isnan(h) == np.isnan(want_h)
        assert same.all(), (h, want_h)
        assert (np.isinf(h) == np.isinf(want_h)).all(), (h, want_h)
        ok = np.isfinite(want_h)
        assert (np.abs(h[ok] - want_h[ok]) <= 3 * np.spacing(np.float32(want_h[ok])).astype(np.float64)).all()
    assert metal["h"][7] == np.inf and metal["h"][14] == np.inf  # hypot(inf, NaN) is +inf (C11 F.10.4.3)
    assert np.isfinite(metal["h"][4]) and metal["h"][5] > 0  # no overflow, no underflow of the squares


def _hypot_definition(tmp_path: Path) -> str:
    _write(tmp_path, {"h.cu": "__global__ void k(const float* x, float* h) { h[0] = hypotf(x[0], x[1]); }\n"})
    port, text = translate(SourceFile.read(tmp_path / "h.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    # kp_hypotf and the scaling helpers it shares with kp_rhypotf (test_metal_math52.py)
    found = re.findall(r"^inline float kp_(?:\w*hypot\w*|scaled_square)\(.*?\n\}", text, re.S | re.M)
    assert any(d.startswith("inline float kp_hypotf(") for d in found), text
    return "\n".join(found) + "\n"


# MSL's names bound to <cmath>'s float functions, to compile the prologue's definitions as C++
CXX_SHIM = """#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <algorithm>
using std::fabs; using std::isinf; using std::isnan; using std::max; using std::min; using std::fma;
namespace precise { inline float sqrt(float v) { return std::sqrt(v); }
                    inline float divide(float a, float b) { return a / b; } }
"""
# The sweep's operands: xorshift bits as floats (the driver picks exponents, mantissas are random)
RANDOM_FLOATS = r"""
static uint64_t s = 88172645463325252ull;
static uint32_t next() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (uint32_t)(s >> 11); }
static float from(uint32_t b) { float f; std::memcpy(&f, &b, 4); return f; }
"""


def run_cxx(tmp_path: Path, name: str, program: str) -> list[str]:
    """`program` (after CXX_SHIM and RANDOM_FLOATS) built without contraction and run: its words."""
    cxx = shutil.which("clang++-15") or shutil.which("g++")
    if cxx is None:
        pytest.skip("no C++ compiler")
    src, exe = tmp_path / f"{name}.cpp", tmp_path / name
    src.write_text(CXX_SHIM + RANDOM_FLOATS + program)
    subprocess.run([cxx, "-O1", "-ffp-contract=off", "-o", str(exe), str(src)], check=True, timeout=120)
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=120).stdout.split()


def test_the_hypot_formula_is_within_its_stated_bound_in_every_binade(tmp_path: Path):
    """The prologue's kp_hypotf as C++ (MSL's names bound to <cmath>'s float functions, no contraction),
    against the double hypot: relative error at most 1.75 units of roundoff (2^-24) where the result is
    normal, specials exact.  4 million pairs: both operands over every float exponent, random mantissas."""
    driver = r"""
int main() {
    double worst = 0; long bad = 0;
    for (long i = 0; i < 4000000; ++i) {
        uint32_t ea = next() % 255, eb = (i & 1) ? (ea + next() % 30) % 255 : next() % 255;
        float x = from((next() & 0x807fffffu) | (ea << 23)), y = from((next() & 0x807fffffu) | (eb << 23));
        double want = std::hypot((double)x, (double)y);
        float got = kp_hypotf(x, y);
        if (want > 3.4028234663852886e38 || want < 1.1754943508222875e-38) continue;  // overflow, subnormal
        double rel = std::fabs((double)got - want) / want;
        if (rel > worst) worst = rel;
        if (rel > 1.75 * 5.9604644775390625e-08 * (1 + 1e-6)) ++bad;
    }
    float inf = INFINITY, nan = NAN;
    int special = kp_hypotf(inf, nan) == inf && kp_hypotf(nan, -inf) == inf && std::isnan(kp_hypotf(nan, 1.0f))
                  && kp_hypotf(0.0f, -0.0f) == 0.0f && kp_hypotf(-3.0f, 4.0f) == 5.0f
                  && kp_hypotf(3e38f, 3e38f) == inf && kp_hypotf(1e-45f, 0.0f) == 1e-45f;
    std::printf("%.6g %ld %d\n", worst / 5.9604644775390625e-08, bad, special);
    return 0;
}
"""
    worst, bad, special = run_cxx(tmp_path, "h", _hypot_definition(tmp_path) + driver)
    assert int(bad) == 0 and float(worst) <= 1.75 * (1 + 1e-6), worst
    assert special == "1"
