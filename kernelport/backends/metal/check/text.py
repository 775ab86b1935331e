"""Text helpers of the Metal checker: masking comments and literals, offsets to positions, blanking
that keeps clang's byte columns, bracket matching, and the diagnostic at a position."""
from __future__ import annotations

import re

from ....diagnostics import Diagnostic
from ....errors import Location

IDENT = re.compile(r"[A-Za-z_]\w*")


def diagnostic(path: str, line: int, column: int, message: str, severity: str = "error", source: str = "clang",
               notes: tuple[str, ...] = ()) -> Diagnostic:
    """A type-check diagnostic (no code: the messages are clang's and the attribute checks')."""
    return Diagnostic("", Location(path, line, column), message, severity=severity, source=source, notes=notes)


def mask(text: str) -> str:
    """Same-length copy of ``text`` with comments blanked and literal contents neutralised.

    Newlines are kept; string and character literals keep their quotes, their contents become
    ``_`` so that no bracket, comma or quote inside them is mistaken for code."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":  # line splice
                    out[i] = " "
                    i += 2
                    continue
                out[i] = " "
                i += 1
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            for k in range(i, end):
                if text[k] != "\n":
                    out[k] = " "
            i = end
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            quote = c
            k = i + 1
            while k < n and text[k] != quote and text[k] != "\n":
                out[k] = "_"
                if text[k] == "\\" and k + 1 < n:
                    out[k + 1] = "_"
                    k += 2
                    continue
                k += 1
            i = k + 1
        else:
            i += 1
    return "".join(out)


class Lines:
    """Offset -> (line, column) conversion, 1-based, columns in characters."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0]
        for m in re.finditer("\n", text):
            self.starts.append(m.end())

    def pos(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo] + 1

    def line_text(self, line: int) -> str:
        if not 1 <= line <= len(self.starts):
            return ""
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[start:end]

    def char_column(self, line: int, byte_column: int) -> int:
        """clang counts columns in bytes; convert to characters."""
        raw = self.line_text(line).encode("utf-8")
        return len(raw[: max(byte_column - 1, 0)].decode("utf-8", errors="ignore")) + 1


def blank(chars: list[str], text: str, start: int, end: int) -> None:
    """Replace text[start:end] by spaces, keeping newlines and UTF-8 byte widths (clang columns
    are byte columns)."""
    for k in range(start, end):
        ch = text[k]
        if ch == "\n":
            chars[k] = "\n"
        else:
            chars[k] = " " * len(ch.encode("utf-8"))


def matching(masked: str, start: int, open_ch: str, close_ch: str) -> int:
    """Index of the bracket closing the one at ``start`` (or -1)."""
    depth = 0
    for k in range(start, len(masked)):
        c = masked[k]
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return k
    return -1
