"""The code tokens of a text as the macro repair (kernelport/macro_repair.py) reads them: identifiers,
numbers, literals and punctuation with their byte spans, comments and preprocessor directives left out."""
from __future__ import annotations

import functools
import re
from typing import NamedTuple


# -- tokens of the user's text -----------------------------------------------------------------
# Code tokens for one pass over a whole text: each match is the blanks before a token (no newline among
# them) and the token: a newline with the blanks after it (`nl`), a comment, a literal, an identifier, a
# number, a `#` with the rest of its line and every line it continues (`\\` before the newline, or `\\`
# then CR: `dir`), or one punctuation byte (no blank: the blanks before a token are the prefix's).  Only
# blanks at the end of the text match nothing.  A number takes C++14's digit separators (`1'000`: a `'` then a digit or
# letter is the number's, never a character literal that would hide the rest of the line).
_SCAN = re.compile(rb"""
    [^\S\n]*
    (?:
      (?P<nl>\n\s*)
    | (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
    | (?P<string>"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)
    | (?P<ident>[A-Za-z_]\w*)
    | (?P<num>\.?\d(?:[eEpP][+-]|'\w|[\w.])*)
    | (?P<dir>\#(?:[^\n]*\\\r?\n)*[^\n]*)
    | (?P<punct>\S)
    )
""", re.X | re.S)
_NL, _COMMENT, _DIRECTIVE = 1, 2, 6  # (_SCAN's groups by number: a match's lastindex)
_KIND = (None, "nl", "comment", "string", "ident", "num", "dir", "punct")


class Tok(NamedTuple):  # (a tuple: a frozen dataclass cost most of tokens(), made per token of the file)
    kind: str  # ident, num, string, punct
    start: int
    end: int
    text: str


_SEEN: dict[bytes, list[Tok]] = {}  # the files tokenised last (read-only lists), least recently asked first
_KEEP = 2 << 20  # their bytes at most: a tree's files with parse errors (its plan repairs them; a translator
# reads a file's tokens again after the plan has parsed the whole tree: a count of 16 files had let them go)


def file_tokens(data: bytes) -> list[Tok]:
    """tokens() of a whole file, shared and read-only: the same text is tokenised once (a header's
    plain parse and its parse with its includes' macros repair the same bytes; translate's API pass
    reads them again)."""
    global _SIZE
    got = _SEEN.pop(data, None)
    if got is None:
        got = tokens(data)
        _SIZE += len(data)
        while _SEEN and _SIZE > _KEEP:
            _SIZE -= len(next(iter(_SEEN)))
            del _SEEN[next(iter(_SEEN))]
    _SEEN[data] = got  # (most recently asked last)
    return got


_SIZE = 0  # the bytes of _SEEN's keys


def has_word(data: bytes, words) -> bool:
    """Whether one of `words` stands in `data` as a whole word, as tokens() would read an identifier
    (not inside a longer one: `registers` in a comment, `register_count`): a pass that looks for
    them tokenises the file only then."""
    return _words(tuple(sorted(words))).search(data) is not None


@functools.lru_cache(maxsize=None)
def _words(words: tuple[str, ...]) -> re.Pattern:
    return re.compile(rb"\b(?:" + b"|".join(re.escape(w.encode()) for w in words) + rb")\b")


def tokens(data: bytes) -> list[Tok]:
    """The code tokens (no comments, no preprocessor directives) with their byte spans.

    One `finditer` of `_SCAN` over the text, a Python step per token (a token-by-token `match` took one
    per token and one per blank): the loop only decides whether a directive's `#` stands first on its
    line; where it does not (`a # b` outside a directive) it is one punctuation token and the scan
    starts again after it."""
    out: list[Tok] = []
    append, new, kinds = out.append, tuple.__new__, _KIND  # (a NamedTuple's __new__: a Python frame per token)
    pos, n = 0, len(data)
    line_start = True
    while pos < n:
        for m in _SCAN.finditer(data, pos):
            g = m.lastindex
            if g > _COMMENT and g != _DIRECTIVE:
                s, e = m.span(g)
                append(new(Tok, (kinds[g], s, e, data[s:e].decode("utf-8", "replace"))))
                line_start = False
            elif g == _NL:
                line_start = True
            elif g == _DIRECTIVE and not line_start:  # `#` inside a line: punctuation, then on after it
                s = m.start(g)
                append(new(Tok, ("punct", s, s + 1, "#")))
                pos = s + 1
                break
            # (a comment, a directive first on its line: no token, line_start unchanged)
        else:
            break
    return out


def match_paren(toks: list[Tok], i: int) -> int | None:
    """Index of the `)` closing the `(` at toks[i]."""
    depth = 0
    for j in range(i, min(len(toks), i + 4000)):
        t = toks[j].text
        if t in "([{" and toks[j].kind == "punct":
            depth += 1
        elif t in ")]}" and toks[j].kind == "punct":
            depth -= 1
            if depth == 0:
                return j if t == ")" else None
    return None


def match_brace(toks: list[Tok], i: int) -> int | None:
    """Index of the `}` closing the `{` at toks[i] (brackets of every kind nested), or None."""
    return _match(toks, range(i, min(len(toks), i + 4000)), "([{", ")]}", "}")


def match_open(toks: list[Tok], j: int) -> int | None:
    """Index of the `{` that the `}` at toks[j] closes (brackets of every kind nested), or None."""
    return _match(toks, range(j, max(-1, j - 4000), -1), ")]}", "([{", "{")


def _match(toks: list[Tok], order: range, opens: str, closes: str, want: str) -> int | None:
    """The token in `order` that brings the bracket depth back to 0, if it is `want`."""
    depth = 0
    for j in order:
        if toks[j].kind != "punct":
            continue
        if toks[j].text in opens:
            depth += 1
        elif toks[j].text in closes:
            depth -= 1
            if depth == 0:
                return j if toks[j].text == want else None
    return None


def statement_start(toks: list[Tok], seen: bytes, k: int, bound: int) -> int:
    """The first token of the statement that toks[k] ends (back past a `;`, `{` or `}` as the grammar
    sees the text, at most `bound` tokens).  Where toks[k] is a body's `}` (`HD Buf(T* p) : _p(p) {}`
    seen as a bit-field with an initializer, the error the `;` missing after it) the statement is
    the one the body belongs to: the scan goes on before its `{`."""
    stop = max(k - bound, 0)
    if k > 0 and toks[k].text == "}" and seen[toks[k].start:toks[k].end] == b"}":
        o = match_open(toks, k)
        k = o - 1 if o is not None else k
    while k > stop and seen[toks[k].start:toks[k].end] not in (b";", b"{", b"}"):
        k -= 1
    return k + 1


def ends_a_type(toks: list[Tok], p: int, skip: frozenset[str], not_types: frozenset[str]) -> bool:
    """Whether toks[p], back over the words of `skip`, ends a type: a name that is no word of
    `not_types`, a declarator's `&` or `*`, or the `>` of a template's arguments (not of a
    `template<...>` head, which a declaration's qualifiers may follow)."""
    while p >= 0 and toks[p].text in skip:
        p -= 1
    if p < 0:
        return False
    if toks[p].kind == "ident":
        return toks[p].text not in not_types
    if toks[p].text != ">":
        return toks[p].text in ("&", "*")
    depth = 0
    for j in range(p, max(-1, p - 400), -1):
        depth += {">": 1, "<": -1}.get(toks[j].text, 0) if toks[j].kind == "punct" else 0
        if depth == 0:
            return not (j > 0 and toks[j - 1].text == "template")
    return False


def ends_a_capture(toks: list[Tok], p: int, skip: frozenset[str]) -> bool:
    """Whether toks[p], back over the words of `skip`, is the `]` that closes a lambda's capture list:
    `[n] __host__ __device__ (int x)`, an extended lambda whose qualifiers the grammar does not take
    after a capture (nvcc reads them there; `[n] __device__ (` alone is the case of no word between)."""
    while p >= 0 and toks[p].text in skip:
        p -= 1
    return p >= 0 and toks[p].text == "]"
