"""C++ the tree-sitter grammar lacks, seen by the parse as the nearest form it has (kernelport's macro
repair tries these at a parse error like its macro masks; the user's text is never changed): none
changes what the warp analyses read."""
from __future__ import annotations

from .macro_tokens import blank_bytes as _blank_bytes, match_brace as _match_brace
from .macros import Mask


def grammar_gaps(r, idx):
    """C++ the grammar lacks, masked the same way: `new const T*[n]` is seen as `new T [n]` and
    `typeid(double)` as `typeid(      )`, `template class P<float>;` as a declaration of P, a default
    argument `T x = {}` as `T x`, an unnamed enum's base `enum : size_t {` as `enum {`, a base
    class's operator called through a member access `this->Base::operator=(x)` as
    `this->operator=(x)` (none changes what the warp analyses read)."""
    toks = r.toks
    for i in idx:
        t = toks[i]
        if t.text == "operator" and i >= 3 and toks[i - 1].text == ":" and toks[i - 2].text == ":":
            j = i - 1  # back over `A::B::` to the `->` or `.` of a member access
            while j >= 2 and toks[j].text == ":" and toks[j - 1].text == ":" and toks[j - 2].kind == "ident":
                j -= 3
            member = toks[j].text == "." or toks[j].text == ">" and j > 0 and toks[j - 1].text == "-" and \
                toks[j - 1].end == toks[j].start
            if member and j < i - 1:
                s, e = toks[j + 1].start, toks[i - 1].end
                yield (("qualified operator", t.start, "operator"), [(s, e, _blank_bytes(r.data, s, e))],
                       [Mask(s, e, "::", "grammar")])
        if t.text == "new" and i not in r.masked_at:
            j = i + 1
            while j < len(toks) and toks[j].kind == "ident" or j < len(toks) and toks[j].text == "::":
                j += 1
            stars = j
            while j < len(toks) and toks[j].text == "*":
                j += 1
            if stars > i + 1 and j > stars and j < len(toks) and toks[j].text == "[":
                blank = [k for k in range(i + 1, j) if k >= stars or toks[k].text in ("const", "volatile")]
                edits = [(toks[k].start, toks[k].end, _blank_bytes(r.data, toks[k].start, toks[k].end))
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
                yield (("enum", t.start, "enum"), [(s, e, _blank_bytes(r.data, s, e))],
                       [Mask(s, e, ": base", "grammar")])
        elif t.text == "typeid" and i + 1 < len(toks) and toks[i + 1].text == "(":
            close = r._close(i + 1)
            if close is not None and close > i + 2 and all(
                    toks[k].kind == "ident" or toks[k].text in ("*", "&", "::") for k in range(i + 2, close)):
                s, e = toks[i + 2].start, toks[close - 1].end
                yield (("typeid", t.start, "typeid"), [(s, e, _blank_bytes(r.data, s, e))],
                       [Mask(s, e, "typeid", "grammar")])
        elif t.text == "=" and i + 1 < len(toks) and toks[i + 1].text == "{" and i > 0 and \
                (toks[i - 1].kind == "ident" or toks[i - 1].text == ">" and toks[i - 1].end < t.start):
            close = _match_brace(toks, i + 1)  # a default argument `T x = {}`: seen as `T x`
            if close is not None and close + 1 < len(toks) and toks[close + 1].text in (")", ","):
                s, e = t.start, toks[close].end
                yield (("default", t.start, "="), [(s, e, _blank_bytes(r.data, s, e))],
                       [Mask(s, e, "= {...}", "grammar")])
