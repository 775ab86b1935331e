"""Carry chains in one asm statement (kernelport/ptx_idioms.py CARRY, issue 11: heldout15's cuda-fixnum
and multi-word arithmetic alike): add/sub{c}{.cc}, mad{c}.lo/hi{.cc} on .u32/.u64, the carry flag a C
temporary of the statement.  Each port is evaluated over random and edge operands (all-ones words, so
that carries ripple) against an interpreter of the PTX template written from the PTX ISA, and compiled
with hipcc for gfx90a and gfx1030 (the originals with nvcc for sm_80, where it is here: the templates
are PTX ptxas takes).  A chain whose carry crosses statements stays KP201, located, saying so."""
from __future__ import annotations

import random
import re
from functools import lru_cache

import pytest

from kernelport import cexpr, ptx_idioms
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool
from test_ptx_idioms import _eval  # (ROCm's __umulhi / __umul64hi, modelled from ROCm 5.2's headers)

_CTYPE = {"r": "unsigned int", "l": "unsigned long long"}
_BITS = {"r": 32, "l": 64}


def _ptx(template: str, values: list[int], widths: str) -> list[int]:
    """PTX ISA: add{c}{.cc}, sub{c}{.cc}, mad{c}.lo/hi{.cc} on .u32/.u64.  `values[k]` is %k's value on
    entry; what every operand holds afterwards.  CC.CF: the carry-out of a sum, the borrow-out (1 where
    the exact difference is negative) of a difference; the `c` forms add (subtract) it."""
    regs, cf = list(values), None
    for instr in (i.strip() for i in template.split(";") if i.strip()):
        name, _, rest = instr.partition(" ")
        m = re.fullmatch(r"(add|sub|mad)(c?)(?:\.(lo|hi))?(\.cc)?\.u(32|64)", name)
        n = int(m.group(5))
        args = [a.strip() for a in rest.split(",")]
        val = [regs[int(a[1:])] if a.startswith("%") else int(a) for a in args]
        cin = 0
        if m.group(2):
            assert cf is not None, "a carry-in the statement did not set"
            cin = cf
        if m.group(1) == "mad":
            p = val[1] * val[2]
            s = (p & ((1 << n) - 1) if m.group(3) == "lo" else p >> n) + val[3] + cin
        else:
            s = val[1] + val[2] + cin if m.group(1) == "add" else val[1] - val[2] - cin
        regs[int(args[0][1:])] = s % (1 << n)
        if m.group(4):
            cf = int(s < 0) if m.group(1) == "sub" else s >> n
    return regs


# (template, the outputs' constraints ("+" where the output is read), the inputs' constraints)
CASES = {
    # a 4-word sum, its carry-out as a fifth word (`addc.u32 %4, 0, 0`)
    "add4_u32": ("add.cc.u32 %0, %5, %9; addc.cc.u32 %1, %6, %10; addc.cc.u32 %2, %7, %11; "
                 "addc.cc.u32 %3, %8, %12; addc.u32 %4, 0, 0;", "=r =r =r =r =r", "r r r r r r r r"),
    # a 3-word difference, the borrow-out as all-ones (`subc.u32 %3, 0, 0`)
    "sub3_u32": ("sub.cc.u32 %0, %4, %7; subc.cc.u32 %1, %5, %8; subc.cc.u32 %2, %6, %9; subc.u32 %3, 0, 0;",
                 "=r =r =r =r", "r r r r r r"),
    "add2_u64": ("add.cc.u64 %0, %2, %4; addc.u64 %1, %3, %5;", "=l =l", "l l l l"),
    "sub2_u64": ("sub.cc.u64 %0, %2, %4; subc.u64 %1, %3, %5;", "=l =l", "l l l l"),
    # in place: {r, q, p} += {0, b, a}, each result also an operand the carry-out reads
    "add_in_place": ("add.cc.u32 %0, %0, %3; addc.cc.u32 %1, %1, %4; addc.u32 %2, %2, 0;", "+r +r +r", "r r"),
    "sub_in_place_u64": ("sub.cc.u64 %0, %0, %2; subc.u64 %1, %1, %3;", "+l +l", "l l"),
    # cuda-fixnum's mad_wide: hi * 2^64 + lo = a * b + c
    "mad_wide_u64": ("mad.lo.cc.u64 %1, %2, %3, %4; madc.hi.u64 %0, %2, %3, 0;", "=l =l", "l l l"),
    # a row of a schoolbook product: {r, q, p} += a * b, then the high halves of a * c into q, r
    "mad_row_u32": ("mad.lo.cc.u32 %0, %3, %4, %0; madc.hi.cc.u32 %1, %3, %4, %1; addc.u32 %2, %2, 0; "
                    "mad.hi.cc.u32 %1, %3, %5, %1; madc.lo.u32 %2, %3, %5, %2;", "+r +r +r", "r r r"),
    "madc_lo_cc_u64": ("add.cc.u64 %0, %2, %3; madc.lo.cc.u64 %1, %2, %3, %4; addc.u64 %0, %0, 0;", "+l =l", "l l l"),
    # a flag read twice: both addc read add.cc's carry (no .cc between them)
    "carry_read_twice": ("add.cc.u32 %0, %2, %3; addc.u32 %1, %2, %3; addc.u32 %0, %0, 0;", "+r =r", "r r"),
    # plain forms (no flag): exact too
    "plain_mad_add": ("mad.lo.u32 %0, %1, %2, %3; add.u32 %0, %0, %3;", "+r", "r r r"),
}


def _case(name: str):
    template, outs, ins = CASES[name]
    outs, ins = outs.split(), ins.split()
    return template, [(f"o{i}", c[1], c[0] == "+") for i, c in enumerate(outs)], [(f"i{i}", c) for i, c in enumerate(ins)]


def _source(name: str, context: str = "{asm}") -> str:
    """A device function running case `name`'s asm statement, written as `context` places it (an
    unbraced body: `if (...) {asm} else ...`), on line 3, and a kernel calling it."""
    template, outs, ins = _case(name)
    params = ", ".join([f"{_CTYPE[w]} {n}" for n, w in ins] + [f"{_CTYPE[w]} {n}_in" for n, w, _ in outs])
    decl = " ".join(f"{_CTYPE[w]} {n} = {n}_in;" for n, w, _ in outs)
    asm = (f'asm("{template}" : ' + ", ".join(f'"{"+" if rw else "="}{w}"({n})' for n, w, rw in outs) +
           " : " + ", ".join(f'"{w}"({n})' for n, w in ins) + ");")
    store = " ".join(f"o[{i}] = {n};" for i, (n, _, _) in enumerate(outs))
    args = ", ".join(f"p[{i}]" for i in range(len(ins) + len(outs)))
    asm = context.format(asm=asm)
    return (f"__device__ void f_{name}(unsigned long long* o, {params}) {{\n    {decl}\n    {asm}\n    {store}\n}}\n"
            f"__global__ void k_{name}(unsigned long long* o, const unsigned long long* p) {{ f_{name}(o, {args}); }}\n")


def _operands(rng: random.Random, widths: list[str]):
    for i in range(600):
        yield [rng.choice([0, 1, (1 << _BITS[w]) - 1, (1 << _BITS[w]) - 2]) if i % 3 == 0 else
               (1 << _BITS[w]) - 1 - rng.randrange(3) if i % 3 == 1 and rng.random() < 0.6 else
               rng.getrandbits(_BITS[w]) for w in widths]


@pytest.mark.parametrize("name", list(CASES))
def test_the_hip_port_of_a_carry_chain_computes_the_ptx(name):
    template, outs, ins = _case(name)
    port, _ = translate(SourceFile.from_text(_source(name), "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    line = port.body.splitlines()[2].strip()
    assert line.startswith("{") and line.endswith("}"), line  # the flag: a temporary of a C block
    _check_block(name, line)


@lru_cache(maxsize=None)
def _check_block(name: str, line: str) -> None:
    """The port `line` (a `{ temporaries; writes; }`) of case `name` computes what the PTX does.  Its
    verdict depends on its arguments alone (the operands come from random.Random(name)), so a block
    this process has already found right is not evaluated again (the unbraced contexts' ports hold the
    plain port's block: 600 operand rows evaluated in Python, ~1 CPU s a case); a failure is never
    cached (lru_cache keeps return values, not exceptions): every test that meets it fails."""
    template, outs, ins = _case(name)
    *decls, body = [d.strip() for d in line[1:-1].split(";") if d.strip()]
    types = {n: cexpr.TYPES[_CTYPE[w]] for n, w in ins}
    types.update({n: cexpr.TYPES[_CTYPE[w]] for n, w, _ in outs})
    types.update({d.split()[-1]: cexpr.TYPES[" ".join(d.split()[:-1])] for d in decls})
    writes = [(o.strip(), e) for o, e in (w.split(" = ", 1) for w, _ in cexpr.split_top_level(body))]
    widths = [w for _, w, _ in outs] + [w for _, w in ins]
    for vals in _operands(random.Random(name), widths):
        env = {n: v for (n, _, _), v in zip(outs, vals)}
        env.update({n: v for (n, _), v in zip(ins, vals[len(outs):])})
        for out, expr in writes:
            env[out] = _eval(expr, env, types) & ((1 << types[out].bits) - 1)
        want = _ptx(template, vals, "".join(widths))[:len(outs)]
        assert [env[n] for n, _, _ in outs] == want, (name, vals)


def test_the_carry_chain_ports_compile_for_gfx90a_and_gfx1030(tmp_path):
    require_tool("hipcc")
    f = tmp_path / "chains.hip"
    f.write_text("\n".join(translate(SourceFile.from_text(_source(n), "p.cu"), "hip")[1] for n in CASES))
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"])


def test_the_chains_are_ptx_ptxas_takes(tmp_path):
    """The templates the model reads are real PTX (nvcc compiles the originals for sm_80)."""
    import subprocess
    require_tool("nvcc")
    f = tmp_path / "chains.cu"
    f.write_text("".join(_source(n) for n in CASES))
    r = subprocess.run(["nvcc", "-arch=sm_80", "-c", "-o", str(tmp_path / "chains.o"), str(f)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]


@pytest.mark.parametrize("asm, why", [
    ('asm("addc.u32 %0, %1, %2;" : "=r"(lo) : "r"(hi), "r"(hi));', "`addc.u32` reads PTX's carry flag"),
    ('asm("madc.lo.cc.u64 %0, %1, %2, %3;" : "=l"(d) : "l"(a), "l"(a), "l"(a));', "`madc.lo.cc.u64` reads"),
    # an addc before the add.cc that sets the flag: its carry-in is the previous statement's
    ('asm("addc.u32 %0, %2, %3; add.cc.u32 %1, %2, %3; addc.u32 %0, %0, 0;" : "+r"(lo), "=r"(hi) : "r"(a), "r"(a));',
     "`addc.u32` reads PTX's carry flag"),
])
def test_a_chain_across_statements_stays_kp201_saying_why(asm, why):
    """Re-pinned in stop 45 (kernelport/carry_calls.py threads the flag through calls): a carry-in that nothing in
    the thread sets before it is KP201 at the call that reads it (the kernel's `f(...)`, line 6), naming it; the
    statement's own reason is what lint and the Metal port (which spells no carry variable) say."""
    src = ("__device__ unsigned long long f(unsigned long long a, unsigned int hi) {\n"
           f"    unsigned long long d = a; unsigned int lo = 1;\n    {asm}\n    return d + lo + hi;\n}}\n"
           "__global__ void k(unsigned long long* o) { o[0] = f(o[1], 2); }\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line, d.location.column) for d in errors] == [("KP201", 6, 51)]
    assert "'f' reads PTX's carry flag before setting it" in errors[0].message and "no writer" in errors[0].message
    assert why in ptx_idioms.why_not(asm.rstrip(";"))


@pytest.mark.parametrize("asm", [
    'asm("add.cc.u32 %0, %1, %2;" : "=r"(lo) : "r"(hi), "r"(hi));',
    'asm("add.cc.u32 %0, %1, %2; addc.cc.u32 %0, %0, %2;" : "+r"(lo) : "r"(hi), "r"(hi));',
])
def test_a_carry_out_no_statement_reads_is_ported(asm):
    """Re-pinned in stop 45 (was KP201 "another statement would read it"): the run shows every statement that could
    read the flag, none does, so the carry-out is a dead value of the port's `kp_carry` and the sums are exact."""
    src = ("__device__ unsigned long long f(unsigned long long a, unsigned int hi) {\n"
           f"    unsigned long long d = a; unsigned int lo = 1;\n    {asm}\n    return d + lo + hi;\n}}\n"
           "__global__ void k(unsigned long long* o) { o[0] = f(o[1], 2); }\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "kp_carry = " in port.body.splitlines()[2] and "(unsigned int &kp_carry, unsigned long long a" in port.body


@pytest.mark.parametrize("asm", [
    'asm("add.cc.s32 %0, %1, %2; addc.s32 %0, %0, 0;" : "+r"(lo) : "r"(hi), "r"(hi));',  # signed: not ported
    'asm("add.cc.u32 %0, %1, %2; addc.u32 %0, %0, 0;" : "+r"(lo) : "l"(a), "r"(hi));',  # a 64-bit register
    'asm("add.cc.u32 %0, %1, %2; addc.u32 %0, %0, 0;" : "+r"(lo) : "r"(g(hi)), "r"(hi));',  # a call read twice
])
def test_a_look_alike_chain_stays_kp201(asm):
    src = ("__device__ unsigned int g(unsigned int x) { return x; }\n"
           "__device__ unsigned long long f(unsigned long long a, unsigned int hi) {\n"
           f"    unsigned int lo = 1;\n    {asm}\n    return a + lo + hi;\n}}\n"
           "__global__ void k(unsigned long long* o) { o[0] = f(o[1], 2); }\n")
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert [(d.code, d.location.line) for d in port.diagnostics if d.severity == "error"] == [("KP201", 4)]


# An asm statement that is the whole unbraced body of an if/else/loop (or a label's, a case's, a
# preprocessor branch's statement): its port, a block, stands for the statement (`asm(...);` with its
# `;`), so the body stays one statement and an `else` its `if`'s.
UNBRACED = {
    "if": "if (o[9] != 7) {asm}",
    "if_else": "if (o[9] == 7) o[8] = 1;\n    else {asm}",
    "then_of_if_else": "if (o[9] != 7) {asm}\n    else o[8] = 1;",
    "for": "for (int k = 0; k < 1; ++k) {asm}",
    "while": "for (int k = 0; k < 1; ++k) while (k++ < 1) {asm}",
    "do": "do {asm} while (0);",
    "label": "again: {asm}",
    "case": "switch (o[9] != 7) {{ case 1: {asm} }}",
    "preprocessor_branch": "#if 1\n    {asm}\n#endif",
}


@pytest.mark.parametrize("context", list(UNBRACED))
@pytest.mark.parametrize("name", ["add4_u32", "sub3_u32", "add_in_place", "mad_wide_u64"])
def test_a_chain_as_an_unbraced_body_ports_as_one_block(name, context):
    src = _source(name, UNBRACED[context])
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    at = next(i for i, x in enumerate(src.splitlines()) if "asm(" in x)
    head, _, tail = next(x for x in UNBRACED[context].format(asm="{asm}").split("\n") if "{asm}" in x).strip().partition("{asm}")
    line = port.body.splitlines()[at].strip()
    assert line.startswith(head + "{ ") and line.endswith("}" + tail), line  # the statement's `;` is the block's
    _check_block(name, line[len(head):len(line) - len(tail)])
    assert [x for i, x in enumerate(port.body.splitlines()) if i != at] == \
        [x for i, x in enumerate(src.splitlines()) if i != at]  # nothing else changed (the `else` stays)


def test_the_unbraced_bodies_compile_for_gfx90a_and_gfx1030(tmp_path):
    require_tool("hipcc")
    f = tmp_path / "unbraced.hip"
    f.write_text("\n".join(translate(SourceFile.from_text(_source(n, UNBRACED[c]).replace(f"_{n}(", f"_{n}_{c}("), "p.cu"),
                                      "hip")[1] for n in ("add4_u32", "mad_wide_u64") for c in UNBRACED))
    assert_hip_file_compiles(f, ["gfx90a", "gfx1030"])


def test_the_unbraced_originals_are_cuda_nvcc_takes(tmp_path):
    import subprocess
    require_tool("nvcc")
    f = tmp_path / "unbraced.cu"
    f.write_text("".join(_source(n, UNBRACED[c]).replace(f"_{n}(", f"_{n}_{c}(") for n in ("add4_u32", "mad_wide_u64")
                         for c in UNBRACED))
    r = subprocess.run(["nvcc", "-arch=sm_80", "-c", "-o", str(tmp_path / "unbraced.o"), str(f)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]


def test_an_expression_port_under_an_unbraced_if_is_no_block():
    """A port that is one expression (no temporaries) replaces the asm expression alone: no braces."""
    src = ("__device__ unsigned int f(unsigned int a, unsigned int b) {\n    unsigned int lo = 0;\n"
           '    if (a) asm("add.u32 %0, %1, %2;" : "=r"(lo) : "r"(a), "r"(b));\n    else lo = 2;\n    return lo;\n}\n')
    port, _ = translate(SourceFile.from_text(src, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    line = port.body.splitlines()[2].strip()
    assert line.startswith("if (a) lo = ") and line.endswith(");") and "{" not in line, line


def test_a_one_instruction_wrapper_says_the_carry_crosses_a_call_and_what_to_write():
    """era-bellman-cuda's ptx.cuh: `add_cc` and `addc` each one asm statement, their callers chaining the flag.
    Re-pinned in stop 45: HIP ports the chain (kernelport/carry_calls.py, tests/test_carry_calls.py); Metal, which
    spells no carry variable, still refuses it, naming the wrapper and what compiles instead: one asm statement per
    chain (ported above), or clang's `__builtin_addc` under the HIP guard.  A statement with other code around it
    is not called a wrapper."""
    src = ("__device__ __forceinline__ unsigned add_cc(unsigned x, unsigned y) {\n"
           "  unsigned r;\n  asm volatile(\"add.cc.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(x), \"r\"(y));\n  return r;\n}\n"
           "__device__ __forceinline__ unsigned addc(unsigned x, unsigned y) {\n"
           "  unsigned r;\n  asm volatile(\"addc.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(x), \"r\"(y));\n"
           "  r += x;\n  return r;\n}\n"
           "__global__ void k(unsigned *o) { o[0] = add_cc(o[2], o[4]); o[1] = addc(o[3], o[5]); }\n")
    port, _ = translate(SourceFile.from_text(src, "w.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    port, _ = translate(SourceFile.from_text(src, "w.cu"), "metal")
    errors = [d for d in port.diagnostics if d.severity == "error" and d.code == "KP201"]
    assert [d.location.line for d in errors] == [3, 8], errors
    assert "'add_cc' is a one-instruction wrapper: its callers chain the flag" in errors[0].message
    assert "does not yet pass an explicit carry through the calls" in errors[0].message
    assert "one-instruction wrapper" not in errors[1].message and "does not yet pass an explicit carry" in errors[1].message
    src = src.replace("o[1] = addc(o[3], o[5]);", "")  # HIP: a wrapper whose flag is read by no call stays ...
    src = src.replace('asm volatile("add.cc.u32', 'asm volatile("addc.u32')  # ... where it reads one nothing sets
    port, _ = translate(SourceFile.from_text(src, "w.cu"), "hip")
    errors = [d for d in port.diagnostics if d.severity == "error"]
    assert [(d.code, d.location.line) for d in errors] == [("KP201", 12)], errors  # the kernel's call
    assert "__builtin_addc(x, y, carry_in, &carry_out)" in errors[0].hint and "one asm statement" in errors[0].hint
