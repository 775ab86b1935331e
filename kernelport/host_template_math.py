"""Explicit template arguments on the host math a size or geometry expression calls.

`size_t blocks = std::min<size_t>(blocks_needed, 65535);` (heldout81's gpu-2025 gelu_cuda.cu) names
`min` with its type written: main's host-value reader (host_values.py) saw `min<size_t>(` as no call and
`min` as an unknown name, so `verify` could not size the launch ("'min' has no value kernelport can
read").  The call is `min((size_t)(a), (size_t)(b))`: each argument converted to the written type first,
as C++ deduces nothing when the argument is given (`std::min<size_t>(-1, 5)` is 5, the -1 wrapped).  So
each such call of a function the reader evaluates is rewritten that way, arguments first (a call inside
an argument too); a type argument the reader cannot size (a template parameter, a class) leaves the text
as written, unknown as before."""
from __future__ import annotations

import re
from collections.abc import Iterable

from . import cexpr


def explicit_arguments(text: str, functions: Iterable[str]) -> str:
    """`text` with each `F<T>(a, ...)` of a function in `functions` as `F((T)(a), ...)`, T a C arithmetic type."""
    names = sorted(functions, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w.])(%s)\s*<\s*([A-Za-z_][\w ]*?)\s*>\s*\(" % "|".join(map(re.escape, names)))
    out, i = [], 0
    while (m := pattern.search(text, i)) is not None:
        t = cexpr.int_spelling(" ".join(m.group(2).split()))
        close = _closing(text, m.end() - 1)
        if close is None or t not in cexpr.SIZEOF:
            out.append(text[i:m.end()])
            i = m.end()
            continue
        args = [explicit_arguments(a, names) for a, _ in cexpr.split_top_level(text[m.end():close])]
        out.append(text[i:m.start()] + f"{m.group(1)}(" + ", ".join(f"({t})({a})" for a in args) + ")")
        i = close + 1
    return "".join(out) + text[i:]


def _closing(text: str, open_at: int) -> int | None:
    level = 0
    for j in range(open_at, len(text)):
        level += {"(": 1, ")": -1}.get(text[j], 0)
        if level == 0:
            return j
    return None
