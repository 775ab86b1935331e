"""CUDA's directed-rounding arithmetic (__dadd_rd, __fmul_ru, __fma_rz, ... : the bounds of interval
arithmetic, neilkichler/cuinterval's whole library) on HIP: ROCm 5.2 has no definition its device
libraries can link, so the port calls the prologue's kp_rnd_* helpers (templates/hip_prologue.j2).
The helpers are taken from a translated port, compiled with the host's C compiler and checked
against the exact result (Python's Fraction) over random and edge operands: every result must be the
nearest representable value on the asked side (subnormals, overflow, exact zeros' signs)."""
from __future__ import annotations

import math
import random
import re
import struct
import subprocess
from fractions import Fraction

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool
from port_support import ported

MODES = ("rd", "ru", "rz")
# intrinsic -> (operands, the exact operation _exact names it by)
F64_OPS = {"__dadd": (2, "add"), "__dsub": (2, "sub"), "__dmul": (2, "mul"), "__ddiv": (2, "div"), "__drcp": (1, "rcp"),
           "__dsqrt": (1, "sqrt"), "__fma": (3, "fma")}
F32_OPS = {"__fadd": (2, "add"), "__fsub": (2, "sub"), "__fmul": (2, "mul"), "__fmaf": (3, "fma"), "__fdiv": (2, "div"),
           "__frcp": (1, "rcp"), "__fsqrt": (1, "sqrt")}
ARGS = ("a", "b", "c")


def _calls(ops: dict, t: str) -> str:
    return "\n".join(f"__device__ {t} t_{op[2:]}_{m}({t} a, {t} b, {t} c) {{ return {op}_{m}({', '.join(ARGS[:n])}); }}"
                     for op, (n, _) in ops.items() for m in MODES)


SOURCE = _calls(F64_OPS, "double") + "\n" + _calls(F32_OPS, "float") + "\n"


@pytest.fixture(scope="module")
def port():
    return ported(SOURCE, "rnd.cu", dedent=False)


def test_every_directed_rounding_intrinsic_is_a_prologue_helper(port):
    body = port[0].body
    assert "return kp_rnd_add_f64(a, b, -1);" in body and "return kp_rnd_add_f64(a, -(b), 1);" in body
    assert "return kp_rnd_fma_f64(a, b, c, 0);" in body and "return kp_rnd_sqrt_f32(a, -1);" in body
    assert "return kp_rnd_div_f64(1.0, a, 1);" in body and "return kp_fmaf_rz(a, 1.0f, b);" in body
    assert not re.search(r"__[a-z]+_r[duz]\(", body), body  # no CUDA spelling left
    assert "__device__ inline double kp_rnd_fma_f64(double a, double b, double c, int m)" in port[1]
    # look-alike: the round-to-nearest forms stay HIP's own; no helper is emitted for them
    rn, text = translate(SourceFile.from_text("__device__ double f(double a, double b) { return __dadd_rn(a, b); }\n",
                                              "rn.cu"), "hip")
    assert rn.ok and "return __dadd_rn(a, b);" in rn.body and "kp_rnd_" not in text


def _f64(u: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", u))[0]


def _u64(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _f32(u: int) -> float:
    return struct.unpack("<f", struct.pack("<I", u))[0]


def _next32(x: float, up: bool) -> float:
    if math.isinf(x):
        return x if (x > 0) == up else math.copysign(3.4028234663852886e38, x)
    if x == 0:
        return _f32(1) if up else -_f32(1)
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return _f32(u + 1 if (x > 0) == up else u - 1)


def _next(x: float, up: bool, f32: bool) -> float:
    return _next32(x, up) if f32 else math.nextafter(x, math.inf if up else -math.inf)


def _exact(op: str, a: float, b: float, c: float):
    """The exact value (a Fraction; sqrt: ('sqrt', Fraction)), or None where it is not a finite real."""
    used = {"rcp": (a,), "sqrt": (a,), "fma": (a, b, c)}.get(op, (a, b))
    if not all(math.isfinite(x) for x in used):
        return None
    fa, fb, fc = (Fraction(x) if math.isfinite(x) else Fraction(0) for x in (a, b, c))
    if op in ("div", "rcp"):
        num, den = (fa, fb) if op == "div" else (Fraction(1), fa)
        return None if den == 0 else num / den
    if op == "sqrt":
        return None if fa < 0 else ("sqrt", fa)
    return {"add": fa + fb, "sub": fa - fb, "mul": fa * fb, "fma": fa * fb + fc}[op]


def _cmp(y: float, x) -> int:
    """The sign of y - x, x exact (a Fraction, or ('sqrt', q) for the square root of q)."""
    if math.isinf(y):
        return 1 if y > 0 else -1
    if isinstance(x, tuple):  # y >= 0 compared with sqrt(q): compare squares
        q = x[1]
        if y < 0:
            return -1
        s = Fraction(y) ** 2
        return (s > q) - (s < q)
    return (Fraction(y) > x) - (Fraction(y) < x)


def _zero_sign(op: str, m: str, a: float, b: float, c: float, x) -> bool | None:
    """The sign bit an exact zero result has (IEEE 754 6.3), None where x is not zero."""
    if isinstance(x, tuple) or x != 0:
        return None if not isinstance(x, tuple) or x[1] != 0 else math.copysign(1, a) < 0
    if op in ("mul", "div", "rcp"):
        return None  # the sign of a product or quotient: the operands', checked against round-to-nearest below
    first, second = {"add": (a, b), "sub": (a, -b), "fma": (a * b, c)}[op]
    both_minus = math.copysign(1, first) < 0 and math.copysign(1, second) < 0
    return both_minus or (m == "rd" and not (math.copysign(1, first) > 0 and math.copysign(1, second) > 0))


def _check(op: str, m: str, a: float, b: float, c: float, y: float, rn: float, f32: bool) -> None:
    x = _exact(op, a, b, c)
    if x is None:  # NaN, infinities, x / 0: exact, as rounded to nearest
        assert (math.isnan(y) and math.isnan(rn)) or (y == rn and math.copysign(1, y) == math.copysign(1, rn)), \
            (op, m, a, b, c, y, rn)
        return
    down = m == "rd" or (m == "rz" and _cmp(0.0, x) <= 0)
    s = _cmp(y, x)
    if s == 0:
        zs = _zero_sign(op, m, a, b, c, x)
        if y == 0 and zs is not None:
            assert (math.copysign(1, y) < 0) == zs, (op, m, a, b, c, y)
        elif y == 0:
            assert math.copysign(1, y) == math.copysign(1, rn), (op, m, a, b, c, y, rn)
        return
    assert not (m == "rz" and math.isinf(y)), (op, m, a, b, c, y)
    if down:
        assert s < 0 and _cmp(_next(y, True, f32), x) > 0, (op, m, a, b, c, y)
    else:
        assert s > 0 and _cmp(_next(y, False, f32), x) < 0, (op, m, a, b, c, y)
    if y == 0:  # a nonzero result rounded to zero keeps its sign
        assert (math.copysign(1, y) < 0) == (_cmp(0.0, x) > 0), (op, m, a, b, c, y)


def _to_f32(x: float) -> float:
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _operands(rng: random.Random, f32: bool):
    bits, conv = (32, _f32) if f32 else (64, _f64)
    big = 3.4028234663852886e38 if f32 else 1.7976931348623157e308
    tiny = _f32(1) if f32 else 5e-324
    edges = [0.0, -0.0, 1.0, -1.0, 3.0, 0.1, tiny, -tiny, 2 * tiny, big, -big, math.inf, -math.inf, math.nan,
             (2.0 ** -126 if f32 else 2.0 ** -1022), 2.0 ** 60, 1.5, 7.0 / 3]
    rnd = _to_f32 if f32 else float
    for i in range(2400):
        k = i % 6
        if k == 0:
            yield [rng.choice(edges) for _ in range(3)]
        elif k == 1:  # near cancellation: a * b + c and a + b close to zero
            a, b = (rng.uniform(-4, 4) * 2.0 ** rng.randrange(-40, 40) for _ in range(2))
            yield [a, b, -rnd(a * b)]
            yield [a, -rnd(a * (1 + rng.choice([0.0, 2.0 ** -20, -(2.0 ** -52)]))), 0.0]
        elif k == 2:  # operands of moderate size: products, quotients and roots whose low bits decide
            yield [rng.uniform(-4, 4) * 2.0 ** rng.randrange(-30, 30) for _ in range(3)]
        elif k == 3:  # results in the subnormal range and past the largest finite value
            e = rng.randrange(-150, -120) if f32 else rng.randrange(-1100, -1020)
            yield [rng.uniform(1, 2) * 2.0 ** (e // 2), rng.uniform(-2, 2) * 2.0 ** (e - e // 2), rng.uniform(-1, 1) * 2.0 ** e]
            h = 126 if f32 else 1022
            yield [rng.uniform(1, 2) * 2.0 ** rng.randrange(h - 4, h + 1), rng.uniform(-4, 4) * 2.0 ** rng.randrange(0, 6),
                   rng.uniform(-1, 1) * 2.0 ** h]
        else:
            yield [conv(rng.getrandbits(bits)) for _ in range(3)]


HARNESS = """
#include <math.h>
#include <stdio.h>
#include <string.h>
#define __device__
{helpers}
typedef unsigned long long u64; typedef unsigned int u32;
static double d(u64 u) {{ double x; memcpy(&x, &u, 8); return x; }}
static u64 ud(double x) {{ u64 v; memcpy(&v, &x, 8); return v; }}
static float f(u32 u) {{ float x; memcpy(&x, &u, 4); return x; }}
static u32 uf(float x) {{ u32 v; memcpy(&v, &x, 4); return v; }}
int main(void) {{
    char t;
    u64 x, y, z;
    while (scanf(" %c %llx %llx %llx", &t, &x, &y, &z) == 4) {{
        if (t == 'd') {{
            double a = d(x), b = d(y), c = d(z);
{f64}
            printf("%llx %llx %llx %llx %llx %llx %llx\\n", ud(a + b), ud(a - b), ud(a * b), ud(a / b), ud(1.0 / a),
                   ud(sqrt(a)), ud(fma(a, b, c)));
        }} else {{
            float a = f((u32)x), b = f((u32)y), c = f((u32)z);
{f32}
            printf("%x %x %x %x %x %x %x\\n", uf(a + b), uf(a - b), uf(a * b), uf(fmaf(a, b, c)), uf(a / b),
                   uf(1.0f / a), uf(sqrtf(a)));
        }}
    }}
    return 0;
}}
"""


def _prints(ops: dict, fmt: str, conv: str, body: str) -> str:
    calls = []
    for op in ops:
        for m in MODES:
            call = re.search(rf"\bt_{op[2:]}_{m}\(\w+ a, \w+ b, \w+ c\)\s*\{{\s*return (.*?);\s*\}}", body, re.S)
            calls.append(f"{conv}({call.group(1)})")
    return f'            printf("{" ".join([fmt] * len(calls))} ", {", ".join(calls)});'


def test_the_helpers_round_each_result_to_the_nearest_value_on_the_asked_side(port, tmp_path):
    require_tool("gcc")
    body, text = port[0].body, port[1]
    helpers = "\n".join(re.search(rf"#define {guard}\n(.*?)\n#endif", text, re.S).group(1)
                        for guard in ("KP_HAVE_ROUND_TO_ZERO", "KP_HAVE_DIRECTED_ROUNDING"))
    c = tmp_path / "rnd.c"
    c.write_text(HARNESS.format(helpers=helpers.replace("__device__ inline", "static"),
                                f64=_prints(F64_OPS, "%llx", "ud", body), f32=_prints(F32_OPS, "%x", "uf", body)))
    # contraction off, as the helpers' pragma asks of clang (gcc reads no clang pragma)
    subprocess.run(["gcc", "-O2", "-ffp-contract=off", "-Wno-unknown-pragmas", "-o", str(tmp_path / "rnd"), str(c), "-lm"],
                   check=True)
    rng = random.Random("directed rounding")
    cases = [("d", o) for o in _operands(rng, False)] + [("f", o) for o in _operands(rng, True)]
    cases = [(t, [x if t == "d" else _to_f32(x) for x in o]) for t, o in cases]
    lines = [f"{t} " + " ".join(f"{_u64(x) if t == 'd' else struct.unpack('<I', struct.pack('<f', x))[0]:x}" for x in o)
             for t, o in cases]
    out = subprocess.run([str(tmp_path / "rnd")], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout.strip().split("\n")
    assert len(out) == len(cases)
    checked = 0
    for (t, (a, b, cc)), line in zip(cases, out):
        words = [int(w, 16) for w in line.split()]
        f32 = t == "f"
        ops = F32_OPS if f32 else F64_OPS
        conv = _f32 if f32 else _f64
        got, rn = words[:3 * len(ops)], [conv(w) for w in words[3 * len(ops):]]
        rn_of = dict(zip(("add", "sub", "mul", "fma", "div", "rcp", "sqrt") if f32 else
                         ("add", "sub", "mul", "div", "rcp", "sqrt", "fma"), rn))
        for i, (n, name) in enumerate(ops.values()):
            for j, m in enumerate(MODES):
                _check(name, m, a, b, cc, conv(got[3 * i + j]), rn_of[name], f32)
                checked += 1
    assert checked > 80000


def test_a_ported_interval_kernel_compiles_for_gfx90a_and_gfx1030(tmp_path):
    """Every helper in one HIP port (a header's port defines them under the same guard)."""
    require_tool("hipcc")
    src = SOURCE + ("__global__ void k(double* o, float* g) {\n  int i = threadIdx.x;\n"
                    "  o[i] = t_dadd_rd(o[i], 1.0, 0.0) + t_fma_ru(o[i], o[i], 1.0) + t_dsqrt_rz(o[i], 0.0, 0.0);\n"
                    "  g[i] = t_fmaf_rd(g[i], 2.0f, 1.0f) + t_fdiv_ru(g[i], 3.0f, 0.0f) + t_fsqrt_rd(g[i], 0.0f, 0.0f);\n}\n")
    port, text = translate(SourceFile.from_text(src, "k.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    f = tmp_path / "k.hip"
    f.write_text(text)
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"])
