"""A host function's `constexpr` integer locals, as a template argument written at a launch reads them
(`k<T, TILE><<<...>>>` after `constexpr int TILE = 32;`): the Metal port names each instance of a
template kernel by its concrete arguments ([[host_name]]), so a local it can evaluate is one it knows.
An initialiser may name earlier such locals and object-like macros, the file's `#define`s and the
command line's -D (`constexpr int n = MATRIXSIZE;`, `constexpr int per = BLOCK / n;`): what the
compiler reads there too.  A local whose initialiser names anything else (a run-time value, a call)
is not known, and the launch keeps KP216 unless another instance is given."""
from __future__ import annotations

import re

from ... import cexpr
from ...macros import MacroDef, expansion
from ...model import Function
from ...source import ident_name

_WORD = re.compile(r"\b[A-Za-z_]\w*\b")


def constexpr_locals(src, host: Function, defines=()) -> dict[str, str]:
    """name -> value of host's `constexpr` integer locals whose initialisers evaluate here; `defines`:
    the run's -D, as (name, value) pairs or bare names (`-DN`, which defines N as 1)."""
    out: dict[str, str] = {}
    cli = dict(d if isinstance(d, tuple) else (d, "1") for d in defines)
    macros = {**{n: MacroDef(n, None, v, "<command line>", 0) for n, v in cli.items()}, **src.macros}

    def known(m: re.Match) -> str:
        w = m.group(0)
        if w in out:
            return out[w]
        mac = macros.get(w)
        if mac is not None and mac.params is None:  # an object-like macro: its (expanded) replacement
            return f"({expansion(w, macros)})"
        return w

    for d in src.index.subtree(host.body):
        if d.type != "declaration" or not any(src.text_of(c) == "constexpr" for c in d.children):
            continue
        for x in d.children_by_field_name("declarator"):
            v = x.child_by_field_name("value") if x.type == "init_declarator" else None
            name = ident_name(x)
            if v is None or name is None:
                continue
            text = src.text_of(v)
            if v.type == "initializer_list":
                text = text.strip()[1:-1]
            try:
                value = cexpr.evaluate(_WORD.sub(known, text), {})
            except Exception:  # a name or form cexpr does not evaluate: not known here
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                out[name] = str(value)
    return out
