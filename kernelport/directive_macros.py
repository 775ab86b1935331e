"""The CUDA compiler's macros in preprocessor directives, spelled for the target.

`#ifdef __CUDACC__` means "compiled by a GPU compiler"; hipcc never defines __CUDACC__, so a port
that keeps the test leaves out what it guards (a file's kernels, its `__host__ __device__` macros),
silently.  HIP's API table renames it (`__HIPCC__`) where translate sees it as a use; the portable
port, one text for nvcc and hipcc, tests `KP_CUDACC` (kp_warp.h defines it for both: the backend's
`compiler_macros`).  Two cases reach here:
- directive lines the macro repair blanked to get a parse (`#ifdef __CUDACC__` groups that split
  `if (n) {` / `} else {`: swsharp's evalue.cu) were kept as written: every backend's renames
  (`ported_macro`), token by token outside comments;
- parsed directives of a backend with no API table: its `compiler_macros`; of every backend, its
  `device_pass_macros` where the file tests them as the device pass (kernelport/device_pass.py).
"""
from __future__ import annotations

import re

from . import backends, lazy_re

_IDENT_OR_COMMENT = lazy_re.compile(r"//[^\n]*|/\*.*?\*/|\b([A-Za-z_]\w*)\b", re.S)
_WORDS = frozenset({"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif", "defined"})
_TESTS = ("preproc_if", "preproc_elif", "preproc_ifdef", "preproc_elifdef")


def rename(tr) -> None:
    """`tr`: a translator (its source's masks and index, `ported_macro`, the rewriter and notes)."""
    from .translate import Note
    b = backends.get(tr.backend)
    table = b.api()
    for m in tr.src.masks:
        if m.reason != "conditional":  # a directive line; a hidden branch's code is another matter
            continue
        text = tr.src.data[m.start:m.end].decode("utf-8", "replace")
        out, pos = [], 0
        for t in _IDENT_OR_COMMENT.finditer(text):
            name = t.group(1)
            new = tr.ported_macro(name) if name and name not in _WORDS else name
            if new != name:
                out += [text[pos:t.start(1)], new]
                pos = t.end(1)
                kind = table.get(name).kind if table is not None else "compiler-macro"
                tr.port.notes.append(Note(tr.src.location(m.start + len(text[:t.start(1)].encode())), name, new,
                                          f"the port's test of {name} (a directive the parse saw as blanks)",
                                          category=f"api:{kind}"))
        if out:
            tr.rw.drop_span(m.start, m.end, "".join(out) + text[pos:])
    names = set(b.device_pass_macros) | (set(b.compiler_macros) if table is None else set())
    if not names:
        return
    for n in tr.src.named_under(tr.src.root, "identifier", sorted(names)):  # (those names' identifiers, in order)
        name = tr.src.text_of(n)
        if _in_directive_test(n) and not tr.rw.has(n):
            new = tr.ported_macro(name, n)
            if new != name:
                tr.rw.replace(n, new)
                tr.port.notes.append(Note(tr.src.loc(n), name, new, f"the port's test of {name}",
                                          category="api:compiler-macro" if name in b.compiler_macros else "device-pass"))


def _in_directive_test(n) -> bool:
    """`n` is (in) the test of `#if`, `#elif`, `#ifdef`, `#ifndef` (a `defined(...)` too)."""
    p, child = n.parent, n
    while p is not None:
        if p.type in _TESTS:
            return child in (p.child_by_field_name("condition"), p.child_by_field_name("name"))
        if p.type not in ("preproc_defined", "binary_expression", "unary_expression", "parenthesized_expression"):
            return False
        p, child = p.parent, p
    return False
