"""`#if CUDART_VERSION >= 11000` (a test of the CUDA toolkit's version alone), wherever nvcc compiles it.

nvcc defines the toolkit's version macros on both passes (`CUDART_VERSION` from cuda_runtime_api.h,
`__CUDACC_VER_MAJOR__` from the driver), so both take one branch: CUDA 13's (the source backend's
`toolkit_versions`, the values the emulator's original reads).  hipcc defines none of them: a port that kept
the test compiled the branch of a toolkit older than any, on both passes (`SCALE` 1.0f where the original's
kernel reads 3.0f); in host-only code too (cuda-samples' threadFenceReduction.cu: `main()`'s `#if CUDART_VERSION
>= 2020` ran the test, its `#else` printed that the compiler is not supported and exited), and in a kernel's body.  The test is evaluated with those values, the run's other decided integers
(kernelport.arch_branches.known_values) and `defined(X)` of them; where every test of the chain is decided so
and one reads a toolkit version, the port is the branch taken, alone (kernelport.pass_branches writes it).
A test that reads a name whose value the unit does not decide (a -D, a macro of two definitions) keeps its text;
so does one of a version macro the unit defines itself (toolkit_values)."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import arch_branches, backends, cexpr, lazy_re
from .ptx_branches import ARCH, NAME, SPLICE

_DEFINED = lazy_re.compile(r"\bdefined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))")
_NOT_DEFINED = lazy_re.compile(r"!\s*defined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))")


def toolkit_values(srcs, given) -> dict[str, int]:
    """The toolkit's version macros as nvcc's passes read them (the source backend's `toolkit_versions`), less the
    run's -D names (`given`) and those a file of the unit (`srcs`: parses) defines itself: a compatibility header's
    `#define CUDART_VERSION 1000` is what nvcc reads after its own, and hipcc reads it too, so the test keeps its
    text.  A definition under its own `#ifndef CUDART_VERSION` is a fallback no nvcc pass compiles (the toolkit
    defines the name): the toolkit's value stays, which hipcc, reading the fallback, would not take."""
    out = {k: v for k, v in backends.source().toolkit_versions.items() if k not in given}
    for src in srcs:
        for d in src.index.of_type("preproc_def"):
            name = d.child_by_field_name("name")
            if name is not None and (n := src.text_of(name)) in out and not _fallback(src, d, n):
                del out[n]
    return out


def _fallback(src, d: Node, name: str) -> bool:
    """Is the definition `d` in the first branch of `#ifndef NAME` / `#if !defined(NAME)`?"""
    child, p = d, d.parent
    while p is not None:
        if p.type in ("preproc_ifdef", "preproc_if") and child.type not in ("preproc_else", "preproc_elif"):
            if p.type == "preproc_ifdef" and p.children[0].type == "#ifndef":
                if src.text_of(p.child_by_field_name("name")) == name:
                    return True
            elif p.type == "preproc_if" and (c := p.child_by_field_name("condition")) is not None:
                m = _NOT_DEFINED.fullmatch(src.text_of(c).strip())
                if m is not None and (m.group(1) or m.group(2)) == name:
                    return True
        child, p = p, p.parent
    return False


def choice(tr, node: Node, names) -> arch_branches.Choice | None:
    """The branch every pass takes of `node`'s chain, where its tests read the toolkit's version (none reads
    `__CUDA_ARCH__`: kernelport.pass_branches splits those) and every name they read is decided."""
    arms, texts = arch_branches.arms_of(tr.src, node)
    if not texts:
        return None
    versions = set(backends.source().toolkit_versions) & set(names)  # (less the run's -D names: known_values)
    if not any(set(NAME.findall(SPLICE.sub(" ", t))) & versions for t in texts):
        return None
    for i, t in enumerate(texts):
        held = _holds(SPLICE.sub(" ", t), names)
        if held is None:
            return None
        if held:
            return arch_branches.Choice(node, tuple(arms), tuple(arch_branches._directive(tr.src, a) for a in arms), i, ())  # noqa: SLF001
    return arch_branches.Choice(node, tuple(arms), tuple(arch_branches._directive(tr.src, a) for a in arms), len(texts), ())  # noqa: SLF001


def _holds(test: str, names) -> bool | None:
    if ARCH in test:
        return None
    expr = _DEFINED.sub(lambda m: "1" if (m.group(1) or m.group(2)) in names else "?", test)
    if "?" in expr:
        return None  # `defined(X)` of a name the unit does not decide
    expr = NAME.sub(lambda m: f"({names[m.group()]})" if m.group() in names else m.group(), expr)
    if re.search(r"[A-Za-z_]\w*", expr):
        return None
    try:
        return bool(cexpr.evaluate(expr, {}))
    except (cexpr.CExprError, ZeroDivisionError, TypeError, RecursionError, ValueError):
        return None
