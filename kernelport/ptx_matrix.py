"""Inline PTX's warp-collective matrix instructions a port can reproduce exactly: `mma.sync` and
`ldmatrix`, whose fragment layouts PTX specifies lane by lane (unlike wmma's, which CUDA leaves open).

Each lane of a 32-lane warp holds a documented part of each fragment, so the instruction is a function
of the 32 lanes' registers: a backend spells it as a call over a LOGICAL 32-lane warp (HIP: width-32
shuffles and plain LDS loads, kernelport/backends/hip_ptx_matrix.py), and the function that holds such
an asm keeps CUDA's 32-lane warps (kernelport/warpwidth.py reads the CUDA backend's `warp32_asm`).

An asm statement is ported only where its template is one instruction of FORMS, written with the
operand groups FORMS names (`{d..}, {a..}, {b..}, {c..}` or `{d..}, [p]`), each register an operand of
the constraint the group takes (ldmatrix's address a shared-window address the function computes with
cvta.to.shared, as ptx_idioms' ld.shared), every operand used and every output written once.  The port
is one call that reads every input before it writes an output (`&out` passed), so an output that is
also an input (`"=f"(acc[0]) ... "f"(acc[0])`, or a `"+f"`) reads its value on entry, as PTX does.
Any other shape, type, layout (`.row.row`, an f16 accumulator, `.u8`, `.satfinite`, `.x4.b8`...) stays KP201 with
ptx_idioms.REFUSALS's reason: PTX is never guessed."""
from __future__ import annotations

import re

from . import lazy_re

# (the instruction's name, its operand groups: (the concept's parameter prefix, the registers, the
# constraint letter: "f" .f32, "r" 32 bits, "s" a shared-window address in an "r"; an output group first),
# the concept)
FORMS = (
    (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32",
     (("d", 4, "f"), ("a", 4, "r"), ("b", 2, "r"), ("c", 4, "f")), "ptx_mma_m16n8k16_f32_f16"),
    (r"mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.f16\.f16\.f32",
     (("d", 4, "f"), ("a", 2, "r"), ("b", 1, "r"), ("c", 4, "f")), "ptx_mma_m16n8k8_f32_f16"),
    # the integer forms on signed bytes, s32 accumulators ("r"), wrapping as PTX's without .satfinite: exact sums
    (r"mma\.sync\.aligned\.m16n8k32\.row\.col\.s32\.s8\.s8\.s32",
     (("d", 4, "r"), ("a", 4, "r"), ("b", 2, "r"), ("c", 4, "r")), "ptx_mma_m16n8k32_s32_s8"),
    (r"mma\.sync\.aligned\.m16n8k16\.row\.col\.s32\.s8\.s8\.s32",
     (("d", 4, "r"), ("a", 2, "r"), ("b", 1, "r"), ("c", 4, "r")), "ptx_mma_m16n8k16_s32_s8"),
    # ldmatrix's qualifiers in PTX's order (.m8n8.x4.trans.shared.b16) or with .num first (.x4.m8n8...),
    # as ptxas takes both; .shared::cta is .shared
    *((rf"ldmatrix\.sync\.aligned(?:\.m8n8\.x{n}|\.x{n}\.m8n8){t}\.shared(?:::cta)?\.b16",
       (("d", n, "r"), ("p", 1, "s")), f"ptx_ldmatrix_x{n}{k}")
      for n in (1, 2, 4) for t, k in ((r"", ""), (r"\.trans", "_trans"))),
)
_GROUP = lazy_re.compile(r"\{([^{}]*)\}|\[([^\[\]]*)\]|(%[0-9]+)")


def _groups(operands: str) -> list[list[str]] | None:
    """The operand groups of an instruction (`{%0,%1},[%2]` -> [["%0", "%1"], ["%2"]]), or None."""
    compact = re.sub(r"\s+", "", operands)
    groups, at = [], 0
    for m in _GROUP.finditer(compact):
        if compact[at:m.start()] not in ("", ","):
            return None
        regs = (m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)).split(",")
        if not all(re.fullmatch(r"%[0-9]+", r) for r in regs):
            return None  # an immediate, a named register, an offset inside [ ]
        groups.append(regs)
        at = m.end()
    return groups if compact[at:] == "" else None


def match(text: str, shared=lambda operand: False):
    """(the concept, {parameter: operand text}, whether a "memory" clobber fences it) of the asm statement
    `text` where it is one instruction of FORMS written as FORMS reads it; None otherwise."""
    from .ptx_idioms import _ASM, _STRING, _PLAIN, _operands, asm_sections
    from .cexpr import split_top_level
    m = _ASM.match(text.strip())
    if m is None:
        return None
    sections = asm_sections(m.group(1))
    if not 2 <= len(sections) <= 4:
        return None
    clobbers = [c.strip() for c, _ in split_top_level(sections[3])] if len(sections) == 4 else []
    if any(c and c != '"memory"' for c in clobbers):
        return None
    ptx = " ".join("".join(_STRING.findall(sections[0])).encode().decode("unicode_escape").split())
    instrs = [i.strip() for i in ptx.split(";") if i.strip()]
    outs = _operands(sections[1])
    ins = _operands(sections[2]) if len(sections) > 2 else []
    if len(instrs) != 1 or outs is None or ins is None or any(mod not in ("=", "+") for mod, _, _ in outs) or \
            any(mod for mod, _, _ in ins):
        return None
    name, _, rest = instrs[0].partition(" ")
    name = canonical(name)
    form = next((f for f in FORMS if re.fullmatch(f[0], name)), None)
    groups = _groups(rest) if form is not None else None
    if groups is None or [len(g) for g in groups] != [n for _, n, _ in form[1]]:
        return None
    ops = outs + ins
    args: dict[str, str] = {}
    used: list[int] = []
    for (prefix, n, letter), regs in zip(form[1], groups):
        for i, r in enumerate(regs):
            k = int(r[1:])
            output = prefix == "d"
            if k >= len(ops) or ops[k][1] != letter.replace("s", "r") or output != (k < len(outs)) and \
                    not (not output and k < len(outs) and outs[k][0] == "+"):
                return None  # an operand the template invents, of another width, an input written, an output read
            if letter == "s" and not shared(ops[k][2]):
                return None  # an address this function is not shown to compute with cvta.to.shared
            args[f"{prefix}{i}" if n > 1 or prefix != "p" else prefix] = ops[k][2]
            used.append(k)
    writes = [int(r[1:]) for r in groups[0]]
    if set(used) != set(range(len(ops))) or len(set(writes)) != len(writes):
        return None  # every operand used, each output written once
    texts = [ops[k][2] for k in used]
    plain = [bool(_PLAIN.fullmatch(t) or t.isdigit()) for t in texts]
    if any(not p and len({k for k, u in zip(used, texts) if u == t}) > 1 for t, p in zip(texts, plain)):
        return None  # one text in two operands (`"=f"(c(i++)) : "f"(c(i++))`): the asm evaluates it twice
    # an operand the call would name twice (an output that is also an input, `"+f"(c(0))`) and that is no
    # plain name or element (an accessor call, a cast's element): bound once to a reference (`port`), an
    # output's (one the asm writes) to an lvalue reference
    bound = list(dict.fromkeys(t for t, p in zip(texts, plain) if texts.count(t) > 1 and not p))
    written = {ops[k][2] for k in writes}
    return form[2], args, '"memory"' in clobbers, [(t, t in written) for t in bound]


def port(text: str, backend: str, shared=lambda operand: False, block: bool = False) -> tuple[str, str] | None:
    """The asm statement `text` as `backend` spells its matrix instruction (one call), and the PTX it
    was; None where it is none of FORMS or the backend spells it not.  An operand named twice that is no
    plain name or element (`"+f"(c(0))`, an accessor) is bound once to a local reference, where `block`
    says a `{ ... }` may stand for the statement (else None)."""
    from . import dialect
    got = match(text, shared)
    if got is None:
        return None
    key, args, fenced, bound = got
    c = dialect.concept(key)
    if c.spelling(backend) is None:
        return None
    names = {t: f"kp_op{i}" for i, (t, _) in enumerate(bound)}  # each evaluated once, as the asm does: a local reference
    binds = {t: "ptx_bound_output" if out else "ptx_bound_operand" for t, out in bound}
    if names and (not block or any(dialect.concept(k).spelling(backend) is None for k in binds.values())):
        return None
    out = dialect.render(c, backend, {p: names.get(t, t) for p, t in args.items()})
    if fenced:
        fence = dialect.concept("ptx_memory_clobber").spelling(backend)
        if fence is None:
            return None
        out = f"{fence}, {out}, {fence}"
    if names:  # a block standing for the whole statement (its `;` included)
        out = "{ " + " ".join(dialect.render(dialect.concept(binds[t]), backend, {"name": n, "value": t})
                              for t, n in names.items()) + f" {out}; }}"
    return out, key


# The modifiers of an instruction PTX reads wherever they stand (ptxas takes `ldmatrix.sync.aligned.x4.trans.
# m8n8.shared.b16` and any other order of them: checked with CUDA 13's ptxas), in FORMS' order.  Only the
# layouts (.row/.col: A's, then B's) and the types (.f32.f16.f16.f32: D, A, B, C) are positional: their
# order among themselves is kept (ptxas: `.col.row` is another instruction).
_ORDER = (("sync",), ("aligned",), (r"m\d+n\d+(?:k\d+)?",), (r"x[124]",), ("trans",), (r"row|col",),
          (r"shared(?:::cta)?",), (r"[fbsu]\d+|e[45]m[23]|tf32",))
_ORDERED = ("ldmatrix", "mma")


def canonical(name: str) -> str:
    """`name` (an instruction's dotted name) with its modifiers in FORMS' order where the instruction is
    one of _ORDERED and each modifier is of a kind _ORDER knows; else `name` as written."""
    head, *mods = name.split(".")
    if head not in _ORDERED:
        return name
    kinds = [next((i for i, (k,) in enumerate(_ORDER) if re.fullmatch(k, m)), None) for m in mods]
    if None in kinds:
        return name
    return ".".join([head, *(m for _, _, m in sorted(zip(kinds, range(len(mods)), mods)))])


def warp32_instruction(text: str) -> str | None:
    """The first instruction of the asm statement `text` that acts on a whole 32-lane warp (the source
    dialect's `warp32_asm`: PTX's mma.sync, ldmatrix), or None."""
    from . import backends
    from .ptx_idioms import _names
    pattern = backends.source().warp32_asm
    return next((n for n in _names(text) if re.match(pattern, n)), None) if pattern else None
