"""Whether a launch's block, as kernelport.blockdims reads it, is the block the launch makes (SY001's launch
exits, kernelport/lint/launchexits.py).

blockdims.dims reads a host local by its initialiser (`int threads = 32; k<<<g, threads>>>`), which is the
launch's block only where nothing stores to the local after it: `if (big) threads = 256;`, `threads *= 8`, a
loop's `threads *= 2`, `block.x = 256` on a `dim3 block(32)`, `&threads` handed away, a reference bound to it
(`dim3& r = block;`: `r.x = 32` stores to the block), the local passed to a function of the file that takes it by
reference (`setb(threads)`) or to one the file does not define (its parameter may be a reference), or read by
`>>` (`std::cin >> threads`) each make the block another count, and an early return the initialiser's block
never takes is then taken (a hang or a race that the rule dropped); so does WS012's reading of `threadIdx.y`
(kernelport/lint/rowtags.py: rows of 64 threads are whole waves).  A `const` / `constexpr` local, or one nothing
stores to, is read as blockdims reads it; every local the block reaches through initialisers is checked so.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ..source import ident_name

_DEPTH = 4


def holds(src, m, owner, block: Node, depth: int = 0) -> bool:
    """Whether every non-const local of `owner` that `block` (a launch's block argument, or a local's initialiser
    it reaches) names is stored to nowhere in `owner`."""
    if owner is None or owner.body is None:
        return True  # (blockdims reads no local without the launching function)
    names = {src.text_of(i) for i in _identifiers(block)}
    local = {ident_name(d.child_by_field_name("declarator")) for d in src.index.under(owner.body, "init_declarator")}
    for name in names - local - set(m.macros):
        # a member (memberdims reads its constructors' value) or a global: written by any function but a constructor
        if any(f.body is not None and f.node.child_by_field_name("type") is not None and _stored(src, m, f.body, name, True)
               for f in m.functions.values()) or _stored_in_methods(src, m, name):
            return False
    for d in src.index.under(owner.body, "init_declarator"):
        name = ident_name(d.child_by_field_name("declarator"))
        if name not in names:
            continue
        if depth >= _DEPTH:
            return False
        decl = d.parent
        const = decl is not None and re.search(r"\b(const|constexpr)\b", src.text_of(decl).split("=")[0]) is not None
        if not const and _stored(src, m, owner.body, name):
            return False
        init = d.child_by_field_name("value")
        if init is not None and not holds(src, m, owner, init, depth + 1):
            return False
    return True


def _identifiers(n: Node):
    if n.type == "identifier":
        yield n
    for c in n.named_children:
        yield from _identifiers(c)


def _base(src, n: Node | None) -> str | None:
    """The variable an lvalue names: `t`, `b.x`, `b.x` in parentheses."""
    while n is not None and n.type in ("parenthesized_expression", "field_expression", "subscript_expression"):
        n = n.child_by_field_name("argument") if n.type != "parenthesized_expression" else \
            (n.named_children[0] if n.named_children else None)
    return src.text_of(n) if n is not None and n.type == "identifier" else None


def _stored_in_methods(src, m, name: str) -> bool:
    """`name` written in a member function defined in a class body (not a constructor: no return type)."""
    for fd in src.index.of_type("function_definition"):
        if fd.child_by_field_name("type") is not None and fd.parent is not None and \
                fd.parent.type == "field_declaration_list":
            body = fd.child_by_field_name("body")
            if body is not None and _stored(src, m, body, name, True):
                return True
    return False


def _stored(src, m, body: Node, name: str, member: bool = False) -> bool:
    """`name` (or a member of it; with `member`, `obj.name` / `p->name` too) may be written in `body`."""
    if member and re.search(rf"(\.|->)\s*{re.escape(name)}\s*(\.\s*[xyz]\s*)?([-+*/%&|^]|<<|>>)?=(?!=)|(\+\+|--)\s*\w+\s*(\.|->)\s*"
                            rf"{re.escape(name)}\b|(\.|->)\s*{re.escape(name)}\s*(\+\+|--)|&\s*\w+\s*(\.|->)\s*{re.escape(name)}\b",
                            src.text_of(body)):
        return True
    for a in src.index.under(body, "assignment_expression"):
        if _base(src, a.child_by_field_name("left")) == name:
            return True
    for u in src.index.under(body, "update_expression"):
        if _base(src, u.child_by_field_name("argument")) == name:
            return True
    for u in src.index.under(body, "pointer_expression"):
        if src.text_of(u).lstrip().startswith("&") and _base(src, u.child_by_field_name("argument")) == name:
            return True
    for d in src.index.under(body, "init_declarator"):  # `dim3& r = b;`, `auto&& r = b;`: stores through r are b's
        ref = d.child_by_field_name("declarator")
        if ref is not None and ref.type == "reference_declarator" and \
                _base(src, d.child_by_field_name("value")) == name and \
                re.search(r"\bconst\b", src.text_of(d.parent).split("=")[0] if d.parent is not None else "") is None:
            return True
    for b in src.index.under(body, "binary_expression"):
        op = b.child_by_field_name("operator")
        if op is not None and src.text_of(op) == ">>" and _base(src, b.child_by_field_name("right")) == name:
            return True  # `std::cin >> threads`
    for call in src.index.under(body, "call_expression"):
        args = call.child_by_field_name("arguments")
        if args is None or args.type != "argument_list":
            continue  # (a `<<<>>>` launch's arguments are copied into the kernel)
        for i, a in enumerate(c for c in args.named_children if c.type != "comment"):
            if _base(src, a) == name and _by_reference(src, m, call, i):
                return True
    return False


def _by_reference(src, m, call: Node, i: int) -> bool:
    """Whether the call's i-th parameter may bind a reference to its argument: a function of the file whose
    parameter is declared with `&` (not `const`), or a callee the file does not define."""
    callee = call.child_by_field_name("function")
    if callee is not None and src.text_of(callee) == "printf":
        return False  # (varargs: copied)
    f = m.functions.get(src.text_of(callee)) if callee is not None else None
    if f is None or i >= len(f.params):
        return True
    text = src.text_of(f.params[i].node)
    return "&" in text and not re.search(r"\bconst\b", text.split("&")[0])


def one_value(src, m, owner, *nodes: Node) -> bool:
    """Whether every macro the nodes name (through `owner`'s local initialisers and the macros' own bodies) has
    one value in the whole file: no `#undef` of it and one definition, the file's or a header's.  blockdims reads
    a macro's last definition; `#define N 32` before a kernel's `if (threadIdx.x >= N) return;` and `#undef N` /
    `#define N 256` before its launch `<<<g, N>>>` are two counts under one name."""
    names: set[str] = set()
    todo = [src.text_of(i) for n in nodes for i in _identifiers(n)]
    inits = {ident_name(d.child_by_field_name("declarator")): d.child_by_field_name("value")
             for d in (src.index.under(owner.body, "init_declarator") if owner is not None and owner.body else ())}
    vis = m.visible
    header = getattr(vis, "macros", None) or {}
    while todo and len(names) < 64:
        name = todo.pop()
        if name in names:
            continue
        names.add(name)
        if inits.get(name) is not None:
            todo += [src.text_of(i) for i in _identifiers(inits[name])]
        mac = m.macros.get(name) or header.get(name)
        if mac is None:
            continue
        word = re.escape(name.encode())
        if re.search(rb"^[ \t]*#[ \t]*undef[ \t]+%s\b" % word, src.data, re.M):
            return False
        own = len(re.findall(rb"^[ \t]*#[ \t]*define[ \t]+%s\b" % word, src.data, re.M))
        if own + (name in header) > 1:
            return False
        todo += re.findall(r"[A-Za-z_]\w*", getattr(mac, "value", None) or "")
    return True
