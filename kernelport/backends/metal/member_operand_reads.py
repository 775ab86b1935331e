"""Whether a member run on an object in memory could tell a copy of its argument from the object (stop 65).

`vs[i] += vs[j]` with `V& operator+=(const V& o) { x += o.x; y += o.y; return *this; }`: the operator's
`device` twin takes a `thread` reference, so the port copies the argument into the thread (`V(vs[j])`,
constant_refs.py).  Where `i == j` the argument is the object itself, which the member writes: CUDA's `o.y`
then reads the object's `y` after `x += o.x`, the copy the value before the call.  The two agree when the
member reads no member of the parameter that it has already written in its own object: `x += o.x; y +=
o.y;` (each statement reads `o.x`, `o.y` before it writes that member), not `x += o.y; y += o.x;` (the
second statement reads `x`, written by the first: refused, KP224 at the line as before).

Read statement by statement in the member's body: a statement's reads of the parameter's members (`o.f`)
are checked against the members written by earlier statements (an expression statement with one
assignment reads before it writes; any other statement against its own writes too).  A write whose target
is not a member named directly (`x`, `v[k]`, `this->x`: through a pointer, a call, a `this` handed on) counts
as a write of every member, as does any call in the body.  The parameter used whole (`const V& a = o;`,
`f(o)`, `*this = o + *this`) in a member that writes anything, and a lambda in the body, may read it later
than the text shows: refused.  So is a member call on the parameter (`o.gx()` reads what gx reads), and a
member of a class whose members share storage (a union: writing `y` writes `x`).
"""
from __future__ import annotations

from ...model import Function, Param
from ...source import SourceFile, walk

_EVERY = "*"


def reads_after_own_writes(src: SourceFile, h: Function, p: Param) -> bool:
    """Whether member `h` may read a member of its parameter `p` after writing that member of its own
    object (the module); True where the body cannot be read so."""
    if h.body is None:
        return True
    own = {q.name for q in h.params} | {src.text_of(c) for n in walk(h.body) if n.type == "declaration"
                                        for d in n.children_by_field_name("declarator")
                                        for c in walk(d) if c.type == "identifier"}
    if any(n.type == "lambda_expression" for n in walk(h.body)):
        return True  # (a lambda reads the parameter where it is called, not where it is written)
    if _shares_storage(src, h):
        return True  # (`union { float x; int y; }`: a write of `y` is one of `x`)
    every = _writes(src, h.body, own)
    written: set[str] = set()
    for st in h.body.named_children:
        if st.type == "comment":
            continue
        writes = _writes(src, st, own)
        single = st.type == "expression_statement" and sum(
            n.type in ("assignment_expression", "update_expression") for n in walk(st)) <= 1
        seen = written if single else written | writes
        for n in walk(st):
            if n.type != "identifier" or src.text_of(n) != p.name:
                continue
            up = n.parent
            field = src.text_of(up.child_by_field_name("field")) if up is not None and \
                up.type == "field_expression" and up.child_by_field_name("argument") == n and \
                src.text_of(up.child_by_field_name("operator") or up) == "." and not (
                up.parent is not None and up.parent.type == "call_expression" and
                up.parent.child_by_field_name("function") == up) else None  # `o.gx()` reads what gx reads
            if (field is None and every) or _EVERY in seen or field in seen:
                return True
        written |= writes
    return False


def _writes(src: SourceFile, st, own: set[str]) -> set[str]:
    """The members of its own object statement `st` writes (`*`: any of them)."""
    out: set[str] = set()
    for n in walk(st):
        if n.type == "call_expression":
            out.add(_EVERY)
        if n.type not in ("assignment_expression", "update_expression"):
            continue
        t = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
        member = None
        while t is not None:
            if t.type == "parenthesized_expression" and t.named_children:
                t = t.named_children[0]
            elif t.type == "subscript_expression":
                t = t.child_by_field_name("argument")
            elif t.type == "field_expression":
                arg = t.child_by_field_name("argument")
                if src.text_of(t.child_by_field_name("operator") or t) == "->" and src.text_of(arg) == "this":
                    member = src.text_of(t.child_by_field_name("field"))
                    break
                t = arg if src.text_of(t.child_by_field_name("operator") or t) == "." else None
            else:
                break
        if member is None and t is not None and t.type == "identifier":
            name = src.text_of(t)
            member = None if name in own else name
            if name in own:
                continue  # a local's write (a parameter's: const, or the object's copy)
        out.add(member if member is not None else _EVERY)
    return out


def _shares_storage(src: SourceFile, h: Function) -> bool:
    """Whether the class member `h` belongs to has members that share storage (a union in it, of it or a
    member of a union type); True where the class cannot be found."""
    cls = h.node.parent
    while cls is not None and cls.type not in ("class_specifier", "struct_specifier", "union_specifier"):
        cls = cls.parent
    if cls is None:  # `V& V::operator+=(const V& o) {...}` out of the class
        d = next((n for n in walk(h.node.child_by_field_name("declarator") or h.node)
                  if n.type == "qualified_identifier"), None)
        scope = src.text_of(d.child_by_field_name("scope")).split("<")[0] if d is not None and \
            d.child_by_field_name("scope") is not None else None
        cls = next((c for c in src.index.of_types("class_specifier", "struct_specifier", "union_specifier")
                    if c.child_by_field_name("body") is not None and c.child_by_field_name("name") is not None
                    and src.text_of(c.child_by_field_name("name")) == scope), None)
        if cls is None:
            return True
    unions = {src.text_of(u.child_by_field_name("name")) for u in src.index.of_type("union_specifier")
              if u.child_by_field_name("name") is not None}
    return cls.type == "union_specifier" or any(n.type == "union_specifier" or (
        n.type == "type_identifier" and src.text_of(n) in unions) for n in walk(cls.child_by_field_name("body")))
