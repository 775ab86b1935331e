"""CUDA's bf16 pair arithmetic on HIP (issue 11: `__nv_bfloat162` `+`/`*`/`__hmul2`/`__hfma2`/`__floats2bfloat162_rn`/
`__low2float` did not compile with ROCm 5.2, which has no pair and no bf16 pair intrinsics):
kernelport/backends/hip_bf16_pairs.py overloads the names CUDA shares with half2 on the prologue's `kp_bfloat162`
and the API table spells the pair's constructors as `kp_bfloat162_*`.  Each lane must be ONE correctly rounded
bf16 operation (sm_80's fma.rn.bf16x2), not float arithmetic rounded twice: the polyfill's text is compiled with
g++ (hip_bfloat16 as ROCm 5.2 defines it: RNE from float, exact to float) and every result compared bit for bit
with an exact model (Python fractions, round to nearest even) over edge, tie and random operands; a port using
each spelling compiles with hipcc for gfx90a and gfx1030.  The look-alikes: half2 code keeps HIP's own
intrinsics (no pair prologue), `__h2div` on the pair is no overload (a compile error, never another value)."""
from __future__ import annotations

import random
import struct
import subprocess
from fractions import Fraction

from conftest import hip_compiles, require_tool
from port_support import port_text

KERNEL = """#include <cuda_bf16.h>
__global__ void pairs(const __nv_bfloat162* a, const __nv_bfloat162* b, const __nv_bfloat162* c, __nv_bfloat162* d,
                      float* f, const float* x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat162 s = a[i] + b[i];
    s = s * c[i] - a[i];
    s += __hmul2(a[i], b[i]);
    s *= __hfma2(a[i], b[i], c[i]);
    s -= __hadd2(__hsub2(a[i], b[i]), __hneg2(c[i]));
    d[i] = -s;
    d[n + i] = __floats2bfloat162_rn(x[i], x[n + i]);
    d[2 * n + i] = __halves2bfloat162(__low2bfloat16(a[i]), __high2bfloat16(b[i]));
    d[3 * n + i] = __float2bfloat162_rn(x[i]);
    float2 w = __bfloat1622float2(s);
    f[i] = __low2float(s) + __high2float(s) + w.x * w.y;
}
"""


def test_a_kernel_of_pair_arithmetic_ports_and_compiles_for_both_waves(tmp_path):
    text = port_text(KERNEL, dedent=False)
    body = text.split("kernelport)\n", 1)[-1]
    assert "kp_bfloat162 s = a[i] + b[i];" in text and "__hfma2(a[i], b[i], c[i])" in text, text
    assert "d[n + i] = kp_bfloat162_rn(x[i], x[n + i]);" in text, text
    assert "__nv_bfloat162" not in body and text.count("#define KP_HAVE_BFLOAT162_MATH") == 1, text
    hip_compiles(tmp_path, text)


def test_half2_code_keeps_hips_own_intrinsics(tmp_path):  # look-alike: the same names on __half2
    half = KERNEL.replace("cuda_bf16.h", "cuda_fp16.h").replace("__nv_bfloat162", "__half2")
    half = half[:half.index("    d[n + i]")] + "}\n"
    text = port_text(half, dedent=False)
    assert "kp_bfloat162" not in text and "__hfma2(a[i], b[i], c[i])" in text, text
    hip_compiles(tmp_path, text)


def test_division_of_pairs_is_no_overload(tmp_path):
    """CUDA's bf16 `__h2div` is no correctly rounded division: no spelling, so hipcc refuses the call."""
    import os
    require_tool("hipcc")
    text = port_text(KERNEL.replace("d[i] = -s;", "d[i] = __h2div(s, a[i]);"), dedent=False)
    f = tmp_path / "t.hip"
    f.write_text(text)
    r = subprocess.run(["hipcc", "--offload-arch=gfx90a", "-c", str(f), "-o", str(tmp_path / "t.o")],
                       capture_output=True, text=True, env=dict(os.environ, HIP_PLATFORM="amd"))
    assert r.returncode != 0 and "__h2div" in r.stderr, r.stderr[-2000:]


# -- the values, on the host ---------------------------------------------------------------------------------
_HOST = r"""
#include <cstdint>
#include <cstdio>
#include <cstring>
#define __device__
// hip_bfloat16 as ROCm 5.2's hip/hip_bfloat16.h defines it: RNE from float (a NaN kept quiet), exact to float
struct hip_bfloat16 {
    uint16_t data;
    hip_bfloat16() = default;
    explicit hip_bfloat16(float f) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        if (~u & 0x7f800000u) u += 0x7fff + ((u >> 16) & 1);
        else if (u & 0xffff) u |= 0x10000;
        data = uint16_t(u >> 16);
    }
    operator float() const { uint32_t u = uint32_t(data) << 16; float f; std::memcpy(&f, &u, 4); return f; }
};
struct float2 { float x, y; };
inline float2 make_float2(float x, float y) { return {x, y}; }
struct __attribute__((aligned(4))) kp_bfloat162 { hip_bfloat16 x, y; };
POLYFILL
static hip_bfloat16 bits(unsigned v) { hip_bfloat16 r; r.data = (uint16_t)v; return r; }
int main() {
    unsigned a, b, c;
    float x;
    while (std::scanf("%x %x %x %a", &a, &b, &c, &x) == 4) {
        kp_bfloat162 p = kp_bfloat162_of(bits(a), bits(b)), q = kp_bfloat162_of(bits(b), bits(c)),
                     r = kp_bfloat162_of(bits(c), bits(a));
        kp_bfloat162 s = p + q, m = __hmul2(p, q), f = __hfma2(p, q, r), d = p - q, n = -p;
        kp_bfloat162 v = kp_bfloat162_rn(x, -x);
        std::printf("%04x %04x %04x %04x %04x %04x %04x %04x %04x %04x %04x\n", s.x.data, s.y.data, m.x.data,
                    m.y.data, f.x.data, f.y.data, d.x.data, d.y.data, n.x.data, v.x.data, v.y.data);
    }
    return 0;
}
"""


def _value(bits: int):
    """A bf16's value: a Fraction, or a float for an infinity or NaN."""
    (f,) = struct.unpack("<f", struct.pack("<I", bits << 16))
    return Fraction(f) if f == f and abs(f) != float("inf") else f


def _rne(q, zero_sign: int = 0) -> int:
    """The bf16 nearest q (ties to even), as bits; `zero_sign` the sign bit of an exact zero."""
    if isinstance(q, float):  # an infinity or NaN
        return 0x7fc0 if q != q else (0x7f80 if q > 0 else 0xff80)
    if q == 0:
        return zero_sign << 15
    sign, x = (q < 0), abs(q)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    e = e - 1 if Fraction(2) ** e > x else e
    ulp = Fraction(2) ** (max(e, -126) - 7)
    n, rem = divmod(x, ulp)
    n = int(n) + (rem > ulp / 2 or (rem == ulp / 2 and int(n) % 2 == 1))
    v = n * ulp
    out = 0x7f80 if v >= Fraction(2) ** 128 else struct.unpack("<I", struct.pack("<f", float(v)))[0] >> 16
    return out | (sign << 15)


def _exact(op: str, *bits: int) -> int:
    vs = [_value(b) for b in bits]
    if any(isinstance(v, float) for v in vs):  # an infinity or NaN operand: IEEE's, in double
        fl = [float(v) for v in vs]
        r = {"add": lambda: fl[0] + fl[1], "sub": lambda: fl[0] - fl[1], "mul": lambda: fl[0] * fl[1],
             "fma": lambda: fl[0] * fl[1] + fl[2]}[op]()
        return _rne(r if r != r or abs(r) == float("inf") else Fraction(r))
    s = [b >> 15 for b in bits]
    if op == "add":
        return _rne(vs[0] + vs[1], s[0] & s[1])
    if op == "sub":
        return _rne(vs[0] - vs[1], s[0] & (1 - s[1]))
    if op == "mul":
        return _rne(vs[0] * vs[1], s[0] ^ s[1])
    p = vs[0] * vs[1]
    return _rne(p + vs[2], (s[0] ^ s[1]) & s[2] if p == 0 else 0)


def _operands(rng: random.Random):
    """Edge cases (ties, the float-rounding-twice traps, zeros, subnormals, infinities, NaN) and random
    triples, many of nearby exponents (the sums that round)."""
    out = [(0x3f80, 0x3b80, 0x3f80), (0x3f81, 0x3b80, 0x0000),  # 1 + 2^-8: a tie to even, both ways
           (0x3f81, 0x3fc0, 0x8d80), (0x3f81, 0x3fc0, 0x0d80),  # a product at a tie, +- 2^-100: off it
           (0x8000, 0x8000, 0x8000), (0x3f80, 0xbf80, 0x0000), (0x0001, 0x3f00, 0x0001), (0x0080, 0x0080, 0x8001),
           (0x7f7f, 0x7f7f, 0xff7f), (0x7f80, 0xff80, 0x3f80), (0x7f80, 0x0000, 0x3f80), (0x7fc0, 0x3f80, 0x3f80),
           (0x0001, 0x0001, 0x0001), (0x1f80, 0x1f80, 0x0002)]
    for _ in range(3000):
        a = rng.getrandbits(16)
        near = lambda: (a & 0x807f) ^ (rng.getrandbits(8) & 0x7f) ^ (rng.getrandbits(1) << 15) | \
            (min(max(((a >> 7) & 0xff) + rng.randint(-12, 12), 0), 254) << 7)
        out.append((a, near(), near()) if rng.random() < 0.7 else (a, rng.getrandbits(16), rng.getrandbits(16)))
    return out


def test_each_lane_is_one_correctly_rounded_bf16_operation(tmp_path):
    from kernelport.backends.hip_bf16_pairs import POLYFILL
    require_tool("g++")
    rng = random.Random(65)
    cases = _operands(rng)
    floats = [struct.unpack("<f", struct.pack("<I", rng.getrandbits(32)))[0] for _ in cases]
    floats = [f if f == f else 1.0 for f in floats]
    src, exe = tmp_path / "bf16.cpp", tmp_path / "bf16"
    src.write_text(_HOST.replace("POLYFILL", POLYFILL))
    r = subprocess.run(["g++", "-std=c++20", "-O1", "-ffp-contract=fast", str(src), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    feed = "".join(f"{a:x} {b:x} {c:x} {x.hex()}\n" for (a, b, c), x in zip(cases, floats))
    got = subprocess.run([str(exe)], input=feed, capture_output=True, text=True, timeout=120).stdout.split("\n")
    fails = []
    for (a, b, c), x, line in zip(cases, floats, got):
        f32 = struct.unpack("<I", struct.pack("<f", x))[0]
        want = [_exact("add", a, b), _exact("add", b, c), _exact("mul", a, b), _exact("mul", b, c),
                _exact("fma", a, b, c), _exact("fma", b, c, a), _exact("sub", a, b), _exact("sub", b, c),
                a ^ 0x8000, _rne(Fraction(x) if abs(x) != float("inf") else x, f32 >> 31),
                _rne(-Fraction(x) if abs(x) != float("inf") else -x, 1 - (f32 >> 31))]
        have = [int(h, 16) for h in line.split()]
        nan = lambda v: (v & 0x7fff) > 0x7f80
        if len(have) != len(want) or any(h != w and not (nan(h) and nan(w)) for h, w in zip(have, want)):
            fails.append(((hex(a), hex(b), hex(c), x), [hex(h) for h in have], [hex(w) for w in want]))
    assert len(got) >= len(cases) and not fails, (len(fails), fails[:5])
