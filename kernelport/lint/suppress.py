"""Inline suppressions, with a reason, and the findings they leave unused.

    x = tid % 32;  // kernelport: ignore[WS002] this kernel is NVIDIA-only
    // kernelport: ignore[WS004, WS005] reason ...      (alone on a line: applies to the next line)
    x = tid % 32;  // NOLINT(WS002)                     (clang-tidy style)
    // NOLINTNEXTLINE(WS002)
    // NOLINTBEGIN(WS) ... // NOLINTEND(WS)

Codes may be rule codes or family prefixes (`WS`); `kernelport: ignore` without a list and a bare
`NOLINT` suppress every rule on their line.  NOLINT lists may also name clang-tidy checks; only
kernelport codes are ours.  A suppression is matched against every line a finding spans.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .rule import FAMILIES
from .. import lazy_re

_KP = lazy_re.compile(r"kernelport\s*:\s*(?:ignore|noqa)\b\s*(?:\[([^\]]*)\])?\s*[:\-–—]?\s*(.*)", re.I)
_NOLINT = lazy_re.compile(r"\bNOLINT(NEXTLINE|BEGIN|END)?\b(?:\(([^)]*)\))?")


@dataclass
class Suppression:
    """A `kernelport: ignore` or NOLINT comment: the lines and rules it covers, and its reason."""
    line: int  # the comment's line (1-based, in the user's file)
    column: int
    end_column: int
    first: int  # lines it covers
    last: int
    codes: tuple[str, ...] | None  # None: every rule
    reason: str
    style: str  # kernelport | nolint
    text: str
    used: set[str] = field(default_factory=set)

    def covers(self, code: str) -> str | None:
        if self.codes is None:
            return "*"
        for c in self.codes:
            if code == c or (len(c) == 2 and code.startswith(c)) or c == "ALL":
                return c
        return None


def _ours(sel: str) -> bool:
    return bool(re.fullmatch(r"(" + "|".join(FAMILIES) + r")[0-9]*", sel)) or sel == "ALL"


def of(ctx) -> list[Suppression]:
    """parse(ctx), once per context: a rule that reads the suppressions (return_groups.py) marks the ones it
    uses, and the engine then reports the unused ones from the same list."""
    got = ctx.__dict__.get("_kp_suppressions")
    if got is None:
        got = ctx.__dict__["_kp_suppressions"] = parse(ctx)
    return got


def parse(ctx) -> list[Suppression]:
    """Suppression comments of the analysed unit, positioned in the user's file."""
    out: list[Suppression] = []
    begins: list[Suppression] = []
    src = ctx.src
    for text, start, end in _comments(ctx):
        m = _KP.search(text)
        nolints = list(_NOLINT.finditer(text)) if m is None else []
        if m is None and not nolints:
            continue  # most comments suppress nothing: they are not positioned
        line, col = ctx.position(start)
        eline, ecol = ctx.position(end)
        line_text = src.line_text(src.location(start).line)
        alone = line_text[:src.location(start).column - 1].strip() == ""
        if m:
            codes = None
            if m.group(1) is not None:
                codes = tuple(c.strip().upper() for c in m.group(1).split(",") if c.strip())
            reason = m.group(2).strip().rstrip("*/").strip()
            first = line + 1 if alone else line
            out.append(Suppression(line, col, ecol if eline == line else col + len(text), first,
                                   eline + 1 if alone else eline, codes, reason, "kernelport", text))
            continue
        for m in nolints:
            kind, lst = m.group(1), m.group(2)
            if lst is None:
                codes = None
            else:
                codes = tuple(c.strip().upper() for c in lst.split(",") if _ours(c.strip().upper()))
                if not codes:
                    continue  # clang-tidy checks only: not ours
            s = Suppression(line, col, ecol if eline == line else col + len(text), line, eline, codes, "",
                            "nolint", text)
            if kind == "NEXTLINE":
                s.first = s.last = eline + 1
            elif kind == "BEGIN":
                s.last = 10 ** 9
                begins.append(s)
            elif kind == "END":
                for b in reversed(begins):
                    if b.codes == codes:
                        b.last = line
                        begins.remove(b)
                        break
                continue
            out.append(s)
    return out


# A `//` comment in a macro's body or value, which the parser leaves unparsed (up to the line's end).
_LINE_COMMENT = lazy_re.compile(rb"//[^\n]*")


def _comments(ctx):
    """(text, start byte, end byte) of each comment, in source order: the parsed ones (the
    context's node index holds them) and those inside macro bodies and values."""
    found = [(ctx.src.text_of(n), n.start_byte, n.end_byte) for n in ctx.nodes("comment")]
    parsed = {start for _, start, _ in found}
    for d in ctx.nodes("preproc_function_def", "preproc_def"):  # the grammar keeps a `//` in a macro's value
        arg = d.child_by_field_name("value")
        if arg is None:
            continue
        body = ctx.src.text_of(arg).encode()
        for m in _LINE_COMMENT.finditer(body):
            if arg.start_byte + m.start() not in parsed:
                found.append((m.group(0).decode(errors="replace"), arg.start_byte + m.start(),
                              arg.start_byte + m.end()))
    return sorted(found, key=lambda c: c[1])


def apply(findings, sups: list[Suppression]):
    """Drop suppressed findings; record which suppressions were used."""
    kept = []
    for f in findings:
        hit = None
        for s in sups:
            if s.first <= min(f.end_line, f.line + 2) and f.line <= s.last:
                c = s.covers(f.code)
                if c is not None:
                    s.used.add(c)
                    hit = s
                    break
        if hit is None:
            kept.append(f)
    return kept
