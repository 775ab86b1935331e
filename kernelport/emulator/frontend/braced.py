"""C++ braced temporaries (`T{a, b}`, `T{}`, nested, `return T{...};`, a call's argument, `auto p = T{...};`,
a class template's `T<float>{...}` once its instance is named: classdata) as C99 the emulator runs.

- of an aggregate struct: the compound literal `(T){a, b}`, which the emulator builds as C++'s aggregate
  initialisation does (fields in order, those left out zeroed: emulator/structs.py); a nested `{...}` or
  `U{...}` initialises a struct field;
- of a vector type: `float4{a, b, c, d}` (`{}`: zeros) is the constructor the emulator builds vectors with;
  fewer components are refused (CUDA's aggregate zero-fills the rest, HIP's constructor splats one value);
- of a scalar type (a template's `T{}` with T = float): `T{}` is `((T)0)`, `T{x}` is `((T)(x))`.

A braced temporary of a type that is no aggregate the emulator builds (a class with constructors, private
data, bases, virtual members or default member initialisers) is a located "not yet" where the kernel
reaches it (NotImplementedError, as an unread function object's call); another kernel's is dropped.
"""
from __future__ import annotations

import re

from ... import lazy_re
from ...cexpr import split_top_level
from .items import Item, balanced, line_at
from .lowered import VECTOR_CTOR

_EXPR_START = r"(?:(?<=[(,=+\-*/%&|^!~<>?:\[{;])|(?<=\breturn)|(?<=^))"
_CLASS = lazy_re.compile(r"\s*(struct|class)\s+(?:(?:alignas|__align__)\s*\([^()]*\)\s*)?([A-Za-z_]\w*)\s*"
                         r"(?:final\s*)?(:[^{;]*)?\{")
_TYPEDEF_STRUCT = lazy_re.compile(r"\s*typedef\s+struct\s*\w*\s*\{")
_ALIAS = lazy_re.compile(r"\btypedef\s+(?:struct\s+)?([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*;|"
                         r"\busing\s+([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\s*;")
# `float a{1.0f};` in a class body (a member function's `) const {` is none)
_BRACED_MEMBER = lazy_re.compile(r"(?<![\w)])\s*\b(?!const\b|override\b|final\b|noexcept\b)[A-Za-z_]\w*\s*\{[^{}]*\}\s*;")
# a class head's base clause (`struct D : Base {`, `enum E : int {`): no temporary
_HEAD = lazy_re.compile(r"\b(?:struct|class|union|enum)\b[^;{}()]*:\s*\Z")
_AUTO = lazy_re.compile(r"\bauto(\s+(?:const\s+)?[A-Za-z_]\w*\s*=\s*)\Z")
SCALARS = ("bool", "char", "short", "int", "long", "float", "double", "unsigned", "signed", "size_t", "uint",
           "ushort", "uchar", "ulong", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t",
           "int64_t", "uint64_t")


def _why_not_aggregate(kind: str, name: str, base: str | None, body: str) -> str | None:
    """Why the class `name` (its keyword, base clause and body) is no aggregate the emulator builds, or None."""
    if base:
        return "a class with base classes"
    if re.search(r"\b" + re.escape(name) + r"\s*\(", body):
        return "a class with constructors"
    if re.search(r"\bvirtual\b", body):
        return "a class with virtual members"
    if kind == "class" and not re.match(r"\s*public\s*:", body) or re.search(r"\b(?:private|protected)\s*:", body):
        return "a class with private data"
    depth, decl = 0, ""
    for c in body:  # the members' own declarations (a member function's body set aside)
        depth += c == "{"
        if depth == 0 and c not in "{}":
            decl += c
        depth -= c == "}"
        if c == "}" and depth == 0:
            decl += ";"
    if any("=" in d and "(" not in d.split("=")[0] and not re.match(r"\s*static\b", d) for d in decl.split(";")) \
            or _BRACED_MEMBER.search(body):
        return "a struct with default member initialisers"
    return None


def aggregates(items: list[Item], not_aggregate: dict[str, str] | None = None) -> tuple[set[str], dict[str, str]]:
    """(the aggregate struct names the items define, name -> why a class they define is not one), with the
    aliases (`typedef S A;`, `using A = S;`) of each.  `not_aggregate`: classes known otherwise (an
    instance struct of a class template with constructors)."""
    good, bad = set(), dict(not_aggregate or {})
    for it in items:
        if it.file == "<prelude>":
            continue
        if (m := _CLASS.match(it.text)) is not None and m.group(2) not in bad:
            body = it.text[m.end(): balanced(it.text, m.end() - 1, "{", "}") - 1]
            why = _why_not_aggregate(m.group(1), m.group(2), m.group(3), body)
            if why is None:
                good.add(m.group(2))
            else:
                bad[m.group(2)] = why
        elif _TYPEDEF_STRUCT.match(it.text):
            close = balanced(it.text, it.text.index("{"), "{", "}")
            if (t := re.match(r"\s*([A-Za-z_]\w*)\s*;", it.text[close:])) is not None:
                good.add(t.group(1))
    for it in items:
        for m in _ALIAS.finditer(it.text):
            old, new = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
            if old in bad:
                bad.setdefault(new, bad[old])
            elif old in good:
                good.add(new)
    return good - set(bad), bad


def _lowered(name: str, inner: str, good: set[str], bad: dict[str, str], vectors: dict[str, int]):
    """(what comes before and after `inner`, the braces' text) for the temporary `name{inner}`, or why not."""
    count = len([a for a, _ in split_top_level(inner) if a.strip()])
    if name in good:
        return f"({name}){{", "}"
    if name in vectors:
        if count == 0:
            return f"{VECTOR_CTOR}{name}(0", ")"
        if count == vectors[name]:
            return f"{VECTOR_CTOR}{name}(", ")"
        return f"a braced `{name}` of {count} of its {vectors[name]} components (spell every one)"
    if name in SCALARS:
        return (f"(({name})(0", "))") if count == 0 else (f"(({name})(", "))") if count == 1 else \
            f"a braced `{name}` of {count} values"
    return f"a braced temporary of `{name}`, {bad[name]}"


def lower_braced(items: list[Item], vectors: dict[str, int], not_aggregate: dict[str, str] | None = None,
                 structs: list[Item] = ()) -> list[tuple[Item, str]]:
    """Each item's braced temporaries lowered (module docstring); returns (item, why) of those left as
    written.  `vectors`: vector type -> components; `structs`: struct items not among `items` yet."""
    good, bad = aggregates(list(items) + list(structs), not_aggregate)
    names = good | set(bad) | set(vectors) | set(SCALARS)
    pattern = re.compile(_EXPR_START + r"(\s*)\b(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True))
                         + r")\s*\{", re.M)
    blocked = []
    for it in items:
        if it.file == "<prelude>" or "{" not in it.text:
            continue
        text, pos = it.text, 0
        while (m := pattern.search(text, pos)) is not None:
            name, open_i = m.group(2), m.end() - 1
            if _HEAD.search(text, max(0, m.start(2) - 300), m.start(2)):
                pos = m.end()
                continue
            end = balanced(text, open_i, "{", "}")
            inner = text[open_i + 1: end - 1]
            got = _lowered(name, inner, good, bad, vectors)
            if isinstance(got, str):
                if it.name:
                    blocked.append((it, f"the emulator does not run {got} ({it.file}:{line_at(it, m.start(2))}: "
                                        f"`{' '.join(text[m.start(2): end].split())[:60]}`)"))
                pos = m.end()
                continue
            head, tail, start = got[0], got[1], m.start(2)
            if name in good and (a := _AUTO.search(text, 0, start)) is not None:  # `auto p = T{...}`: p is a T
                start, head = a.start(), name + a.group(1) + head
            text = text[:start] + head + inner + tail + text[end:]
            pos = start + len(head)  # a temporary nested in this one's next
        it.text = text
    return blocked


def check(blocked: list[tuple[Item, str]], used: set[str] | None) -> None:
    """A located "not yet" (NotImplementedError) where a function the kernel reaches (`used`; None: every
    kernel and device function) holds a temporary left as written; the parse drops any other's, as before."""
    for it, why in blocked:
        if it.name in used if used is not None else it.kind in ("kernel", "device"):
            raise NotImplementedError(why)
