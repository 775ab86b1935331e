"""PTX's conversions between f32 and an f16's bits (kernelport/ptx_idioms.py's `cvt.rn.f16.f32 h, f` and
`cvt.f32.f16 f, h`, a scope's `.reg .b16` registers; backends/hip_ptx_half.py; heldout96: a flash-attention
kernel's `f2dt` / `pack2` helpers were KP201): the HIP port calls hip_fp16's round-to-nearest-even conversion,
compiles for gfx90a and gfx1030, and ROCm's conversion (a `_Float16` cast), run on the host, gives the bits of
Python's IEEE half packing (round half to even, subnormals, overflow to infinity) and back exactly.  Another rounding (.rz), a 32-bit
register for the half, or a backend with no spelling (Metal) stays KP201 at its line."""
from __future__ import annotations

import math
import struct
import subprocess

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

SRC = """\
__device__ unsigned short f2h(float f) {
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
}
__device__ float h2f(unsigned short h) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
}
__device__ unsigned int pack2(float lo, float hi) {
    unsigned int r;
    asm("{ .reg .b16 a, b; cvt.rn.f16.f32 a, %1; cvt.rn.f16.f32 b, %2;"
        "  mov.b32 %0, {a, b}; }" : "=r"(r) : "f"(lo), "f"(hi));
    return r;
}
__global__ void k(const float* x, unsigned int* y, float* z) {
    y[threadIdx.x] = pack2(x[0], x[1]) ^ f2h(x[2]);
    z[threadIdx.x] = h2f((unsigned short)y[0]);
}
"""


def _port(code: str, backend: str = "hip"):
    return translate(SourceFile.from_text(code, "t.cu"), backend)


def test_the_conversions_port_to_hip_fp16_calls():
    port, whole = _port(SRC)
    assert port.ok, [d.format() for d in port.diagnostics]
    lines = port.body.splitlines()
    assert lines[2].strip() == "h = kp_cvt_rn_f16_f32(f);", lines[2]
    assert lines[7].strip() == "f = kp_cvt_f32_f16(h);", lines[7]
    assert lines[12].strip().startswith("{ unsigned short kp_ptx_a; unsigned short kp_ptx_b; "
                                        "kp_ptx_a = kp_cvt_rn_f16_f32(lo), kp_ptx_b = kp_cvt_rn_f16_f32(hi), r = "), lines[12]
    assert "#include <hip/hip_fp16.h>" in whole and "asm" not in port.body


def test_the_port_compiles_for_gfx90a_and_gfx1030(tmp_path):
    from test_header_uses import _hipcc
    _, whole = _port(SRC)
    r = _hipcc(tmp_path, whole)
    assert r.returncode == 0, r.stderr[-3000:]


def _half_bits(f: float) -> int:
    try:
        return struct.unpack("<H", struct.pack("<e", f))[0]
    except OverflowError:  # past the largest half: rounded to infinity, as PTX's cvt.rn does
        return 0x7c00 | (0x8000 if f < 0 else 0)


def test_the_polyfill_rounds_to_nearest_even_and_back_exactly(tmp_path):
    """ROCm 5.2's __float2half_rn is a `_Float16` conversion (amd_hip_fp16.h, read here) and __half2float its
    exact inverse: the same conversions, built for the host with clang, give the bits of Python's IEEE half."""
    import glob
    clang = require_tool("clang").path  # (clang 15: _Float16 on the x86-64 host)
    for header in glob.glob("/usr/include/hip/amd_detail/amd_hip_fp16.h")[:1]:
        text = " ".join(open(header, encoding="utf-8").read().split())
        assert "__half __float2half_rn(float x) { return __half_raw{static_cast<_Float16>(x)};" in text
        assert "float __half2float(__half x) { return static_cast<__half_raw>(x).data;" in text
    values = [0.0, -0.0, 1.0, -2.5, 65504.0, 65519.0, 65520.0, 70000.0, -1e9, 1e-8, 5.960464477539063e-08,
              2.98e-08, 3e-08, 1.0009765625, 1.00048828125, 1.000732421875, 0.1, 1 / 3, 6.097555160522461e-05,
              float("inf")]
    code = ("#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n"
            "int main(int argc, char** argv) {\n    for (int i = 1; i < argc; ++i) {\n"
            "        float f = strtof(argv[i], 0); _Float16 h = static_cast<_Float16>(f); unsigned short b;\n"
            "        memcpy(&b, &h, 2);\n        printf(\"%u %.9g\\n\", (unsigned)b, (double)(float)h);\n    }\n"
            "    return 0;\n}\n")
    (tmp_path / "h.cpp").write_text(code)
    exe = tmp_path / "h"
    subprocess.run([clang, "-x", "c++", "-O1", "-o", str(exe), str(tmp_path / "h.cpp"), "-lstdc++"], check=True, capture_output=True)
    out = subprocess.run([str(exe), *map(repr, values)], check=True, capture_output=True, text=True).stdout.split("\n")
    for v, line in zip(values, out):
        bits, back = line.split()
        f32 = struct.unpack("<f", struct.pack("<f", v))[0]  # the float the C program reads
        assert int(bits) == _half_bits(f32), (v, bits, hex(_half_bits(f32)))
        expect = struct.unpack("<e", struct.pack("<H", int(bits)))[0]
        back32 = struct.unpack("<f", struct.pack("<f", float(back)))[0]  # (%.9g round-trips a float)
        assert back32 == expect or (math.isinf(expect) and math.isinf(back32)), (v, back, expect)


@pytest.mark.parametrize("asm, backend, why", [
    ('asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(f));', "hip", "round toward zero: another rounding"),
    ('asm("cvt.rn.f16.f32 %0, %1;" : "=r"(w) : "f"(f));', "hip", "a 32-bit register for the half"),
    ('asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));', "metal", "a backend with no spelling of it"),
])
def test_a_look_alike_stays_kp201_at_its_line(asm, backend, why):
    code = (f"__device__ unsigned int g(float f) {{\n    unsigned short h = 0; unsigned int w = 0;\n    {asm}\n"
            "    return h + w;\n}\n__global__ void k(float* x, unsigned int* y) { y[0] = g(x[0]); }\n")
    port, _ = _port(code, backend)
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 3)], why
