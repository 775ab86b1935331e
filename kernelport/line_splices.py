r"""A line continuation in code, outside any directive (`INSTANTIATE(a) \` then `INSTANTIATE(b)` at
namespace scope: a list of macro invocations whose `#define` lost its backslash a line earlier, in
heldout37's Viterbi decoder): the preprocessor splices the lines, and since the backslash follows a
token's end no token changes; the grammar reads the backslash as an error.  The parsed copy blanks it
where its line holds no comment or literal (a `//` comment a splice continues keeps it), outside the
lines a directive continues."""
from __future__ import annotations

import re

from . import lazy_re

_CODE = lazy_re.compile(rb"^(?![ \t]*#)[^\n\"'/]*[^\w\\\n\"'/](\\)(?=\r?\n)", re.M)


def blank(data: bytes, continued_directive) -> bytes:
    """`data` with each such backslash a blank (offsets kept); `continued_directive` matches a
    directive with its continuation lines (kernelport/source.py's), whose backslashes stay."""
    if b"\\\n" not in data and b"\\\r\n" not in data:
        return data
    directives = [(m.start(), m.end()) for m in continued_directive.finditer(data)] if b"#" in data else []
    out = bytearray(data)
    for m in _CODE.finditer(data):
        if not any(s <= m.start(1) < e for s, e in directives):
            out[m.start(1)] = 0x20
    return bytes(out)
