"""Words in the bodies of a file's own macros, which the parse reads as text: a macro's body is code where
it expands (`#define PUSH(s) nvtxRangePushA(s)` at a host call, `#define SLOTS(n) max<int>((n) / 32, 1)` in a
device array bound), so a rename the port makes to the file's code (NVTX's names to roctx's, a use of a
constexpr template with explicit arguments to its `kp_` copy) is made in the bodies too.  Comments and
literals are no words (macro_tokens)."""
from __future__ import annotations

from collections.abc import Iterator

from .api_names import _DIRECTIVE_REST  # (to the directive's end, across `\` line splices)
from .macro_tokens import Tok, tokens


def body_words(tr) -> Iterator[tuple[object, int, list[Tok]]]:
    """(definition node, byte offset of its body, the body's tokens) of each `#define` of the file that no pass
    replaced whole (a rewritten definition is the port's text, not the user's)."""
    for d in tr.src.index.of_types("preproc_def", "preproc_function_def"):
        head = d.child_by_field_name("parameters") or d.child_by_field_name("name")
        value = d.child_by_field_name("value")
        if head is None or tr.rw.has(d) or value is not None and tr.rw.has(value):
            continue
        end = _DIRECTIVE_REST.match(tr.src.data, head.end_byte).end()
        yield d, head.end_byte, tokens(tr.src.data[head.end_byte:end])


_NOT_TYPES = frozenset({"return", "case", "else", "do", "throw", "sizeof", "co_return", "co_yield", "new", "delete"})


def word_uses(tr, fits) -> list[tuple[object, int, int, str]]:
    """(definition, start, end, word) of each whole word `fits(word)` accepts in a macro body, used there: not
    a member or qualified name (`.x`, `->x`, `ns::x`), nor a name the body declares (`NvtxRange nvtx_range(...)`:
    after a type's word)."""
    out = []
    for d, at, toks in body_words(tr):
        for i, t in enumerate(toks):
            if t.kind == "ident" and fits(t.text) and not _after_scope(toks, i) and \
                    not (i and toks[i - 1].kind == "ident" and toks[i - 1].text not in _NOT_TYPES):
                out.append((d, at + t.start, at + t.end, t.text))
    return out


def template_uses(tr, name: str) -> list[tuple[object, int, int]]:
    """(definition, start, end) of each `name<...>(` in a macro body (a call with explicit template
    arguments: `max<int>(a, b)`, not a comparison `max < n`), unqualified."""
    out = []
    for d, at, toks in body_words(tr):
        for i, t in enumerate(toks):
            if t.kind != "ident" or t.text != name or _after_scope(toks, i) or \
                    i + 1 >= len(toks) or toks[i + 1].text != "<":
                continue
            depth, j = 0, i + 1
            while j < len(toks) and toks[j].text not in (";", "{", "}", "(", ")"):  # (no call inside the arguments)
                depth += (toks[j].text == "<") - (toks[j].text == ">")
                if depth == 0:
                    break
                j += 1
            if j < len(toks) and depth == 0 and toks[j].text == ">" and j + 1 < len(toks) and toks[j + 1].text == "(":
                out.append((d, at + t.start, at + t.end))
    return out


def _after_scope(toks: list[Tok], i: int) -> bool:
    prev = toks[i - 1].text if i else ""
    prev2 = toks[i - 2].text if i > 1 else ""
    return prev == "." or prev == ":" and prev2 == ":" or prev == ">" and prev2 == "-"
