r"""A line continuation in code, outside any directive (`INSTANTIATE(a) \` then `INSTANTIATE(b)` at
namespace scope: a list of macro invocations whose `#define` lost its backslash a line earlier, in
heldout37's Viterbi decoder): the preprocessor splices the lines, and since the backslash follows a
token's end no token changes; the grammar reads the backslash as an error.  The parsed copy blanks it
where its line holds no comment or literal (a `//` comment a splice continues keeps it), outside the
lines a directive continues and inside no string literal or comment an earlier splice continues (a help
text written `"--a\\n \\` then `--b\\n \\` then `--c\\n"`, heldout58's grid reduction: its middle lines hold
no quote, yet their backslashes are the literal's; a macro kept for reference as `// #define OP_HEAD a; \\`
then `b; \\` then `c;`, heldout68's state-vector simulator: the splices make the lines one comment, whose
backslashes, blanked, would end it and leave `b;` as code).

A backslash standing alone between tokens (followed on its line by more than blanks) on the line where a string
or character literal continued by a splice ends (meanshift's `printf("...\t \` / `...%lu\n",\ rc->size);`,
heldout59): nvcc's preprocessor (GCC's) resynchronises its output lines after that literal and writes the
stray backslash at the end of an output line, so nvcc's front end reads a splice and compiles the file; clang
(hipcc) and GCC itself read a stray token, as nvcc does everywhere else (`1 +\ 2` after a splice in code, or on
a line with no continued literal, is its "unrecognized token").  The parsed copy blanks it and the port drops it
(`drop_pass`)."""
from __future__ import annotations

import re

from . import lazy_re

_CODE = lazy_re.compile(rb"^(?![ \t]*#)[^\n\"'/]*[^\w\\\n\"'/](\\)(?=\r?\n)", re.M)
# comments and literals in the preprocessor's order, a literal or `//` comment running on over its splices
# (`\\.` takes the backslash-newline): those spanning lines hold backslashes that are no code's
_SPLICED = lazy_re.compile(rb'"(?:\\\r?\n|\\.|[^"\\\n])*"|\'(?:\\\r?\n|\\.|[^\'\\\n])*\'|//(?:\\\r?\n|[^\n])*'
                           rb'|/\*.*?(?:\*/|\Z)', re.S)


# the rest of the physical line after a literal's end, up to a stray backslash (more than blanks after it)
_STRAY_AFTER = lazy_re.compile(rb"[^\n\"'/\\]*(\\)(?![ \t]*\r?\n)")


def strays(data: bytes) -> list[int]:
    r"""The offsets of the backslashes nvcc reads as splices after a continued literal (the docstring's).
    Literals are found in the preprocessor's order (`_SPLICED`, comments first-come), never by a pattern
    that could start at a closing quote: prna.cu's macro `printf(RF" ", x);\` then `printf("\n");\`
    is no continued literal, and its `\n` no stray."""
    if b"\\\n" not in data and b"\\\r\n" not in data:
        return []
    out = []
    for t in _SPLICED.finditer(data):
        if t.group(0)[:1] in b"\"'" and b"\n" in t.group(0) and (m := _STRAY_AFTER.match(data, t.end())):
            out.append(m.start(1))
    return out


def drop_pass(tr) -> None:
    """A pass: the port leaves such a backslash out (hipcc would read a stray token)."""
    for at in strays(tr.src.data):
        tr.rw.drop_span(at, at + 1)


def blank(data: bytes, continued_directive) -> bytes:
    """`data` with each such backslash a blank (offsets kept); `continued_directive` matches a
    directive with its continuation lines (kernelport/source.py's), whose backslashes stay."""
    if b"\\\n" not in data and b"\\\r\n" not in data:
        return data
    directives = [(m.start(), m.end()) for m in continued_directive.finditer(data)] if b"#" in data else []
    literals: list[tuple[int, int]] | None = None  # literals and comments spanning lines, scanned at the first candidate
    out = bytearray(data)
    for at in strays(data):
        out[at] = 0x20
    for m in _CODE.finditer(data):
        if literals is None:
            literals = [(t.start(), t.end()) for t in _SPLICED.finditer(data) if b"\n" in t.group(0)]
        if not any(s <= m.start(1) < e for s, e in directives + literals):
            out[m.start(1)] = 0x20
    return bytes(out)
