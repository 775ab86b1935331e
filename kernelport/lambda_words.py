"""Extended-lambda qualifiers for the macro repair (kernelport/macro_repair.py).

nvcc takes `__device__` / `__host__` between a lambda's capture list and its parameters
(`[x, dt] __device__ (unsigned i) mutable { ... }`); the grammar does not, so the repair masks them.
Where a macro opens the statement the lambda ends (ppf-contact-solver's `DISPATCH_START(n)` expands
to `{ const unsigned n_threads(n); auto kernel =`, `DISPATCH_END` launches it), neither the macro's
mask nor the qualifiers' alone makes the parse better: both stand in the way at once.  These are the
qualifiers' masks to try together with a candidate that did not help alone.
"""
from __future__ import annotations

from .grammar_gaps import blank_bytes
from .macro_tokens import ends_a_capture
from .macros import SPACE_WORDS, Mask

_QUALIFIERS = frozenset({"__device__", "__host__"})


def lambda_words(repair, lo: int, hi: int) -> tuple[list, list[Mask]]:
    """The blank edits and masks of the extended-lambda qualifiers near the error at [lo, hi) that the
    repair (macro_repair.Repair) has not masked yet: a run of `__host__` / `__device__` right after a capture list's `]` (never after an
    attribute's `]]`, `[[nodiscard]] __device__ int f()`, where the words are the function's)."""
    toks, data, masked_at = repair.toks, repair.data, repair.masked_at
    edits, masks = [], []
    for i in repair._window(lo, hi):
        t = toks[i]
        if t.text not in _QUALIFIERS or i in masked_at or not ends_a_capture(toks, i - 1, SPACE_WORDS):
            continue
        p = i - 1
        while toks[p].text in SPACE_WORDS:
            p -= 1
        if p > 0 and toks[p - 1].text == "]":  # `]]`: an attribute's end
            continue
        edits.append((t.start, t.end, blank_bytes(data, t.start, t.end)))
        masks.append(Mask(t.start, t.end, t.text, "attribute", ""))
    return edits, masks
