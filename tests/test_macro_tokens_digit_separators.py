"""A C++14 digit separator is part of its number in macro_tokens (review of stop 64's merge of h/speed64).

Both the one-pass scanner and the scan it replaced read the `'` of `1'000` as the start of a character
literal running to the next `'` or the end of the line: `int n = 1'000 * WARP_SIZE;` gave no token for
`WARP_SIZE` (one "string" `'000 * WARP_SIZE;`), so every reader of macro_tokens missed the wave-size macro's
use on that line.  Look-alike: a character literal after a number and a blank stays a literal."""
from __future__ import annotations

from kernelport import macro_tokens


def _kinds(text: bytes):
    return [(t[0], t[3]) for t in macro_tokens.tokens(text)]


def test_a_digit_separator_is_the_number_s():
    got = _kinds(b"int n = 1'000 * WARP_SIZE; long m = 0x1'ff'ffULL + 0b1'0;")
    assert ("num", "1'000") in got and ("ident", "WARP_SIZE") in got, got
    assert ("num", "0x1'ff'ffULL") in got and ("num", "0b1'0") in got, got
    assert not any(k == "string" for k, _ in got), got


def test_a_character_literal_after_a_number_stays_a_literal():
    got = _kinds(b"char c = n > 1 ? 'a' : 'b'; int k = 2 + '0';")
    assert [w for k, w in got if k == "string"] == ["'a'", "'b'", "'0'"], got
    assert ("num", "1") in got and ("num", "2") in got, got
