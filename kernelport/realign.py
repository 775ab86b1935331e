"""Trailing comments that were aligned in a column stay aligned after a rewrite changed the code
before them.  The line diff that pairs old and new lines is quadratic on repetitive code, so it
runs only when some line can actually move."""
from __future__ import annotations

import difflib
from . import lazy_re

_TRAILING = lazy_re.compile(r"^(?P<code>.*?\S)(?P<gap>[ \t]{2,})(?P<comment>//.*|/\*.*)$")


def _aligned_columns(old_lines: list[str]) -> dict[str, set[int]]:
    """comment -> the columns it starts at on old lines that are part of an aligned column."""
    cols = [None if (m := _TRAILING.match(line)) is None else (m, len(m.group("code")) + len(m.group("gap")))
            for line in old_lines]
    out: dict[str, set[int]] = {}
    for o, c in enumerate(cols):
        if c is None or "\t" in c[0].group("gap"):
            continue
        if any(0 <= k < len(cols) and cols[k] is not None and cols[k][1] == c[1] for k in (o - 1, o + 1)):
            out.setdefault(c[0].group("comment"), set()).add(c[1])
    return out


def _may_realign(old_lines: list[str], new_lines: list[str]) -> bool:
    """Whether realign_comments can change any line: some new line's trailing comment also ends an
    aligned old line, at another column (a line realigned to its own column is unchanged)."""
    aligned = _aligned_columns(old_lines)
    if not aligned:
        return False
    for line in new_lines:
        m = _TRAILING.match(line)
        if m is not None and aligned.get(m.group("comment"), set()) - {len(m.group("code")) + len(m.group("gap"))}:
            return True
    return False


def realign_comments(original: str, new: str) -> str:
    """Keep aligned trailing comments aligned when a rewrite changed the code before them."""
    old_lines, new_lines = original.split("\n"), new.split("\n")
    if not _may_realign(old_lines, new_lines):
        return new  # nothing could change a line; the line diff is quadratic on repetitive code
    return "\n".join(_realign_by_diff(old_lines, new_lines))


def _realign_by_diff(old_lines: list[str], new_lines: list[str]) -> list[str]:
    """Pair old and new lines by a line diff; realign the replaced lines' trailing comments."""
    new_lines = list(new_lines)
    sm = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "replace" or i2 - i1 != j2 - j1:
            continue
        for o, j in zip(range(i1, i2), range(j1, j2)):
            mo, mn = _TRAILING.match(old_lines[o]), _TRAILING.match(new_lines[j])
            if mo and mn and mo.group("comment") == mn.group("comment") and "\t" not in mo.group("gap"):
                column = len(mo.group("code")) + len(mo.group("gap"))
                if not any(0 <= k < len(old_lines) and (m := _TRAILING.match(old_lines[k])) and
                           len(m.group("code")) + len(m.group("gap")) == column for k in (o - 1, o + 1)):
                    continue  # a lone trailing comment: not part of an aligned column
                gap = max(column - len(mn.group("code")), 1)
                new_lines[j] = mn.group("code") + " " * gap + mn.group("comment")
    return new_lines
