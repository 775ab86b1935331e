"""A macro that selects one of its arguments (`#define HIP_OR_CUDA(a, b) b`), read by the parse repair as that argument.

amrex writes whole statements as such a macro's arguments, `AMREX_HIP_OR_CUDA( T s = __shfl_up(x,i);, T s =
__shfl_up_sync(m, x, i); );`, its definition picked by the build's -D (`#elif defined(AMREX_USE_CUDA)` / `#define
AMREX_HIP_OR_CUDA(a,b) b`).  No grammar reads statements between a call's parentheses; the repair's `arguments`
mask blanked them all, the ballot a later loop walks included.  Where the definition the run reads is one of its
parameters and that argument holds statements (it ends in `;` or `}`), the compiler sees them alone: the name, the
parentheses and the other arguments are blanked and the selected argument's bytes stay, so its code is parsed and
linted where it stands (kernelport.macro_repair).  An expression argument is blanked as before.
"""
from __future__ import annotations

from .grammar_gaps import blank_bytes
from .macros import MacroDef, Mask, expansion


def _argument_spans(toks, open_i: int, close: int) -> list[tuple[int, int] | None]:
    """Per top-level argument of the call whose `(` is toks[open_i], its tokens' byte span (None: empty)."""
    out, depth, first = [], 0, open_i + 1
    for j in range(open_i + 1, close + 1):
        t = toks[j]
        if t.kind == "punct" and j != close:
            depth += t.text in "([{"
            depth -= t.text in ")]}"
        if j == close or t.kind == "punct" and t.text == "," and depth == 0:
            out.append((toks[first].start, toks[j - 1].end) if j > first else None)
            first = j + 1
    return out


def argument_masks(data: bytes, toks, i: int, close: int, known: MacroDef | None, macros) -> tuple[list, list[Mask]]:
    """The `arguments` role's edits and masks for the use of a function-like macro at toks[i] (its `)` at toks[close]):
    the selected argument kept where the definition is one parameter, else every argument blanked."""
    name, exp = toks[i].text, expansion(toks[i].text, macros)
    params = known.params if known is not None else None
    spans = _argument_spans(toks, i + 1, close) if params else []
    body = known.body.strip() if known is not None else ""
    kept = spans[params.index(body)] if params and "..." not in params and body in params and len(spans) == len(params) \
        else None
    if kept is not None and data[kept[0]:kept[1]].rstrip().endswith((b";", b"}")):  # statements, amrex's shape
        # (an expression argument stays blank: `CHECK(a) b = 1;` read as `a b = 1;` would hide a genuine error)
        cut = [(s, e) for s, e in ((toks[i].start, kept[0]), (kept[1], toks[close].end)) if e > s]
        return [(s, e, blank_bytes(data, s, e)) for s, e in cut], [Mask(s, e, name, "arguments", exp) for s, e in cut]
    s, e = toks[i + 1].end, toks[close].start
    return [(s, e, blank_bytes(data, s, e))], [Mask(s, e, name, "arguments", exp)]
