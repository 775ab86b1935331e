"""PTX's carry flag across calls (kernelport/carry_calls.py): era-bellman-cuda's ptx.cuh wraps one carry
instruction per function (`add_cc`, `addc_cc`, `madc_hi`, ...) and its carry_chain.cuh and field arithmetic call
them in sequence.  The port threads the flag as `kp_carry` by reference: each wrapper's asm statement becomes C
that reads and sets it, every function between a writer and its reader passes it on, a kernel declares it.

Checked here: each wrapper's port against PTX's definition of its instruction for both carry-ins, at 32 and 64
bits (`_ptx`, the PTX ISA's add/sub/mad{c}{.cc}); a whole era-bellman-style chain (a carry_chain template whose
method picks add.cc / addc.cc / addc by a counter, multi-limb add, sub, a product of rows of mad.lo/hi chains, a
64-bit chain, a function whose carry-in its caller sets) run from the HIP port's text on the emulator at wave 32
and 64 against Python's integers, and compiled by hipcc for gfx90a and gfx1030; the refusals: a carry-in nothing
sets, two carrier calls C++ leaves unsequenced, a member call that may run a carrier or another method of its
name; and their look-alikes (a nested call, an overload the arguments tell apart)."""
from __future__ import annotations

import random
import re

import numpy as np
import pytest

from kernelport import cexpr
from kernelport.emulator import run_kernel
from kernelport.source import SourceFile
from kernelport.translate import translate

from conftest import assert_hip_file_compiles, require_tool
from port_support import refusal
from test_ptx_idioms import _eval

_T = {32: "unsigned int", 64: "unsigned long long"}
_C = {32: "r", 64: "l"}
# every wrapper era-bellman-cuda's ptx.cuh has, at each width: (name, instruction, operand count)
WRAPPERS = [(f"{op}{c}{h.replace('.', '_')}{cc.replace('.', '_')}_{n}", f"{op}{c}{h}{cc}.u{n}", 3 if op == "mad" else 2, n)
            for n in (32, 64) for op, h in (("add", ""), ("sub", ""), ("mad", ".lo"), ("mad", ".hi"))
            for c, cc in (("", ".cc"), ("c", ""), ("c", ".cc"))]


def _wrapper(name: str, instr: str, k: int, n: int) -> str:
    args = ", ".join(f"const {_T[n]} {v}" for v in "xyz"[:k])
    ops = ", ".join(f"%{i}" for i in range(k + 1))
    ins = ", ".join(f'"{_C[n]}"({v})' for v in "xyz"[:k])
    return (f"__device__ __forceinline__ {_T[n]} {name}({args}) {{\n  {_T[n]} result;\n"
            f'  asm volatile("{instr} {ops};" : "={_C[n]}"(result) : {ins});\n  return result;\n}}\n')


def _ptx(instr: str, vals: list[int], cf: int) -> tuple[int, int]:
    """PTX ISA: (d, CC.CF after) of `instr d, a, b{, c}` with CC.CF = cf before."""
    m = re.fullmatch(r"(add|sub|mad)(c?)(?:\.(lo|hi))?(\.cc)?\.u(32|64)", instr)
    n, cin = int(m.group(5)), cf if m.group(2) else 0
    if m.group(1) == "mad":
        p = vals[0] * vals[1]
        s = (p & ((1 << n) - 1) if m.group(3) == "lo" else p >> n) + vals[2] + cin
    else:
        s = vals[0] + vals[1] + cin if m.group(1) == "add" else vals[0] - vals[1] - cin
    out = (int(s < 0) if m.group(1) == "sub" else s >> n) if m.group(4) else cf
    return s % (1 << n), out


@pytest.mark.parametrize("name, instr, k, n", WRAPPERS, ids=[w[0] for w in WRAPPERS])
def test_each_wrapper_computes_its_instruction_for_both_carry_ins(name, instr, k, n):
    setter = _wrapper("set_cc", f"add.cc.u{n}", 2, n)
    src = (_wrapper(name, instr, k, n) + setter +
           f"__global__ void k({_T[n]} *o) {{ o[0] = set_cc(o[1], o[2]); o[3] = {name}({', '.join(f'o[{4 + i}]' for i in range(k))}); }}\n")
    port, _ = translate(SourceFile.from_text(src, "w.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    lines = port.body.splitlines()
    assert lines[0].startswith(f"__device__ __forceinline__ {_T[n]} {name}(unsigned int &kp_carry, "), lines[0]
    line = lines[2].strip().rstrip(";")
    decls: list[str] = []
    if line.startswith("{"):
        *decls, line = [d.strip() for d in line[1:-1].split(";") if d.strip()]
    types = {v: cexpr.TYPES[_T[n]] for v in "xyz"[:k]} | {"result": cexpr.TYPES[_T[n]], "kp_carry": cexpr.TYPES["unsigned int"]}
    types.update({d.split()[-1]: cexpr.TYPES[" ".join(d.split()[:-1])] for d in decls})
    writes = [(o.strip(), e) for o, e in (w.split(" = ", 1) for w, _ in cexpr.split_top_level(line))]
    rng, top = random.Random(name), (1 << n) - 1
    for i in range(300):
        vals = [rng.choice([0, 1, top, top - 1]) if i % 2 else rng.getrandbits(n) for _ in range(k)]
        for cf in (0, 1):
            env = dict(zip("xyz", vals)) | {"kp_carry": cf, "result": 0}
            for out, expr in writes:
                env[out] = _eval(expr, env, types) & ((1 << types[out].bits) - 1)
            assert (env["result"], env["kp_carry"]) == _ptx(instr, vals, cf), (name, vals, cf)


N = 4
CHAIN = "".join(_wrapper(w, i, k, n) for w, i, k, n in (
    ("add_cc", "add.cc.u32", 2, 32), ("addc_cc", "addc.cc.u32", 2, 32), ("addc", "addc.u32", 2, 32),
    ("sub_cc", "sub.cc.u32", 2, 32), ("subc_cc", "subc.cc.u32", 2, 32), ("subc", "subc.u32", 2, 32),
    ("mad_lo_cc", "mad.lo.cc.u32", 3, 32), ("madc_lo_cc", "madc.lo.cc.u32", 3, 32),
    ("mad_hi_cc", "mad.hi.cc.u32", 3, 32), ("madc_hi_cc", "madc.hi.cc.u32", 3, 32), ("madc_hi", "madc.hi.u32", 3, 32),
    ("add_cc64", "add.cc.u64", 2, 64), ("addc64", "addc.u64", 2, 64))) + f"""
template <unsigned OPS_COUNT = 0xffffffffu, bool CARRY_IN = false> struct carry_chain {{
  unsigned index;
  __device__ carry_chain() : index(0) {{}}
  __device__ __forceinline__ unsigned int add(const unsigned int x, const unsigned int y) {{
    index++;
    if (index == 1 && !CARRY_IN)
      return add_cc(x, y);
    else if (index < OPS_COUNT)
      return addc_cc(x, y);
    else
      return addc(x, y);
  }}
  __device__ __forceinline__ unsigned int sub(const unsigned int x, const unsigned int y) {{
    index++;
    if (index == 1 && !CARRY_IN)
      return sub_cc(x, y);
    else if (index < OPS_COUNT)
      return subc_cc(x, y);
    else
      return subc(x, y);
  }}
}};
template <bool SUBTRACT> __device__ unsigned int add_sub_member({'const unsigned int *x, const unsigned int *y, unsigned int *r'}) {{
  carry_chain<{N} + 1> chain;
  for (unsigned i = 0; i < {N}; i++)
    r[i] = SUBTRACT ? chain.sub(x[i], y[i]) : chain.add(x[i], y[i]);
  return SUBTRACT ? chain.sub(0, 0) : chain.add(0, 0);
}}
// carry_chain's step as a free function (the emulator runs no member call): which instruction by a counter
__device__ unsigned int chain_step(unsigned int *index, unsigned int ops, bool subtract, unsigned int x, unsigned int y) {{
  *index = *index + 1;
  if (*index == 1)
    return subtract ? sub_cc(x, y) : add_cc(x, y);
  else if (*index < ops)
    return subtract ? subc_cc(x, y) : addc_cc(x, y);
  else
    return subtract ? subc(x, y) : addc(x, y);
}}
__device__ unsigned int add_sub({'const unsigned int *x, const unsigned int *y, unsigned int *r, bool subtract'}) {{
  unsigned int index = 0;
  for (unsigned i = 0; i < {N}; i++)
    r[i] = chain_step(&index, {N} + 1, subtract, x[i], y[i]);
  return chain_step(&index, {N} + 1, subtract, 0, 0);
}}
// acc[0..N] += a * bi (acc[N] zero on entry): the low halves' chain, then the high halves'
__device__ void mad_row(unsigned int *acc, const unsigned int *a, unsigned int bi) {{
  acc[0] = mad_lo_cc(a[0], bi, acc[0]);
  for (int i = 1; i < {N}; i++)
    acc[i] = madc_lo_cc(a[i], bi, acc[i]);
  acc[{N}] = addc(acc[{N}], 0);
  acc[1] = mad_hi_cc(a[0], bi, acc[1]);
  for (int i = 1; i < {N} - 1; i++)
    acc[i + 1] = madc_hi_cc(a[i], bi, acc[i + 1]);
  acc[{N}] = madc_hi(a[{N} - 1], bi, acc[{N}]);
}}
// the rest of a sum whose first word the caller added: its carry-in is the caller's
__device__ unsigned int add_rest(const unsigned int *x, const unsigned int *y, unsigned int *r) {{
  for (int i = 1; i < {N}; i++)
    r[i] = addc_cc(x[i], y[i]);
  return addc(0, 0);
}}
__global__ void k(const unsigned int *x, const unsigned int *y, unsigned int *sum, unsigned int *dif,
                  unsigned int *prod, unsigned int *rest, unsigned long long *wide) {{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int *a = x + {N} * t, *b = y + {N} * t;
  sum[{N + 1} * t + {N}] = add_sub(a, b, sum + {N + 1} * t, false);
  dif[{N + 1} * t + {N}] = add_sub(a, b, dif + {N + 1} * t, true);
  unsigned int *acc = prod + {2 * N} * t;
  for (int j = 0; j < {2 * N}; j++)
    acc[j] = 0;
  for (int j = 0; j < {N}; j++)
    mad_row(acc + j, a, b[j]);
  unsigned int *r = rest + {N + 1} * t;
  r[0] = add_cc(a[0], b[0]);
  r[{N}] = add_rest(a, b, r);
  const unsigned long long *w = (const unsigned long long *)a, *v = (const unsigned long long *)b;
  wide[3 * t] = add_cc64(w[0], v[0]);
  wide[3 * t + 1] = addc64(w[1], v[1]);
}}
__global__ void k_member(const unsigned int *x, const unsigned int *y, unsigned int *sum, unsigned int *dif) {{
  sum[{N}] = add_sub_member<false>(x, y, sum);
  dif[{N}] = add_sub_member<true>(x, y, dif);
}}
"""


def _words(v: int, k: int) -> list[int]:
    return [(v >> (32 * i)) & 0xFFFFFFFF for i in range(k)]


@pytest.mark.parametrize("wave", [32, 64])
def test_an_era_bellman_style_chain_computes_the_big_integers_at_wave(wave):
    port, _ = translate(SourceFile.from_text(CHAIN, "chain.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "return addc_cc(kp_carry, x, y);" in port.body and "mad_row(kp_carry, acc + j, a, b[j]);" in port.body
    assert "r[i] = SUBTRACT ? chain.sub(kp_carry, x[i], y[i]) : chain.add(kp_carry, x[i], y[i]);" in port.body
    threads, rng = 64, random.Random(wave)
    xs = [rng.choice([0, (1 << 128) - 1, rng.getrandbits(128)]) for _ in range(threads)]
    ys = [rng.choice([1, (1 << 128) - 1, rng.getrandbits(128)]) for _ in range(threads)]
    args = {"x": np.array([w for v in xs for w in _words(v, N)], np.uint32),
            "y": np.array([w for v in ys for w in _words(v, N)], np.uint32),
            "sum": np.zeros(threads * (N + 1), np.uint32), "dif": np.zeros(threads * (N + 1), np.uint32),
            "prod": np.zeros(threads * 2 * N, np.uint32), "rest": np.zeros(threads * (N + 1), np.uint32),
            "wide": np.zeros(threads * 3, np.uint64)}
    got = run_kernel(port.body, "k", args=args, grid=(2, 1, 1), block=(32, 1, 1), wave=wave, backend="hip").outputs
    for t, (a, b) in enumerate(zip(xs, ys)):
        s, d, p = a + b, (a - b) % (1 << 160), a * b
        assert got["sum"][5 * t:5 * t + 5].tolist() == _words(s, 5), t
        assert got["rest"][5 * t:5 * t + 5].tolist() == _words(s, 5), t
        assert got["dif"][5 * t:5 * t + 4].tolist() == _words(d, 4) and got["dif"][5 * t + 4] == (0xFFFFFFFF if a < b else 0), t
        assert got["prod"][8 * t:8 * t + 8].tolist() == _words(p, 8), t
        assert got["wide"][3 * t:3 * t + 2].tolist() == [s & ((1 << 64) - 1), (s >> 64) & ((1 << 64) - 1)], t


def test_the_chain_and_every_wrapper_compile_for_gfx90a_and_gfx1030(tmp_path):
    require_tool("hipcc")
    calls = "; ".join(f"o[{i}] = {w}({', '.join(['o[9]'] * k)})" for i, (w, _, k, n) in enumerate(WRAPPERS))
    src = "".join(_wrapper(*w) for w in WRAPPERS) + f"__global__ void all(unsigned long long *o) {{ {calls}; }}\n"
    for name, text in (("chain", CHAIN), ("wrappers", src)):
        port, body = translate(SourceFile.from_text(text, f"{name}.cu"), "hip")
        assert port.ok, [d.format() for d in port.diagnostics]
        f = tmp_path / f"{name}.hip"
        f.write_text(body)
        assert_hip_file_compiles(f, ["gfx90a", "gfx1030"])


def _errors(src: str) -> list:
    return [(d.code, d.location.line, d.message) for d in refusal(src, "c.cu", dedent=False)]


HEAD = _wrapper("add_cc", "add.cc.u32", 2, 32) + _wrapper("addc", "addc.u32", 2, 32)  # lines 1-10


def test_two_carrier_calls_cpp_leaves_unsequenced_are_kp201_and_a_nested_one_is_ported():
    bad = HEAD + "__global__ void k(unsigned *o) {\n  o[0] = add_cc(o[1], o[2]) + addc(o[3], o[4]);\n}\n"
    assert [(c, ln) for c, ln, _ in _errors(bad)] == [("KP201", 12)]
    assert "order of evaluation C++ leaves open" in _errors(bad)[0][2] and "add_cc(o[1], o[2])" in _errors(bad)[0][2]
    nested = HEAD + "__global__ void k(unsigned *o) {\n  o[0] = addc(add_cc(o[1], o[2]), o[3]);\n}\n"
    assert _errors(nested) == []
    branches = HEAD + "__global__ void k(unsigned *o) {\n  o[5] = add_cc(o[1], o[2]);\n  o[0] = o[9] ? addc(o[1], 1) : addc(o[3], 2);\n}\n"
    assert _errors(branches) == []


OVERLOADS = HEAD + """struct A { __device__ unsigned step(unsigned x, unsigned y) { return add_cc(x, y); } };
struct B { __device__ unsigned step(unsigned x, unsigned y) { return x ^ y; }
           __device__ unsigned step(unsigned x, unsigned y, unsigned z) { return x + y + z; } };
template <typename T> __global__ void k(unsigned *o) {
  T t;
  o[0] = t.step(o[1], o[2]);
  o[1] = addc(o[3], o[4]);
  B b;
  o[2] = b.step(o[1], o[2], o[3]);
}
"""


def test_a_member_call_that_may_run_a_carrier_or_another_method_is_kp201_one_the_arguments_tell_is_not():
    """`t.step(x, y)` of a template's T may run A::step (which sets the flag) or B::step (which does not): the
    flag's path through it is unknown.  `b.step(x, y, z)` has three arguments: only B's 3-parameter overload runs."""
    errors = _errors(OVERLOADS)
    assert [(c, ln) for c, ln, _ in errors] == [("KP201", 16)], errors
    assert "'t.step' passes PTX's carry flag on" not in errors[0][2] and "which its arguments do not tell apart" in errors[0][2]
    port, body = translate(SourceFile.from_text(OVERLOADS.replace("struct B { __device__ unsigned step(unsigned x, unsigned y) "
                                                                  "{ return x ^ y; }", "struct B {"), "c.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "o[0] = t.step(kp_carry, o[1], o[2]);" in body and "o[2] = b.step(o[1], o[2], o[3]);" in body


def test_a_host_function_that_calls_a_host_device_carrier_declares_the_carry():
    src = HEAD + """__host__ __device__ unsigned twice(unsigned x) {
#ifdef __CUDA_ARCH__
  unsigned lo = add_cc(x, x);
  return lo + addc(0, 0);
#else
  return 2 * x;
#endif
}
unsigned host_twice(unsigned x) { return twice(x); }
__global__ void k(unsigned *o) { o[0] = twice(o[1]); }
"""
    port, body = translate(SourceFile.from_text(src, "h.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__host__ __device__ unsigned twice(unsigned int &kp_carry, unsigned x)" in body
    assert "unsigned host_twice(unsigned x) { unsigned int kp_carry = 0u; return twice(kp_carry, x); }" in body
    assert "{ unsigned int kp_carry = 0u; o[0] = twice(kp_carry, o[1]); }" in body


CLOSED = HEAD + """__device__ unsigned twice(unsigned x) { unsigned a = add_cc(x, x); return a + addc(0, 0); }
__device__ unsigned sum(unsigned x, unsigned y) { unsigned a = add_cc(x, y); return a + addc(0, 0); }
__global__ void k(unsigned *o) {
  o[0] = sum(twice(o[1]), twice(o[2]));
}
"""


def test_unsequenced_calls_that_keep_their_chains_to_themselves_are_ported():
    """ec.cuh's `fd.mul(fd.mul(y, zz), fd.sqr(z))`: each argument's call sets the flag before it reads it, and the
    outer call does too and must set it: whichever argument runs first, nothing reads what it left.  An argument
    that reads a flag it did not set (`addc`) is KP201."""
    assert _errors(CLOSED) == []
    assert [(c, ln) for c, ln, _ in _errors(CLOSED.replace("twice(o[2])", "addc(o[2], 1)"))] == [("KP201", 14)]


def test_a_member_call_s_object_type_and_a_template_parameter_s_qualifier_choose_the_class():
    """`A a; a.step(...)` runs A::step (B's step of two parameters sets no flag); `T::sstep(...)` of a type
    parameter T runs a static member, not the free function `sstep` of the same arguments."""
    src = OVERLOADS.replace("  T t;\n  o[0] = t.step(o[1], o[2]);", "  A t;\n  o[0] = t.step(o[1], o[2]);")
    port, body = translate(SourceFile.from_text(src, "c.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "o[0] = t.step(kp_carry, o[1], o[2]);" in body and "o[2] = b.step(o[1], o[2], o[3]);" in body
    static = HEAD + """struct C { __device__ static unsigned sstep(unsigned x, unsigned y) { return add_cc(x, y); } };
__device__ unsigned sstep(unsigned x, unsigned y) { return x - y; }
template <typename T> __global__ void k(unsigned *o) { o[0] = T::sstep(o[1], o[2]) + sstep(o[3], o[4]); o[1] = addc(1, 2); }
"""
    port, body = translate(SourceFile.from_text(static, "s.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "o[0] = T::sstep(kp_carry, o[1], o[2]) + sstep(o[3], o[4]);" in body, body


LEFTOVER = HEAD + """__device__ unsigned twice(unsigned x) { unsigned a = add_cc(x, x); return a + addc(0, 0); }
__device__ unsigned pick(unsigned x, unsigned y) { return x > y ? add_cc(x, y) : x - y; }
__device__ unsigned both(unsigned *o) { return pick(twice(o[1]), twice(o[2])); }
__global__ void k(unsigned *o) {
  o[0] = both(o);
  o[3] = add_cc(o[4], o[5]) + 0 * o[6];
}
"""


def test_unsequenced_calls_whose_leftover_flag_nothing_reads_are_ported_one_read_after_them_is_kp201():
    """era-bellman's ec.cuh:261: the outer call (`pick`, or `fd.mul` that may run an overload that sets the flag
    only on some paths) need not overwrite what the later argument left; nothing after reads it (the caller's
    next carry event, `add_cc`, sets before anything reads), so either order computes the same.  Look-alikes:
    the same pair followed by an `addc` in the function, or in its caller after the call: which argument's
    carry that reads depends on the order, KP201."""
    assert _errors(LEFTOVER) == []
    inner = LEFTOVER.replace("return pick(twice(o[1]), twice(o[2]));", "unsigned r = pick(twice(o[1]), twice(o[2])); return r + addc(0, 0);")
    assert [(c, ln) for c, ln, _ in _errors(inner)] == [("KP201", 13)]
    outer = LEFTOVER.replace("o[3] = add_cc(o[4], o[5])", "o[3] = addc(o[4], o[5])")
    assert [(c, ln) for c, ln, _ in _errors(outer)] == [("KP201", 13)]


def test_unsequenced_calls_in_a_function_the_run_never_calls_are_ported():
    """A header's helper (era-bellman's to_jacobian) whose callers are in files outside the run: nothing the run
    translates reads what its pair leaves."""
    src = LEFTOVER.replace("  o[0] = both(o);\n", "")
    assert _errors(src) == []


PROTOTYPES = HEAD + """struct fd {
  static __host__ __device__ unsigned inverse(const unsigned &x) { unsigned lo = add_cc(x, 1u); return addc(lo, 0u); }
};
namespace ff {
struct inverse_configuration { int count; };
int inverse(const inverse_configuration &cfg);
}
__device__ unsigned twice(const unsigned x);
__device__ unsigned twice(const float x, int k);
__global__ void k(unsigned *o) { o[0] = fd::inverse(o[1]); o[2] = twice(o[3]); o[4] = twice(1.0f, 2); }
__device__ unsigned twice(const unsigned x) { unsigned lo = add_cc(x, x); return addc(lo, 0u); }
__device__ unsigned twice(const float x, int k) { return k * (unsigned)x; }
int run(int n) { ff::inverse_configuration cfg = {n}; return ff::inverse(cfg); }
"""


def test_a_carriers_prototype_takes_the_carry_and_a_call_of_another_prototype_does_not(tmp_path):
    """era-bellman-cuda's bellman-cuda.cu: `ff::inverse(cfg)` names ff.cuh's prototype (defined in ff.cu, outside
    the run), not the field's carrier `inverse` (it was given `kp_carry`: hipcc, too many arguments); a carrier's
    prototype above its definition takes the carry (hipcc: no matching function), its overload of another
    parameter type does not (kernelport/carry_prototypes.py)."""
    port, body = translate(SourceFile.from_text(PROTOTYPES, "p.cu"), "hip")
    assert port.ok, [d.format() for d in port.diagnostics]
    assert "__device__ unsigned twice(unsigned int &kp_carry, const unsigned x);" in body
    assert "__device__ unsigned twice(const float x, int k);" in body
    assert "int run(int n) { ff::inverse_configuration cfg = {n}; return ff::inverse(cfg); }" in body
    assert "int inverse(const inverse_configuration &cfg);" in body
    require_tool("hipcc")
    f = tmp_path / "p.hip"
    f.write_text(body)
    assert_hip_file_compiles(f, ["gfx90a"])
