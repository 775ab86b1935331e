"""Inline PTX (`asm volatile("cvt.rn.f16.f32 %0, %1;" : "=h"(lo) : "f"(x));`) lowered to C for the
emulator, from a table of the instructions it understands.  Library kernels (apex, for one) pack
fp16 values and load through cache-hinted global accesses this way; what an instruction computes
is written below as data, per opcode family (a `mov` from a special register, %laneid and the lane
masks among them, reads SPECIAL_REGISTERS).  Any other instruction becomes a call that the
emulator refuses at its line when a kernel reaches it ("inline PTX `<instr>` not emulated"), so a
helper nobody calls does not stop the file.  Lines are kept: the statement's text is replaced by
code on its first line and the same number of newlines.
"""
from __future__ import annotations

import re

from ...cexpr import split_top_level
from .items import balanced

NOT_EMULATED = "__kp_ptx_not_emulated"  # its one argument: the instruction, as a string literal

# PTX register types -> C types.  A .bN (untyped bits) operand takes the C type of its
# constraint instead (`"=f"` loads 32 bits into a float).
_TYPES = {"s8": "signed char", "u8": "unsigned char", "s16": "short", "u16": "unsigned short",
          "b16": "unsigned short", "s32": "int", "u32": "unsigned int", "b32": "unsigned int",
          "s64": "long long", "u64": "unsigned long long", "b64": "unsigned long long",
          "f32": "float", "f64": "double"}
_CONSTRAINTS = {"h": "unsigned short", "r": "unsigned int", "l": "unsigned long long", "f": "float",
                "d": "double"}

# cvt.<rounding?>.<dst>.<src>: the C expression of the conversion ({0}: the source operand).
# f16 lives in a 16-bit register as its bits.
CVT = {
    ("f16", "f32"): "__half_as_ushort(__float2half_rn({0}))",
    ("f32", "f16"): "__half2float(__ushort_as_half((unsigned short)({0})))",
}
_CVT_ROUNDING = {"", "rn"}  # to f16 rounds to nearest even; f16 -> f32 is exact

# PTX's special registers a `mov` reads (`mov.u32 %0, %%laneid;`): the C expression of each, in CUDA's
# terms (PTX is CUDA's own assembly: a warp is warpSize consecutive threads of the block's linear order).
_LINEAR_TID = "(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))"
_LANE = f"((unsigned int){_LINEAR_TID} % (unsigned int)warpSize)"
_LANE_BIT = f"(1u << {_LANE})"
SPECIAL_REGISTERS = {
    "laneid": _LANE,
    "lanemask_eq": _LANE_BIT, "lanemask_lt": f"({_LANE_BIT} - 1u)", "lanemask_le": f"(({_LANE_BIT} << 1) - 1u)",
    "lanemask_gt": f"(~(({_LANE_BIT} << 1) - 1u))", "lanemask_ge": f"(~({_LANE_BIT} - 1u))",
    **{f"{reg}.{d}": f"{var}.{d}" for reg, var in (("tid", "threadIdx"), ("ntid", "blockDim"),
                                                   ("ctaid", "blockIdx"), ("nctaid", "gridDim")) for d in "xyz"},
}

# Qualifiers of ld/st that choose caching or ordering, not the value read or written by this
# one device (the emulator's memory is coherent).
_MEMORY_HINTS = {"global", "shared", "generic", "volatile", "relaxed", "acquire", "release", "gpu", "sys", "cta",
                 "weak", "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "L1::no_allocate"}

_ASM = re.compile(r"\b(?:asm|__asm__|__asm)\s*(?:volatile|__volatile__)?\s*\(")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _operands(text: str) -> list[tuple[str, str]]:
    """[(constraint, C expression)] of one operand section (`"=h"(lo), "f"(x)`)."""
    out = []
    for part, _ in split_top_level(text):
        m = re.match(r'\s*((?:"[^"]*"\s*)+)\((.*)\)\s*$', part, re.S)  # (`"=" "r"(x)`: C joins the literals)
        if m:
            out.append(("".join(re.findall(r'"([^"]*)"', m.group(1))), m.group(2).strip()))
    return out


def _reg(tok: str, ops: list[tuple[str, str]]) -> tuple[str, str] | None:
    m = re.fullmatch(r"\s*%(\d+)\s*", tok)
    if m is None or int(m.group(1)) >= len(ops):
        return None
    return ops[int(m.group(1))]


def _list(tok: str) -> list[str]:
    tok = tok.strip()
    return [t for t in tok[1:-1].split(",")] if tok.startswith("{") and tok.endswith("}") else [tok]


def _ctype(ptx_type: str, constraint: str) -> str:
    if ptx_type.startswith("b"):
        return _CONSTRAINTS.get(constraint.lstrip("=+&"), _TYPES[ptx_type])
    return _TYPES[ptx_type]


def _instruction(instr: str, ops: list[tuple[str, str]]) -> str | None:
    """C statements for one PTX instruction, or None when it is not in the table."""
    m = re.match(r"\s*([a-z][\w.:]*)\s*(.*)$", instr, re.S)
    if m is None:
        return None
    opcode, rest = m.group(1).split("."), m.group(2)
    args = [a for a, _ in split_top_level(rest, brackets="([{")]
    try:
        special = re.fullmatch(r"\s*%%?([a-z_]+(?:\.[xyz])?)\s*", args[1]) if len(args) == 2 else None
        if opcode[0] == "cvt" and len(opcode) == 3 and special and special.group(1) in SPECIAL_REGISTERS and \
                all(x[:1] in "ub" and x in _TYPES for x in opcode[1:]):  # `cvt.u64.u32 %0, %%lanemask_lt`: widened
            d = _reg(args[0], ops)
            return None if d is None else \
                f"{d[1]} = ({_ctype(opcode[1], d[0])})({_TYPES[opcode[2]]})({SPECIAL_REGISTERS[special.group(1)]});"
        if opcode[0] == "cvt" and len(args) == 2:
            *rnd, dst_t, src_t = opcode[1:]
            conv = CVT.get((dst_t, src_t))
            d, s = _reg(args[0], ops), _reg(args[1], ops)
            if conv is None or set(rnd) - _CVT_ROUNDING or len(rnd) > 1 or d is None or s is None:
                return None
            return f"{d[1]} = {conv.format(s[1])};"
        if opcode[0] == "mov" and len(opcode) == 2 and special and special.group(1) in SPECIAL_REGISTERS:
            d = _reg(args[0], ops)
            if d is None or opcode[1] not in _TYPES:
                return None
            return f"{d[1]} = ({_ctype(opcode[1], d[0])})({SPECIAL_REGISTERS[special.group(1)]});"
        if opcode[0] == "mov" and opcode[1:] in (["b32"], ["b64"]) and len(args) == 2:
            half = "unsigned short" if opcode[1] == "b32" else "unsigned int"
            bits = 16 if opcode[1] == "b32" else 32
            whole = "unsigned int" if opcode[1] == "b32" else "unsigned long long"
            dst, src = _list(args[0]), _list(args[1])
            if len(dst) == 1 and len(src) == 2:  # pack: {lo, hi} -> one register
                d, lo, hi = _reg(dst[0], ops), _reg(src[0], ops), _reg(src[1], ops)
                if d and lo and hi:
                    return (f"{d[1]} = ({whole})({half})({lo[1]}) | "
                            f"(({whole})({half})({hi[1]}) << {bits});")
            if len(dst) == 2 and len(src) == 1:  # unpack
                lo, hi, s = _reg(dst[0], ops), _reg(dst[1], ops), _reg(src[0], ops)
                if lo and hi and s:
                    return f"{lo[1]} = ({half})({s[1]}); {hi[1]} = ({half})(({whole})({s[1]}) >> {bits});"
            return None
        if opcode[0] in ("ld", "st") and len(args) == 2:
            quals, ptx_type = opcode[1:-1], opcode[-1]
            vec = [q for q in quals if re.fullmatch(r"v[248]", q)]
            if ptx_type not in _TYPES or set(quals) - _MEMORY_HINTS - set(vec) or len(vec) > 1:
                return None
            n = int(vec[0][1:]) if vec else 1
            mem, regs = (args[1], args[0]) if opcode[0] == "ld" else (args[0], args[1])
            am = re.fullmatch(r"\s*\[\s*(%\d+)\s*\]\s*", mem)
            addr = _reg(am.group(1), ops) if am else None
            vals = [_reg(r, ops) for r in _list(regs)]
            if addr is None or len(vals) != n or None in vals:
                return None
            out = []
            for i, v in enumerate(vals):
                ct = _ctype(ptx_type, v[0])
                ref = f"(({ct}*)({addr[1]}))[{i}]"
                out.append(f"{v[1]} = {ref};" if opcode[0] == "ld" else f"{ref} = ({ct})({v[1]});")
            return " ".join(out)
    except (KeyError, ValueError, IndexError):
        return None
    return None


def _inputs_first(outs: list[tuple[str, str]], ins: list[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """(declarations, operands): an asm reads every input before it writes any output, while its C lowering
    assigns the outputs one after another, so where it has outputs each input is read into a local first
    (`"=r"(lo), "=r"(hi) : "l"(d + lo)` splits d + lo with lo's value on entry).  `auto` keeps the input's own
    C type (a pointer stays a pointer for ld/st); a `+` output is read where it is written, as before."""
    if not outs or not ins:
        return [], outs + ins
    names = [f"__kp_asm_in{i}" for i in range(len(ins))]
    return ([f"auto {n} = ({e});" for n, (_, e) in zip(names, ins)],
            outs + [(c, n) for n, (c, _) in zip(names, ins)])


def lower_asm(text: str) -> str:
    """Every inline-assembly statement of `text` as C: the table's instructions as statements, any
    other as a call the emulator refuses when it runs it."""
    pos = 0
    while True:
        m = _ASM.search(text, pos)
        if m is None:
            return text
        end = balanced(text, m.end() - 1)
        semi = re.match(r"\s*;", text[end:])
        stop = end + semi.end() if semi else end
        inner = text[m.end(): end - 1]
        sections = [s for s, _ in split_top_level(inner, sep=":", strip=False)]
        template = "".join(_STRING.findall(sections[0])).encode().decode("unicode_escape")
        outs = _operands(sections[1]) if len(sections) > 1 else []
        ins = _operands(sections[2]) if len(sections) > 2 else []
        code, ops = _inputs_first(outs, ins)
        for instr in (s.strip() for s in template.split(";")):
            if not instr:
                continue
            c = _instruction(instr, ops)
            if c is None:
                name = instr.split()[0].replace('"', "")
                c = f'{NOT_EMULATED}("{name}");'
            code.append(c)
        new = "{ " + " ".join(code) + " }" + "\n" * text[m.start():stop].count("\n")
        text = text[: m.start()] + new + text[stop:]
        pos = m.start() + len(new)
