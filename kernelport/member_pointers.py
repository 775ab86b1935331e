"""Pointers to members, which tree-sitter's grammar reads only in part where every compiler takes them:
a declarator `bool (Node::*Set)(Node *)` (a typedef of a member-function pointer, a variable, a
parameter, an abstract `bool (Node::*)(Node *)`), the cv-qualifier of a member function's type after
its parameters (`Node *(Node::*Get)() const`), and the operator `->*` (`(p->*set[i])(q)`; the grammar
has `.*`, though only before a name: `self.*(p.member)`).  Seen, in the copy the grammar reads, as `bool (      *Set)(Node *)` (a pointer to a
function), `Node *(      *Get)()      ` and `(p .*set[i])(q)`, and `self.*(p.member)` / `p->*(m)` as the product `self *(p.member)` / `p  *(m)` (no
warp analysis reads a member pointer): every name keeps its bytes and offset,
and kernelport/macro_repair.py keeps a mask only where the error shrinks.  The ports keep the user's
text (HIP has pointers to members as CUDA does).  A `Base::*` after anything but a declarator's
`(`, `,`, `*`, `&`, `>` or a word (`x = Node::*p`) and a `::` not followed by `*` (`Node::k * p`) are
left alone."""
from __future__ import annotations

from typing import Callable, Iterator

from .macro_tokens import Tok
from .macros import Mask

_BLANK = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))
_CV = frozenset({"const", "volatile"})
_BEFORE_DECLARATOR = frozenset({"(", ",", "*", "&", ">"})  # `bool (N::*`, `f(int, N::*`, `T * N::*`, `P<T> N::*`


def _adjacent(toks: list[Tok], k: int, text: str) -> bool:
    return k + len(text) <= len(toks) and all(
        toks[k + j].text == c and (j == 0 or toks[k + j].start == toks[k + j - 1].end) for j, c in enumerate(text))


def _nested_name_start(toks: list[Tok], colon: int) -> int | None:
    """The index of the first word of `A::B::` that ends with the `::` at toks[colon], else None."""
    k = colon - 1
    if k < 0 or toks[k].kind != "ident":
        return None
    while k >= 3 and _adjacent(toks, k - 2, "::") and toks[k - 3].kind == "ident":
        k -= 3
    return k


def member_pointers(toks: list[Tok], data: bytes, idx, masked_at: set[int],
                    close_of: Callable[[int], "int | None"]) -> Iterator[tuple]:
    for i in idx:
        t = toks[i]
        if t.text in (".", "-") and _adjacent(toks, i, t.text + ("*(" if t.text == "." else ">*(")) and i not in masked_at:
            s = t.start  # `self.*(p.m)`, `p->*(m)`: the grammar wants a name after `.*`; seen as `self *(p.m)`
            e = toks[i + (1 if t.text == "." else 2)].start
            yield (("member pointer", s, t.text + "*("), [(s, e, b" " * (e - s))], [Mask(s, e, t.text + "*", "grammar")])
            continue
        if t.text == "-" and _adjacent(toks, i, "->*") and i not in masked_at:
            s, e = t.start, toks[i + 2].end  # `p->*m`: seen as `p .*m`
            yield (("member pointer", s, "->*"), [(s, e, b" .*")], [Mask(s, e, "->*", "grammar")])
            continue
        if not (t.text == ":" and _adjacent(toks, i, "::*") and i not in masked_at):
            continue
        first = _nested_name_start(toks, i)
        if first is None or first == 0:
            continue
        before = toks[first - 1]
        if not (before.text in _BEFORE_DECLARATOR or before.kind == "ident"):
            continue
        s, e = toks[first].start, toks[i + 1].end
        edits = [(s, e, data[s:e].translate(_BLANK))]
        if before.text == "(":  # `(N::*name)(params) const`: the member function type's qualifiers too
            close = close_of(first - 1)
            params = close + 1 if close is not None else None
            if params is not None and params < len(toks) and toks[params].text == "(":
                end = close_of(params)
                k = end + 1 if end is not None else len(toks)
                while k < len(toks) and toks[k].text in _CV:
                    edits.append((toks[k].start, toks[k].end, b" " * (toks[k].end - toks[k].start)))
                    k += 1
        yield (("member pointer", s, "::*"), edits, [Mask(a, b, "::*", "grammar") for a, b, _ in edits])
