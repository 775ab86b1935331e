"""CUDA's SIMD-within-a-word intrinsics on HIP (kernelport/backends/hip_simd.py; heldout16 refused
`__vadd2` and `__vmaxs2` at KP210: ROCm 5.2 has none of the family).  Every polyfill is compiled with
g++ as plain C++ and compared with a model written here from CUDA's documented meaning
(crt/device_functions.h's SIMD section) over edge and random operands; a port calling them compiles
with hipcc for gfx90a and gfx1030 and carries only the definitions it calls; the ones whose
documented meaning is ambiguous stay refused, located."""
from __future__ import annotations

import math
import random
import struct
import subprocess

from kernelport.backends import hip_simd
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool
from host_cpp import run_host_cpp


def _lanes(w: int, bits: int, signed: bool) -> list[int]:
    out = []
    for s in range(0, 32, bits):
        v = (w >> s) & ((1 << bits) - 1)
        out.append(v - (1 << bits) if signed and v >> (bits - 1) else v)
    return out


def _pack(vals: list[int], bits: int) -> int:
    return sum((v % (1 << bits)) << (bits * i) for i, v in enumerate(vals))


def _model(name: str, a: int, b: int) -> int:
    """CUDA's documented result of `__v<name>(a, b)` (b unused by the one-operand ones)."""
    n = int(name[-1])
    bits = 32 // n
    op = name[:-1]
    signed = op in ("abs", "absss", "neg", "negss", "addss", "subss", "absdiffs", "sads", "maxs", "mins") or (
        op.startswith("cmp") and op.endswith("s"))
    smin, smax, umax = -(1 << (bits - 1)), (1 << (bits - 1)) - 1, (1 << bits) - 1
    xs, ys = _lanes(a, bits, signed), _lanes(b, bits, signed)
    ones = umax
    per = {
        "abs": lambda x, y: abs(x),  # |-2^(bits-1)| wraps to itself
        "absss": lambda x, y: min(abs(x), smax),
        "neg": lambda x, y: -x,
        "negss": lambda x, y: min(-x, smax),
        "add": lambda x, y: x + y, "sub": lambda x, y: x - y,
        "addss": lambda x, y: max(smin, min(smax, x + y)), "subss": lambda x, y: max(smin, min(smax, x - y)),
        "addus": lambda x, y: min(umax, x + y), "subus": lambda x, y: max(0, x - y),
        "avgu": lambda x, y: (x + y + 1) // 2, "haddu": lambda x, y: (x + y) // 2,
        "absdiffs": lambda x, y: abs(x - y), "absdiffu": lambda x, y: abs(x - y),
        "maxs": max, "maxu": max, "mins": min, "minu": min,
        "cmpeq": lambda x, y: ones * (x == y), "cmpne": lambda x, y: ones * (x != y),
        **{f"cmp{k}{s}": (lambda f: lambda x, y: ones * f(x, y))(f) for s in "su" for k, f in (
            ("ge", lambda x, y: x >= y), ("gt", lambda x, y: x > y),
            ("le", lambda x, y: x <= y), ("lt", lambda x, y: x < y))},
    }
    if op in ("sads", "sadu"):
        return sum(abs(x - y) for x, y in zip(xs, ys))
    return _pack([per[op](x, y) for x, y in zip(xs, ys)], bits)


def _operands() -> list[tuple[int, int]]:
    edges = [0, 1, 0xFFFFFFFF, 0x7FFF7FFF, 0x80008000, 0x7F7F7F7F, 0x80808080, 0x00FF00FF, 0xFF00FF00,
             0x8000FFFF, 0x7FFF0001, 0x01807F80, 0x12345678, 0xFFFE0002]
    rng = random.Random(16)
    rand = [rng.getrandbits(32) for _ in range(40)]
    return [(a, b) for a in edges for b in edges] + [(rng.getrandbits(32), rng.getrandbits(32)) for _ in range(600)] \
        + [(a, a) for a in rand]


def test_every_polyfill_is_cuda_documented_meaning(tmp_path):
    gxx = require_tool("g++")
    names = [n[3:] for n in hip_simd.names() if n[3:-1] in hip_simd.OPS]  # DPX: test_hip_dpx.py
    assert {"add2", "maxs2", "sads4", "cmpleu2", "absss4", "addus2"} <= set(names)
    ops = _operands()
    calls = "\n".join(
        f'    for (int i = 0; i < {len(ops)}; ++i) printf("%u\\n", kp_v{n}(A[i]' +
        (", B[i]" if hip_simd.OPS[n[:-1]][0] == 2 else "") + "));" for n in names)
    src = (hip_simd.definitions(" ".join(f"kp_v{n}(" for n in names)) +
           "#include <cstdio>\n"
           f"static const unsigned int A[] = {{{', '.join(f'{a}u' for a, _ in ops)}}};\n"
           f"static const unsigned int B[] = {{{', '.join(f'{b}u' for _, b in ops)}}};\n"
           f"int main() {{\n{calls}\n    return 0;\n}}\n")
    got = run_host_cpp(gxx, tmp_path, "simd", src)
    wrong = []
    for k, n in enumerate(names):
        for i, (a, b) in enumerate(ops):
            if int(got[k * len(ops) + i]) != _model(n, a, b):
                wrong.append((n, hex(a), hex(b), hex(int(got[k * len(ops) + i])), hex(_model(n, a, b))))
    assert wrong == [], wrong[:10]


_SRC = """__global__ void k(const unsigned int* a, const unsigned int* b, unsigned int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int s = __vadd2(a[i], b[i]) ^ __vmaxs2(a[i], b[i]);
        out[i] = s + __vabsss4(a[i]) + __vsads4(a[i], b[i]) + __vcmpleu2(a[i], b[i]);
    }
}
"""


def test_heldout16_intrinsics_are_ported_and_compile(tmp_path):
    port, text = translate(SourceFile.from_text(_SRC, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_vadd2(a[i], b[i]) ^ kp_vmaxs2(a[i], b[i])" in text and "__v" not in text.split("__global__")[1]
    defined = {line.split()[5].split("(")[0] for line in text.splitlines() if line.startswith("__device__ __host__")}
    assert defined == {"kp_vadd2", "kp_vmaxs2", "kp_vabsss4", "kp_vsads4", "kp_vcmpleu2"}  # only what it calls
    tool = require_tool("hipcc")
    path = tmp_path / "p.hip"
    path.write_text(text)
    assert_hip_file_compiles(path, ["gfx90a", "gfx1030"])
    assert tool


def test_no_intrinsic_no_definitions():
    _, text = translate(SourceFile.from_text("__global__ void k(unsigned int* o) { o[0] = 1u; }\n", "p.cu"), "hip")
    assert "kp_v" not in text and "SIMD" not in text


def test_ambiguous_ones_stay_refused_located():
    src = "__global__ void k(unsigned int* o, unsigned int a)\n{\n    o[0] = __vavgs2(a, a) + __vseteq4(a, a);\n}\n"
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    errors = [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"]
    assert errors == [("KP210", 3, 12), ("KP210", 3, 29)]


def test_a_users_own_function_of_the_name_is_left_alone():
    src = ("__device__ unsigned int __vadd2(unsigned int a, unsigned int b) { return a + b; }\n"
           "__global__ void k(unsigned int* o, unsigned int a) { o[0] = __vadd2(a, a); }\n")
    port, text = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert port.ok and "o[0] = __vadd2(a, a)" in text and "kp_vadd2" not in text


def _half(bits: int) -> float:
    return struct.unpack("<e", struct.pack("<H", bits))[0]


def _half_model(a: int, b: int, is_max: bool, nan: bool) -> int:
    """cuda_fp16.h's __hmax/__hmin (per half of __hmax2/__hmin2): (a > b) ? a : b (min: a < b), +0.0 > -0.0;
    one NaN operand: the other (the _nan forms: NaN); two NaNs: the canonical NaN 0x7fff."""
    x, y = _half(a), _half(b)
    if math.isnan(x) or math.isnan(y):
        return 0x7FFF if (math.isnan(x) and math.isnan(y)) or nan else (b if math.isnan(x) else a)
    if x == y == 0.0:  # +0 > -0
        x, y = math.copysign(1, x), math.copysign(1, y)
    return a if (x > y if is_max else x < y) else b


def test_half2_max_min_are_cuda_documented_meaning(tmp_path):
    gxx = require_tool("g++")
    edges = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00,
             0x7C01, 0x7E00, 0xFE00, 0x7FFF, 0xFFFF, 0x3555, 0xB555]
    rng = random.Random(2)
    pairs = [(a, b) for a in edges for b in edges] + [(rng.getrandbits(16), rng.getrandbits(16)) for _ in range(4000)]
    modes = [(1, 0), (0, 0), (1, 1), (0, 1)]
    assert set(hip_simd.HALF_OPS.values()) == set(modes)  # the pairs' and the single halves' forms alike
    src = (hip_simd.HALF_BITS + "\n#include <cstdio>\n"
           f"static const unsigned short A[] = {{{', '.join(str(a) for a, _ in pairs)}}};\n"
           f"static const unsigned short B[] = {{{', '.join(str(b) for _, b in pairs)}}};\n"
           "int main() {\n" + "".join(
               f'    for (int i = 0; i < {len(pairs)}; ++i) printf("%u\\n", (unsigned)kp_hminmax_bits(A[i], B[i], {m}, {n}));\n'
               for m, n in modes) + "    return 0;\n}\n")
    (tmp_path / "h.cpp").write_text(src)
    exe = tmp_path / "h"
    subprocess.run([str(getattr(gxx, "path", gxx)), "-std=c++17", "-Wall", "-Werror", "-D__device__=", "-D__host__=",
                    "-fsanitize=undefined", "-fno-sanitize-recover", "-o", str(exe), str(tmp_path / "h.cpp")], check=True)
    got = [int(v) for v in subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()]
    wrong = [(hex(a), hex(b), m, n, hex(got[k * len(pairs) + i])) for k, (m, n) in enumerate(modes)
             for i, (a, b) in enumerate(pairs) if got[k * len(pairs) + i] != _half_model(a, b, bool(m), bool(n))]
    assert wrong == [], wrong[:10]


def test_half2_max_min_are_ported_and_compile(tmp_path):
    src = ("#include <cuda_fp16.h>\n__global__ void k(const __half2* a, const __half2* b, __half2* o)\n{\n"
           "    o[0] = __hmax2(a[0], b[0]);\n    o[1] = __hmin2_nan(a[0], b[0]);\n}\n")
    port, text = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "o[0] = kp_hmax2(a[0], b[0]);" in text and "o[1] = kp_hmin2_nan(a[0], b[0]);" in text
    assert "kp_hmin2(" not in text and "kp_hmax2_nan(" not in text  # only what it calls
    require_tool("hipcc")
    path = tmp_path / "p.hip"
    path.write_text(text)
    assert_hip_file_compiles(path, ["gfx90a", "gfx1030"])


def test_half_max_min_are_ported_and_compile(tmp_path):
    """hip66c: `__hmax`/`__hmin`/`__hmax_nan`/`__hmin_nan` on one `__half` (ROCm 5.2 has none: the port wrote them
    as is and hipcc failed with no diagnostic); the prologue's kp_ forms on kp_hminmax_bits, checked above."""
    src = ("#include <cuda_fp16.h>\n__global__ void k(const __half* a, const __half* b, __half* o)\n{\n"
           "    o[0] = __hmax(a[0], b[0]);\n    o[1] = __hmin_nan(a[0], b[0]);\n}\n")
    port, text = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "o[0] = kp_hmax(a[0], b[0]);" in text and "o[1] = kp_hmin_nan(a[0], b[0]);" in text
    assert "__device__ inline __half kp_hmax(__half a, __half b)" in text
    assert "kp_hmin(" not in text and "kp_hmax2(" not in text  # only what it calls
    require_tool("hipcc")
    path = tmp_path / "p.hip"
    path.write_text(text)
    assert_hip_file_compiles(path, ["gfx90a", "gfx1030"])


def test_a_users_own_half_max_is_left_alone():
    src = ("#include <cuda_fp16.h>\n__device__ __half __hmax(__half a, __half b) { return a; }\n"
           "__global__ void k(const __half* a, __half* o) { o[0] = __hmax(a[0], a[1]); }\n")
    port, text = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert port.ok and "o[0] = __hmax(a[0], a[1])" in text and "kp_hmax" not in text


def test_dpx_predicate_forms_are_refused_located_not_left_for_hipcc():
    """CUDA 12's DPX __vibmax/__vibmin (a result plus predicates through pointers), which HIPIFY does not
    list and kernelport does not port (hip_simd.DPX_FORMS): KP210 at the call, not kept for hipcc to reject."""
    src = ("__global__ void k(unsigned int* o, unsigned int a, int b, bool* p)\n{\n"
           "    o[0] = __vibmax_u16x2(a, a, p, p + 1) + __vadd2(a, a);\n    o[1] = (unsigned)__vibmin_s32(b, b, p);\n}\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    errors = [(d.code, d.location.line, d.location.column) for d in port.diagnostics if d.severity == "error"]
    assert errors == [("KP210", 3, 12), ("KP210", 4, 22)]
    own = ("__device__ int __vimax3_s32(int a, int b, int c) { return a > b ? a : b > c ? b : c; }\n"
           "__global__ void k(int* o, int b) { o[0] = __vimax3_s32(b, 1, 2); }\n")
    port, text = translate(SourceFile.from_text(own, "p.cu"), "hip")
    assert port.ok and "o[0] = __vimax3_s32(b, 1, 2)" in text and "kp_vimax3" not in text
