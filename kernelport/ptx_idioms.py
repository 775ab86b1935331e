"""Inline PTX that is a known idiom: one instruction whose meaning a concept spells on every
backend that has it (`mov.u32 %0, %%laneid;` is the lane id, `bfe.u32` a bit-field extract).
Anything else stays KP201: PTX is never guessed."""
from __future__ import annotations

import re
from dataclasses import dataclass

# (the instruction, %0 being the one "=r" output and OPERAND each input: an "r" operand `%k` or an
# integer immediate, as PTX allows for bfe's position and length (xmrig-cuda's `bfe.u32 %0, %1, %2, 8;`);
# the concept; its parameters, one per OPERAND in order)
OPERAND = r"(%[1-9]\d*|\d+)"
IDIOMS = (
    (r"mov\.[us]32 %0, ?%%laneid;?", "lane_id", ()),
    (rf"bfe\.u32 %0, ?{OPERAND}, ?{OPERAND}, ?{OPERAND};?", "bfe_u32", ("x", "pos", "len")),
)
# asm [volatile] ("TEMPLATE" : "=r"(OUT) [: "r"(IN), ...]), whitespace already collapsed
_ASM = re.compile(r'^asm\s*(?:volatile\s*)?\(\s*"([^"]*)"\s*:\s*"=r"\s*\(([^()]+)\)\s*(?::\s*(.*?))?\s*\)$')
_INPUT = re.compile(r'\s*"r"\s*\(([^()]+)\)\s*(?:,|$)')


@dataclass
class Idiom:
    ptx: str  # the instruction as written
    key: str  # the concept
    output: str  # the expression the result goes to
    inputs: dict[str, str]  # parameter -> operand text


def match(text: str) -> Idiom | None:
    """The idiom `text` (an asm statement, whitespace collapsed) is, or None."""
    m = _ASM.match(text)
    if m is None:
        return None
    ptx, out, rest = m.group(1).strip(), m.group(2).strip(), m.group(3) or ""
    operands = _INPUT.findall(rest)
    if "".join(f'"r"({o})' for o in operands).replace(" ", "") != re.sub(r"[\s,]", "", rest):
        return None  # an operand this reading does not take whole (a constraint other than "r")
    for pattern, key, params in IDIOMS:
        got = re.fullmatch(pattern, ptx)
        if got is None or len(params) != len(got.groups()):
            continue
        texts = [operands[int(g[1:]) - 1].strip() if g.startswith("%") and int(g[1:]) <= len(operands)
                 else g if not g.startswith("%") else None for g in got.groups()]
        used = {int(g[1:]) for g in got.groups() if g.startswith("%")}
        if None not in texts and used == set(range(1, len(operands) + 1)):  # every input read, none invented
            return Idiom(ptx, key, out, dict(zip(params, texts)))
    return None
