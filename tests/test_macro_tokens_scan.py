"""macro_tokens.tokens reads a text in one `finditer` (issue 15, stop 64): the tokens, their spans and kinds are
those of the token-by-token scan it replaced (`_reference` below, that scan as it was), above all where a `#`
starts a directive (skipped whole, continued lines too) and where it does not (a punctuation token)."""
from __future__ import annotations

import random
import re

from kernelport import macro_tokens
from kernelport.macro_tokens import Tok

_TOKEN = re.compile(rb"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
  | (?P<string>"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[eEpP][+-]|'\w|[\w.])*)
  | (?P<punct>.)
""", re.X | re.S)


def _reference(data: bytes) -> list[Tok]:
    """The token-by-token scan (kernelport before stop 64; its numbers since with digit separators, review64f)."""
    out: list[Tok] = []
    pos, n, line_start = 0, len(data), True
    while pos < n:
        m = _TOKEN.match(data, pos)
        kind = m.lastgroup
        if kind == "ws":
            if b"\n" in m.group(0):
                line_start = True
        elif kind == "punct" and data[pos] == 0x23 and line_start:
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


def _texts(data: bytes) -> list[tuple[str, str]]:
    return [(t.kind, t.text) for t in macro_tokens.tokens(data)]


def test_a_directive_first_on_its_line_is_skipped_with_its_continued_lines():
    data = b"int a;\n  #define F(x) \\\n    x + \\\r\n    1\nF(a);\n"
    assert _texts(data) == [("ident", "int"), ("ident", "a"), ("punct", ";"), ("ident", "F"), ("punct", "("),
                            ("ident", "a"), ("punct", ")"), ("punct", ";")]
    assert macro_tokens.tokens(data) == _reference(data)
    assert all(type(t) is Tok for t in macro_tokens.tokens(data))


def test_a_hash_inside_a_line_is_one_punctuation_token():
    # look-alike: `#` after a token on its line (a block comment's newline does not start a line either)
    data = b"a # b(c)\nx /*\n*/ #y z\n/* c */ #if 0\nw"
    assert _texts(data) == [("ident", "a"), ("punct", "#"), ("ident", "b"), ("punct", "("), ("ident", "c"),
                            ("punct", ")"), ("ident", "x"), ("punct", "#"), ("ident", "y"), ("ident", "z"),
                            ("ident", "w")]
    assert macro_tokens.tokens(data) == _reference(data)


def test_blanks_spans_literals_and_numbers_as_the_reference_reads_them():
    data = b'  f(1.5e+3f, .5, 0x1Fu, "s\\"t", \'c\');\t\x0b\x0c\r\n\x1c\xff //c\n "open\n  '
    assert macro_tokens.tokens(data) == _reference(data)
    assert macro_tokens.tokens(b"") == [] and macro_tokens.tokens(b" \t \r\n ") == []


def test_random_texts_of_the_scan_s_hard_bytes_read_as_the_reference_reads_them():
    rnd = random.Random(64)
    alphabet = b"#\\\r\n \t\x0b\x0c\x1c/*\"'ab1.e+xp-_()\x80\xff"
    for _ in range(20000):
        data = bytes(rnd.choice(alphabet) for _ in range(rnd.randint(0, 30)))
        assert macro_tokens.tokens(data) == _reference(data), data
