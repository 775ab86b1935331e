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

from .cexpr import split_top_level

REG = r"(%[0-9]+)"
OPERAND = r"(%[0-9]+|[0-9]+)"  # a register or an integer immediate, where PTX allows one (bfe's length)

# (instruction: one group per operand, in order; the constraint letter each group's register takes
# ("r" 32 bits, "l" 64, "h" 16); what the instruction assigns: (the output's group, the concept,
# the concept's parameters as groups), in the order PTX writes them)
FORMS = (
    (rf"mov\.[us]32 {REG}, ?%%laneid", "r", ((1, "lane_id", ()),)),
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
    *((rf"mov\.b{n} {REG}, ?{REG}", "rl"[n == 64] * 2, ((1, "ptx_mov", (2,)),)) for n in (32, 64)),
    (rf"bfi\.b32 {REG}, ?{REG}, ?{REG}, ?{OPERAND}, ?{OPERAND}", "rrrrr", ((1, "bfi_b32", (2, 3, 4, 5)),)),
    (rf"mul\.hi\.u64 {REG}, ?{REG}, ?{REG}", "lll", ((1, "umul64hi", (2, 3)),)),
    (rf"mul\.lo\.u64 {REG}, ?{REG}, ?{REG}", "lll", ((1, "ptx_mul_lo_b64", (2, 3)),)),
)
# Carry chains written whole in one asm statement, as arithmetic on the 64-bit numbers their 32-bit
# halves make (a chain that leaves its carry to another statement stays KP201): (the instructions,
# joined by "; "; the constraints; what they assign)
CHAINS = (
    *((rf"{op}\.cc\.u32 {REG}, ?{REG}, ?{OPERAND}; ?{op}c\.u32 {REG}, ?{REG}, ?{OPERAND}", "rrrrrr",
       ((1, f"ptx_{op}_lo", (2, 5, 3, 6)), (4, f"ptx_{op}_hi", (2, 5, 3, 6)))) for op in ("add", "sub")),
)
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_OPERAND = re.compile(r'\s*"([=+&]*)([a-z])"\s*\((.*)\)\s*$', re.S)
_ASM = re.compile(r"^(?:asm|__asm__|__asm)\s*(?:volatile|__volatile__)?\s*\((.*)\)\s*$", re.S)
_PLAIN = re.compile(r"[\w.\s\[\]>-]+")  # a name, member or element: read twice, it is the same value
_NAMES = re.compile(r"(?<![\w.])(?<!->)[A-Za-z_]\w*")  # names, not members (`t.x` writes t)


@dataclass
class Write:
    output: str  # the expression the instruction assigns
    key: str  # the concept
    inputs: dict[str, str]  # parameter -> operand text


@dataclass
class Idiom:
    ptx: str  # the template as written
    writes: list[Write]

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
    ops = outs + ins
    writes: list[Write] = []
    used: set[int] = set()
    written = {k for k, (mod, _, _) in enumerate(outs) if mod == "+"}  # read-write: its value on entry
    body = " ".join(ptx.split())
    if body.startswith("{") and body.endswith("}") and ".reg" not in body:
        body = body[1:-1]  # a scope that declares no registers
    instrs = [" ".join(i.split()) for i in body.split(";") if i.strip()]
    chain = _instruction("; ".join(instrs), ops, params_of, CHAINS)
    for instr in (["; ".join(instrs)] if chain is not None else instrs):
        got = chain or _instruction(instr, ops, params_of)
        if got is None or any(k < len(outs) and k not in written for k in got[1]) or \
                any(k >= len(outs) for k in got[2]):
            return None  # an output read before it is written, or an input written
        writes += got[0]
        used |= got[1] | got[2]
        written |= got[2]
    if not instrs or used != set(range(len(ops))) or not set(range(len(outs))) <= written:
        return None  # every operand read or written, every output written, none invented
    if not _independent(writes, outs, ins, reads):
        return None
    return Idiom(" ".join(ptx.split()), writes)


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
