"""Local reference variables of device code (`const Params& eph = params[sid];`, `EKFState& st =
states[idx];`, heldout86's gnss kernels) for the C99 parser: the reference becomes a pointer to what
it is bound to, and each use of its name in the rest of its block reads through it (`(*eph)`).  That
is a reference's meaning: it names the element itself, so a store through it (`st.x = 1`) lands in the
buffer, and it is bound once.

Left as written (the parse then fails, located, as before) where the rewrite could be wrong: the name
declared again later in the block (a shadowing inner declaration), an initializer that is not an
lvalue the pointer can take the address of (a call's result, a literal, a cast: a `const T&` bound to
a temporary extends its life, a pointer to it would not), `auto&` (its type is the initializer's).
Lines are kept: diagnostics still point into the user's file.  Also bound in parentheses, `float& r(tile[i]);`,
and a reference to a one-dimensional array whose every use is an element, `float (&row)[8] = t2[i];` (`float *row =
(t2[i]);`, `row[j]` as written) (metal66).
"""
from __future__ import annotations

import re

from .items import Item, balanced

# `[const] Type[<...>] [const] & name =` at a statement's start (after `;`, `{`, `}` or `)` of a control head)
# (qualifier words before the type: `const`, a port's address space, `const device P& e` of a Metal port)
_DECL = re.compile(r"(?P<lead>[;{}]\s*)(?P<type>(?:[A-Za-z_]\w*\s+){0,3}"
                   r"[A-Za-z_][\w:]*(?:\s*<[^;{}()<>]*>)?(?:\s+const)?)\s*(?:&\s*(?P<name>[A-Za-z_]\w*)\s*(?:=(?!=)|"
                   r"(?P<paren>\()(?=[^;{}]*\)\s*;))|\(\s*&\s*(?P<aname>[A-Za-z_]\w*)\s*\)(?P<dims>(?:\s*\[[^\]=;]*\])+)\s*=(?!=))")
# primitive type words: `float& g(int);` is a prototype, never a reference bound in parentheses
_TYPE_WORDS = frozenset("void bool char short int long float double signed unsigned const".split())
_KEYWORDS = frozenset({"return", "if", "while", "for", "switch", "do", "case", "else", "throw", "sizeof", "delete", "new", "goto", "typedef"})


def _initializer_end(text: str, start: int) -> int | None:
    """The index of the `;` that ends the declaration whose initializer starts at `start`."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif c == ";" and depth == 0:
            return i
        elif c == "," and depth == 0:
            return None  # `T& a = x, b = y;`: several declarators
    return None


def _block_end(text: str, start: int) -> int:
    """The index of the `}` closing the block that `start` is in (len(text) when none)."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            if depth == 0:
                return i
            depth -= 1
    return len(text)


def _is_lvalue(init: str) -> bool:
    """A name with members and subscripts (balanced brackets only after it), or a dereference."""
    init = init.strip()
    m = re.match(r"\**\s*[A-Za-z_][\w:]*", init)
    if m is None:
        return False
    rest = init[m.end():]
    while rest:
        rest = rest.lstrip()
        if rest.startswith("["):
            rest = rest[balanced(rest, 0, "[", "]"):]
        elif (mm := re.match(r"(?:\.|->)\s*[A-Za-z_]\w*", rest)) is not None:
            rest = rest[mm.end():]
        else:
            return False
    return True


def _redeclared(body: str, name: str) -> bool:
    """`name` declared again in `body` (a type word, `*` or `&` before it; `=`, `;`, `[`, `,`, `)` after).
    A product `a * name)` counts too: the reference is then left as written, never rewritten wrongly."""
    return any(m.group(1) not in _KEYWORDS for m in
               re.finditer(r"\b([A-Za-z_]\w*)[\s*&]+" + re.escape(name) + r"\s*[=;\[,)]", body))


def _uses(body: str, name: str) -> str:
    """Each use of `name` as a variable (not a member after `.`/`->`, not qualified) read through it."""
    return re.sub(r"(?<![\w.])(?<!->)(?<!::)" + re.escape(name) + r"\b(?!\s*::)", f"(*{name})", body)


def lower_local_references(it: Item, unmarked_device: bool = False) -> None:
    """The item's local reference variables as pointers (module doc).  `unmarked_device`: the backend marks
    no device function (its qualifiers have no device-function word: a Metal port's `float f(device float* p)
    { device float& e = p[0]; ...}` is a "plain" item, which was left as written, dropped as not C99, and
    verify could not run the port; metal66), so a plain function is device code too."""
    kinds = ("kernel", "device", "plain") if unmarked_device else ("kernel", "device")
    if it.kind not in kinds or "&" not in it.text or "{" not in it.text:
        return
    text, pos = it.text, it.text.index("{")
    while (m := _DECL.search(text, pos)) is not None:
        pos = m.end()
        if _KEYWORDS.intersection(re.findall(r"\w+", m.group("type"))) or "auto" in m.group("type").split():
            continue
        name, init_at = m.group("name") or m.group("aname"), m.end()
        semi = _initializer_end(text, init_at - (1 if m.group("paren") else 0))
        init = text[init_at:semi] if semi is not None else ""
        if m.group("paren"):  # `T& r(x);`: x up to its closing parenthesis
            close = init.rstrip().rfind(")")
            init = init[:close] if close >= 0 and balanced(text, init_at - 1) == init_at + close + 1 else ""
            if not init.strip() or re.match(r"\s*([A-Za-z_]\w*)", init).group(1) in _TYPE_WORDS:
                continue
        if semi is None or not _is_lvalue(init):
            continue
        end = _block_end(text, semi + 1)
        body = text[semi + 1:end]
        if _redeclared(body, name):
            continue
        if m.group("aname"):  # `T (&row)[8] = x;`: a pointer to x's first element, each use an element
            if m.group("dims").count("[") != 1 or re.search(r"(?<![\w.])(?<!->)" + re.escape(name) + r"\b(?!\s*\[)",
                                                               body):
                continue
            decl = f"{m.group('lead')}{m.group('type')} *{name} = ({init.strip()});"
        else:
            decl = f"{m.group('lead')}{m.group('type')} *{name} = &({init.strip()});"
        pos = m.start() + len(decl) - 1  # its `;`: the next declaration may start right after
        decl += "\n" * text[m.end("lead"):semi + 1].count("\n")  # lines kept
        text = text[:m.start()] + decl + (body if m.group("aname") else _uses(body, name)) + text[end:]
    it.text = text
