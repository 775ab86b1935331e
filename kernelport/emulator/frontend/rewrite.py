"""Rewrites of one top-level item into C99: backend qualifiers, C++ casts, Metal's as_type and
address spaces, `::`, `auto`, attributes `[[...]]`."""
from __future__ import annotations

import re

from ... import dialect
from .items import balanced, blank
from .lowered import AS_TYPE_FN, AUTO_TYPE, NS_SEP, SHARED_STORAGE, VECTOR_CTOR
from .preprocess import VECTOR_TYPES


_CXX_CAST = re.compile(r"\b(?:static|reinterpret|const|dynamic)_cast\s*<")


def _rewrite_casts(text: str) -> str:
    while True:
        m = _CXX_CAST.search(text)
        if not m:
            return text
        lt = m.end() - 1
        end = balanced(text, lt, "<", ">")
        ty = text[lt + 1: end - 1].strip()
        op = end + len(text[end:]) - len(text[end:].lstrip())
        if op < len(text) and text[op] == "(":  # the whole cast in parentheses: `reinterpret_cast<const
            close = balanced(text, op)           # uint4*>(p)[i]` is ((const uint4*)(p))[i], not a cast of p[i]
            text = text[: m.start()] + "((" + ty + ")" + text[op: close] + ")" + text[close:]
        else:
            text = text[: m.start()] + "(" + ty + ")" + text[end:]


_FUNCTIONAL_CAST = re.compile(r"(?:(?<=[(,=+\-*/%&|^!~<>?:\[{;])|(?<=\breturn)|(?<=^))(\s*)(ushort|uint|uchar|ulong|short|"
                              r"char|int|float|double|bool|unsigned|uint8_t|uint16_t|uint32_t|int32_t|uint64_t|"
                              r"int64_t|size_t)\s*\(", re.M)


_FLOAT16_CAST: list = []


def _float16_cast() -> re.Pattern:
    """Each backend's 16-bit float type called like a function: a HIP port's `hip_bfloat16(x)` (of
    `__float2bfloat16(x)`), Metal's `half(x)`: the dialect table's names (preprocess.float16_names)."""
    if not _FLOAT16_CAST:
        from .preprocess import float16_names
        names = "|".join(sorted(map(re.escape, float16_names()), key=len, reverse=True))
        _FLOAT16_CAST.append(re.compile(_FUNCTIONAL_CAST.pattern.replace("(ushort|", f"({names}|", 1), re.M))
    return _FLOAT16_CAST[0]


def top_comma(inner: str) -> bool:
    depth = 0
    for c in inner:
        depth += c in "([{"
        depth -= c in ")]}"
        if c == "," and depth == 0:
            return True
    return False


def _rewrite_functional_casts(text: str) -> str:
    """C++'s `ushort(delta)` (kernelport's own Metal helpers use it): C's `((ushort)(delta))`; a
    constructor of two arguments (`hip_bfloat16(x, hip_bfloat16::truncate)`) is no cast: left as it is."""
    pos, pattern = 0, _float16_cast()
    while True:
        m = pattern.search(text, pos)
        if not m:
            return text
        open_i = m.end() - 1
        end = balanced(text, open_i)
        inner = text[open_i + 1: end - 1]
        if top_comma(inner):
            pos = open_i + 1
            continue
        new = f"{m.group(1)}(({m.group(2)})({inner}))"
        text = text[: m.start()] + new + text[end:]
        pos = m.start() + len(new) - len(inner) - 3


_EXPR_START = r"(?:(?<=[(,=+\-*/%&|^!~<>?:\[{;])|(?<=\breturn)|(?<=^))"
_VECTOR_CTOR = re.compile(_EXPR_START + r"(\s*)(" + "|".join(sorted(VECTOR_TYPES | {"uint3"})) + r")\s*\(", re.M)
_VALUE_INIT = re.compile(r"\b([A-Za-z_]\w*)(\s+[A-Za-z_]\w*\s*=\s*)\1\s*\(\s*\)")


def _rewrite_constructors(text: str) -> str:
    """C++ construction in expressions: a vector type called like a function (Metal's
    `float4(a, b, c, d)`, `float4(v)`) is a call the emulator builds the vector from; `T x = T();`
    value-initialises (zero-fills) x, which C spells `T x = {};`."""
    text = _VECTOR_CTOR.sub(lambda m: f"{m.group(1)}{VECTOR_CTOR}{m.group(2)}(", text)
    return _VALUE_INIT.sub(lambda m: m.group(1) + m.group(2) + "{}", text)


# C++11's list-initialisation of a declared name: `size_t const i{blockIdx.x * blockDim.x};`,
# `T sum{static_cast<T>(0)};`, `for (size_t k{0U}; ...)`: a statement's type words, the name, a brace.
_BRACE_INIT = re.compile(r"(?:(?<=[;{}(])|^)(\s*)((?:[A-Za-z_]\w*[\s*&]+)+?)([A-Za-z_]\w*)\s*\{", re.M)
_NOT_A_TYPE = {"struct", "class", "union", "enum", "namespace", "typedef", "return", "else", "do", "case", "goto",
               "extern", "template", "using", "new", "throw", "operator"}


def _rewrite_brace_init(text: str) -> str:
    """`T x{e};` -> `T x = e;` (one value: C's initialisation, with C's conversion where C++ would
    refuse a narrowing one, which compiles nowhere), `T x{a, b};` -> `T x = {a, b};`, `T x{};` ->
    `T x = {};` (zero-filled); a vector type's `int4 v{a, b, c, d}` (`{}`: zeros) is built as the
    constructor `int4(a, b, c, d)` builds it.  Only where the brace closes before `;` or `,` (a declaration), so a
    struct's, a namespace's or a function's body never is one."""
    pos = 0
    while True:
        m = _BRACE_INIT.search(text, pos)
        if not m:
            return text
        words = re.findall(r"[A-Za-z_]\w*", m.group(2))
        open_i = m.end() - 1
        pos = m.end()
        if not words or _NOT_A_TYPE.intersection(words) or m.group(3) in _NOT_A_TYPE:
            continue
        end = balanced(text, open_i, "{", "}")
        after = re.match(r"\s*([;,])", text[end:])
        if after is None:
            continue
        inner = text[open_i + 1: end - 1]
        one = inner.strip() and _top_level_commas(inner) == 0
        if words[-1] in VECTOR_TYPES:  # `int4 v{0, 0, 0, 0};`: the vector built as `int4(0, 0, 0, 0)` is
            value = f" = {VECTOR_CTOR}{words[-1]}({inner if inner.strip() else '0'})"
        else:
            value = f" = ({inner})" if one else f" = {{{inner}}}"
        text = text[: m.end(3)] + value + text[end:]
        pos = m.end(3) + len(value)


def _top_level_commas(text: str) -> int:
    depth, n = 0, 0
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        n += ch == "," and depth == 0
    return n


_AS_TYPE = re.compile(r"\bas_type\s*<")


def _rewrite_as_type(text: str) -> str:
    """Metal's bit reinterpretation `as_type<T>(x)`: a call whose first argument carries T."""
    while True:
        m = _AS_TYPE.search(text)
        if not m:
            return text
        lt = m.end() - 1
        end = balanced(text, lt, "<", ">")
        ty = text[lt + 1: end - 1].strip()
        rest = re.match(r"\s*\(", text[end:])
        if not rest:
            return text
        text = text[: m.start()] + f"{AS_TYPE_FN}(({ty})0, " + text[end + rest.end():]


def _pointee_address_spaces(text: str, spec) -> str:
    """Metal: an address space before a pointer (or reference) declarator qualifies the POINTEE
    (`threadgroup float* p`, casts `(threadgroup atomic_uint*)x`): it is dropped there, so that
    only a declaration of threadgroup OBJECTS (`threadgroup float a[N];`) is block-shared."""
    words = [w for w, how in spec.address_spaces.items() if how == "shared"]
    if not words:
        return text
    pat = re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b")
    out, pos = [], 0
    for m in pat.finditer(text):
        k = m.end()
        # skip the type words (and a template argument list) up to the declarator
        while True:
            w = re.compile(r"\s*([A-Za-z_]\w*)").match(text, k)
            if w is None:
                break
            k = w.end()
            t = re.compile(r"\s*<").match(text, k)
            if t is not None and w.group(1) != "operator":
                k = balanced(text, t.end() - 1, "<", ">")
        nxt = re.compile(r"\s*(\(\s*)?([*&])").match(text, k)
        if nxt is not None:
            out.append(text[pos: m.start()] + " " * (m.end() - m.start()))
            pos = m.end()
    out.append(text[pos:])
    return "".join(out)


class Qualifiers:
    """A backend's qualifier words, grouped by how the front end lowers them."""

    def __init__(self, backend):
        spec = backend.lowering
        self.kernel_words: set[str] = set()
        self.kernel_head = re.compile(backend.kernel_head_pattern) if backend.kernel_head_pattern else None
        self.device_words: set[str] = set()
        self.drop: set[str] = set(spec.extra_drop)
        self.drop_call: set[str] = set()
        self.shared: set[str] = set()
        for key, how in spec.qualifier_concepts.items():
            c = dialect.concept(key)
            name = c.name(backend.name)
            names = {name} if name else set()
            names |= set(c.aliases.get(backend.name, ()))
            if not names:
                continue
            if how == "kernel":
                self.kernel_words |= names
            elif how == "drop":
                self.drop |= names
                if key == "device_fn":
                    self.device_words |= names
            elif how == "drop_call":
                self.drop_call |= names
            elif how == "shared":
                self.shared |= names
        for word, how in spec.address_spaces.items():
            (self.shared if how == "shared" else self.drop).add(word)
        self.all_words = self.kernel_words | self.drop | self.shared | self.drop_call
        # a dropped attribute word's parenthesised argument goes with it (`struct __align__(16) S {`: the
        # `(16)` left behind made the typedef no C, so its type was unknown: hecbench egs's region_data_t)
        called = self.drop_call | {w for w in spec.extra_drop if w.startswith("__")}
        self.call_words = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(called))) + r")\s*\(") \
            if called else None


_MAY_ALIAS = re.compile(r"__attribute__\s*\(\(\s*(?:__)?may_alias(?:__)?\s*\)\)")
_CONSTEXPR = re.compile(r"\b(if\s+)?constexpr\b")
_NS_ALIAS = re.compile(r"\bnamespace\s+\w+\s*=\s*(?:::\s*)?\w+(?:\s*::\s*\w+)*\s*;")


def rewrite_item(text: str, q: Qualifiers, spec, attrs: dict | None) -> str:
    """`spec`: the backend's `Lowering`."""
    # attributes [[...]]: record parameter attributes (Metal), then remove
    if spec.attributes and "[[" in text:
        if attrs is not None:
            for m in re.finditer(r"(\w+)\s*\[\[\s*(\w+)\s*(?:\(\s*([^)]*)\))?\s*\]\]", text):
                attrs[m.group(1)] = (m.group(2), m.group(3))
        text = re.sub(r"\[\[.*?\]\]", lambda m: blank(m.group(0)), text, flags=re.S)
    if "may_alias" in text:  # (a type that may alias any other: the emulator's memory has no type-based aliasing)
        text = _MAY_ALIAS.sub(lambda m: blank(m.group(0)), text)
    for m in list(q.call_words.finditer(text) if q.call_words is not None else ())[::-1]:
        end = balanced(text, m.end() - 1)
        text = text[: m.start()] + blank(text[m.start():end]) + text[end:]
    for m in list(re.finditer(r"\bstatic_assert\s*\(", text))[::-1]:  # a compile-time check: it runs nothing
        end = balanced(text, m.end() - 1)
        semi = re.match(r"\s*;", text[end:])
        end += semi.end() if semi else 0
        text = text[: m.start()] + blank(text[m.start():end]) + text[end:]
    # a namespace alias (`namespace cg = cooperative_groups;` in a kernel's body): the names it
    # aliases were read with the file (groups.Groups); it declares nothing the run needs
    text = _NS_ALIAS.sub(lambda m: blank(m.group(0)), text)
    # `constexpr int UNROLL = 8;` is a constant (`float r[UNROLL]`): C's const; `if constexpr` an if
    text = _CONSTEXPR.sub(lambda m: "const".ljust(len(m.group(0))) if m.group(1) is None else "if".ljust(len(m.group(0))),
                          text)
    text = _rewrite_casts(text)
    text = _rewrite_functional_casts(text)
    text = _rewrite_constructors(text)
    text = _rewrite_brace_init(text)
    if spec.address_spaces:
        text = _rewrite_as_type(text)
        text = _pointee_address_spaces(text, spec)
    if "::" in text:
        text = re.sub(r"\bstd\s*::\s*", "", text)
        text = re.sub(r"(\b\w+)\s*::\s*(\w+)", lambda m: m.group(1) + NS_SEP + m.group(2), text)
    words = q.all_words

    def word(m):
        w = m.group(0)
        if w in q.shared:
            return SHARED_STORAGE
        if w in words:
            return " " * len(w)
        if w == "auto":
            return AUTO_TYPE
        if w == "__restrict__" or w == "__restrict":
            return "restrict"
        return w

    text = re.sub(r"\b[A-Za-z_]\w*\b", word, text)
    if spec.address_spaces:
        # `constant int& n` / `const device float& x`: pass scalars by value
        head, brace, body = text.partition("{")  # a parameter list only: `x & 15)` is an and
        text = re.sub(r"(\w)\s*&\s*(\w+\s*[,)])", r"\1 \2", head) + brace + body
        text = re.sub(r"\busing\s+namespace\s+\w+\s*;", lambda m: blank(m.group(0)), text)
    return text
