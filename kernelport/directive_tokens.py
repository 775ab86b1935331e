"""Directive tokens the grammar lacks where nvcc, hipcc and Metal's clang take them, seen in the copy the
grammar reads (source._mask_extensions) padded to their length, so every span stays the user's; the
user's bytes, which the port copies, keep them:
- C++'s alternative operator spellings in `#if` / `#elif` conditions (`#if CSCT or CSCT_RECOMPUTE`, a
  stereo matcher's util.h): the grammar reads `or` there as a name, so the condition did not parse
  ("cannot parse 'CSCT or'") and the header was left unported (KP222); each is seen as its operator
  (`or` as `||`, `and` as `&& `, `not` as `!  `);
- GCC's named variadic macro parameter, `#define panic(args...)` (a robotics suite's log.h): the
  grammar takes only `...` there ("cannot parse '...'", the header left unported and the port still
  including the CUDA one); seen as `#define panic(    ...)`, the name blanked (the body is text to
  the grammar, so its `args` reads the same)."""
from __future__ import annotations

import re

from . import lazy_re

SPELLINGS = {b"and": b"&&", b"or": b"||", b"not": b"!", b"bitand": b"&", b"bitor": b"|", b"xor": b"^",
             b"compl": b"~", b"not_eq": b"!=", b"and_eq": b"&=", b"or_eq": b"|=", b"xor_eq": b"^="}
_CONDITION = lazy_re.compile(rb"^[ \t]*#[ \t]*(?:el)?if\b[^\n]*(?:\\\r?\n[^\n]*)*", re.M)
_WORD = lazy_re.compile(rb"\b(?:and|or|not|bitand|bitor|xor|compl|not_eq|and_eq|or_eq|xor_eq)\b")
# `#define NAME(a, args...)`: group 1 the named variadic parameter's name (and blanks before its `...`)
_NAMED_VARIADIC = lazy_re.compile(rb"^[ \t]*#[ \t]*define[ \t]+[A-Za-z_]\w*\((?:[ \t]*[A-Za-z_]\w*[ \t]*,)*[ \t]*"
                                  rb"([A-Za-z_]\w*[ \t]*)\.\.\.[ \t]*\)", re.M)


def _operators(m) -> bytes:
    return _WORD.sub(lambda w: SPELLINGS[w.group(0)].ljust(len(w.group(0))), m.group(0))


def _unnamed(m) -> bytes:
    a, b = m.start(1) - m.start(0), m.end(1) - m.start(0)
    return m.group(0)[:a] + b" " * (b - a) + m.group(0)[b:]


def seen(data: bytes) -> bytes:
    """DATA with each alternative operator of a conditional directive's test spelled as its operator,
    and each named variadic macro parameter as plain `...`."""
    if _WORD.search(data):
        data = _CONDITION.sub(_operators, data)
    return _NAMED_VARIADIC.sub(_unnamed, data) if b"..." in data else data
