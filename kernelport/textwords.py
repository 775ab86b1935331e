"""A parse's words (every identifier-shaped token of its text, comments and directives too), read
once per parse (issue 15).

Several passes ask whether a file's text names a word anywhere: whether a header uses a macro its
includer defines before the include (kernelport.includers, asked again for each name a header splits
the thread index by), whether a file uses a macro its includes define (Project.needs_macros), which of
the run's files name a kernel (kernelport.unit_launches).  Each read the whole text with a regular
expression per question: over tests/realcorpus a sixth of lint's CPU went to reading one large unit's
words again for each of its headers' questions.  The set is kept on the SourceFile, whose text never
changes (a re-parse with other macros or another text is another SourceFile, with its own set).
"""
from __future__ import annotations

from . import lazy_re

_WORD = lazy_re.compile(r"[A-Za-z_]\w*")


def of(src) -> frozenset[str]:
    """The words of `src.text` (a SourceFile), computed on its first request."""
    got = src.__dict__.get("_kp_words")
    if got is None:
        got = src.__dict__["_kp_words"] = frozenset(_WORD.findall(src.text))
    return got
