"""A parenthesised comma expression whose first operand is an assignment, `(at += n, copy(p + at))`,
which the grammar does not parse (it reads `(at = n, ...` as the start of a C++17 fold expression and
leaves `n,` in error) although every compiler takes it: seen as `((at += n), copy(p + at))`, the blank
before the `(` made the outer parenthesis, the comma the inner one's `)` and the first blank after the
comma (on the next line where the comma ends one) the comma.  Every name, operator and parenthesis of
the user's keeps its bytes and its offset (only the comma moves, by a byte or to the next line's
indentation), the assignment stays an assignment and the rest an operand: no call, no name is added.
kernelport/macro_repair.py keeps the masks only where the error shrinks.  Where there is no blank
before the `(` (`f((x = 1, 0))`, SPH-EXA's `list{(a[Is] = f(a[Is], b[Is]), 0)...}`) or after the comma there
is no byte for the inner `(`: the first operand's assignment operators are seen as commas instead
(`(a[Is] , f(a[Is], b[Is]), 0)`, a compound one's characters blanked), every operand at its offset and read,
the write itself not seen by the analyses (a Mask named COMMA_ASSIGNMENT on the operator).
"""
from __future__ import annotations

from typing import Callable, Iterator

from .macro_tokens import Tok
from .macros import Mask

_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")
_COMPOUND = frozenset("+-*/%&|^")  # `+=` ... `^=` (`<<=` and `>>=` below)


def _assignment_at(toks: list[Tok], k: int) -> bool:
    """Whether the `=` at toks[k] is an assignment operator (`=`, `+=`, `<<=`), not part of `==`, `!=`,
    `<=` or `>=` (the tokens are single characters, a pair adjacent where it is one operator)."""
    nxt = toks[k + 1] if k + 1 < len(toks) else None
    if nxt is not None and nxt.text == "=" and nxt.start == toks[k].end:
        return False
    prev = toks[k - 1] if k > 0 else None
    if prev is None or prev.end != toks[k].start or prev.text in _COMPOUND:
        return True
    if prev.text in ("<", ">"):  # `<<=` / `>>=` assign, `<=` / `>=` compare
        return k > 1 and toks[k - 2].text == prev.text and toks[k - 2].end == prev.start
    return prev.text not in ("=", "!")


def _first_comma(toks: list[Tok], a: int, b: int) -> int | None:
    """The index of the comma that ends the first operand of toks[a:b] (inside a pair of parentheses)
    where that operand holds an assignment outside any bracket: `at += n, f(at)` (not `f(a = 1), b`,
    not `a == b, c`), else None."""
    assigns = False
    for k in _outside_brackets(toks, a, b):
        x = toks[k].text
        if x == "=" and _assignment_at(toks, k):
            assigns = True
        elif x == ",":
            return k if assigns else None
        elif x in ("?", ";"):
            return None  # (a conditional's branch or a for-header: not this shape)
    return None


def _outside_brackets(toks: list[Tok], a: int, b: int) -> Iterator[int]:
    """The indexes of toks[a:b] that stand outside any bracket opened there."""
    depth = 0
    for k in range(a, b):
        x = toks[k].text
        if x in _OPEN:
            depth += 1
        elif x in _CLOSE:
            depth -= 1
        elif depth == 0:
            yield k


def _blank_after(data: bytes, at: int) -> int | None:
    """The first space or tab after the byte at `at`, past line ends (a comma that ends its line: the
    next line's indentation), where only white space comes between; else None (`,f(at)`)."""
    k = at + 1
    while k < len(data) and data[k] in b"\r\n":
        k += 1
    return k if k < len(data) and data[k] in b" \t" else None


def comma_operands(toks: list[Tok], data: bytes, idx, masked_at: set[int],
                   close_of: Callable[[int], "int | None"]) -> Iterator[tuple]:
    """Candidate masks (grammar_gaps' shape: key, edits, masks) for each `(` in idx that opens such a
    comma expression after a blank, where an operator or `return`, not a name or a call, comes before
    it: `&& (at += n, f(at))` is seen as `&&((at += n), f(at))`."""
    for i in idx:
        t = toks[i]
        if t.text != "(" or i == 0 or i in masked_at:
            continue
        before = toks[i - 1]
        if before.kind == "punct" and before.text in (")", "]") or before.kind != "punct" and before.text != "return":
            continue  # (a call, a cast's operand or a subscript's result: not a parenthesised operand)
        close = close_of(i)
        comma = _first_comma(toks, i + 1, close) if close is not None else None
        if comma is None or any(k in masked_at for k in (comma, comma + 1)):
            continue
        blank = _blank_after(data, toks[comma].start)
        if blank is not None and blank < toks[close].start and data[t.start - 1] in b" \t":
            c = toks[comma].start
            edits = [(t.start - 1, t.start, b"("), (c, c + 1, b")"), (blank, blank + 1, b",")]
            yield (("comma operand", t.start, "("), edits, [Mask(s, e, "comma operand", "grammar") for s, e, _ in edits])
            continue
        edits = _assignments_as_commas(toks, i + 1, comma, masked_at)
        if edits:  # no blank before the `(` (`f((x = 1, 0))`, `list{(a[i] = v, 0)...}`): no byte for the inner `(`
            yield (("comma assignment", t.start, "("), edits,
                   [Mask(s, e, COMMA_ASSIGNMENT, "grammar") for s, e, _ in edits])


# A Mask's name: an assignment operator of a parenthesised comma expression's first operand seen as a comma
# (`(a[i] = v, 0)` as `(a[i] , v, 0)`): the operands keep their bytes and are read, the write is not seen
COMMA_ASSIGNMENT = "comma assignment"


def _assignments_as_commas(toks: list[Tok], a: int, b: int, masked_at: set[int]) -> list[tuple[int, int, bytes]]:
    """Edits that show each assignment operator outside brackets in toks[a:b] (the first operand) as a
    comma, its compound operator's characters blanked (`x <<= 2` as `x   , 2`), or [] where one is masked."""
    edits = []
    for k in _outside_brackets(toks, a, b):
        if toks[k].text == "=" and _assignment_at(toks, k):
            j = k
            while j > a and toks[j - 1].end == toks[j].start and toks[j - 1].text in _COMPOUND | {"<", ">"}:
                j -= 1
            if any(q in masked_at for q in range(j, k + 1)):
                return []
            edits += [(toks[q].start, toks[q].end, b" ") for q in range(j, k)] + [(toks[k].start, toks[k].end, b",")]
    return edits
