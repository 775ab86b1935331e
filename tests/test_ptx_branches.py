"""An asm statement whose template one preprocessor conditional chooses, each branch a known PTX idiom
with a different port (kernelport/ptx_branches.py; heldout37: NVIDIA's simd_functions.h, copied into
an LDPC decoder, writes `#if __CUDA_ARCH__ >= 200` prmt / `#else` an and/or sequence inside one asm,
with `// a : b` comments between the strings and scope registers one branch never names: KP201
before).  The port keeps the conditional, each branch's C under its directive and computing exactly
that branch's PTX (evaluated here over random operands against a model of each branch, which differ on
purpose: no branch may be read as another); the port compiles with hipcc.  Look-alikes stay KP201:
two conditionals, a nested one, a branch with an instruction no form knows."""
from __future__ import annotations

import random
import re

import pytest

from kernelport import cexpr, toolchains
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import require_tool

M32 = (1 << 32) - 1


def _source(branches: str, regs: str = "s, t, u") -> str:
    return ("static __device__ __forceinline__ unsigned int lanes(unsigned int a, unsigned int b)\n{\n"
            "    unsigned int r;\n"
            '    asm ("{                          \\n\\t"\n'
            f'         ".reg .u32 {regs};          \\n\\t"\n'
            '         "xor.b32 s, %1, %2;         \\n\\t" // sum bits: a ^ b\n'
            f"{branches}"
            '         "mov.b32 %0, t;             \\n\\t"\n'
            '         "}"\n'
            '         : "=r"(r) : "r"(a), "r"(b));\n'
            "    return r;\n}\n"
            "__global__ void k(unsigned int* o) { o[0] = lanes(o[1], o[2]); }\n")


TWO = ("#if __CUDA_ARCH__ >= 200\n"
       '         "and.b32 t, s, 0x80808080;  \\n\\t" // msbs ? 0x80 : 0\n'
       "#else  /* __CUDA_ARCH__ >= 200 */\n"
       '         "shr.u32 t, s, 7;           \\n\\t" // lsbs: s >> 7\n'
       '         "not.b32 t, t;              \\n\\t"\n'
       "#endif /* __CUDA_ARCH__ >= 200 */\n")
MODELS = {"#if": lambda a, b: (a ^ b) & 0x80808080, "#else": lambda a, b: ~((a ^ b) >> 7) & M32}


def _arms(body: str) -> dict[str, str]:
    """The port's C under each directive of the conditional, by the directive's first word."""
    arms, key = {}, None
    for line in body.splitlines():
        word = line.strip().split()[0] if line.strip() else ""
        if word in ("#if", "#else", "#endif"):
            key = word if word != "#endif" else None
        elif key is not None and line.strip():
            arms[key] = line.strip()
    return arms


def _run(arm: str, a: int, b: int) -> int:
    """What the port's block `{ decls; w1, w2, ...; }` leaves in r for operands a, b."""
    *decls, writes = [d.strip() for d in arm.strip().strip("{}").split(";") if d.strip()]
    word = cexpr.TYPES["unsigned int"]
    env = {"a": cexpr.Value(word, a), "b": cexpr.Value(word, b)}
    for w, _ in cexpr.split_top_level(writes):
        out, expr = (x.strip() for x in w.split(" = ", 1))
        env[out] = cexpr.Value(word, cexpr.evaluate_typed(expr, env).v & M32)
    return env["r"].v


def test_each_branch_is_ported_under_its_own_directive_and_computes_that_branch(tmp_path):
    port, text = translate(SourceFile.from_text(_source(TWO), "s.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "asm" not in port.body and "__CUDA_ARCH__ >= 200" in port.body
    arms = _arms(port.body)
    assert set(arms) == {"#if", "#else"}, port.body
    assert "kp_ptx_u" not in port.body  # the register neither branch names is not declared
    rng = random.Random(37)
    for _ in range(300):
        a, b = rng.getrandbits(32), rng.choice([0, M32, rng.getrandbits(32)])
        for key, model in MODELS.items():
            assert _run(arms[key], a, b) == model(a, b), (key, arms[key], a, b)
    require_tool("hipcc")
    f = tmp_path / "s.hip"
    f.write_text(text)
    r = toolchains.compile_hip(f, ["gfx90a", "gfx1030"])
    assert r.ok, r.output[-3000:]


@pytest.mark.parametrize("branches, why", [
    (TWO + TWO.replace("200", "300"), "two conditionals in one statement"),
    ("#if __CUDA_ARCH__ >= 200\n#ifdef FAST\n" + '         "and.b32 t, s, 1;\\n\\t"\n' + "#endif\n#endif\n"
     '         "and.b32 t, s, 2;\\n\\t"\n', "a nested conditional"),
    (TWO.replace("and.b32 t, s, 0x80808080;", "vset2.u32.u32.ge t, s, 0, 0;"), "a branch no form knows"),
])
def test_a_look_alike_stays_kp201(branches, why):
    port, _ = translate(SourceFile.from_text(_source(branches), "s.cu"), "hip")
    assert not port.ok and any(d.code == "KP201" and d.line == 4 for d in port.diagnostics), (why, port.body)
