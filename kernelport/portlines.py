"""Which line of the original each line of a port comes from (a line diff).

The rewrites keep most lines and every line break of the code they do not touch; an include the
port drops takes its line with it, so a fixed offset does not pair them.
"""
from __future__ import annotations

import difflib


def source_lines(source: str, body: str) -> list[int]:
    """For each line of the port's body, the (1-based) line of `source` it comes from."""
    old, new = source.splitlines(), body.splitlines()
    out = [0] * len(new)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for j in range(j1, j2):
            if tag == "equal":
                i = i1 + (j - j1)
            elif tag == "replace":
                i = i1 + min(j - j1, i2 - i1 - 1)
            else:  # inserted by the translation: the source line it precedes
                i = min(i1, max(len(old) - 1, 0))
            out[j] = i + 1
    return out
