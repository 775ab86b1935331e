"""A struct (or class) that is no template but has member functions, for the C99 parser (metal66, item 4):
`struct S { float a; __device__ float f() const { return a * 2; } __device__ void add(float v) { a += v; } };`
used in a kernel as `S s; s.a = in[i]; s.add(1.0f); out[i] = s.f();`.

C has no member functions, so main's frontend handed the struct to the parser as written and the kernel
could not lower ("cannot lower for the emulator: before: s"): verify skipped every such kernel.  The
classes of class templates with data already lower as a struct and free functions (classdata.py); a
plain class is such a class with no parameters: its uses `S` are read as `S<>` and the same instance
machinery makes `struct S__kpd0 { float a; }`, `S__kpd0__f(S__kpd0 self)` for a const member and, for one
that is not const, `S__kpd0__add(S__kpd0 *self, float v)` whose members and `this->` are `self->`: a call
`s.add(1.0f)` is `S__kpd0__add(&s, 1.0f)`, so the store lands in the object (classdata.py).  A member's
call of another member on its own object (`f()` inside `g`) is that function's call on `self`.

Left to the parser (its located error, as before): a class with a base, a virtual member, a member
called through a pointer or an element (`p->f()`, `a[i].f()`: only named objects are rewritten), a member
returning a reference (`S& twice() { ...; return *this; }`: C has none), and
what classdata leaves (constructors with bodies that return, operators other than `[]`).

An aggregate's direct-list initialisation `S s{in[i]};` (of a plain class without constructors, or of any
struct of the file) is its copy-list form `S s = {in[i]};`, which C reads (main: "struct variable `s`
initialised from a value that is not a struct").
"""
from __future__ import annotations

import re

from .classtemplates import ClassDef, parse_class
from .items import Item

_HEAD = re.compile(r"\s*(?:struct|class)\s+(?:(?:alignas|__align__)\s*\([^()]*\)\s*)?([A-Za-z_]\w*)\s*\{")


def plain_class(it: Item) -> ClassDef | None:
    """The ClassDef of item `it` when it is a plain class with member functions (the module), else None."""
    if it.kind != "decl" or _HEAD.match(it.text) is None or re.search(r"\bvirtual\b", it.text):
        return None
    cd = parse_class(it, [])
    if cd is None or not cd.functions or not cd.has_data:  # (constructors alone: braced.py says "not yet")
        return None
    return cd


def read_as_instances(items: list[Item], names: set[str]) -> None:
    """Each use of a plain class's name in the items' texts as `NAME<>` (an instance with no arguments),
    which the class-template machinery resolves; `struct NAME` and member accesses `x.NAME` are left."""
    if not names:
        return
    pat = re.compile(r"(?<![\w.])(?<!->)(?<!::)(" + "|".join(map(re.escape, sorted(names))) + r")\b(?!\s*<)")

    def sub(m: re.Match) -> str:
        before = m.string[max(0, m.start() - 16): m.start()]
        return m.group(0) if re.search(r"\b(?:struct|class)\s+$", before) else m.group(1) + "<>"
    for it in items:
        if pat.search(it.text):
            it.text = pat.sub(sub, it.text)


def list_initialised(items: list[Item], names: set[str]) -> None:
    """`NAME x{...};` declared in a function body as `NAME x = {...};` (the module), for the aggregates `names`."""
    if not names:
        return
    pat = re.compile(r"(?P<lead>[;{}]\s*(?:const\s+)?(?:struct\s+)?(?:" + "|".join(map(re.escape, sorted(names)))
                     + r")\s+[A-Za-z_]\w*\s*)(?=\{)")
    for it in items:
        if it.kind in ("kernel", "device") and "{" in it.text:
            head, brace, body = it.text.partition("{")
            it.text = head + brace + pat.sub(lambda m: m.group("lead").rstrip() + " = ", body)
