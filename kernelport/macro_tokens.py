"""The code tokens of a text as the macro repair (kernelport/macro_repair.py) reads them: identifiers,
numbers, literals and punctuation with their byte spans, comments and preprocessor directives left out."""
from __future__ import annotations

import functools
import re
from typing import NamedTuple


# -- tokens of the user's text -----------------------------------------------------------------
_TOKEN = re.compile(rb"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<string>"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<punct>.)
""", re.X | re.S)


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
    """The code tokens (no comments, no preprocessor directives) with their byte spans."""
    out: list[Tok] = []
    pos, n = 0, len(data)
    line_start = True
    while pos < n:
        m = _TOKEN.match(data, pos)
        assert m is not None  # `.` matches any byte
        kind = m.lastgroup
        if kind == "ws":
            if b"\n" in m.group(0):
                line_start = True
        elif kind == "punct" and data[pos] == 0x23 and line_start:  # a directive: skip it whole
            end = pos
            while True:
                nl = data.find(b"\n", end)
                if nl < 0:
                    end = n
                    break
                if data[nl - 1:nl] == b"\\" or data[nl - 2:nl] == b"\\\r":
                    end = nl + 1
                    continue
                end = nl
                break
            pos = end
            continue
        elif kind != "comment":
            out.append(Tok(kind, m.start(), m.end(), m.group(0).decode("utf-8", "replace")))
            line_start = False
        pos = m.end()
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
