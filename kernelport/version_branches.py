"""`#if CUDART_VERSION >= 11000` (a test of the CUDA toolkit's version alone) in code both of nvcc's passes compile.

nvcc defines the toolkit's version macros on both passes (`CUDART_VERSION` from cuda_runtime_api.h,
`__CUDACC_VER_MAJOR__` from the driver), so both take one branch: CUDA 13's (the source backend's
`toolkit_versions`, the values the emulator's original reads).  hipcc defines none of them: a port that kept
the test compiled the branch of a toolkit older than any, on both passes (`SCALE` 1.0f where the original's
kernel reads 3.0f).  The test is evaluated with those values, the run's other decided integers
(kernelport.arch_branches.known_values) and `defined(X)` of them; where every test of the chain is decided so
and one reads a toolkit version, the port is the branch taken, alone (kernelport.pass_branches writes it).
A test that reads a name whose value the unit does not decide (a -D, a macro of two definitions) keeps its text."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import arch_branches, backends, cexpr, lazy_re
from .ptx_branches import ARCH, NAME, SPLICE

_DEFINED = lazy_re.compile(r"\bdefined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))")


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
