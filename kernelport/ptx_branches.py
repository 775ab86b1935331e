"""An asm statement whose template strings one preprocessor conditional chooses, each branch a known
PTX idiom (kernelport/ptx_idioms.py) but their ports different: NVIDIA's simd_functions.h writes
`"prmt.b32 r,s,u,0x7632;"` under `#if __CUDA_ARCH__ >= 200` and an and/or sequence under its `#else`,
inside one `asm(...)`.  The port keeps the conditional, each branch's C under that branch's directive,
so whichever branch a compiler takes computes what that branch's PTX computes: no branch is taken to
mean what another does.  Only a statement (its port a block, the `;` included) with exactly one
conditional (`#if`/`#ifdef`/`#ifndef`, `#elif`s, an `#else`, `#endif`; none nested) is ported this way;
any other shape, or a branch with no port, stays without one (KP201).

A conditional on the NVIDIA architecture (`#if __CUDA_ARCH__ >= 200`, tests reading `__CUDA_ARCH__` and
numbers only) is no choice a target's build makes: off NVIDIA the macro is undefined and the `#else`
(what a Fermi-era GPU ran) would compile, a branch no current CUDA toolkit builds.  The original computes
the branch its GPU's architecture takes, so the port is the branch the newest architecture the toolkit
lists takes (the CUDA backend's `device_archs`; where the toolkit's architectures take different branches,
the newest's, as on the device oracle's GPU), alone, with a warning (KP237) naming the line of the branch
taken and of each branch left out: their ports differ (where they agree, ptx_idioms writes the one port
with no word), which kernelport does not show equivalent."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from . import cexpr, lazy_re


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


@dataclass(frozen=True)
class ArchChoice:
    """The branch (its index) the newest NVIDIA architecture takes, each branch's directive line (0-based,
    within the statement's text) and directive, and the architectures that take another branch."""
    taken: int
    lines: tuple[int, ...]
    tests: tuple[str, ...]
    others: tuple[int, ...]  # `__CUDA_ARCH__` values of the toolkit that take another branch


ARCH = "__CUDA_ARCH__"
NAME = lazy_re.compile(r"\b[A-Za-z_]\w*\b")
# a directive's line splices and comments (mfaktc: `#elif (__CUDA_ARCH__ >= FERMI) && \\` / `(CUDART_VERSION >= 4010) /* ... */`)
SPLICE = lazy_re.compile(r"\\\r?\n|/\*.*?\*/|//[^\n]*", re.S)
DEFINED = lazy_re.compile(r"\bdefined\s*(?:\(\s*__CUDA_ARCH__\s*\)|__CUDA_ARCH__\b)")


def arch_holds(test: str, arch: int | None, names: Mapping[str, int] | None = None, chained: bool = False) -> bool | None:
    """An `#if`/`#elif` test at `__CUDA_ARCH__` = arch (None: nvcc's host pass, where it is undefined), or None
    where it reads more than the architecture and `names` (object-like macros whose integer values the unit's
    definitions decide, kernelport.unitdefines: mfaktc's `#define VOLTA 700`, read as the literal).  A test of
    `defined(__CUDA_ARCH__)` alone is the device pass's (kernelport.device_pass), None, unless `chained`: one arm
    of a chain whose other tests compare the architecture (`#if !defined(__CUDA_ARCH__)` / `#elif __CUDA_ARCH__
    >= 700`), read whole as the architecture's."""
    expr = DEFINED.sub("0" if arch is None else "1", SPLICE.sub(" ", test))
    if names:
        expr = NAME.sub(lambda m: f"({names[m.group()]})" if m.group() in names else m.group(), expr)
    if re.search(r"[A-Za-z_]\w*", expr.replace(ARCH, "")) or ARCH not in expr and not (chained and DEFINED.search(test)):
        return None
    try:
        return bool(cexpr.evaluate(expr.replace(ARCH, str(arch or 0)), {}))
    except (cexpr.CExprError, ZeroDivisionError, TypeError, RecursionError, ValueError):
        return None


def arch_choice(text: str, archs: tuple[int, ...], names: Mapping[str, int] | None = None) -> ArchChoice | None:
    """The branch of the statement's one conditional that the newest of `archs` takes, where every test is
    on the NVIDIA architecture (`#if`/`#elif`, not `#ifdef`: the device pass); else None."""
    ds, at = directives(text), [i for i, ln in enumerate(text.split("\n")) if re.match(r"\s*#\s*\w+", ln)]
    if ds is None or not archs or not ds[0].startswith("#") or re.match(r"#\s*if\b", ds[0]) is None:
        return None
    tests = [re.sub(r"^#\s*(?:el)?if\b", "", d).strip() for d in ds[:-2]]  # (an `#else`, then `#endif`)
    if not all(re.match(r"#\s*(?:el)?if\b", d) for d in ds[:-2]):
        return None

    def branch(arch: int) -> int | None:
        for i, t in enumerate(tests):
            held = arch_holds(t, arch, names)
            if held is None:
                return None
            if held:
                return i
        return len(tests)
    taken = [branch(a) for a in sorted(archs)]
    if None in taken:
        return None
    rows = text.split("\n")
    has_else = any(re.match(r"\s*#\s*else\b", rows[i]) for i in at)
    lines = tuple(at[:-1]) + (() if has_else else tuple(at[-1:]))  # (no `#else`: its empty branch ends at `#endif`)
    return ArchChoice(taken[-1], lines, tuple(ds[:-1]), tuple(a for a, b in zip(sorted(archs), taken) if b != taken[-1]))


def port(text: str, ports: list, block: bool, archs: tuple[int, ...] = (), names: Mapping[str, int] | None = None):
    """The statement `text`'s port as each branch's port (`ports`, in branch order, as
    ptx_idioms.port gives them) under its own directive, or None (see the module's docstring); on the
    NVIDIA architecture, the branch the newest of `archs` takes, with its ArchChoice third."""
    ds = directives(text)
    if ds is None or len(ds) != len(ports) + 1:
        return None
    if (choice := arch_choice(text, archs, names)) is not None:
        got = ports[choice.taken]
        return None if got is None else (got[0], got[1], choice)
    if not block or None in ports:
        return None
    arms = [p if p.startswith("{") else f"{p};" for p, _ in ports]  # an expression port leaves the `;` to the statement
    body = "".join(f"{d}\n{arm}\n" for d, arm in zip(ds, arms))
    return "{\n" + body + ds[-1] + "\n}", " | ".join(dict.fromkeys(ptx for _, ptx in ports))
