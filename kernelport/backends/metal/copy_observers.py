"""Whether a helper could tell a thread copy of its `const T&` argument from the object itself.

constant_refs.py copies a device or threadgroup lvalue given to a helper's `const T&` into the thread,
`T(arg)` (MSL binds no `thread` reference to other memory).  That is CUDA's meaning only while the
helper sees nothing but the value: it must not take the parameter's address (`&x`: a pointer compared
or stored; one only read through where it is made, `reinterpret_cast<const float*>(&v)[i]`, reads the same
bytes in the copy), and it must not write memory the argument may be part of and then read
the parameter (`acc(out, out[0])` with `out[0] += x; out[1] += x;` reads the new out[0] in CUDA, the
old value in a copy).  Where it could, the argument stays as written and the Metal check refuses the
call at its line (KP224), as before.  Writes are looked for in the helper's own body: an assignment
or increment through a pointer or non-const reference parameter, such a parameter handed to a call
(which may write), or an atomic.  A member function's writes to its own object are not counted: that
object is a thread one (a device object's member runs in its `device` twin, which is counted).
"""
from __future__ import annotations

from collections.abc import Mapping

from ...model import Function, Param
from ...source import SourceFile, walk
from .callee_writes import callee_name, thread_arguments, writes_memory
from .member_operand_reads import reads_after_own_writes



def observes_a_copy(src: SourceFile, h: Function, p: Param, on_memory: bool = False,
                    functions: Mapping[str, Function] | None = None, call=None, caller: Function | None = None) -> bool:
    """Whether `h` takes p's address or may write memory a device or threadgroup argument is part of
    (`on_memory`: h is a member called on a device or threadgroup object, which its non-const body may write;
    `functions`: the file's helpers, whose writes through any alias count (callee_writes.py))."""
    if on_memory and _member(h) and not _const_member(src, h) and reads_after_own_writes(src, h, p):
        return True  # `vs[i] += vs[j]`: the object may be the argument (member_operand_reads.py)
    local = thread_arguments(src, h, call, caller) if call is not None else frozenset()
    if functions is not None and writes_memory(src, h, functions, local):
        return True
    if _address_taken(src, h, p, functions or {}, set()):
        return True
    writable = {q.name for q in h.params if q is not p and (q.pointer or _mutable_reference(src, q))} - local
    for n in walk(h.body):
        if n.type in ("assignment_expression", "update_expression"):
            target = n.child_by_field_name("left") if n.type == "assignment_expression" else \
                n.child_by_field_name("argument")
            if _root(src, target) in writable:
                return True
        elif n.type == "call_expression":
            fn = n.child_by_field_name("function")
            if fn is not None and src.text_of(fn).lstrip(":").startswith(_atomic_prefixes()):
                return True
            args = n.child_by_field_name("arguments")
            for a in args.named_children if args is not None else ():
                if _root(src, a) in writable:
                    return True
    return False


def _address_taken(src: SourceFile, h: Function, p: Param, functions: Mapping[str, Function], seen: set) -> bool:
    """Whether h takes the address of its reference parameter p (`&x`, not only read through where made),
    or hands p on to a reference parameter of a helper of `functions` that does (`inner(x)`)."""
    if (id(h.node), p.name) in seen or h.body is None:
        return False
    seen.add((id(h.node), p.name))
    for n in walk(h.body):
        if n.type == "pointer_expression" and src.text_of(n.child_by_field_name("operator")) == "&":
            a = n.child_by_field_name("argument")
            if a is not None and a.type == "identifier" and src.text_of(a) == p.name and not _only_read(src, n):
                return True
        elif n.type == "call_expression" and functions:
            args = n.child_by_field_name("arguments")
            given = [i for i, a in enumerate(args.named_children if args is not None else ())
                     if _bare(a) is not None and src.text_of(_bare(a)) == p.name]
            if not given:
                continue
            short = callee_name(src, n)
            for g in [f for f in functions.values() if short and f.name.split("::")[-1] == short]:
                if any(i < len(g.params) and _reference(g.params[i]) and
                       _address_taken(src, g, g.params[i], functions, seen) for i in given):
                    return True
    return False


def _bare(a):
    """The identifier an argument is, through parentheses; None for any other expression."""
    while a.type == "parenthesized_expression" and a.named_children:
        a = a.named_children[0]
    return a if a.type == "identifier" else None


def _reference(q: Param) -> bool:
    d = q.node.child_by_field_name("declarator")
    return d is not None and d.type == "reference_declarator"


def _atomic_prefixes() -> tuple[str, ...]:
    """What the atomics of every dialect a source may be written in start with (backend data)."""
    from ... import backends
    return tuple(sorted({p for b in backends.all() for p in b.atomic_prefixes}))


def _only_read(src: SourceFile, n) -> bool:
    """`&x` whose pointer is only read through where it is made (`reinterpret_cast<const float*>(&v)[i]`,
    `(&v)->x`, `*(&v)`): the copy's bytes are the object's, no address escapes."""
    while n.parent is not None:
        up = n.parent
        if up.type in ("parenthesized_expression", "cast_expression"):
            n = up
        elif up.type == "argument_list" and up.parent is not None and up.parent.type == "call_expression" and \
                len(up.named_children) == 1 and (fn := up.parent.child_by_field_name("function")) is not None and \
                fn.type == "template_function" and src.text_of(fn.child_by_field_name("name")) in (
                    "reinterpret_cast", "static_cast", "const_cast"):
            n = up.parent
        else:
            break
    up = n.parent
    if up is None:
        return False
    if up.type == "subscript_expression":
        return up.child_by_field_name("argument") == n
    if up.type == "pointer_expression":
        return src.text_of(up.child_by_field_name("operator")) == "*"
    return up.type == "field_expression" and src.text_of(up.child_by_field_name("operator") or up) == "->"


def _mutable_reference(src: SourceFile, q: Param) -> bool:
    d = q.node.child_by_field_name("declarator")
    return d is not None and d.type == "reference_declarator" and not q.const


def _root(src: SourceFile, n) -> str | None:
    """The variable an lvalue expression (`out[i].x`, `*p`, `(p)`, `&p[1]`) is part of."""
    while n is not None and n.type in ("subscript_expression", "field_expression", "pointer_expression",
                                       "parenthesized_expression", "cast_expression"):
        if n.type == "field_expression" and src.text_of(n.child_by_field_name("operator") or n) == "->":
            n = n.child_by_field_name("argument")
        elif n.type == "cast_expression":
            n = n.child_by_field_name("value")
        elif n.type == "parenthesized_expression":
            n = n.named_children[0] if n.named_children else None
        else:
            n = n.child_by_field_name("argument")
    return src.text_of(n) if n is not None and n.type == "identifier" else None


def _member(h: Function) -> bool:
    return "::" in h.name or (h.node.parent is not None and h.node.parent.type == "field_declaration_list")


def _const_member(src: SourceFile, h: Function) -> bool:
    """`float dot(const V &o) const`: the declarator's own `const` (not the return type's)."""
    d = h.node.child_by_field_name("declarator")
    while d is not None and d.type in ("reference_declarator", "pointer_declarator"):
        d = next((c for c in d.named_children if "declarator" in c.type), None)
    return d is not None and any(c.type == "type_qualifier" and src.text_of(c) == "const" for c in d.children)
