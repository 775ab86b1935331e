"""A macro use that continues an expression: its expansion starts with a binary operator.

An X-macro counts or sums its table in an expression (cuda_newton_fractal's fractal_family_rules.h):

    return 0
    #define COUNT_ENTRY(name, ...) + 1
        REGISTRY_ENTRIES(COUNT_ENTRY)
    #undef COUNT_ENTRY
        ;

The compiler sees `return 0 + 1 + 1 ... ;`; the grammar sees `0 NAME(ARG)`, two operands side by side,
and a directive inside a statement, and the header does not parse (KP222: its port is never written).
The candidate here (tried by kernelport/macro_repair.py, kept only where the error shrinks) blanks the
use and the directive lines around it, so the grammar sees `return 0 ;`; every byte keeps its offset.
Taken only where the macro is known and its expansion (its arguments put in, the function-like macro
it starts by calling expanded in turn) starts with a binary operator, after a token that ends an
operand and before one that ends or continues the expression; never over a conditional's lines.
"""
from __future__ import annotations

import re
from typing import Callable, Mapping

from .grammar_gaps import blank_bytes
from .macro_tokens import Tok
from .macros import MacroDef, Mask, arguments

_BINARY = ("<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "&", "|", "^", "?")
_FOLLOWS = frozenset({";", ")", "]", ",", "}", ":", *_BINARY})
_NOT_OPERANDS = frozenset({"return", "case", "throw", "else", "do", "sizeof", "new", "delete", "typedef", "co_return"})
_CONDITIONAL_LINE = re.compile(rb"(?m)^[ \t]*#[ \t]*(if|el|endif)")
_CALL = re.compile(r"\s*([A-Za-z_]\w*)\s*\(")


def _close(text: str, i: int) -> int | None:
    """The index of the `)` that closes the `(` at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        depth += text[j] == "("
        depth -= text[j] == ")"
        if depth == 0:
            return j
    return None


def leads_with_operator(m: MacroDef, args: str, macros: Mapping[str, MacroDef], depth: int = 0) -> bool:
    """Whether `m`'s use with `args` expands to text that starts with a binary operator."""
    if m.params is None or "#" in m.body or "..." in m.params or depth >= 8:
        return False
    parts = arguments(args)
    if len(parts) != len(m.params):
        return False
    given = dict(zip(m.params, parts))
    body = re.sub(r"[A-Za-z_]\w*", lambda w: given.get(w.group(0), w.group(0)), m.body).lstrip()
    if body.startswith(_BINARY):
        return True
    call = _CALL.match(body)
    inner = macros.get(call.group(1)) if call is not None else None
    end = _close(body, call.end() - 1) if inner is not None else None
    return end is not None and inner is not m and \
        leads_with_operator(inner, body[call.end():end], macros, depth + 1)


def operand_uses(toks: list[Tok], data: bytes, idx, masked_at: set[int], macros: Mapping[str, MacroDef],
                 close_of: Callable[[int], "int | None"]):
    """(key, edits, masks) per such use among toks[idx], as macro_repair's candidates are."""
    for i in idx:
        t = toks[i]
        m = macros.get(t.text)
        if t.kind != "ident" or m is None or m.params is None or i == 0 or i + 1 >= len(toks) or \
                toks[i + 1].text != "(" or i in masked_at or i - 1 in masked_at:
            continue
        prev, close = toks[i - 1], close_of(i + 1)
        if close is None or close + 1 >= len(toks) or toks[close + 1].text not in _FOLLOWS:
            continue
        if not (prev.kind in ("num", "string") or prev.text in (")", "]") or
                prev.kind == "ident" and prev.text not in _NOT_OPERANDS):
            continue
        s, e = prev.end, toks[close + 1].start
        if _CONDITIONAL_LINE.search(data, s, e) or \
                not leads_with_operator(m, data[toks[i + 1].end:toks[close].start].decode("utf-8", "replace"), macros):
            continue
        yield (("operands", t.start, t.text), [(s, e, blank_bytes(data, s, e))],
               [Mask(s, e, t.text, "operands", m.body.strip())])
