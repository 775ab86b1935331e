"""The device heap's size the host code sets: `cudaDeviceSetLimit(cudaLimitMallocHeapSize, n)` (or the
backend's spelling of both names, from its API table: HIP's hipDeviceSetLimit / hipLimitMallocHeapSize)
in the text the emulator runs.  The last such call in the text counts (the heap is sized before the
launches that use it); `n` is evaluated as a C constant after the file's object-like #defines.  A size
the text computes at run time (a variable, a command-line value) is no constant: its expression is
kept, and emulator.heap says it where the size decides a malloc's result.
"""
from __future__ import annotations

import re

from .. import backends

_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(.+?)[ \t]*$", re.M)
_WORD = re.compile(r"[A-Za-z_]\w*")


def _spellings(backend: str | None, cuda: str) -> list[str]:
    names = [cuda]
    try:
        table = backends.get(backend).api() if backend else None
    except (KeyError, ValueError):
        table = None
    got = table.spelling(cuda) if table is not None else None
    return names + [got] if got and got != cuda else names


def host_limit(text: str, backend: str | None) -> tuple[int | None, str]:
    """(bytes, expression) of the last heap-size call in `text`; (None, "") where it has none;
    (None, expression) where the expression is no constant."""
    fns = "|".join(map(re.escape, _spellings(backend, "cudaDeviceSetLimit")))
    lims = "|".join(map(re.escape, _spellings(backend, "cudaLimitMallocHeapSize")))
    calls = list(re.finditer(rf"\b(?:{fns})\s*\(\s*(?:{lims})\s*,\s*([^;]+?)\)\s*;", text))
    if not calls:
        return None, ""
    expr = calls[-1].group(1).strip()
    defines = dict(_DEFINE.findall(text))
    expanded = expr
    for _ in range(8):  # object-like macros, nested a few deep
        expanded = _WORD.sub(lambda w: f"({defines[w.group(0)]})" if w.group(0) in defines else w.group(0), expanded)
    from ..cexpr import CExprError, evaluate_typed
    try:
        v = evaluate_typed(re.sub(r"\b(?:size_t|unsigned long long|long long)\s*\(", "(", expanded), {})
        return int(v.v), expr
    except (CExprError, TypeError, ValueError, OverflowError):
        return None, expr
