"""Where a macro use stands in a declaration, as the macro repair (kernelport/macro_repair.py) reads
it: a parameter's type, a local's type, or a whole definition that an object-like macro supplies.

DREAMPlace's `template <typename T> inline __device__ DEFINE_NET_WIRING_DISTRIBUTION_MAP_WEIGHT;`
is such a definition: the macro expands to `T netWiringDistributionMapWeight(int num_pins) {...}`,
so the compiler sees a function template, while the grammar sees specifiers without a declarator.
Its bytes cannot hold the expansion (the repair never moves a byte), so the declaration, template
head and specifiers with it, is blanked: the port keeps the user's text, which the target's
compiler expands as nvcc did, and the mask records the expansion for the passes that read it."""
from __future__ import annotations

from typing import Mapping, Sequence

from . import lazy_re
from .grammar_gaps import blank_bytes
from .macro_tokens import Tok
from .macros import ATTRIBUTE_WORDS, MacroDef, Mask, attribute_like, ends_definition, expansion

_TYPE_END = lazy_re.compile(r"[>*&]\s*$")  # how a type's spelling ends (`Mem< T >`, `const T*`), as no expression's does
# a definition's expansion: a declarator and a body (`T f(int n) {`), never an initializer or a class
_FUNCTION_HEAD = lazy_re.compile(r"^[\w\s:<>,*&]*?\b[A-Za-z_]\w*\s*\([^;{}]*\)[\w\s]*\{")
_MAX_HEAD = 48  # tokens of a template head


def parameter_type(prev: Tok | None, after: Tok | None) -> bool:
    """A use between `(`, `,` or a cv-qualifier and a name: a parameter's type (`f(int a, IN(coord) ijk)`,
    `const MGPU_MEM(float)& b`)."""
    return prev is not None and prev.text in ("(", ",", "const", "volatile") and after is not None and \
        after.kind == "ident"


def local_type(prev: Tok | None, named: Tok | None, body: str | None) -> bool:
    """A use at a statement's start (or after a template head, `static` or `const`) before a name, the macro
    ending as a type (`Mem< T >`, `T*`; a bare `X` may be an expression's): a declaration `M(x) name = ...;`
    (two primaries side by side are no expression)."""
    return (prev is None or prev.text in (";", "{", "}", ">", "static", "const")) and named is not None and \
        named.kind == "ident" \
        and body is not None and _TYPE_END.search(body) is not None


def object_definition(toks: Sequence[Tok], i: int, data: bytes, macros: Mapping[str, MacroDef],
                      file_scope: Sequence[bool]):
    """(edits, masks) that blank an object-like macro that supplies a whole function definition, with
    the specifiers and template head before it and the `;` after it (`template <typename T> inline
    __device__ DEFINE_F;`); None where toks[i] is no such use. Only specifiers (the attribute words,
    an attribute macro), template heads, the macro and its `;` qualify: anything else before it (a
    namespace macro, a type) or after it (a parameter list, an initializer) is no such declaration."""
    t = toks[i]
    known = macros.get(t.text)
    if known is None or known.params is not None or not file_scope[i] or not ends_definition(known, macros):
        return None
    body = expansion(t.text, macros) or ""
    if not body.rstrip().endswith("}") or not _FUNCTION_HEAD.match(body.strip()):
        return None
    j = i - 1  # back over specifiers (`inline __device__`, an attribute macro) and template heads
    while j >= 0:
        tk = toks[j]
        if tk.kind == "ident" and (tk.text in ATTRIBUTE_WORDS or (m := macros.get(tk.text)) is not None
                                   and m.params is None and attribute_like(m, macros)):
            j -= 1
        elif tk.text == ">" and (k := _template_head(toks, j)) is not None:
            j = k - 1
        else:
            break
    if j + 1 == i or i + 1 >= len(toks) or toks[i + 1].text != ";":  # (a bare use: the function-like repair's shape)
        return None
    end = toks[i + 1].end
    start = toks[j + 1].start
    return [(start, end, blank_bytes(data, start, end))], [Mask(start, end, t.text, "statement", body)]


def _template_head(toks: Sequence[Tok], j: int) -> int | None:
    """Index of the `template` whose head's `>` is toks[j] (`template <typename T, int N = 4>`), or None."""
    depth, k = 0, j
    while k >= 0 and j - k <= _MAX_HEAD:
        t = toks[k].text
        depth += (t == ">") - (t == "<")
        if depth == 0:
            return k - 1 if k > 0 and toks[k - 1].text == "template" else None
        if t in (";", "{", "}", "(", ")"):
            return None
        k -= 1
    return None
