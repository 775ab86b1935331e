"""C++'s alternative operator spellings in `#if` / `#elif` conditions (`#if CSCT or CSCT_RECOMPUTE`, a
stereo matcher's util.h): the grammar reads `or` there as a name, so the condition did not parse
("cannot parse 'CSCT or'") and the header was left unported (KP222). In the copy the grammar sees
(source._mask_extensions) each is its operator padded to its length (`or` as `||`, `and` as `&& `,
`not` as `!  `), so every span stays the user's; the user's bytes, which the port copies, keep them
(nvcc and hipcc both take them)."""
from __future__ import annotations

import re

from . import lazy_re

SPELLINGS = {b"and": b"&&", b"or": b"||", b"not": b"!", b"bitand": b"&", b"bitor": b"|", b"xor": b"^",
             b"compl": b"~", b"not_eq": b"!=", b"and_eq": b"&=", b"or_eq": b"|=", b"xor_eq": b"^="}
_CONDITION = lazy_re.compile(rb"^[ \t]*#[ \t]*(?:el)?if\b[^\n]*(?:\\\r?\n[^\n]*)*", re.M)
_WORD = lazy_re.compile(rb"\b(?:and|or|not|bitand|bitor|xor|compl|not_eq|and_eq|or_eq|xor_eq)\b")


def _operators(m) -> bytes:
    return _WORD.sub(lambda w: SPELLINGS[w.group(0)].ljust(len(w.group(0))), m.group(0))


def seen(data: bytes) -> bytes:
    """DATA with each alternative operator of a conditional directive's test spelled as its operator."""
    return _CONDITION.sub(_operators, data) if _WORD.search(data) else data
