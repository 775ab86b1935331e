"""Directives inside a braced initializer list, which tree-sitter's grammar does not take where every
preprocessor does: an X-macro's `return std::tuple{ #ifdef LIST  #define X(T, N) P<&S::N>{#N},  LIST
#undef X  #endif };` (CudaTextureGen's gnc boilerplate).  Seen, in the copy the grammar reads, with
the list's directive lines (and their continuation lines) blanked: `return std::tuple{ LIST };`, the
list macro one element, every byte at its offset (kernelport/macro_repair.py keeps the mask only where
the error shrinks).  The ports keep the user's text.

A list whose directives choose between branches (`#else`, `#elif`) is left alone: blanking them would
show the analyses both branches as one list."""
from __future__ import annotations

import re
from typing import Callable, Iterator

from .macro_tokens import Tok, match_brace
from .macros import Mask

_DIRECTIVE = re.compile(rb"(?m)^[ \t]*#(?:[^\n]*\\\r?\n)*[^\n]*")  # a directive line with its continuations
_CHOOSES = re.compile(rb"[ \t]*#[ \t]*(?:else|elif)")
_BLANK = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))
# What stands before a braced initializer list's `{`, or before the type it constructs (`return std::tuple{`,
# `= P<T>{`, `f(V{`): `=`, `return`, an argument's `(` or `,`
_BEFORE_LIST = frozenset({"=", "(", ",", "return"})
_SPAN = 4000  # tokens walked back to the enclosing `{` (as macro_tokens.match_open)


def _enclosing_open(toks: list[Tok], i: int) -> int | None:
    """The index of the bracket that encloses toks[i], or None."""
    depth = 0
    for j in range(i - 1, max(-1, i - _SPAN), -1):
        t = toks[j]
        if t.kind != "punct":
            continue
        if t.text in ")]}":
            depth += 1
        elif t.text in "([{":
            if depth == 0:
                return j
            depth -= 1
    return None


def list_directives(toks: list[Tok], data: bytes, idx, masked_at: set[int],
                    close_of: Callable[[int], "int | None"]) -> Iterator[tuple]:
    """Masks blanking the directive lines of a braced initializer list whose `{`, or a token after
    one of its directives, is in the error region."""
    tried: set[int] = set()
    for i in idx:
        if i == 0 or i >= len(toks):
            continue
        if toks[i].text == "{":
            o = i  # (an error that ends at the list's `{`: `return std::tuple{`)
        elif _DIRECTIVE.search(data, toks[i - 1].end, toks[i].start):
            o = _enclosing_open(toks, i)
        else:
            continue
        if o is None or o in tried or toks[o].text != "{" or o == 0:
            continue
        tried.add(o)
        if not _list_open(toks, o):
            continue  # a block, a class's or a namespace's body: the grammar takes directives there
        c = match_brace(toks, o)
        if c is None:
            continue
        spans = [(m.start(), m.end()) for k in range(o + 1, c + 1)
                 for m in _DIRECTIVE.finditer(data, toks[k - 1].end, toks[k].start)]
        if not spans or any(_CHOOSES.match(data, s, e) for s, e in spans):
            continue
        yield (("list directives", toks[o].start, "{"), [(s, e, data[s:e].translate(_BLANK)) for s, e in spans],
               [Mask(s, e, "directives", "grammar") for s, e in spans])


def _list_open(toks: list[Tok], o: int) -> bool:
    """Whether the `{` at toks[o] opens a braced initializer list: after `=`, `return`, `(` or `,`,
    directly or after the type it constructs (words, `::`, a template's `<...>`)."""
    k, angles = o - 1, 0
    while k >= 0:
        t = toks[k]
        if angles == 0 and t.text in _BEFORE_LIST:
            return True
        if t.text == ">":
            angles += 1
        elif t.text == "<" and angles:
            angles -= 1
        elif angles == 0 and not (t.kind == "ident" or t.text == ":"):
            return False
        elif angles and t.text in (";", "{", "}"):
            return False
        if t.kind == "ident" and t.text in _NOT_TYPES and angles == 0:
            return False
        k -= 1
    return False


_NOT_TYPES = frozenset({"struct", "class", "union", "enum", "namespace", "else", "do", "try", "public", "private",
                        "protected", "virtual", "final", "override", "const", "noexcept", "extern"})
