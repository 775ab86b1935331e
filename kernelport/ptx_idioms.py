"""Inline PTX that is a known idiom: instructions whose meaning a concept spells on every backend
that has it (`mov.u32 %0, %%laneid;` is the lane id, `bfe.u32` a bit-field extract, `mov.b64 %0,
{%1,%2};` packs two words, `shf.l.wrap.b32` is a funnel shift).  An asm statement is rewritten
only when every instruction of its template is one of FORMS, each operand has the constraint (the
register width) the form reads, and every operand is read or written; its outputs are assigned in
the template's order (`d = ..., e = ...`), so an instruction that reads an earlier one's output
reads what C assigned; a carry chain's flag is a C temporary of the statement (CARRY).  Anything
else stays KP201 (why_not names the reason where one is known): PTX is never guessed.  What each
concept computes is PTX's instruction exactly (tests/test_ptx_idioms.py and tests/test_ptx_carry.py
check every spelling against a model of the instruction over random operands, and compile it with
hipcc)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import asm_operand_commas, dialect, ptx_accesses, ptx_branches, ptx_ordered, ptx_specials
from .cexpr import split_top_level
from .source import uncomment
from . import lazy_re

REG = r"(%[0-9]+)"
# a register or an integer immediate (decimal, or hex as prmt's selectors are written; PTX's U suffix is
# C's), where PTX allows one (bfe's length, prmt's and the bitwise operations' sources): C reads the
# literal as PTX does, the concept converting it to the instruction's unsigned width
OPERAND = r"(%[0-9]+|0[xX][0-9a-fA-F]+U?|[0-9]+U?)"

# (instruction: one group per operand, in order; the constraint letter each group's register takes
# ("r" 32 bits, "l" 64, "h" 16, "f"/"d" float/double, "s" a shared-window address in an "r"); what the
# instruction assigns: (the output's group, the concept, the concept's parameters as groups), in the
# order PTX writes them)
# `set`'s comparisons: (PTX's comparison, signedness of the concept, the source types it takes); the unsigned
# names lo/ls/hi/hs are lt/le/gt/ge of unsigned operands
SET_FORMS = (*((c, "s", "s{n}") for c in ("eq", "ne", "lt", "le", "gt", "ge")),
             *((c, "u", "[bu]{n}") for c in ("eq", "ne")),
             *((c, "u", "u{n}") for c in ("lt", "le", "gt", "ge", "lo", "ls", "hi", "hs")))
SET_AS = {"lo": "lt", "ls": "le", "hi": "gt", "hs": "ge"}
SET_BOOL_OPS = ("and", "or", "xor")
SETP_NOT = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le"}


def SETP_KEY(c: str, s: str, n: int) -> str:  # noqa: N802 (a table's helper)
    """The concept of `setp.c` on s-signed N-bit operands: ne/eq's are one concept for every type."""
    return f"ptx_setp_{c}" if c in ("eq", "ne") else f"ptx_setp_{c}_{s}{n}"
FORMS = (
    # `%%laneid` in a template with operands; nvcc takes a single `%laneid` alike (no operand is `%l...`)
    (rf"mov\.[us]32 {REG}, ?%%?laneid", "r", ((1, "lane_id", ()),)),
    # the 32-lane warp's lane masks (kernelport/logical_lanes.py: ported only in a logical 32-lane group)
    *((rf"mov\.[ub]32 {REG}, ?%%?lanemask_{c}\b", "r", ((1, f"ptx_lanemask_{c}", ()),)) for c in ptx_specials.MASKS),
    # ... zero-extended into a 64-bit register (`cvt.u64.u32 %0, %%lanemask_lt;` : "=l"): the wave's mask where the
    # group keeps the wave's width (a native group's 64-bit masks), the 32-lane warp's in a logical group
    *((rf"cvt\.[ub]64\.[ub]32 {REG}, ?%%?lanemask_{c}\b", "l", ((1, f"ptx_lanemask64_{c}", ()),)) for c in ptx_specials.MASKS),
    (rf"bfe\.u32 {REG}, ?{OPERAND}, ?{OPERAND}, ?{OPERAND}", "rrrr", ((1, "bfe_u32", (2, 3, 4)),)),
    # bit packing: two registers as the low and high halves of one of twice the width, and back
    # (a half may be an immediate: `mov.b64 t, {m, 0}` zero-extends m)
    (rf"mov\.b64 {REG}, ?\{{ ?{OPERAND}, ?{OPERAND} ?\}}", "lrr", ((1, "ptx_pack_b64", (2, 3)),)),
    (rf"mov\.b64 \{{ ?{REG}, ?{REG} ?\}}, ?{REG}", "rrl", ((1, "ptx_lo_b64", (3,)), (2, "ptx_hi_b64", (3,)))),
    (rf"mov\.b32 {REG}, ?\{{ ?{REG}, ?{REG} ?\}}", "rhh", ((1, "ptx_pack_b32", (2, 3)),)),
    (rf"mov\.b32 \{{ ?{REG}, ?{REG} ?\}}, ?{REG}", "hhr", ((1, "ptx_lo_b32", (3,)), (2, "ptx_hi_b32", (3,)))),
    # funnel shifts: the high (l) or low (r) word of {b, a} shifted by c (mod 32, or clamped to 32)
    *((rf"shf\.{d}\.{m}\.b32 {REG}, ?{REG}, ?{REG}, ?{OPERAND}", "rrrr", ((1, f"funnelshift_{d}{c}", (2, 3, 4)),))
      for d in "lr" for m, c in (("wrap", ""), ("clamp", "c"))),
    *((rf"{op}\.b{n} {REG}, ?{REG}, ?{OPERAND}", "rl"[n == 64] * 3, ((1, f"ptx_{op}", (2, 3)),))
      for op in ("xor", "and", "or") for n in (32, 64)),
    # shifts: PTX clamps the amount to the width (a shift by 32 or more of a .b32 is 0); a move copies bits
    *((rf"{op}\.b{n} {REG}, ?{REG}, ?{OPERAND}", "rl"[n == 64] + "rl"[n == 64] + "r", ((1, f"ptx_{op}_b{n}", (2, 3)),))
      for op in ("shl", "shr") for n in (32, 64)),
    # (an immediate source only into an integer register: C would convert it to a float's value, not bits)
    *((rf"mov\.[bu]{n} {REG}, ?{OPERAND}", "rl"[n == 64] * 2, ((1, "ptx_mov", (2,)),)) for n in (32, 64)),
    # conversions between unsigned widths: C's assignment zero-extends and truncates alike
    (rf"cvt\.u64\.u32 {REG}, ?{REG}", "lr", ((1, "ptx_mov", (2,)),)),
    (rf"cvt\.u32\.u64 {REG}, ?{REG}", "rl", ((1, "ptx_mov", (2,)),)),
    *((rf"{op}\.b{n} {REG}, ?{REG}", ("r" if op == "clz" else "rl"[n == 64]) + "rl"[n == 64],  # clz: a .u32 count
       ((1, f"{op}{'64' if n == 64 else ''}", (2,)),)) for op in ("brev", "clz") for n in (32, 64)),
    # `bfind.u32|u64 d, a`: the position of a's most significant 1 bit, 0xffffffff where a is 0 (.s and .shiftamt stay KP201)
    *((rf"bfind\.u{n} {REG}, ?{REG}", "r" + "rl"[n == 64], ((1, f"ptx_bfind_u{n}", (2,)),)) for n in (32, 64)),
    # `not.bN d, a` (the complement); `shr.uN` is shr.bN, a logical shift (NVIDIA's simd_functions.h
    # builds its lane masks with both); `add|sub.sat.s32`: the signed sum (difference) clamped to the
    # 32-bit range; `cvt.{s,u}32.{s,u}8|16 d, a`: a's low byte / halfword sign- (s source) or zero- (u)
    # extended, a in a 32-bit register as PTX allows (an "h" source, .sat and float forms stay KP201)
    *((rf"not\.b{n} {REG}, ?{REG}", "rl"[n == 64] * 2, ((1, "ptx_not", (2,)),)) for n in (32, 64)),
    *((rf"shr\.u{n} {REG}, ?{REG}, ?{OPERAND}", "rl"[n == 64] * 2 + "r", ((1, f"ptx_shr_b{n}", (2, 3)),)) for n in (32, 64)),
    *((rf"{op}\.sat\.s32 {REG}, ?{REG}, ?{REG}", "rrr", ((1, f"ptx_{op}_sat_s32", (2, 3)),)) for op in ("add", "sub")),
    *((rf"cvt\.[su]32\.{s}{n} {REG}, ?{REG}", "rr", ((1, f"ptx_cvt_{s}{n}", (2,)),)) for s in "su" for n in (8, 16)),
    # `cvt.rn.f16.f32 h, f` (an "h" register: the f16's bits, f rounded to nearest even) and `cvt.f32.f16 f, h` (exact)
    (rf"cvt\.rn\.f16\.f32 {REG}, ?{REG}", "hf", ((1, "ptx_cvt_rn_f16_f32", (2,)),)),
    (rf"cvt\.f32\.f16 {REG}, ?{REG}", "fh", ((1, "ptx_cvt_f32_f16", (2,)),)),
    (rf"mul\.lo\.u32 {REG}, ?{REG}, ?{REG}", "rrr", ((1, "ptx_mul_lo_b32", (2, 3)),)),
    (rf"mul\.hi\.u32 {REG}, ?{REG}, ?{REG}", "rrr", ((1, "umulhi", (2, 3)),)),
    (rf"bfi\.b32 {REG}, ?{REG}, ?{REG}, ?{OPERAND}, ?{OPERAND}", "rrrrr", ((1, "bfi_b32", (2, 3, 4, 5)),)),
    (rf"mul\.hi\.u64 {REG}, ?{REG}, ?{REG}", "lll", ((1, "umul64hi", (2, 3)),)),
    # the whole 64-bit product of two .u32 (plus a .u64), and unsigned minimum / maximum
    (rf"mul\.wide\.u32 {REG}, ?{REG}, ?{REG}", "lrr", ((1, "ptx_mul_wide_u32", (2, 3)),)),
    (rf"mad\.wide\.u32 {REG}, ?{REG}, ?{REG}, ?{REG}", "lrrl", ((1, "ptx_mad_wide_u32", (2, 3, 4)),)),
    *((rf"{op}\.u{n} {REG}, ?{REG}, ?{REG}", "rl"[n == 64] * 3, ((1, f"ptx_{op}_u{n}", (2, 3)),))
      for op in ("min", "max") for n in (32, 64)),
    (rf"mul\.lo\.u64 {REG}, ?{REG}, ?{REG}", "lll", ((1, "ptx_mul_lo_b64", (2, 3)),)),
    # the video instructions' three-input signed minimum / maximum, `vmin.s32.s32.s32.max d, a, b, c`: the
    # second operation applied to the first's result and c (a path tracer's min_max); their other forms
    # (.sat, a byte or half-word selector, .add, a mixed-sign operand) stay KP201
    *((rf"v{op}\.s32\.s32\.s32\.{op2} {REG}, ?{REG}, ?{REG}, ?{REG}", "rrrr", ((1, f"ptx_v{op}_{op2}_s32", (2, 3, 4)),))
      for op in ("min", "max") for op2 in ("min", "max")),
    # prmt.b32's generic form (no mode): four bytes picked from {b, a} by c's four selector nibbles, a
    # nibble's msb replicating the picked byte's sign (`prmt.b32 d, a, 0, 0xba98`: each byte's sign as a
    # mask); the moded forms (.f4e, .ecl, ...) stay KP201
    (rf"prmt\.b32 {REG}, ?{OPERAND}, ?{OPERAND}, ?{OPERAND}", "rrrr", ((1, "ptx_prmt_b32", (2, 3, 4)),)),
    # float products rounded toward zero ("f": a .f32 register); .ftz and .sat forms stay KP201
    (rf"mul\.rz\.f32 {REG}, ?{REG}, ?{REG}", "fff", ((1, "ptx_mul_rz_f32", (2, 3)),)),
    (rf"fma\.rz\.f32 {REG}, ?{REG}, ?{REG}, ?{REG}", "ffff", ((1, "ptx_fma_rz_f32", (2, 3, 4)),)),
    # the shared-window address of a generic pointer (`cvta.to.shared.u64 r, p; cvt.u32.u64 d, r`)
    (rf"cvta\.to\.shared\.u64 {REG}, ?{REG}", "ll", ((1, "ptx_cvta_to_shared", (2,)),)),
    # Asynchronous copies (no output: 0 for the output group), ported as synchronous ones: a copy is
    # complete when the statement ends, so what `cp.async.wait_group`/`wait_all` waits for is done and
    # committing a group is nothing (other threads see the data after the __syncthreads the code has
    # anyway).  The destination ("s": an "r" register) is a shared-window address the function computes
    # with cvta (match's `shared`); the size an immediate ("n"), the optional src-size zero-fills the rest.
    *((rf"cp\.async\.(?:ca|cg)\.shared\.global{ptx_accesses.L2_PREFETCH} \[{REG}\], ?\[{REG}\], ?(4|8|16|%[0-9]+){tail}", "sln" + w,
       ((0, "ptx_cp_async", (1, 2, 3, 4 if w else 3)),)) for tail, w in (("", ""), (rf", ?{OPERAND}", "r"))),
    (r"cp\.async\.commit_group", "", ((0, "ptx_cp_async_done", ()),)),
    (r"cp\.async\.wait_all", "", ((0, "ptx_cp_async_done", ()),)),
    (r"cp\.async\.wait_group (%[0-9]+|[0-9]+)", "n", ((0, "ptx_cp_async_done", ()),)),
    # the SM's cycle counter, and the block barrier (`bar.sync 0`: barrier 0, every thread of the block)
    (rf"mov\.u32 {REG}, ?%%?clock", "r", ((1, "ptx_clock", ()),)),
    (rf"mov\.u64 {REG}, ?%%?clock64", "l", ((1, "ptx_clock64", ()),)),
    # the SM's identifier and their bound (kernelport/ptx_specials.py: ROCm's __smid(), below 64)
    (rf"mov\.u32 {REG}, ?%%?smid", "r", ((1, "ptx_smid", ()),)),
    (rf"mov\.u32 {REG}, ?%%?nsmid", "r", ((1, "ptx_nsmid", ()),)),
    (r"bar\.sync 0", "", ((0, "syncthreads", ()),)),
    # `trap;` aborts the kernel (CUDA's __trap(), an error the host sees at its next synchronisation)
    (r"trap", "", ((0, "ptx_trap", ()),)),
    # a predicate ("p": a scope's `.reg .pred`, a C bool) set by an integer comparison with != or == (the
    # ordered ones below), which
    # an instruction's guard (`@p`, `@!p`) reads (GUARD); the comparison's type is the operands' bits
    *((rf"setp\.{op}\.[bsu]{n} {REG}, ?{OPERAND}, ?{OPERAND}", "p" + "rl"[n == 64] * 2, ((1, f"ptx_setp_{op}", (2, 3)),))
      for op in ("ne", "eq") for n in (32, 64)),
    # `set.cmp.u32.type d, a, b` (also `.s32`: the same bits): all ones where the integer comparison holds,
    # else 0 (PTX ISA, set); signed (.s) and unsigned (.u, and .lo/.ls/.hi/.hs, .b for eq/ne) comparisons;
    # the boolean-op forms (`set.ge.or.u32.u64 d, a, b, p`) and float sources stay KP201
    *((rf"set\.{c}\.[us]32\.{src.format(n=n)} {REG}, ?{OPERAND}, ?{OPERAND}", "r" + "rl"[n == 64] * 2,
       ((1, f"ptx_set_{SET_AS.get(c, c)}_{s}{n}", (2, 3)),))
      for c, s, src in SET_FORMS for n in (32, 64)),
    # ... with a boolean op on a predicate (`set.ge.or.u32.u64 d, a, b, p`: all ones where (a >= b) || p);
    # a negated predicate (`!p`) stays KP201
    *((rf"set\.{c}\.{bop}\.[us]32\.{src.format(n=n)} {REG}, ?{OPERAND}, ?{OPERAND}, ?{REG}", "r" + "rl"[n == 64] * 2 + "p",
       ((1, f"ptx_set_{SET_AS.get(c, c)}_{bop}_{s}{n}", (2, 3, 4)),))
      for c, s, src in SET_FORMS for n in (32, 64) for bop in SET_BOOL_OPS),
    # a predicate set by an ordered integer comparison (signed, unsigned): ne/eq's below
    *((rf"setp\.{c}\.{src.format(n=n)} {REG}, ?{OPERAND}, ?{OPERAND}", "p" + "rl"[n == 64] * 2,
       ((1, f"ptx_setp_{SET_AS.get(c, c)}_{s}{n}", (2, 3)),))
      for c, s, src in SET_FORMS if c not in ("eq", "ne") for n in (32, 64)),
    # ... and into two predicates, `setp.eq.u32 p|q, a, b`: q is p's complement (PTX ISA, setp)
    *((rf"setp\.{c}\.{src.format(n=n)} {REG}\|{REG}, ?{OPERAND}, ?{OPERAND}", "pp" + "rl"[n == 64] * 2,
       ((1, SETP_KEY(SET_AS.get(c, c), s, n), (3, 4)), (2, SETP_KEY(SETP_NOT[SET_AS.get(c, c)], s, n), (3, 4))))
      for c, s, src in SET_FORMS for n in (32, 64)),
    # global (and generic) loads and stores of a scalar or a vector's words at a generic address ("l"): a
    # cache hint that changes no value is dropped, the streaming .cs is a nontemporal access; the same at
    # a shared-window address ("s", as cp.async's dst: one the function computes with cvta); each output
    # is also its concept's `out` (the type its bits are read as: a .f32 word into a float alike)
    *ptx_accesses.FORMS,
    *ptx_ordered.FORMS,  # the memory model's ordered and volatile accesses and fences (kernelport/ptx_ordered.py)
)
# Integer arithmetic through PTX's carry flag (CC.CF): `add/sub{c}{.cc}.u32|u64 d, a, b` and
# `mad{c}.lo|hi{.cc}.u32|u64 d, a, b, c` (the low or high half of a * b, plus c).  The `c` forms add
# (subtract) the flag as carry-in (borrow), the `.cc` forms set it to the carry-out (borrow-out).  The
# flag is a C temporary of the statement: a chain is rewritten only where every carry-in was set by an
# earlier instruction of the same statement and the last carry-out is read by one (CARRY_ACROSS).
CARRY = r"(add|sub|mad)(c?)(?:\.(lo|hi))?(\.cc)?\.u(32|64) (\S+(?:, ?\S+)*)"
# Signed forms whose result has the unsigned form's bits (two's complement, wrapping: not mad.hi, whose
# high half of a signed product differs; the carry forms' signed flag is not ported), read as that form
SIGNED_AS_UNSIGNED = r"(add|sub|mad\.lo)\.s(32|64) "
# the concepts of the low / high half of a product, per width
PRODUCT = {("lo", 32): "ptx_mul_lo_b32", ("hi", 32): "umulhi", ("lo", 64): "ptx_mul_lo_b64", ("hi", 64): "umul64hi"}
# The reason a chain stays KP201: the flag C has no name for, set or read by another asm statement.
CARRY_ACROSS = {
    "in": "`{op}` reads PTX's carry flag, which no earlier instruction of this asm statement sets: the carry "
          "comes from another statement, and the flag has no C value between statements",
    "out": "`{op}` sets PTX's carry flag, which no later instruction of this asm statement reads: another "
           "statement would read it, and the flag has no C value between statements",
}
CARRY_ACROSS_MARK = "a carry chain across asm statements"  # (inline_asm adds where it crosses a call, and the hint)
# Instructions a located refusal names (rather than the generic KP201): (a pattern the instruction's
# name matches, why no port of it is given)
REFUSALS = (
    (r"(ldmatrix|mma|wmma)\.", "`{op}` is a warp-collective matrix instruction: each of a 32-lane warp's threads "
     "holds a fixed part of the fragments, a layout no single AMD instruction has at wave 64; the port "
     "reproduces it over a logical 32-lane warp only for `mma.sync.aligned.m16n8k16|m16n8k8.row.col.f32.f16."
     "f16.f32`, `mma.sync.aligned.m16n8k32|m16n8k16.row.col.s32.s8.s8.s32` and `ldmatrix.sync.aligned.m8n8.x1|x2|x4{{.trans}}.shared.b16` (at a shared-window address this "
     "function computes with cvta.to.shared), each alone in its asm statement (kernelport/ptx_matrix.py)"),
    (r"(ld|st)\.shared\.", "`{op}` is ported only at a shared-window address this function computes with "
     "cvta.to.shared (offsets added in place): this statement's address has another origin (a parameter, a "
     "value loaded from memory, an asm output other than cvta's), which may not be an LDS offset"),
    (r"cp\.async\.", "`{op}` is ported only as a synchronous copy `cp.async.{{ca,cg}}.shared.global{{.L2::128B}} [dst], "
     "[src], 4|8|16{{, src-size}}` (or a commit/wait of such), without cache policies, unguarded or under a "
     "integer `setp` predicate of the statement, whose dst is a "
     "shared-window address this function computes with cvta.to.shared (the 32-bit offset HIP turns back into "
     "a pointer); this statement's form or its address's origin is not one of those"),
)
# A guarded instruction (`@p ld...`, bounds-checked loads and copies): ported where its predicate is a
# `.reg .pred` of the statement that an earlier integer `setp` of the statement sets (FORMS); each write of
# the instruction is then `p ? (void)(write) : (void)0` (`!p` for `@!p`).  An output written only under
# a guard keeps its C value where the guard is false (PTX leaves an "=" register undefined there: the
# port's value is one of those it may have).  Another guard (a predicate from elsewhere, a carry
# instruction under a guard) stays KP201, with this reason:
GUARD = r"@(!?)(%[0-9]+) (.*)"
GUARDED = ("`{op}` runs under a predicate (`{guard}`): a guarded instruction is ported only where a `.reg .pred` "
           "of the same asm statement holds its guard, set by an earlier integer `setp` there")
_GUARD = lazy_re.compile(r"(@!?[%\w]+)\s+([a-z][\w.:]*)")
_STRING = lazy_re.compile(r'"((?:[^"\\]|\\.)*)"')
_OPERAND = lazy_re.compile(r'\s*"([=+&]*)([a-z])"\s*\((.*)\)\s*$', re.S)
_ASM = lazy_re.compile(r"^(?:asm|__asm__|__asm)\s*(?:volatile|__volatile__)?\s*\((.*)\)\s*$", re.S)
_PLAIN = lazy_re.compile(r"[\w.\s\[\]>-]+")  # a name, member or element: read twice, it is the same value
_NAMES = lazy_re.compile(r"(?<![\w.])(?<!->)[A-Za-z_]\w*")  # names, not members (`t.x` writes t)


@dataclass
class Write:
    """One value an inline PTX idiom writes."""
    output: str  # the expression the instruction assigns
    key: str  # the concept
    inputs: dict[str, str]  # parameter -> operand text
    guard: str = ""  # a C condition (a predicate register, `!` one) under which the write happens; "" always


@dataclass
class Idiom:
    """An inline PTX statement read as the values it writes."""
    ptx: str  # the template as written
    writes: list[Write]
    registers: list[tuple[str, str]]  # the scope's `.reg`s: (constraint letter, "p" a predicate; the C local)
    fenced: bool = False  # a "memory" clobber: the compiler orders no memory access across the statement
    # inputs that name what an output writes (`: "=r"(RES[3]) : "r"(RES[0])`), read into C locals first, as the
    # asm reads every input before it writes an output: (constraint letter, the local, the input's expression)
    entry: tuple[tuple[str, str, str], ...] = ()

    @property
    def key(self) -> str:
        return self.writes[0].key


def asm_sections(inner: str) -> list[str]:
    """The `:`-separated sections of an asm statement's parentheses (template, outputs, inputs,
    clobbers), a `:` inside a string literal being the template's (PTX's `.L2::128B`, `.shared::cta`)."""
    inner = asm_operand_commas.written(inner)  # `: "r"(b) "r"(c)`: two operands, as nvcc reads them
    masked = _STRING.sub(lambda s: '"' + "_" * (len(s.group(0)) - 2) + '"', inner)
    return [inner[off:off + len(part)] for part, off in split_top_level(masked, sep=":", strip=False)]


def _operands(section: str) -> list[tuple[str, str, str]] | None:
    """[(modifier, constraint letter, expression)] of one operand section, or None for one this
    reading does not take whole (a constraint of two letters, a memory operand)."""
    out = []
    for part, _ in split_top_level(section):
        if not part:
            continue
        m = _OPERAND.match(part)
        if m is None:
            return None
        out.append((m.group(1), m.group(2), m.group(3).strip()))
    return out


def _instruction(instr: str, ops: list[tuple[str, str, str]], params_of, shared=lambda text: False):
    """(what the instruction assigns, the operands it reads, those it writes), or None.  An output
    group 0 is none: the instruction's effect is its concept's (a copy)."""
    for pattern, widths, writes in FORMS:
        got = re.fullmatch(pattern, instr)
        if got is None:
            continue
        regs = [(i, int(g[1:])) for i, g in enumerate(got.groups(), 1) if g.startswith("%")]  # the rest immediates
        if any(k >= len(ops) or ops[k][1] != widths[i - 1].replace("s", "r") or
               (widths[i - 1] == "s" and not shared(ops[k][2])) for i, k in regs):
            continue  # an operand the template invents, of another register width (a later row may take it), an unknown address
        index = dict(regs)
        texts = {i: ops[index[i]][2] if i in index else g for i, g in enumerate(got.groups(), 1)}
        if any({index[p] for p in ps if p in index} & {index[o] for o, _, _ in writes[:j] if o}
               for j, (_, _, ps) in enumerate(writes)):
            return None  # a later word reads an earlier word's output (`ld.v2 {%0, %1}, [%0]`): the instruction
            # reads its operands first, C would read it assigned
        out = [Write(texts.get(o, ""), key, dict(zip(params_of(key), (texts[p] for p in ps)))) for o, key, ps in writes]
        wrote = {index[o] for o, _, _ in writes if o}
        # (an output among its own concept's parameters is its type, `out`: not a read of its value)
        read = {k for i, k in index.items() if k not in wrote or any(i in ps and i != o for o, _, ps in writes)}
        return out, read, wrote
    return None


def match(text: str, params_of=lambda key: (), reads=lambda key, param: 1, shared=lambda text: False,
          carried: bool = False) -> Idiom | None:
    """The idiom the asm statement `text` is (its outputs' concepts, `params_of(key)` naming each
    concept's parameters, `reads(key, param)` how often the target's spelling evaluates one, `shared(
    operand)` whether an operand is shown to hold a shared-window address), or None.  `carried`: the
    carry flag is a C variable in scope, `kp_carry` (kernelport.carry_calls), that the statement may
    read on entry and leave set (it must touch it)."""
    m = _ASM.match(text.strip())
    if m is None:
        return None
    sections = asm_sections(m.group(1))
    clobbers = [c.strip() for c, _ in split_top_level(sections[3])] if len(sections) == 4 else []
    if not 1 <= len(sections) <= 4 or any(c and c != '"memory"' for c in clobbers):
        return None  # clobbers other than memory (a register's, "cc")
    ptx = "".join(_STRING.findall(sections[0])).encode().decode("unicode_escape")
    outs = _operands(sections[1]) if len(sections) > 1 else []
    ins = _operands(sections[2]) if len(sections) > 2 else []
    if outs is None or ins is None or any(mod not in ("=", "+") for mod, _, _ in outs) or \
            any(mod for mod, _, _ in ins):
        return None
    out_names = {n for _, _, e in outs for n in _NAMES.findall(e)}
    entry = []
    for k, (mod, w, e) in enumerate(ins):
        if out_names & set(_NAMES.findall(e)) and w in ("r", "l"):
            entry.append((w, f"kp_in{len(outs) + k}", e))
            ins[k] = (mod, w, entry[-1][1])
    body = " ".join(ptx.split())
    scoped = body.startswith("{") and body.endswith("}")
    if scoped:
        body = body[1:-1]  # a scope: its registers are locals of a C block
    instrs = [" ".join(i.split()) for i in body.split(";") if i.strip()]
    regs: list[tuple[str, str]] = []
    while instrs and instrs[0].startswith(".reg "):
        d = re.fullmatch(r"\.reg \.(?:[bus](16|32|64)|(pred)) ([\w, ]+)", instrs.pop(0))
        if d is None:
            return None
        regs += [(n.strip(), "p" if d.group(2) else {"16": "h", "32": "r", "64": "l"}[d.group(1)]) for n in d.group(3).split(",")]
    if regs and not scoped:
        return None
    first = len(outs) + len(ins)
    ops = outs + ins + [("=", w, f"kp_ptx_{n}") for n, w in regs]
    names = {n: f"%{first + i}" for i, (n, _) in enumerate(regs)}
    instrs = [re.sub(r"^@(!?)(\w+) ", lambda m: f"@{m.group(1)}{names.get(m.group(2), m.group(2))} ", i) for i in instrs]
    instrs = [(i.partition(" ")[0] + " " + re.sub(r"(?<![%\w.])[A-Za-z_]\w*(?![\w.])", lambda m: names.get(m.group(0), m.group(0)),
                                                   i.partition(" ")[2])).strip() for i in instrs]
    instrs = [re.sub("^" + SIGNED_AS_UNSIGNED, r"\1.u\2 ", i) for i in instrs]
    writes: list[Write] = []
    used: set[int] = set()
    written = {k for k, (mod, _, _) in enumerate(outs) if mod == "+"}  # read-write: its value on entry
    temps: dict[str, int] = {}

    def temp(name: str, width: str) -> int:  # a C temporary of the statement (the carry flag, a sum)
        if name not in temps:
            temps[name] = len(ops)
            ops.append(("=", width, name))
        return temps[name]
    if carried:
        written.add(temp("kp_carry", "r"))
    pending = False  # a carry-out no later instruction has read yet
    for instr in instrs:
        guard = None
        if (g := re.fullmatch(GUARD, instr)) is not None:  # `@p instr`: p a predicate register set before
            k = int(g.group(2)[1:])
            if k >= len(ops) or ops[k][1] != "p" or k not in written:
                return None
            guard, instr = ("!" if g.group(1) else "") + ops[k][2], g.group(3)
        got = _instruction(instr, ops, params_of, shared)
        if got is not None and guard is not None:
            got = ([Write(w.output, w.key, w.inputs, guard) for w in got[0]], got[1] | {k}, got[2])
        if got is None and guard is None and (c := re.fullmatch(CARRY, instr)) is not None:
            got = _carry(c, ops, params_of, temp, "kp_carry" in temps)
            pending = bool(c.group(4)) or (pending and not c.group(2))
        if got is None or any((k < len(outs) or k >= first) and k not in written for k in got[1]) or \
                any(len(outs) <= k < first for k in got[2]):
            return None  # an output or register read before it is written, or an input written
        writes += got[0]
        used |= got[1] | got[2]
        written |= got[2]
    if pending and not carried:
        return None  # the last carry-out is left to another statement (CARRY_ACROSS)
    idle = set(range(first, first + len(regs))) - used  # a scope's register no instruction names: not declared
    if not instrs or used | idle != set(range(len(ops))) or not set(range(len(outs))) <= written:
        return None  # every operand read or written, every output written, none invented
    if not _independent(writes, outs + ops[first:], ins, reads):
        return None
    return Idiom(" ".join(ptx.split()), writes, [(w, e) for k, (_, w, e) in enumerate(ops[first:], first)
                                                 if k not in idle and not (carried and e == "kp_carry")], '"memory"' in clobbers,
                 tuple(entry))


def _carry(c: re.Match, ops, params_of, temp, flag: bool):
    """An instruction of a carry chain (CARRY) as _instruction gives one: where it sets the flag, the
    carry-out is computed from its operands before its result is assigned (through a temporary where
    the result is one of them, `add.cc.u32 %0, %0, %1`); None where its carry-in was set by no earlier
    instruction of the statement, or an operand has another width."""
    op, cin, half, cout, n = c.group(1), c.group(2), c.group(3), c.group(4), int(c.group(5))
    width = "rl"[n == 64]
    args = [a.strip() for a in c.group(6).split(",")]
    if (op == "mad") != (half is not None) or len(args) != (4 if op == "mad" else 3) or (cin and not flag):
        return None
    index: dict[int, int] = {}
    texts = []
    for i, a in enumerate(args):
        if re.fullmatch(r"[0-9]+", a) and i:
            texts.append(a)  # an immediate (`madc.hi.u64 %0, %2, %3, 0`)
            continue
        if not re.fullmatch(REG, a) or int(a[1:]) >= len(ops) or ops[int(a[1:])][1] != width:
            return None
        index[i] = int(a[1:])
        texts.append(ops[index[i]][2])
    writes, wrote = [], {index[0]}
    read = {k for i, k in index.items() if i}
    if op == "mad":  # the product's half, into a temporary, then the sum with it
        p = temp(f"kp_prod{n}", width)
        writes.append(Write(ops[p][2], PRODUCT[half, n], dict(zip(params_of(PRODUCT[half, n]), texts[1:3]))))
        wrote.add(p)
        terms = [ops[p][2], texts[3]]
    else:
        terms = texts[1:3]
    kind = "sub" if op == "sub" else "add"
    carry_in = ops[temp("kp_carry", "r")][2] if cin else "0"
    if cin:
        read.add(temp("kp_carry", "r"))
    values = dict(zip(params_of(f"ptx_{kind}c_b{n}"), [*terms, carry_in]))
    target = texts[0]
    if cout and index[0] in read:  # the result is an operand the carry-out reads: a temporary holds it
        target = ops[temp(f"kp_sum{n}", width)][2]
        wrote.add(temp(f"kp_sum{n}", width))
    writes.append(Write(target, f"ptx_{kind}c_b{n}", values))
    if cout:
        writes.append(Write(ops[temp("kp_carry", "r")][2], f"ptx_{kind}c_cf_b{n}",
                            dict(zip(params_of(f"ptx_{kind}c_cf_b{n}"), [*terms, carry_in]))))
        wrote.add(temp("kp_carry", "r"))
        if target != texts[0]:
            writes.append(Write(texts[0], "ptx_mov", dict(zip(params_of("ptx_mov"), [target]))))
    return writes, read, wrote


# CUDA's API for cvta.to.shared, as a whole initialiser or assigned value: `__cvta_generic_to_shared(p)`,
# maybe cast to an integer type (`static_cast<uint32_t>(...)`, `(unsigned)(...)`: the window is 32 bits)
CVTA_API = (r"(?:static_cast\s*<\s*[\w\s]+>\s*|\(\s*[\w\s]+\)\s*)?\(?\s*__cvta_generic_to_shared\s*"
            r"\((?:[^;()]|\((?:[^;()]|\([^;()]*\))*\))*\)\s*\)?\s*(?=;)")


def shared_in(src, function):
    """Whether an operand of an asm statement in `function` (of SourceFile `src`; None: file scope) is
    shown to hold a shared-window address (cp.async's dst): a name (plus an offset: the window is
    linear on both sides) that the body assigns only as the output of an asm statement converting with
    cvta.to.shared or as CUDA's `__cvta_generic_to_shared` (CVTA_API), or offsets in place; a
    parameter, a constant, a name assigned anything else or whose address is taken is not shown."""
    whole = src.text_of(function.body) if function is not None and function.body is not None else ""
    def shared(operand: str) -> bool:
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?:[-+]\s*[^,;]+)?", operand)
        if m is None:
            return False
        name = re.escape(m.group(1))
        # (each `name = __cvta_generic_to_shared(...)` produces it; the rest of the body is read without them)
        scope, producers = re.subn(r"(?<![\w.>])" + name + r"\s*=(?!=)\s*" + CVTA_API, "", whole)
        for out in re.finditer(r"\"([=+])\w\"\s*\(\s*" + name + r"\s*\)", scope):  # an asm output
            start = scope.rfind("asm", 0, out.start())
            asm = scope[start - 2 * (scope[start - 2:start] == "__"):scope.find(";", out.end())]  # (`__asm__`)
            if out.group(1) != "=" or asm.count('"=') != 1 or \
                    not {"cvta.to.shared.u64"} <= set(_names(asm)) <= {"cvta.to.shared.u64", "cvt.u32.u64"}:
                return False  # the one output of a conversion, and nothing else
            producers += 1
        writes = re.findall(r"(?<![\w.>])" + name + r"\s*(=(?!=)|[-+*/%&|^]=|<<=|>>=|\+\+|--)|(?:\+\+|--|&)\s*" + name + r"\b", scope)
        return producers > 0 and all(w in ("+=", "-=", "++", "--") for w in writes) and \
            not re.search(r"\b(?:uint32_t|unsigned|int|unsigned int)\s+" + name + r"\s*[=(]", scope)
    return shared


def _independent(writes: list[Write], outs, ins, reads) -> bool:
    """C assigns the outputs one after another where the asm reads every input first: an input must
    not name what an output writes (unless it is that output, `"+l"`), and an input read twice must
    be a plain name or element (no call or side effect evaluated twice) or an immediate ("n": a constant
    expression, `sizeof(T)`, which has none)."""
    written = {n for _, _, e in outs for n in _NAMES.findall(e)}
    for _, _, e in ins:
        if written & set(_NAMES.findall(e)):
            return False
    count: dict[str, int] = {}
    for w in writes:
        for p, t in w.inputs.items():
            count[t] = count.get(t, 0) + reads(w.key, p)
    constant = {e for _, w, e in ins if w == "n"}
    return all(n <= 1 or _PLAIN.fullmatch(t) or t.isdigit() or t in constant for t, n in count.items())


def _names(text: str) -> list[str]:
    """The names of the instructions of the asm statement `text` (a guard `@p` dropped), in order."""
    m = _ASM.match(text.strip())
    if m is None:
        return []
    template = re.match(r'\s*((?:"(?:[^"\\]|\\.)*"\s*)*)', m.group(1)).group(1)  # (a `::` in it is PTX's: `.L2::128B`)
    names = []
    for instr in "".join(_STRING.findall(template)).encode().decode("unicode_escape").split(";"):
        words = instr.replace("{", " ").replace("}", " ").split()
        words = words[1:] if words and words[0].startswith("@") else words
        if words and not words[0].startswith("."):
            names.append(words[0])
    return names


def why_not(text: str) -> str | None:
    """Why the asm statement `text`, which is no idiom, has no port, where a reason more precise than
    KP201's own is known: an instruction of REFUSALS, a guarded one (GUARDED), or a carry chain that
    runs across statements (CARRY_ACROSS), a special register with no port (kernelport/ptx_specials.py)."""
    names = _names(text)
    for pattern, why in REFUSALS:
        hit = next((n for n in names if re.match(pattern, n)), None)
        if hit is not None:
            return why.format(op=hit)
    special = ptx_specials.why_not(" ".join(_STRING.findall(text)))  # (a special register with no port)
    if special is not None:
        return special
    guarded = _GUARD.search(" ".join(_STRING.findall(text)))  # (every string: a template split by #if too)
    if guarded is not None:
        return GUARDED.format(op=guarded.group(2), guard=guarded.group(1))
    pending, seen = None, False  # the instruction whose carry-out no later one has read; a flag set
    for n in names:
        c = re.fullmatch(r"(add|sub|mad)(c?)(?:\.(lo|hi))?(\.cc)?\.u(32|64)", n)
        if c is not None and c.group(2) and not seen:
            return f"{CARRY_ACROSS_MARK}: " + CARRY_ACROSS["in"].format(op=n)
        if c is not None and (c.group(4) or c.group(2)):
            seen, pending = True, n if c.group(4) else None
    if pending is not None:
        return f"{CARRY_ACROSS_MARK}: " + CARRY_ACROSS["out"].format(op=pending)
    return None


def explained(message: str, text: str) -> str:
    """KP201's `message` for the asm statement `text`, with why_not's reason where it has one."""
    why = why_not(text)
    return f"{message}: {why}" if why else message


def _branch_variants(text: str, most: int = 16) -> list[str] | None:
    """The texts of the asm statement `text` for each choice of its preprocessor conditionals' branches
    (`#if`/`#ifdef`/`#ifndef` ... `#elif`/`#else` ... `#endif`, an absent `#else` an empty branch; the
    directive lines blank), or None where it has none; [] (no port) where they nest, are unbalanced or
    give more than `most` texts."""
    lines = text.split("\n")
    if not any(ln.lstrip().startswith("#") for ln in lines):
        return None
    parts: list = []  # a plain line, or a block: [branches, each a list of lines]
    block = None
    continued = False  # the line continues a directive (`\` at its end)
    for ln in lines:
        if continued:
            continued = ln.rstrip().endswith("\\")
            (block[-1] if block is not None else parts).append("")
            continue
        d = re.match(r"\s*#\s*(\w+)", ln)
        continued = d is not None and ln.rstrip().endswith("\\")
        word = d.group(1) if d else ""
        if word in ("if", "ifdef", "ifndef"):
            if block is not None:
                return []
            block = [[]]
        elif word in ("elif", "else") and block is not None:
            block.append([])
        elif word == "endif" and block is not None:
            parts.append(block if len(block) > 1 else block + [[]])
            block = None
        elif d is not None:
            return []  # another directive (#define, #include), or an #else/#endif with no #if
        elif block is not None:
            block[-1].append(ln)
            continue
        else:
            parts.append(ln)
            continue
        (block[-1] if block is not None else parts).append("")  # the directive's line, blank
    if block is not None:
        return []
    texts = [[]]
    for p in parts:
        texts = [t + [p] for t in texts] if isinstance(p, str) else \
            [t + b + [""] * (max(map(len, p)) - len(b)) for t in texts for b in p]
        if len(texts) > most:
            return []
    return ["\n".join(t) for t in texts]


def port(text: str, backend: str, block: bool, shared=lambda operand: False,
         renamed: dict[str, str] | None = None, carried: bool = False, names=None) -> tuple[str, str] | None:
    """The asm statement `text` as `backend` spells its idiom (the outputs assigned in order; a scope's
    registers as locals of a C block, where `block` says one may stand for the statement: the block,
    `{ ... }`, is then the whole statement's port, its `;` included), and the PTX it was; None where
    it is no idiom or the backend spells one of its instructions not.  A statement whose template
    strings are chosen by preprocessor conditionals (`#if __CUDACC_VER_MAJOR__ >= 11` around a
    `.L2::128B` form) is ported where every choice gives the same port: whichever branch a compiler
    takes, the statement means that (else None: the branches differ).  `renamed`: a concept the port
    writes in place of an idiom's (`lane_id` -> `warp_lane`: a lane id the kernel stores as data); `names`: macros
    values a test may read beside the architecture (kernelport.arch_branches.known_values)."""
    text = uncomment(text)  # a comment between the template's strings may hold a `:` or a quote
    if (variants := _branch_variants(text)) is not None:
        from . import backends  # (the toolkit's architectures: an `#if __CUDA_ARCH__ >= N` the original decides)
        ports = [port(v, backend, block, shared, renamed, carried, names) for v in variants]
        return ports[0] if None not in ports and len({p[0] for p in ports}) == 1 else \
            ptx_branches.port(text, ports, block, backends.source().device_archs, names)
    from . import ptx_matrix  # (a warp's matrix instruction, mma.sync / ldmatrix: one call of its own)
    if (got := ptx_matrix.port(text, backend, shared, block)) is not None:
        return got
    m = match(text, lambda key: dialect.concept(key).params,
              lambda key, p: (dialect.concept(key).spelling(backend) or "").count(f"{{{p}}}"), shared, carried)
    cs = [dialect.concept((renamed or {}).get(w.key, w.key)) for w in m.writes] if m is not None else [None]
    if any(c is None or c.spelling(backend) is None for c in cs) or ((m.registers or m.entry) and not block):
        return None
    def write(w: Write, c) -> str:
        done = f"{w.output} = " * bool(w.output) + dialect.render(c, backend, w.inputs)
        return f"({w.guard} ? (void)({done}) : (void)0)" if w.guard else done  # (C's, every backend's)
    out = ", ".join(write(w, c) for w, c in zip(m.writes, cs))
    if m.fenced:  # the clobber's compiler fence on both sides
        fence = dialect.concept("ptx_memory_clobber").spelling(backend)
        if fence is None:
            return None
        out = f"{fence}, {out}, {fence}"
    if m.registers or m.entry:
        word = {"r": "unsigned int", "l": dialect.concept("ulong_long").spelling(backend), "p": "bool", "h": "unsigned short"}
        out = "{ " + " ".join([*(f"{word[w]} {n} = {e};" for w, n, e in m.entry),
                               *(f"{word[w]} {n};" for w, n in m.registers)]) + f" {out}; }}"
    return out, m.ptx
