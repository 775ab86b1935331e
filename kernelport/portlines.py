"""Which line of the original each line of a port comes from.

The port is the user's text with edits (rewrite.Rewriter): each piece of it either copies a span
of the source or stands for one (a replacement, an insertion, a dropped span), so the pairing
follows from the pieces in one pass.  A line that starts in copied text comes from the source
line of that byte; the lines that start inside a replacement or insertion are paired with the
source lines it spans by a diff of those lines alone (a Metal signature that gained parameter
lines, a function replaced by a comment), a line added at its end with the line it precedes.
This is the pairing a whole-file line diff finds where that diff does not guess, without its
quadratic cost on repetitive code (difflib's matcher on a 6.8k-line file took most of
translate's time); `diff_lines` keeps the diff for a body that is not the rewriter's text.
"""
from __future__ import annotations

import bisect
import difflib
import re

# The line breaks of str.splitlines: line numbers count what the diff counted.
_BREAK = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def line_starts(text: str) -> list[int]:
    """The offset where each of `text.splitlines()` starts."""
    starts = [0] + [m.end() for m in _BREAK.finditer(text)]
    if starts[-1] == len(text):
        starts.pop()  # a final break ends the last line; no empty line follows it
    return starts


def source_lines(source: str, body: str, rw=None) -> list[int]:
    """For each line of the port's body, the (1-based) line of `source` it comes from.  `rw`: the
    rewriter whose last result is `body`, line for line (realign_comments only moves comments
    within their lines); without it, or for another body, a line diff pairs them."""
    made = "".join(p[0] for p in rw.pieces) if rw is not None and rw.pieces else None
    if made is not None and len(line_starts(body)) == len(line_starts(made)):
        return edit_lines(source, rw.src.data, rw.pieces, made)
    return diff_lines(source, body)


def edit_lines(source: str, data: bytes, pieces, text: str) -> list[int]:
    """`source_lines` from the rewriter's pieces (`data`: the source's bytes, the pieces' offsets;
    `text`: the pieces joined)."""
    src_starts = line_starts(source)
    last_line = max(len(src_starts), 1)
    ascii_ = len(data) == len(source)
    at = [0, 0]  # the last byte offset turned into a character offset, and that character offset

    def char(b: int) -> int:
        if ascii_:
            return b
        if b < at[0]:
            at[0] = at[1] = 0
        at[1] += len(data[at[0]:b].decode("utf-8"))
        at[0] = b
        return at[1]

    def line_of(c: int) -> int:
        return min(max(bisect.bisect_right(src_starts, c), 1), last_line)

    starts = line_starts(text)
    src_lines, port_lines = source.splitlines(), text.splitlines()
    out: list[int] = []
    local: dict[int, tuple[int, list[int]]] = {}  # a replacement's piece -> its first line, its lines' pairing
    i, o = 0, 0  # the piece that holds the line's start, and where that piece starts in the port
    for j, p in enumerate(starts):
        while i < len(pieces) - 1 and o + len(pieces[i][0]) <= p:
            o += len(pieces[i][0])
            i += 1
        piece, s, e, copied = pieces[i]
        if copied:
            out.append(line_of(char(s) + p - o))
            continue
        if i not in local:  # the lines the replacement spans, on both sides, paired by a diff of them alone
            first, last = line_of(char(s)), line_of(char(e) - 1) if e > s else line_of(char(s))
            j0, j1 = bisect.bisect_right(starts, o) - 1, bisect.bisect_right(starts, o + max(len(piece) - 1, 0)) - 1
            after = last - first + 1 if last < len(src_lines) else None  # a line added at the end precedes the next
            local[i] = (j0, [first - 1 + n for n in _pair(src_lines[first - 1:last], port_lines[j0:j1 + 1], after)])
        j0, lines = local[i]
        out.append(lines[j - j0])
    return out


def diff_lines(source: str, body: str) -> list[int]:
    """`source_lines` by a line diff (quadratic where lines repeat: only for a body no rewriter made)."""
    return _pair(source.splitlines(), body.splitlines())


def _pair(old: list[str], new: list[str], end: int | None = None) -> list[int]:
    """Each line of `new`'s (1-based) line of `old` by a line diff; a line added after the last of
    `old` pairs with `old`'s last line, or with the (0-based) line `end` where `old` is followed."""
    end = max(len(old) - 1, 0) if end is None else end
    out = [0] * len(new)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for j in range(j1, j2):
            if tag == "equal":
                i = i1 + (j - j1)
            elif tag == "replace":
                i = i1 + min(j - j1, i2 - i1 - 1)
            else:  # inserted by the translation: the source line it precedes
                i = min(i1, end)
            out[j] = i + 1
    return out
