"""An asm statement whose template strings one preprocessor conditional chooses, each branch a known
PTX idiom (kernelport/ptx_idioms.py) but their ports different: NVIDIA's simd_functions.h writes
`"prmt.b32 r,s,u,0x7632;"` under `#if __CUDA_ARCH__ >= 200` and an and/or sequence under its `#else`,
inside one `asm(...)`.  The port keeps the conditional, each branch's C under that branch's directive,
so whichever branch a compiler takes computes what that branch's PTX computes: no branch is taken to
mean what another does.  Only a statement (its port a block, the `;` included) with exactly one
conditional (`#if`/`#ifdef`/`#ifndef`, `#elif`s, an `#else`, `#endif`; none nested) is ported this way;
any other shape, or a branch with no port, stays without one (KP201)."""
from __future__ import annotations

import re


def directives(text: str) -> list[str] | None:
    """The directive lines of the statement's one conditional in order (a continued directive joined,
    an absent `#else` supplied), or None where it has not exactly one un-nested conditional."""
    out: list[str] = []
    lines = iter(text.split("\n"))
    for ln in lines:
        if (d := re.match(r"\s*#\s*(\w+)", ln)) is None:
            continue
        while ln.rstrip().endswith("\\"):
            ln = ln.rstrip()[:-1] + " " + next(lines, "")
        out.append((d.group(1), ln.strip()))
    words = [w for w, _ in out]
    if not words or words[0] not in ("if", "ifdef", "ifndef") or words[-1] != "endif" or \
            any(w not in ("elif", "else") for w in words[1:-1]) or words.count("else") > 1 or \
            ("else" in words and words.index("else") != len(words) - 2):
        return None
    lines_ = [t for _, t in out]
    return lines_ if "else" in words else lines_[:-1] + ["#else", lines_[-1]]


def port(text: str, ports: list, block: bool) -> tuple[str, str] | None:
    """The statement `text`'s port as each branch's port (`ports`, in branch order, as
    ptx_idioms.port gives them) under its own directive, or None (see the module's docstring)."""
    ds = directives(text)
    if not block or ds is None or None in ports or len(ds) != len(ports) + 1:
        return None
    arms = [p if p.startswith("{") else f"{p};" for p, _ in ports]  # an expression port leaves the `;` to the statement
    body = "".join(f"{d}\n{arm}\n" for d, arm in zip(ds, arms))
    return "{\n" + body + ds[-1] + "\n}", " | ".join(dict.fromkeys(ptx for _, ptx in ports))
