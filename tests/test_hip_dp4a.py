"""CUDA's `__dp4a` in the HIP port (kernelport/backends/hip_dp4a.py; heldout96: four quantised-GEMM tests failed
hipcc on it: ROCm 5.2 declares no `__dp4a`): the call is `kp_dp4a`, the prologue defines CUDA's four overloads
where a port calls one, the port compiles for gfx90a and gfx1030, and each overload, built with g++ from the
prologue's text, gives a model's value (signed bytes for int / char4, unsigned for unsigned int / uchar4, the sum
wrapping in 32 bits) over edge and random operands.  A file's own `__dp4a` is its own: left alone."""
from __future__ import annotations

import random

from kernelport.source import SourceFile
from kernelport.translate import translate

KERNEL = """\
__global__ void k(const int* a, const unsigned int* u, int* out, unsigned int* uout) {
    int i = threadIdx.x;
    out[i] = __dp4a(a[i], a[i + 1], out[i]);
    uout[i] = __dp4a(u[i], u[i + 1], uout[i]);
}
"""


def test_dp4a_ports_to_the_prologue_s_kp_dp4a_and_compiles(tmp_path):
    from test_header_uses import _hipcc
    port, whole = translate(SourceFile.from_text(KERNEL, "t.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "out[i] = kp_dp4a(a[i], a[i + 1], out[i]);" in whole and "#define KP_HAVE_DP4A" in whole, whole
    r = _hipcc(tmp_path, whole)
    assert r.returncode == 0, r.stderr[-3000:]


def test_a_file_s_own_dp4a_is_left_alone():
    code = "__device__ int __dp4a(int a, int b, int c) { return a + b + c; }\n" + KERNEL.replace(
        "    uout[i] = __dp4a(u[i], u[i + 1], uout[i]);\n", "")
    port, whole = translate(SourceFile.from_text(code, "t.cu"), "hip")
    assert "kp_dp4a" not in whole and "__dp4a(a[i], a[i + 1], out[i])" in whole, whole


def _model(a: int, b: int, c: int, signed: bool) -> int:
    def byte(x, j):
        v = (x >> (8 * j)) & 0xff
        return v - 256 if signed and v > 127 else v
    s = (c + sum(byte(a, j) * byte(b, j) for j in range(4))) & 0xffffffff
    return s - (1 << 32) if signed and s >> 31 else s


def test_each_overload_computes_cuda_s_dp4a(tmp_path):
    from conftest import run_host_check
    from kernelport.backends.hip_dp4a import POLYFILL
    rng = random.Random(4)
    edge = [0, 1, 0x7f7f7f7f, 0x80808080, 0xffffffff, 0x01ff80ff]
    cases = [(rng.choice(edge) if i % 3 == 0 else rng.getrandbits(32), rng.choice(edge) if i % 3 == 1 else
              rng.getrandbits(32), rng.choice([0, 0x7fffffff, 0x80000000, 0xffffffff]) if i % 2 else rng.getrandbits(32))
             for i in range(300)]
    rows = []
    for a, b, c in cases:
        sa, sb, sc = (x - (1 << 32) if x >> 31 else x for x in (a, b, c))
        rows.append(f"    check(kp_dp4a({sa}, {sb}, {sc}) == {_model(a, b, c, True)}, {a}u, {b}u);\n"
                    f"    check(kp_dp4a({a}u, {b}u, {c}u) == {_model(a, b, c, False)}u, {a}u, {b}u);\n"
                    f"    check(kp_dp4a(c4({a}u), c4({b}u), {sc}) == {_model(a, b, c, True)}, {a}u, {b}u);\n"
                    f"    check(kp_dp4a(u4({a}u), u4({b}u), {c}u) == {_model(a, b, c, False)}u, {a}u, {b}u);\n")
    src = ("#include <cstdio>\n#define __device__\nstruct char4 { signed char x, y, z, w; };\n"
           "struct uchar4 { unsigned char x, y, z, w; };\n" + POLYFILL +
           "static int failures = 0;\nstatic void check(bool ok, unsigned a, unsigned b) {\n"
           "    if (!ok && failures++ < 8) std::printf(\"a %08x b %08x\\n\", a, b);\n}\n"
           "static char4 c4(unsigned v) { return {(signed char)v, (signed char)(v >> 8), (signed char)(v >> 16), "
           "(signed char)(v >> 24)}; }\n"
           "static uchar4 u4(unsigned v) { return {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), "
           "(unsigned char)(v >> 24)}; }\n"
           "int main() {\n" + "".join(rows) + "    std::printf(\"%d failures\\n\", failures);\n    return failures != 0;\n}\n")
    run_host_check(tmp_path, "dp4a_host", src.replace("-2147483648,", "(-2147483647 - 1),").replace(
        "== -2147483648", "== (-2147483647 - 1)"))
