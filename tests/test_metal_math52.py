"""CUDA's unsuffixed hypot and modf called on floats, and rhypotf, in Metal ports.  On main the first two
were CUDA's float overloads of <cmath> (crt/math_functions.hpp: `float hypot(float, float)`, `float
modf(float, float*)`) the port kept as written: `hypot` was KP223 (MSL has no hypot) and `modf(x, &ip)`
KP224 (MSL's modf(x, thread T& intval) takes no pointer); rhypotf (CUDA's 1/sqrt(x^2 + y^2)) was KP223.
Now the prologue's kp_hypotf, kp_modff and kp_rhypotf; checked by the Metal checker, by the emulator
beside the original, and (rhypotf's formula) as C++ against the double-precision value in every binade.
CUDA has no float rhypot (rhypot is double only): it stays refused."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from kernelport.source import SourceFile
from kernelport.translate import translate

from test_metal_math51 import _inputs, _run, run_cxx  # the same specials: zeros, infinities, NaNs, extremes
from test_metal_port_causes46 import _port, _write

KERNEL = """
__global__ void k(const float* x, const float* y, float* h, float* r, float* frac, float* whole,
                  float* frac2, float* whole2, float* group, int n)
{
    __shared__ float w[64];
    int i = threadIdx.x;
    if (i < n) {
        h[i] = hypot(x[i], y[i]);
        r[i] = rhypotf(x[i], y[i]);
        float ip;
        frac[i] = modf(x[i], &ip);                // a thread variable
        whole[i] = ip;
        frac2[i] = modf(y[i], &whole2[i]);        // device memory
        group[i] = modf(x[i] * 0.5f, &w[i]);      // threadgroup memory
        group[i] += w[i];
    }
}
"""
OUTPUTS = ("h", "r", "frac", "whole", "frac2", "whole2", "group")


def test_the_port_calls_the_prologue_s_definitions_and_passes_the_checker(tmp_path: Path):
    _write(tmp_path, {"k.cu": KERNEL})
    text = _port(tmp_path / "k.cu")
    assert "h[i] = kp_hypotf(x[i], y[i]);" in text and "r[i] = kp_rhypotf(x[i], y[i]);" in text
    assert "frac[i] = kp_modff(x[i], &ip);" in text and "kp_modff(y[i], &whole2[i])" in text
    assert "kp_modff(x[i] * 0.5f, &w[i])" in text
    assert "inline float kp_rhypotf(float x, float y)" in text and "inline float kp_hypotf(float x, float y)" in text


def test_rhypotf_alone_brings_only_what_it_uses(tmp_path: Path):
    _write(tmp_path, {"k.cu": "__global__ void k(const float* x, float* r) { r[0] = rhypotf(x[0], x[1]); }\n"})
    text = _port(tmp_path / "k.cu")
    assert "inline float kp_rhypotf(" in text and "inline float kp_scaled_square(" in text
    assert "kp_hypotf" not in text and "kp_modff" not in text


def test_look_alikes_stay(tmp_path: Path):
    """The file's own rhypotf and a member named hypot are what their calls mean; CUDA's double-only
    rhypot has no float form on Metal: still refused, located."""
    _write(tmp_path, {"k.cu": """
        __device__ float rhypotf(float a, float b) { return a - b; }
        struct P { __device__ float hypot(float a, float b) const { return a * b; } };
        __global__ void k(const float* x, float* h) {
            P p;
            h[threadIdx.x] = rhypotf(x[threadIdx.x], 1.0f) + p.hypot(x[0], 2.0f);
        }
    """})
    text = _port(tmp_path / "k.cu")
    assert "kp_" not in text.split("kernel void")[-1] and "rhypotf(x[tid.x], 1.0f) + p.hypot(x[0], 2.0f)" in text
    _write(tmp_path, {"d.cu": "__global__ void k(const float* x, float* r) { r[0] = rhypot(x[0], x[1]); }\n"})
    port, _ = translate(SourceFile.read(tmp_path / "d.cu"), "metal")
    assert not port.ok
    assert any(d.code == "KP223" and "'rhypot'" in d.message and d.line == 1 for d in port.diagnostics), \
        [d.format() for d in port.diagnostics]


def _close(got, want, ulps):
    """`got` within `ulps` of the exact `want` (float64), infinite where `want` overflows float."""
    got = got.astype(np.float64)
    with np.errstate(over="ignore"):
        overflow = np.isinf(want.astype(np.float32))
    assert (np.isnan(got) == np.isnan(want)).all(), (got, want)
    assert (np.isinf(got) == overflow).all(), (got, want)
    ok = ~overflow & ~np.isnan(want)
    assert (np.abs(got[ok] - want[ok]) <= ulps * np.spacing(np.float32(want[ok])).astype(np.float64)).all(), (got, want)


def test_the_emulator_runs_the_original_and_the_port_alike(tmp_path: Path):
    _write(tmp_path, {"k.cu": KERNEL})
    text = _port(tmp_path / "k.cu")
    cuda, metal = _run(KERNEL, "cuda", OUTPUTS), _run(text, "metal", OUTPUTS)
    x, y = _inputs()
    with np.errstate(all="ignore"):
        want_h = np.hypot(x.astype(np.float64), y.astype(np.float64))
        want_r = 1.0 / want_h
        fx, wx = np.modf(x)
        fy, wy = np.modf(y)
        fh, wh = np.modf(x * np.float32(0.5))
    for out in (cuda, metal):
        _close(out["h"], want_h, 3)
        _close(out["r"], want_r, 2)
        np.testing.assert_array_equal(out["frac"], fx.astype(np.float32))  # exact, signs included
        np.testing.assert_array_equal(out["whole"], wx.astype(np.float32))
        np.testing.assert_array_equal(out["frac2"], fy.astype(np.float32))
        np.testing.assert_array_equal(out["whole2"], wy.astype(np.float32))
        np.testing.assert_array_equal(out["group"], (fh + wh).astype(np.float32))
        assert out["r"][7] == 0 and out["r"][14] == 0 and not np.signbit(out["r"][7])  # rhypotf(inf, NaN): +0
        assert out["r"][2] == np.inf and np.isnan(out["r"][9])  # rhypotf(0, 0): +inf; NaN beside a finite: NaN
    assert metal["r"][4] > 0 and np.isfinite(metal["r"][5])  # no overflow, no underflow of the squares


def test_the_rhypot_formula_is_within_cuda_s_bound_in_every_binade(tmp_path: Path):
    """The prologue's kp_rhypotf as C++ (no contraction), against 1/hypot in double, where the float result
    is normal: at most 1.25 ulp (the scaled square's 1.5 units of roundoff halved by the root, the Newton
    step's exact residual, one final rounding; CUDA's rhypotf allows 2); 4 million pairs, every binade.
    (The first form, s / sqrt(q) with two roundings, measured 1.93 here.)"""
    _write(tmp_path, {"h.cu": "__global__ void k(const float* x, float* h) { h[0] = rhypotf(x[0], x[1]); }\n"})
    port, text = translate(SourceFile.read(tmp_path / "h.cu"), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    definitions = "\n".join(re.findall(r"^inline float kp_(?:\w*hypot\w*|scaled_square)\(.*?\n\}", text, re.S | re.M))
    driver = r"""
int main() {
    double worst = 0; long bad = 0, counted = 0;
    for (long i = 0; i < 4000000; ++i) {
        uint32_t ea = next() % 255, eb = (i & 1) ? (ea + next() % 30) % 255 : next() % 255;
        float x = from((next() & 0x807fffffu) | (ea << 23)), y = from((next() & 0x807fffffu) | (eb << 23));
        double want = 1.0 / std::hypot((double)x, (double)y);
        if (want > 3.4028234663852886e38 || want < 1.1754943508222875e-38) continue;  // overflow, subnormal
        float got = kp_rhypotf(x, y);
        double ulp = std::ldexp(1.0, std::ilogb((float)want) - 23);
        double err = std::fabs((double)got - want) / ulp;
        if (err > worst) worst = err;
        if (err > 1.25) ++bad;
        ++counted;
    }
    float inf = INFINITY, nan = NAN;
    int special = kp_rhypotf(inf, nan) == 0.0f && !std::signbit(kp_rhypotf(nan, -inf))
                  && std::isnan(kp_rhypotf(nan, 1.0f)) && kp_rhypotf(0.0f, -0.0f) == inf
                  && kp_rhypotf(-3.0f, 4.0f) == 0.2f && kp_rhypotf(3e38f, 3e38f) > 0.0f
                  && kp_rhypotf(1e-45f, 0.0f) == inf && kp_rhypotf(1e-30f, 0.0f) == 1e30f;
    std::printf("%.6g %ld %ld %d\n", worst, bad, counted, special);
    return 0;
}
"""
    worst, bad, counted, special = run_cxx(tmp_path, "r", definitions + "\n" + driver)
    print("rhypotf worst ulp", worst, "over", counted)
    assert int(counted) > 3000000 and int(bad) == 0 and float(worst) <= 1.25, worst
    assert special == "1"
