"""C++ that tree-sitter's grammar lacks where compilers accept it, masked in the copy the grammar
sees (kernelport/macro_repair.py tries each candidate at an error region and keeps it only where the
error shrinks): every edit has the length of what it replaces, so the tree's offsets stay the user's."""
from __future__ import annotations

from typing import Callable

from .macro_tokens import Tok, match_brace as _match_brace
from .macros import Mask

_BLANK = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))  # every byte a blank, line ends kept


def blank_bytes(data: bytes, start: int, end: int) -> bytes:
    return data[start:end].translate(_BLANK)  # (a conditional's variant blanks up to a whole header)


def grammar_gaps(toks: list[Tok], data: bytes, idx, masked_at: set[int], close_of: Callable[[int], "int | None"]):
    """C++ the grammar lacks, masked the same way: `new const T*[n]` is seen as `new T [n]` and
    `typeid(double)` as `typeid(      )`, `template class P<float>;` as a declaration of P, a default
    argument `T x = {}` as `T x`, an unnamed enum's base `enum : size_t {` as `enum {`, a template
    parameter's default pointer type `typename It = T*` as `typename It = T `, a variable's register
    label `int v asm ("eax") = x;` as `int v = x;`, a qualified member operator
    `this->Base::operator=(x)` as `this->      operator=(x)`, a member template's `= delete;` as `;`, a statement's
    `operator()(i, 0) = x;` as `(*this)   (i, 0) = x;` (none changes what the warp analyses read)."""
    for i in idx:
        t = toks[i]
        if t.text == "operator" and i not in masked_at:
            q = _member_qualifier(toks, i)
            if q is not None:
                s, e = toks[q].start, toks[i - 1].end
                yield (("member", t.start, "operator"), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, "::operator", "grammar")])
            elif 0 < i and toks[i - 1].text in (";", "{", "}") and i + 3 < len(toks) and toks[i + 1].text == "(" \
                    and toks[i + 2].text == ")" and toks[i + 3].text == "(" and toks[i + 2].end - t.start == 10:
                # a statement that calls the object's own call operator, `operator()(i, 0) = r.x;` (a matrix
                # class's row setter), which the grammar takes only inside an expression: seen as `(*this)`
                s, e = t.start, toks[i + 2].end
                yield (("call operator", t.start, "operator"), [(s, e, b"(*this)   ")],
                       [Mask(s, e, "operator()", "grammar")])
            continue
        if t.text in ("typename", "class") and i not in masked_at:
            marks = _default_type_marks(toks, i)
            if marks:
                edits = [(toks[k].start, toks[k].end, blank_bytes(data, toks[k].start, toks[k].end)) for k in marks]
                yield (("default type", t.start, t.text), edits, [Mask(e[0], e[1], "default type", "grammar") for e in edits])
            continue
        if t.text in ("asm", "__asm__", "__asm") and i not in masked_at and 0 < i and toks[i - 1].kind == "ident" \
                and i + 1 < len(toks) and toks[i + 1].text == "(":  # `register int v asm ("eax") = x;`
            close = close_of(i + 1)
            if close is not None and close > i + 2 and close + 1 < len(toks) and toks[close + 1].text in ("=", ";", ",") \
                    and all(toks[k].kind == "string" for k in range(i + 2, close)):
                s, e = t.start, toks[close].end
                yield (("asm label", t.start, t.text), [(s, e, blank_bytes(data, s, e))], [Mask(s, e, "asm label", "grammar")])
            continue
        if t.text == "new" and i not in masked_at:
            j = i + 1
            while j < len(toks) and toks[j].kind == "ident" or j < len(toks) and toks[j].text == "::":
                j += 1
            stars = j
            while j < len(toks) and toks[j].text == "*":
                j += 1
            if stars > i + 1 and j > stars and j < len(toks) and toks[j].text == "[":
                blank = [k for k in range(i + 1, j) if k >= stars or toks[k].text in ("const", "volatile")]
                edits = [(toks[k].start, toks[k].end, blank_bytes(data, toks[k].start, toks[k].end))
                         for k in blank]
                yield ("new", t.start, "new"), edits, [Mask(e[0], e[1], "new", "grammar") for e in edits]
        elif t.text == "template" and i + 2 < len(toks) and toks[i + 1].text in ("class", "struct") and \
                toks[i + 2].kind == "ident":  # an explicit instantiation, `template class P<float>;`
            yield ("template", t.start, "template"), [(t.start, t.end, b" " * 8)], \
                [Mask(t.start, t.end, "template", "grammar")]
        elif t.text == "enum" and i + 1 < len(toks) and toks[i + 1].text == ":":  # `enum : size_t {` (no name)
            j = i + 2
            while j < len(toks) and (toks[j].kind == "ident" or toks[j].text == "::"):
                j += 1
            if j > i + 2 and j < len(toks) and toks[j].text == "{":
                s, e = toks[i + 1].start, toks[j - 1].end
                yield (("enum", t.start, "enum"), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, ": base", "grammar")])
        elif t.text == "typeid" and i + 1 < len(toks) and toks[i + 1].text == "(":
            close = close_of(i + 1)
            if close is not None and close > i + 2 and all(
                    toks[k].kind == "ident" or toks[k].text in ("*", "&", "::") for k in range(i + 2, close)):
                s, e = toks[i + 2].start, toks[close - 1].end
                yield (("typeid", t.start, "typeid"), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, "typeid", "grammar")])
        elif t.text == "=" and i + 1 < len(toks) and toks[i + 1].text == "{" and i > 0 and \
                (toks[i - 1].kind == "ident" or toks[i - 1].text == ">" and toks[i - 1].end < t.start):
            close = _match_brace(toks, i + 1)  # a default argument `T x = {}`: seen as `T x`
            if close is not None and close + 1 < len(toks) and toks[close + 1].text in (")", ","):
                s, e = t.start, toks[close].end
                yield (("default", t.start, "="), [(s, e, blank_bytes(data, s, e))],
                       [Mask(s, e, "= {...}", "grammar")])
        elif t.text == "=" and i + 2 < len(toks) and toks[i + 1].text in ("delete", "default") and \
                toks[i + 2].text == ";" and i > 0 and toks[i - 1].text in (")", "const", "noexcept", "override"):
            # a member template's `= delete;` (`template <class V> S& operator+=(const V& v) = delete;`),
            # which the grammar takes only on a plain member: seen as the declaration `...(const V& v);`
            s, e = t.start, toks[i + 1].end
            yield (("deleted", t.start, "="), [(s, e, blank_bytes(data, s, e))], [Mask(s, e, "= delete", "grammar")])

def _member_qualifier(toks: list[Tok], i: int) -> int | None:
    """The first token of the `Base::` (or `ns::Base::`) between `.`/`->` and the `operator` at
    toks[i], or None where no member access is qualified there."""
    j = i
    while j >= 3 and toks[j - 1].text == ":" and toks[j - 2].text == ":" and toks[j - 3].kind == "ident" \
            and toks[j - 2].end == toks[j - 1].start:
        j -= 3
    if j == i or j < 1:
        return None
    dot = toks[j - 1].text == "." or toks[j - 1].text == ">" and j >= 2 and toks[j - 2].text == "-" \
        and toks[j - 2].end == toks[j - 1].start
    return j if dot else None


def _default_type_marks(toks: list[Tok], i: int) -> list[int]:
    """The `*`, `&` and cv-qualifiers around the type of the default of the template type parameter
    that toks[i] (`typename`/`class`) opens (`typename It = const uint32*`), which the grammar's
    default type does not take; [] where there are none or the default is no plain type."""
    if i + 3 >= len(toks) or toks[i + 1].kind != "ident" or toks[i + 2].text != "=":
        return []
    marks, depth, typed = [], 0, False
    for k in range(i + 3, min(len(toks), i + 64)):
        x = toks[k].text
        if x in ("(", ")", "[", ";", "{", "}"):
            return []
        if x == "<":
            depth += 1
        elif x == ">" or x == "," and depth == 0:
            if depth == 0:
                return marks if typed else []
            depth -= 1
        elif depth == 0 and x in ("*", "&", "const", "volatile"):
            marks.append(k)
        elif toks[k].kind == "ident":
            typed = True
    return []
