"""GNU `typeof`, which nvcc's EDG front end accepts in every C++ mode and tree-sitter's grammar has no place for:
a C-style cast to it, `(typeof(m->IRP)) calloc(n, sizeof(*m->IRP))` (heldout101: an SpMV code's allocation
helpers in a header every source includes), and the type operand of `sizeof`/`alignof`, `sizeof(typeof(x))`.
The parse sees the cast as `(typeof(    )) e`, a cast to a function type the grammar takes (the bytes stay in the
cast's node; a ballot converted so is judged by opaque_mask_casts.py), and the operand of `sizeof` as its
expression (`sizeof(      (x))`: the same size), kernelport/grammar_gaps.py; clang accepts
`typeof` in GNU modes only (hipcc with `-std=c++17` rejects it: "use of undeclared identifier 'typeof'"), so the
ports write `__typeof__`, which clang and g++ take in every mode (kernelport/lexing.respell_for_clang), also where
the grammar read the word as a name (`(typeof(p)) e` parses as a cast to a function type named `typeof`).
A declaration of a `typeof` type, `typeof(x) y = x;`, is not read: it stays a located parse error."""
from __future__ import annotations

from typing import Callable

from .macro_tokens import Tok
from .macros import Mask

TYPEOF = "typeof"  # a Mask's name: the keyword of a cast or sizeof operand seen as blanks (the ports respell it)
WORDS = frozenset({"typeof", "__typeof__", "__typeof"})
_SIZE_WORDS = frozenset({"sizeof", "alignof", "__alignof__", "_Alignof"})
_OPERAND_START = frozenset({"(", "*", "&", "-", "+", "!", "~", "++", "--"})
_EXPRESSION_AFTER = frozenset({"return", "case", "else", "do", "throw", "co_return", "co_yield", "co_await"})
_BLANKS = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))


def typeof_gap(toks: list[Tok], i: int, data: bytes, masked_at: set[int], close_of: Callable[[int], "int | None"]):
    """The repair candidate at token i (a `typeof` word), or None: (key, edits, masks) as grammar_gaps yields."""
    t = toks[i]
    if t.text not in WORDS or i in masked_at or i == 0 or i + 1 >= len(toks) or toks[i + 1].text != "(" \
            or toks[i - 1].text != "(":
        return None
    close = close_of(i + 1)
    if close is None or close + 1 >= len(toks) or toks[close + 1].text != ")":
        return None
    before = toks[i - 2] if i >= 2 else None
    word = [Mask(t.start, t.end, TYPEOF, "grammar")] if t.text == "typeof" else []
    if before is not None and before.text in _SIZE_WORDS:  # `sizeof(typeof(x))`: seen as `sizeof(      (x))`
        return (("typeof", t.start, t.text), [(t.start, t.end, data[t.start:t.end].translate(_BLANKS))],
                word or [Mask(t.start, t.end, "typeof operand", "grammar")])
    if before is not None and (before.kind in ("ident", "num", "string") and before.text not in _EXPRESSION_AFTER
                               or before.text in (")", "]")):
        return None  # a call's or subscript's parenthesis, `f(typeof(x))`: no cast (`return (typeof(x)) e` is one)
    nxt = toks[close + 2] if close + 2 < len(toks) else None
    if nxt is None or not (nxt.kind in ("ident", "num", "string") or nxt.text in _OPERAND_START):
        return None
    s, e = toks[i + 1].end, toks[close].start  # the cast `(typeof(s->m)) v`: seen as `(typeof(    )) v`, a cast to
    # the function type `typeof()` the grammar takes, its bytes all in the cast's node (a call rewritten from its
    # argument nodes keeps them: the whole cast seen as blanks had lost `(typeof(s->i))` from `__shfl_sync(F,
    # (typeof(s->i)) v, 0)`, shuffling the float); the word is respelled as a name the grammar read (typeof_nodes)
    return ("typeof cast", s, t.text), [(s, e, data[s:e].translate(_BLANKS))], [Mask(s, e, "typeof cast", "grammar")]


def typeof_words(masks) -> list[tuple[int, int]]:
    """The spans of the `typeof` keywords the parse saw as blanks (the ports write `__typeof__` there)."""
    return [(m.start, m.end) for m in masks if m.name == TYPEOF and m.reason == "grammar"]


def typeof_nodes(order, data: bytes) -> list:
    """`typeof` words the grammar did read, as a name: `(typeof(p)) calloc(...)` parses as a cast to a function
    type named `typeof` (nothing to repair there), `typeof(x) y` as a call (the ports write `__typeof__` there too;
    nvcc reads `typeof` as GNU's keyword in every mode, so no program it accepts names anything so)."""
    return [n for n in order if n.type in ("identifier", "type_identifier") and n.end_byte - n.start_byte == 6
            and data[n.start_byte:n.end_byte] == b"typeof" and data[n.end_byte:n.end_byte + 64].lstrip()[:1] == b"("]


def typeof_macro_words(src) -> list[tuple[int, int]]:
    """The spans of GNU `typeof(` in the `#define` values (`#define ALLOC(p, n) ((p) = (typeof(p)) malloc(...))`,
    which the parse holds as text): the ports write `__typeof__` there too (no member `.typeof`, `->typeof`)."""
    if b"typeof" not in src.data:
        return []
    from .macro_tokens import tokens
    out = []
    for m in src.index.of_types("preproc_def", "preproc_function_def"):
        v = m.child_by_field_name("value")
        toks = tokens(src.data[v.start_byte:v.end_byte]) if v is not None else []
        out += [(v.start_byte + t.start, v.start_byte + t.end) for k, t in enumerate(toks)
                if t.text == "typeof" and k + 1 < len(toks) and toks[k + 1].text == "("
                and (k == 0 or toks[k - 1].text not in (".", "->", "::"))]
    return out
