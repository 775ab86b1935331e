"""Type names inside a macro use the parse saw as blanks, spelled as the target spells them.

A file-scope instantiation macro without a `;` (`INSTANTIATE(f_bf16, __nv_bfloat16)`, a line per
type) or a macro's arguments that are not an expression are masked for the parse (kernelport
.macro_repair: reasons "statement" and "arguments") and copied into the port as written.  A type
that the target spells otherwise then stays in the CUDA spelling (`__nv_bfloat16` in a HIP port),
which fails where the port is compiled, while the same type in parsed code is renamed.  A type
concept (dialect kind "type": a plain rename, `__nv_bfloat16` -> `hip_bfloat16`) is a token the
preprocessor passes to the macro's body as it is, so renaming it in the masked text is what
renaming it in the parsed code does.  Only whole identifiers outside comments and literals are
renamed; calls, indices and runtime API names stay as written (their ports are not renames
everywhere) and KP230 keeps naming them.  An argument the macro stringifies or pastes (`#T`, `k_##T`)
keeps its CUDA spelling (kernelport/verbatim_args.py)."""
from __future__ import annotations

import re
from types import SimpleNamespace

from . import backends, dialect, lazy_re, own_macros, verbatim_args

RENAMED_REASONS = frozenset({"statement", "arguments"})  # macro uses, not a conditional's other branch
_SKIPPED = lazy_re.compile(rb'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_WORD = lazy_re.compile(rb"[A-Za-z_]\w*")


def renamed_type(word: str, reason: str, target: str) -> str | None:
    """`word`'s spelling on `target` where this pass renames it in a mask of `reason`, else None."""
    if reason not in RENAMED_REASONS:
        return None
    source = backends.source().name
    c = dialect.lookup(source, word)
    if c is None or c.kind != "type":
        return None
    new = dialect.rename(c, word, source, target)
    return new if new and new != word else None


def rename_pass(tr) -> None:
    """Rename the type concepts in the masked macro uses of `tr`'s file (a translator pass)."""
    data = tr.src.data
    pasted: dict[str, str] = {}  # (the names renamed arguments paste: kernelport/verbatim_args.py)
    for m in tr.src.masks:
        if m.reason not in RENAMED_REASONS:
            continue
        text = data[m.start:m.end]
        skipped = [(s.start(), s.end()) for s in _SKIPPED.finditer(text)]
        skipped += [(a - m.start, b - m.start) for a, b in verbatim_args.file_spans(tr.src)
                    if a < m.end and b > m.start]  # `#T`, `k_##T`: the CUDA spelling, as the CUDA build makes it
        for w in _WORD.finditer(text):
            if any(s <= w.start() < e for s, e in skipped) or w.group().decode() == m.name:
                continue
            new = renamed_type(w.group().decode(), m.reason, tr.backend)
            if new is not None and own_macros.shadowed(tr.src, SimpleNamespace(start_byte=m.start + w.start()),
                                                       w.group().decode(), tr.module.visible):
                continue  # the file's or a header's own macro of the name (`#define __nv_bfloat16 float`): parsed
                # code keeps it (model.build), so the masked use does too, and the macro's argument is its type
            if new is not None and not tr.rw.touches(m.start + w.start(), m.start + w.end()):
                tr.rw.drop_span(m.start + w.start(), m.start + w.end(), new)
        pasted.update(verbatim_args.pasted_renames(tr.src, m, lambda w, r=m.reason: renamed_type(w, r, tr.backend)))
    _respell_pasted(tr, pasted)


def _respell_pasted(tr, pasted: dict) -> None:
    """The file's other uses of a name a renamed macro argument pastes (`kk___nv_bfloat16<<<1, 1>>>(q)` where
    `BOTH(__nv_bfloat16)` now declares `kk_hip_bfloat16`): the port's name, outside comments and literals."""
    if not pasted:
        return
    data = tr.src.data
    skipped = [(s.start(), s.end()) for s in _SKIPPED.finditer(data)]
    rx = re.compile(rb"\b(" + b"|".join(re.escape(k.encode()) for k in sorted(pasted)) + rb")\b")
    for w in rx.finditer(data):
        if not any(s <= w.start() < e for s, e in skipped) and not tr.rw.touches(w.start(), w.end()):
            tr.rw.drop_span(w.start(), w.end(), pasted[w.group().decode()])
