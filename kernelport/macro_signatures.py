"""`extern "C" SIGNATURE(name) { ... }`: a function definition whose whole signature a macro spells.

MonoAlg3D's models define their host entry points as `extern "C" SET_ODE_INITIAL_CONDITIONS_GPU(name) {`,
ode_solver.h's `#define SET_ODE_INITIAL_CONDITIONS_GPU(name) size_t name (struct ode_solver *solver, ...)`.
Without `extern "C"` the grammar reads `SIGNATURE(name) { ... }` as a function definition (an implicit
type, the macro's name for its declarator), which is what the analyses need to see a host function.
With it, tree-sitter reads a type and a parenthesised declarator, a definition of no function.  Where
the macro is known and its replacement list is a signature around one of its parameters (`T p (...)`)
and the use is a definition (a body follows), the linkage words are blanked in the copy the grammar
sees (same length: no offset moves) and a Mask records them; the text, which the ports copy, keeps
them.  A declaration (`extern "C" SIGNATURE(name);`) and a macro that is not a signature are left alone.
"""
from __future__ import annotations

import re
from typing import Mapping

from . import lazy_re

# `extern "C" NAME(arg) {`: the cheap look that decides whether anything is tried.
_USE = lazy_re.compile(rb'\bextern\s*"C"\s+([A-Za-z_]\w*)\s*\(\s*([A-Za-z_]\w*)\s*\)\s*\{')

# A replacement list that is a signature: type words, then a parameter, then a parameter list.
_SIGNATURE = r'^(?:[A-Za-z_][\w:]*[\s*&]+)+(?:\*\s*)*{param}\s*\([^()]*(?:\([^()]*\)[^()]*)*\)$'

LINKAGE = 'extern "C"'  # the Mask's name


def _signature(d) -> bool:
    """Whether MacroDef `d` (or None) is a function-like macro of one parameter spelling a signature."""
    return d is not None and d.params is not None and len(d.params) == 1 and \
        re.match(_SIGNATURE.format(param=re.escape(d.params[0])), d.body.strip()) is not None


def unlink(text: str, path: str, data: bytes, seen: bytes, tree, macros: "Mapping | None", parse):
    """(seen, tree, masks): the grammar's copy with `extern "C"` blanked before each definition whose
    signature a known macro spells, reparsed where any was (see the module's docstring)."""
    if b'extern' not in data or not _USE.search(seen):
        return seen, tree, ()
    from . import macros as mac  # only where the form is present
    from .macros import Mask
    known = {**(macros or {}), **mac.definitions(text, path)}
    out, masks = bytearray(seen), []
    for m in _USE.finditer(seen):
        if not _signature(known.get(m.group(1).decode())):
            continue
        end = seen.index(b'"', seen.index(b'"', m.start()) + 1) + 1  # past `extern "C"`
        out[m.start():end] = b" " * (end - m.start())
        masks.append(Mask(m.start(), end, LINKAGE, "grammar"))  # (byte offsets, as every Mask's)
    if not masks:
        return seen, tree, ()
    seen = bytes(out)
    return seen, parse(seen), tuple(masks)


def needs(data: bytes, defs: Mapping) -> bool:
    """Whether a macro of `defs` (an include's) spells the signature of an `extern "C"` definition of
    the file (bytes `data`): the file is then parsed through its includes' macros."""
    if b'extern' not in data:
        return False
    return any(_signature(defs.get(m.group(1).decode())) for m in _USE.finditer(data))
