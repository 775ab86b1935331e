"""Inline PTX integer idioms on Metal (kernelport/ptx_idioms.py; heldout30's cuFHE ntt_ffp.cuh and
era-bellman's ptx.cuh stopped at KP201 on Metal while HIP ported them): the Metal port writes the same
C as the HIP port, whose meaning tests/test_ptx_idioms.py evaluates against a model of each PTX
instruction, in Metal's words (MSL has `ulong`/`long`, 64-bit, and no `long long`; CUDA's intrinsics are
the prologue's kp_ helpers); every port passes the Metal checker.  `__umul64hi` / `mul.hi.u64`, which
Metal lacks, is the prologue's kp_umul64hi, checked here against a 128-bit product."""
from __future__ import annotations

import random
import re
import subprocess

import pytest

from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool
from test_ptx_idioms import CASES, _source

_WORDS = (("unsigned long long", "ulong"), ("long long", "long"), ("0ull", "0ul"))
_CALLS = ("__funnelshift_l", "__funnelshift_lc", "__funnelshift_r", "__funnelshift_rc", "__umulhi", "__umul64hi")


def _in_metal_words(hip_line: str) -> str:
    for c, metal in _WORDS:
        hip_line = hip_line.replace(c, metal)
    for c in _CALLS:
        hip_line = hip_line.replace(f"{c}(", f"kp_{c[2:]}(")
    return hip_line


def _metal_helpers() -> set[str]:
    """The kp_ helpers Metal's PTX spellings call (its prologue's): prmt.b32's since stop 49."""
    from kernelport import backends
    return {h for k, v in backends.get("metal").spellings.items() if k.startswith("ptx_") and isinstance(v, str)
            for h in re.findall(r"\bkp_\w+(?=\()", v)}


@pytest.mark.parametrize("name", list(CASES))
def test_the_metal_port_of_the_idiom_is_the_hip_port_in_metal_words(name):
    require_tool("clang")
    hip, _ = translate(SourceFile.from_text(_source(name), "p.cu"), "hip")
    metal, _ = translate(SourceFile.from_text(_source(name), "p.cu"), "metal")
    hip_line = hip.body.splitlines()[2].strip()  # the asm statement's line (translate keeps lines)
    if set(re.findall(r"\bkp_\w+(?=\()", hip_line)) - _metal_helpers():  # a helper of HIP's prologue Metal's lacks (bfi)
        assert [d.code for d in metal.diagnostics if d.severity == "error"] == ["KP201"]
        return
    assert hip.ok and metal.ok, [d.format() for d in metal.diagnostics]  # (metal: its checker passed the port)
    line = metal.body.splitlines()[2].strip()
    assert "asm" not in line and "long long" not in line
    if not re.search(r"\b__(?!funnelshift|umul)\w+\(", hip_line):  # (HIP's own bit intrinsics: Metal's differ)
        assert line == _in_metal_words(hip_line)


@pytest.mark.parametrize("asm", [
    'asm("add.cc.u64 %0, %0, %1;" : "+l"(d) : "l"(a));',
    'asm("set.ge.f32.u32 %0, %1, %1;" : "=f"(x) : "r"(hi));',
])
def test_a_look_alike_stays_kp201_on_metal(asm):
    src = ("__device__ unsigned long long f(unsigned long long a, unsigned int hi) {\n"
           f"    unsigned long long d = a; float x = 0;\n    {asm}\n    return d + hi + (unsigned)x;\n}}\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "metal")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 3)]


def test_the_prologue_umul64hi_is_the_high_word_of_the_128_bit_product(tmp_path):
    gcc = require_tool("gcc")
    require_tool("clang")
    code = ("__device__ unsigned long long f(unsigned long long a, unsigned long long b) { return __umul64hi(a, b); }\n"
            "__global__ void k(unsigned long long* o) { o[0] = f(o[1], o[2]); }\n")
    port, text = translate(SourceFile.from_text(code, "p.cu"), "metal")
    assert port.ok and "kp_umul64hi(a, b)" in port.body, [d.format() for d in port.diagnostics]
    helper = re.search(r"inline ulong kp_umul64hi\(.*?\n}\n", text, re.S).group(0)
    prog = tmp_path / "hi.c"
    prog.write_text("#include <stdio.h>\ntypedef unsigned long ulong;\n" + helper.replace("inline ", "static ") +
                    "int main(void) { ulong a, b;\n  while (scanf(\"%lu %lu\", &a, &b) == 2) {\n"
                    "    unsigned __int128 p = (unsigned __int128)a * b;\n"
                    "    printf(\"%d\\n\", kp_umul64hi(a, b) == (ulong)(p >> 64)); }\n  return 0; }\n")
    subprocess.run([gcc, "-O1", "-o", str(tmp_path / "hi"), str(prog)], check=True)
    rng = random.Random(64)
    edges = [0, 1, (1 << 32) - 1, 1 << 32, (1 << 64) - 1, 1 << 63]
    pairs = [(a, b) for a in edges for b in edges] + [(rng.getrandbits(64), rng.getrandbits(64)) for _ in range(500)]
    out = subprocess.run([str(tmp_path / "hi")], input="\n".join(f"{a} {b}" for a, b in pairs), capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == ["1"] * len(pairs)


def test_a_conversion_operator_loses_the_cuda_space_words(tmp_path):
    # cuFHE ntt_ffp.cuh: `__host__ __device__ inline explicit operator uint64_t() { return val_; }` (the model
    # has no function for a conversion operator: KP224 unknown type name '__host__'); one of host code only goes
    require_tool("clang")
    code = ("#include <cstdint>\nstruct FFP {\n  uint64_t val_;\n"
            "  __host__ __device__ inline\n  explicit operator uint64_t() { return val_; }\n"
            "  __host__ explicit operator float() { return (float)val_; }\n"
            "  __host__ __device__ static inline FFP Root(uint32_t n) { FFP r; r.val_ = n; return r; }\n};\n"
            "__global__ void k(uint64_t* out) { FFP f = FFP::Root(threadIdx.x); out[threadIdx.x] = (uint64_t)f; }\n")
    port, _ = translate(SourceFile.from_text(code, str(tmp_path / "k.cu")), "metal")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "  inline\n  explicit operator uint64_t() { return val_; }" in port.body
    assert "/* operator float: host code, left out of the Metal port */" in port.body


def test_the_prologue_prmt_is_ptx_prmt_generic_form(tmp_path):
    """kp_prmt_b32 (Metal's prologue, stop 49: heldout37's simd_functions.h, whose sign-replicating
    `prmt.b32 s,a,0,0xba98` was KP201 on Metal) against tests/test_ptx_idioms.py's model of PTX's prmt."""
    from test_ptx_idioms import _prmt
    gcc = require_tool("gcc")
    require_tool("clang")
    code = ('__device__ unsigned f(unsigned a, unsigned b, unsigned c) { unsigned d;\n'
            '    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }\n'
            "__global__ void k(unsigned* o) { o[0] = f(o[1], o[2], o[3]); }\n")
    port, text = translate(SourceFile.from_text(code, "p.cu"), "metal")
    assert port.ok and "kp_prmt_b32(" in port.body, [d.format() for d in port.diagnostics]
    helper = re.search(r"inline uint kp_prmt_b32\(.*?\n}\n", text, re.S).group(0)
    prog = tmp_path / "prmt.c"
    prog.write_text("#include <stdio.h>\ntypedef unsigned int uint;\ntypedef unsigned long ulong;\n"
                    "#define ulong(x) ((ulong)(x))\n#define uint(x) ((uint)(x))\n" + helper.replace("inline ", "static ") +
                    "int main(void) { uint a, b, c;\n  while (scanf(\"%u %u %u\", &a, &b, &c) == 3)"
                    " printf(\"%u\\n\", kp_prmt_b32(a, b, c));\n  return 0; }\n")
    subprocess.run([gcc, "-O1", "-o", str(tmp_path / "prmt"), str(prog)], check=True)
    rng = random.Random(49)
    triples = [(rng.getrandbits(32), rng.getrandbits(32), rng.choice([0xba98, 0x7632, 0x0123, rng.getrandbits(16)]))
               for _ in range(500)] + [(0x80ff7f01, 0, 0xba98), (0x03020100, 0x07060504, 0x7531)]
    out = subprocess.run([str(tmp_path / "prmt")], input="\n".join(f"{a} {b} {c}" for a, b, c in triples),
                         capture_output=True, text=True, check=True).stdout.split()
    assert [int(x) for x in out] == [_prmt(a, b, c) for a, b, c in triples]
