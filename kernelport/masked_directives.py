"""Conditional directives the macro repair hid from the parse, spelled for the target all the same.

A file whose `#ifdef __CUDACC__` groups split a construct (`if (n) {` in one group, `} else {` in
another) parses only with those directive lines blanked (macro_repair's "directives" variant).
Translate renames a macro name in a directive it sees (the API table's `__CUDACC__` -> `__HIPCC__`);
a blanked directive was kept as written, so the HIP port tested a macro hipcc never defines and
silently compiled none of what the groups hold (swsharp's evalue.cu: every kernel gone from the
port, the file's CPU path taken).  Here the masked directive lines get the same renames, token by
token outside comments.
"""
from __future__ import annotations

import re

from . import backends, lazy_re

_IDENT_OR_COMMENT = lazy_re.compile(r"//[^\n]*|/\*.*?\*/|\b([A-Za-z_]\w*)\b", re.S)


def rename(tr) -> None:
    """`tr`: a translator (its source's masks, `ported_macro`, the rewriter and notes)."""
    from .translate import Note
    table = backends.get(tr.backend).api()
    if table is None:  # a backend without an API table renames no macro
        return
    for m in tr.src.masks:
        if m.reason != "conditional":  # a directive line; a hidden branch's code is another matter
            continue
        text = tr.src.data[m.start:m.end].decode("utf-8", "replace")
        out, pos = [], 0
        for t in _IDENT_OR_COMMENT.finditer(text):
            name = t.group(1)
            if not name or name in ("if", "ifdef", "ifndef", "elif", "else", "endif", "defined"):
                continue
            new = tr.ported_macro(name)
            if new != name:
                out += [text[pos:t.start(1)], new]
                pos = t.end(1)
                kind = table.get(name).kind
                tr.port.notes.append(Note(tr.src.location(m.start + len(text[:t.start(1)].encode())), name, new,
                                          f"HIPIFY maps {kind} (a directive the parse saw as blanks)",
                                          category=f"api:{kind}"))
        if out:
            tr.rw.drop_span(m.start, m.end, "".join(out) + text[pos:])
