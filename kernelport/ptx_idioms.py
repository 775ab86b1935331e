"""Inline PTX that is a known idiom: instructions whose meaning a concept spells on every backend
that has it (`mov.u32 %0, %%laneid;` is the lane id, `bfe.u32` a bit-field extract, `mov.b64 %0,
{%1,%2};` packs two words, `shf.l.wrap.b32` is a funnel shift).  An asm statement is rewritten
only when every instruction of its template is one of FORMS, each operand has the constraint (the
register width) the form reads, and every operand is read or written; its outputs are assigned in
the template's order (`d = ..., e = ...`), so an instruction that reads an earlier one's output
reads what C assigned.  Anything else stays KP201: PTX is never guessed.  What each concept computes
is PTX's instruction exactly (tests/test_ptx_idioms.py checks every spelling against a model of
the instruction over random operands, and compiles it with hipcc)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import dialect
from .cexpr import split_top_level
from . import lazy_re

REG = r"(%[0-9]+)"
OPERAND = r"(%[0-9]+|[0-9]+)"  # a register or an integer immediate, where PTX allows one (bfe's length)

# (instruction: one group per operand, in order; the constraint letter each group's register takes
# ("r" 32 bits, "l" 64, "h" 16); what the instruction assigns: (the output's group, the concept,
# the concept's parameters as groups), in the order PTX writes them)
FORMS = (
    # `%%laneid` in a template with operands; nvcc takes a single `%laneid` alike (no operand is `%l...`)
    (rf"mov\.[us]32 {REG}, ?%%?laneid", "r", ((1, "lane_id", ()),)),
    (rf"bfe\.u32 {REG}, ?{OPERAND}, ?{OPERAND}, ?{OPERAND}", "rrrr", ((1, "bfe_u32", (2, 3, 4)),)),
    # bit packing: two registers as the low and high halves of one of twice the width, and back
    (rf"mov\.b64 {REG}, ?\{{ ?{REG}, ?{REG} ?\}}", "lrr", ((1, "ptx_pack_b64", (2, 3)),)),
    (rf"mov\.b64 \{{ ?{REG}, ?{REG} ?\}}, ?{REG}", "rrl", ((1, "ptx_lo_b64", (3,)), (2, "ptx_hi_b64", (3,)))),
    (rf"mov\.b32 {REG}, ?\{{ ?{REG}, ?{REG} ?\}}", "rhh", ((1, "ptx_pack_b32", (2, 3)),)),
    (rf"mov\.b32 \{{ ?{REG}, ?{REG} ?\}}, ?{REG}", "hhr", ((1, "ptx_lo_b32", (3,)), (2, "ptx_hi_b32", (3,)))),
    # funnel shifts: the high (l) or low (r) word of {b, a} shifted by c (mod 32, or clamped to 32)
    *((rf"shf\.{d}\.{m}\.b32 {REG}, ?{REG}, ?{REG}, ?{OPERAND}", "rrrr", ((1, f"funnelshift_{d}{c}", (2, 3, 4)),))
      for d in "lr" for m, c in (("wrap", ""), ("clamp", "c"))),
    *((rf"{op}\.b{n} {REG}, ?{REG}, ?{REG}", "rl"[n == 64] * 3, ((1, f"ptx_{op}", (2, 3)),))
      for op in ("xor", "and", "or") for n in (32, 64)),
    # shifts: PTX clamps the amount to the width (a shift by 32 or more of a .b32 is 0); a move copies bits
    *((rf"{op}\.b{n} {REG}, ?{REG}, ?{OPERAND}", "rl"[n == 64] + "rl"[n == 64] + "r", ((1, f"ptx_{op}_b{n}", (2, 3)),))
      for op in ("shl", "shr") for n in (32, 64)),
    *((rf"mov\.[bu]{n} {REG}, ?{REG}", "rl"[n == 64] * 2, ((1, "ptx_mov", (2,)),)) for n in (32, 64)),
    # conversions between unsigned widths: C's assignment zero-extends and truncates alike
    (rf"cvt\.u64\.u32 {REG}, ?{REG}", "lr", ((1, "ptx_mov", (2,)),)),
    (rf"cvt\.u32\.u64 {REG}, ?{REG}", "rl", ((1, "ptx_mov", (2,)),)),
    *((rf"{op}\.b{n} {REG}, ?{REG}", ("r" if op == "clz" else "rl"[n == 64]) + "rl"[n == 64],  # clz: a .u32 count
       ((1, f"{op}{'64' if n == 64 else ''}", (2,)),)) for op in ("brev", "clz") for n in (32, 64)),
    (rf"mul\.lo\.u32 {REG}, ?{REG}, ?{REG}", "rrr", ((1, "ptx_mul_lo_b32", (2, 3)),)),
    (rf"mul\.hi\.u32 {REG}, ?{REG}, ?{REG}", "rrr", ((1, "umulhi", (2, 3)),)),
    (rf"bfi\.b32 {REG}, ?{REG}, ?{REG}, ?{OPERAND}, ?{OPERAND}", "rrrrr", ((1, "bfi_b32", (2, 3, 4, 5)),)),
    (rf"mul\.hi\.u64 {REG}, ?{REG}, ?{REG}", "lll", ((1, "umul64hi", (2, 3)),)),
    (rf"mul\.lo\.u64 {REG}, ?{REG}, ?{REG}", "lll", ((1, "ptx_mul_lo_b64", (2, 3)),)),
    # prmt.b32's generic form (no mode): four bytes picked from {b, a} by c's four selector nibbles, a
    # nibble's msb replicating the picked byte's sign; the moded forms (.f4e, .ecl, ...) stay KP201
    (rf"prmt\.b32 {REG}, ?{REG}, ?{REG}, ?{OPERAND}", "rrrr", ((1, "ptx_prmt_b32", (2, 3, 4)),)),
    # float products rounded toward zero ("f": a .f32 register); .ftz and .sat forms stay KP201
    (rf"mul\.rz\.f32 {REG}, ?{REG}, ?{REG}", "fff", ((1, "ptx_mul_rz_f32", (2, 3)),)),
    (rf"fma\.rz\.f32 {REG}, ?{REG}, ?{REG}, ?{REG}", "ffff", ((1, "ptx_fma_rz_f32", (2, 3, 4)),)),
)
# Carry chains written whole in one asm statement, as arithmetic on the 64-bit numbers their 32-bit
# halves make (a chain that leaves its carry to another statement stays KP201): (the instructions,
# joined by "; "; the constraints; what they assign)
CHAINS = (
    *((rf"{op}\.cc\.u32 {REG}, ?{REG}, ?{OPERAND}; ?{op}c\.u32 {REG}, ?{REG}, ?{OPERAND}", "rrrrrr",
       ((1, f"ptx_{op}_lo", (2, 5, 3, 6)), (4, f"ptx_{op}_hi", (2, 5, 3, 6)))) for op in ("add", "sub")),
    # the 64-bit product of a and b plus {c1, c0}: `mad.lo.cc.u32 d0, a, b, c0; madc.hi.u32 d1, a, b, c1`
    (rf"mad\.lo\.cc\.u32 {REG}, ?{REG}, ?{REG}, ?{OPERAND}; ?madc\.hi\.u32 {REG}, ?\2, ?\3, ?{OPERAND}", "rrrrrr",
     ((1, "ptx_madwide_lo", (2, 3, 4, 6)), (5, "ptx_madwide_hi", (2, 3, 4, 6)))),
)
_STRING = lazy_re.compile(r'"((?:[^"\\]|\\.)*)"')
_OPERAND = lazy_re.compile(r'\s*"([=+&]*)([a-z])"\s*\((.*)\)\s*$', re.S)
_ASM = lazy_re.compile(r"^(?:asm|__asm__|__asm)\s*(?:volatile|__volatile__)?\s*\((.*)\)\s*$", re.S)
_PLAIN = lazy_re.compile(r"[\w.\s\[\]>-]+")  # a name, member or element: read twice, it is the same value
_NAMES = lazy_re.compile(r"(?<![\w.])(?<!->)[A-Za-z_]\w*")  # names, not members (`t.x` writes t)


@dataclass
class Write:
    output: str  # the expression the instruction assigns
    key: str  # the concept
    inputs: dict[str, str]  # parameter -> operand text


@dataclass
class Idiom:
    ptx: str  # the template as written
    writes: list[Write]
    registers: list[tuple[str, str]]  # the scope's `.reg`s: (constraint letter, the C local's name)

    @property
    def key(self) -> str:
        return self.writes[0].key


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


def _instruction(instr: str, ops: list[tuple[str, str, str]], params_of, forms=FORMS):
    """(what the instruction assigns, the operands it reads, those it writes), or None."""
    for pattern, widths, writes in forms:
        got = re.fullmatch(pattern, instr)
        if got is None:
            continue
        texts: dict[int, str] = {}
        index: dict[int, int] = {}
        for i, g in enumerate(got.groups(), 1):
            if not g.startswith("%"):
                texts[i] = g  # an immediate
                continue
            k = int(g[1:])
            if k >= len(ops) or ops[k][1] != widths[i - 1]:
                return None  # an operand the template invents, or of another register width
            texts[i], index[i] = ops[k][2], k
        out = [Write(texts[o], key, dict(zip(params_of(key), (texts[p] for p in ps)))) for o, key, ps in writes]
        wrote = {index[o] for o, _, _ in writes}
        read = {k for i, k in index.items() if k not in wrote or any(i in ps for _, _, ps in writes)}
        return out, read, wrote
    return None


def match(text: str, params_of=lambda key: (), reads=lambda key, param: 1) -> Idiom | None:
    """The idiom the asm statement `text` is (its outputs' concepts, `params_of(key)` naming each
    concept's parameters, `reads(key, param)` how often the target's spelling evaluates one), or None."""
    m = _ASM.match(text.strip())
    if m is None:
        return None
    sections = [s for s, _ in split_top_level(m.group(1), sep=":", strip=False)]
    if not 2 <= len(sections) <= 4 or (len(sections) == 4 and sections[3].strip()):
        return None  # no outputs, or clobbers
    ptx = "".join(_STRING.findall(sections[0])).encode().decode("unicode_escape")
    outs = _operands(sections[1])
    ins = _operands(sections[2]) if len(sections) > 2 else []
    if outs is None or ins is None or not outs or any(mod not in ("=", "+") for mod, _, _ in outs) or \
            any(mod for mod, _, _ in ins):
        return None
    body = " ".join(ptx.split())
    scoped = body.startswith("{") and body.endswith("}")
    if scoped:
        body = body[1:-1]  # a scope: its registers are locals of a C block
    instrs = [" ".join(i.split()) for i in body.split(";") if i.strip()]
    regs: list[tuple[str, str]] = []
    while instrs and instrs[0].startswith(".reg "):
        d = re.fullmatch(r"\.reg \.[bus](32|64) ([\w, ]+)", instrs.pop(0))
        if d is None:
            return None
        regs += [(n.strip(), "rl"[d.group(1) == "64"]) for n in d.group(2).split(",")]
    if regs and not scoped:
        return None
    first = len(outs) + len(ins)
    ops = outs + ins + [("=", w, f"kp_ptx_{n}") for n, w in regs]
    names = {n: f"%{first + i}" for i, (n, _) in enumerate(regs)}
    instrs = [i.partition(" ")[0] + " " + re.sub(r"(?<![%\w.])[A-Za-z_]\w*(?![\w.])", lambda m: names.get(m.group(0), m.group(0)),
                                                  i.partition(" ")[2]) for i in instrs]
    writes: list[Write] = []
    used: set[int] = set()
    written = {k for k, (mod, _, _) in enumerate(outs) if mod == "+"}  # read-write: its value on entry
    at = 0
    while at < len(instrs):
        got = _instruction("; ".join(instrs[at:at + 2]), ops, params_of, CHAINS) if at + 1 < len(instrs) else None
        step = 1 if got is None else 2
        got = got or _instruction(instrs[at], ops, params_of)
        if got is None or any((k < len(outs) or k >= first) and k not in written for k in got[1]) or \
                any(len(outs) <= k < first for k in got[2]):
            return None  # an output or register read before it is written, or an input written
        writes += got[0]
        used |= got[1] | got[2]
        written |= got[2]
        at += step
    if not instrs or used != set(range(len(ops))) or not set(range(len(outs))) <= written:
        return None  # every operand read or written, every output written, none invented
    if not _independent(writes, outs + ops[first:], ins, reads):
        return None
    return Idiom(" ".join(ptx.split()), writes, [(w, e) for _, w, e in ops[first:]])


def _independent(writes: list[Write], outs, ins, reads) -> bool:
    """C assigns the outputs one after another where the asm reads every input first: an input must
    not name what an output writes (unless it is that output, `"+l"`), and an input read twice must
    be a plain name or element (no call or side effect evaluated twice)."""
    written = {n for _, _, e in outs for n in _NAMES.findall(e)}
    for _, _, e in ins:
        if written & set(_NAMES.findall(e)):
            return False
    count: dict[str, int] = {}
    for w in writes:
        for p, t in w.inputs.items():
            count[t] = count.get(t, 0) + reads(w.key, p)
    return all(n <= 1 or _PLAIN.fullmatch(t) or t.isdigit() for t, n in count.items())


def port(text: str, backend: str, block: bool) -> tuple[str, str] | None:
    """The asm statement `text` as `backend` spells its idiom (the outputs assigned in order; a scope's
    registers as locals of a C block, where `block` says one may stand for the statement), and the
    PTX it was; None where it is no idiom or the backend spells one of its instructions not."""
    m = match(text, lambda key: dialect.concept(key).params,
              lambda key, p: (dialect.concept(key).spelling(backend) or "").count(f"{{{p}}}"))
    cs = [dialect.concept(w.key) for w in m.writes] if m is not None else [None]
    if any(c is None or c.spelling(backend) is None for c in cs) or (m.registers and not block):
        return None
    out = ", ".join(f"{w.output} = {dialect.render(c, backend, w.inputs)}" for w, c in zip(m.writes, cs))
    if m.registers:
        word = {"r": "unsigned int", "l": dialect.concept("ulong_long").spelling(backend)}
        out = "{ " + " ".join(f"{word[w]} {n};" for w, n in m.registers) + f" {out}; }}"
    return out, m.ptx
