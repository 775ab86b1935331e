"""An asm statement whose template one preprocessor conditional chooses, each branch a known PTX idiom
with a different port (kernelport/ptx_branches.py; heldout37: NVIDIA's simd_functions.h, copied into
an LDPC decoder, writes `#if __CUDA_ARCH__ >= 200` prmt / `#else` an and/or sequence inside one asm,
with `// a : b` comments between the strings and scope registers one branch never names: KP201
before).  The port keeps the conditional, each branch's C under its directive and computing exactly
that branch's PTX (evaluated here over random operands against a model of each branch, which differ on
purpose: no branch may be read as another); the port compiles with hipcc.  A conditional on the
NVIDIA architecture is no build's choice: the port is the branch current NVIDIA GPUs run (stop 50).  Look-alikes stay KP201:
two conditionals, a nested one, a branch with an instruction no form knows."""
from __future__ import annotations

import random
import re

import pytest

from kernelport import cexpr
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import hip_compiles

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


def _check(arm: str, model) -> None:
    rng = random.Random(37)
    for _ in range(300):
        a, b = rng.getrandbits(32), rng.choice([0, M32, rng.getrandbits(32)])
        assert _run(arm, a, b) == model(a, b), (arm, a, b)


def test_a_build_choice_keeps_each_branch_under_its_own_directive_computing_that_branch(tmp_path):
    """A conditional the target's build decides (`#ifdef FAST`, a -D the user passes) stays: each branch's C
    under its directive, computing exactly that branch's PTX."""
    branches = TWO.replace("__CUDA_ARCH__ >= 200", "defined(FAST)", 1)
    port, text = translate(SourceFile.from_text(_source(branches), "s.cu"), "hip")
    assert port.ok and not port.diagnostics, [d.format() for d in port.diagnostics]
    assert "asm" not in port.body and "#if defined(FAST)" in port.body
    arms = _arms(port.body)
    assert set(arms) == {"#if", "#else"}, port.body
    assert "kp_ptx_u" not in port.body  # the register neither branch names is not declared
    for key, model in MODELS.items():
        _check(arms[key], model)
    hip_compiles(tmp_path, text, "s.hip")


def test_an_architecture_test_ports_the_branch_current_nvidia_gpus_run_with_a_warning(tmp_path):
    """Re-pinned at stop 50 (was: both branches kept under `#if __CUDA_ARCH__ >= 200`).  Off NVIDIA
    `__CUDA_ARCH__` is undefined, so the kept conditional compiled the `#else`, a branch no CUDA 13 toolkit
    builds (sm_75 is its oldest): the port computed something other than the original on every current GPU
    (the models differ on purpose).  The port is the `#if` branch alone; KP237 (a warning) names both lines."""
    port, text = translate(SourceFile.from_text(_source(TWO), "s.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "asm" not in port.body and "__CUDA_ARCH__" not in port.body and "#else" not in port.body
    block = next(ln for ln in port.body.splitlines() if "kp_ptx_t" in ln)
    _check(block, MODELS["#if"])
    warn = [d for d in port.diagnostics if d.code == "KP237"]
    assert len(warn) == 1 and warn[0].severity == "warning" and warn[0].line == 4, port.diagnostics
    assert "line 7 (`#if __CUDA_ARCH__ >= 200`)" in warn[0].message and "line 9 (`#else`)" in warn[0].message
    assert "sm_75 and later" in warn[0].message
    hip_compiles(tmp_path, text, "s.hip")


def test_where_current_architectures_differ_the_newest_branch_is_taken_and_the_others_named():
    port, _ = translate(SourceFile.from_text(_source(TWO.replace("200", "800")), "s.cu"), "hip")
    block = next(ln for ln in port.body.splitlines() if "kp_ptx_t" in ln)
    _check(block, MODELS["#if"])
    warn = [d for d in port.diagnostics if d.code == "KP237"]
    assert len(warn) == 1 and "sm_75 take another" in warn[0].message, port.diagnostics
    # `#if __CUDA_ARCH__ < 800`: the same choice written the other way round takes the `#else`
    flipped = TWO.replace(">= 200", "< 800", 1)
    port, _ = translate(SourceFile.from_text(_source(flipped), "s.cu"), "hip")
    block = next(ln for ln in port.body.splitlines() if "kp_ptx_t" in ln)
    _check(block, MODELS["#else"])
    assert [d.code for d in port.diagnostics] == ["KP237"] and "line 9 (`#else`)," in port.diagnostics[0].message


@pytest.mark.parametrize("test", ["defined(__CUDA_ARCH__) && defined(FAST)", "__CUDA_ARCH__ >= SM_MIN",
                                  "defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 200 && FAST"])
def test_a_test_reading_more_than_the_architecture_keeps_its_branches(test):
    """Look-alikes: a test that reads a build's macro besides the architecture is no architecture choice."""
    port, _ = translate(SourceFile.from_text(_source(TWO.replace("__CUDA_ARCH__ >= 200", test, 1)), "s.cu"), "hip")
    assert port.ok and f"#if {test}" in port.body and not port.diagnostics, port.body


def test_branches_that_port_alike_need_no_warning():
    same = TWO.replace('"shr.u32 t, s, 7;           \\n\\t" // lsbs: s >> 7\n         "not.b32 t, t;              \\n\\t"',
                       '"and.b32 t, s, 0x80808080;  \\n\\t"')
    assert same != TWO
    port, _ = translate(SourceFile.from_text(_source(same), "s.cu"), "hip")
    assert port.ok and not port.diagnostics and "__CUDA_ARCH__" not in port.body, port.body


@pytest.mark.parametrize("branches, why", [
    (TWO + TWO.replace("200", "300"), "two conditionals in one statement"),
    ("#if __CUDA_ARCH__ >= 200\n#ifdef FAST\n" + '         "and.b32 t, s, 1;\\n\\t"\n' + "#endif\n#endif\n"
     '         "and.b32 t, s, 2;\\n\\t"\n', "a nested conditional"),
    (TWO.replace("and.b32 t, s, 0x80808080;", "vset2.u32.u32.ge t, s, 0, 0;"), "a branch no form knows"),
])
def test_a_look_alike_stays_kp201(branches, why):
    port, _ = translate(SourceFile.from_text(_source(branches), "s.cu"), "hip")
    assert not port.ok and any(d.code == "KP201" and d.line == 4 for d in port.diagnostics), (why, port.body)
