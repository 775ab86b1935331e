"""A CUDA vector declared with a parenthesised initialiser: `int2 p(x, y);`, `float4 h(a, b);`, `float2 s(a);`.

CUDA's vector types are aggregates, so `T v(args)` is C++20's parenthesised aggregate initialisation: the
arguments are the members in order and the members they leave out are 0 (`float4 h(a, b)` is (a, b, 0, 0),
`float2 s(a)` of a float `a` is (a, 0)); one argument of the vector's own type is a copy.  Neither target
reads it so:
- where the vector types are classes (HIP's HIP_vector_type), one scalar calls the explicit constructor that
  copies it to every member (`float2 s(a)` is (a, a): compiles, silently wrong) and two or three of four
  match no constructor;
- Metal's built-in vectors take a constructor's spelling, `int2(x, y)`, which broadcasts one scalar too
  (MSL 2.2.2); the declaration `int2 p(x, y)` is no vector initialisation (the checker: "excess elements in
  scalar initializer").
So, on a backend whose `completes_short_vector_lists` (HIP, Metal), the port writes what CUDA's aggregate
gives: the members left out as `0` (`float4 h(a, b, 0, 0)`), and where the vectors are no classes the
constructor Metal code writes, `int2 p = int2(x, y);`, `float4 h = float4(a, b, 0, 0);`.  One argument is a
copy where the model knows it is of a vector type and a member where it knows a scalar (a literal, a cast,
a local or parameter of an arithmetic type); of unknown type it is refused (KP248, located: the port cannot
tell a copy from a broadcast).  The grammar reads `int2 p(x, y)` of plain names as a function's declaration
(each name a parameter's type): it is read as the initialiser where every such name is a variable of the
function, never a type; so is `float2 s(in[i])`, `s(ONE)` of a macro of a number, `s(kScale)` of a file-scope
variable and `s(a)` of the enclosing class's data member (review66a: main left them, a broadcast).  The functional
cast `float2(a)`, `float4(a, b)` (C++20's aggregate too) is completed the same way, in place (rewrite_casts).
Kept: a vector type's own names through the file's typedefs (vector_short_lists).
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends
from .overload_ranks import _ARITHMETIC
from .file_scope import file_scope_items
from .macros import expansion
from .source import ident_name, walk
from .template_deduction import _declaration_of
from .vector_elided_lists import _scalar, vector_item
from .vector_types import VECTORS
from .vector_short_lists import _NAMES, _aliases, _vector


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    be = backends.get(tr.backend)
    if not be.completes_short_vector_lists or not any(v.encode() in tr.src.data for v in _NAMES):
        return
    for decl in tr.src.index.of_type("declaration"):
        lanes = _vector(tr.src, decl.child_by_field_name("type"))
        f = tr.module.function_at(decl) if lanes is not None else None
        if f is None or decl.parent is None or decl.parent.type not in ("compound_statement", "for_statement"):
            continue  # (a local: a parameter list or a file-scope prototype is no initialisation)
        for d in decl.children_by_field_name("declarator"):
            got = _arguments(tr, f, d)
            if got is None or tr.rw.has(d):
                continue
            _rewrite(tr, be, f, decl, d, got[0], got[1], lanes)
    rewrite_casts(tr, be)


def _arguments(tr, f, d: Node) -> tuple[list[Node], list[str | None] | None] | None:
    """The initialiser's arguments of declarator `d` (`v(a + 1, b)`), with None for their types (the
    expressions say them); `p(x, y)`, `s(in[i])` read as a prototype: the parameters, each a value the
    function sees (_misread_value), with their types ("" unknown); else None."""
    if d.type == "init_declarator":
        value = d.child_by_field_name("value")
        if value is None or value.type != "argument_list":
            return None
        return [c for c in value.named_children if c.type != "comment"], None
    if d.type != "function_declarator" or d.child_by_field_name("declarator").type != "identifier":
        return None
    params = d.child_by_field_name("parameters")
    ps = [c for c in params.named_children if c.type != "comment"] if params is not None else []
    types = [_misread_value(tr, f, d, p) for p in ps]
    if not ps or any(t is None for t in types):
        return None
    return ps, types


def _misread_value(tr, f, d: Node, p: Node) -> str | None:
    """Parameter `p` of a prototype the grammar read from `T v(name)` / `T v(name[i][j])`: where `name` is a
    value (a parameter or local of f, a file-scope variable, a data member of the enclosing class, an object-like
    macro of a number), the element's type ("" where unknown); None where it may be a type (a real prototype)."""
    t, sub = p.child_by_field_name("type"), p.child_by_field_name("declarator")
    if p.type != "parameter_declaration" or t is None or t.type != "type_identifier" or \
            any(c not in (t, sub) for c in p.named_children):
        return None
    k = 0
    while sub is not None and sub.type == "abstract_array_declarator":
        if sub.child_by_field_name("size") is None:
            return None  # `T v(a[])`: an array parameter, a prototype
        k, sub = k + 1, sub.child_by_field_name("declarator")
    if sub is not None:
        return None
    name = tr.src.text_of(t)
    got = _declaration_of(tr.src, f, name, p)
    if got is not None or _variable(tr, f, name) or _file_variable(tr, name):
        return got.base if got is not None and not got.array and got.depth == k else ""
    field = _field_type(tr, d, name)
    if field is not None:
        return field if k == 0 else ""
    return _macro_type(tr, name)


def _macro_type(tr, name: str) -> str | None:
    """An object-like macro's value type: "double" for a number (a scalar), "" for an expression of unknown type,
    None where it is none or may name a type (words)."""
    mac = tr.src.macros.get(name)
    if mac is not None and mac.params is None:
        body = (expansion(name, tr.src.macros) or "").strip()
        if _NUMBER.fullmatch(body):
            return "double"  # a number: a scalar member
        return "" if re.search(r"[^\w\s]|^\d", body) else None  # an expression of unknown type; words: maybe a type
    return None


_NUMBER = re.compile(r"\(*\s*[-+]?\s*(?:\d[\w.]*|\.\d[\w.]*)(?:[eEpP][-+]?\d+[fFlL]?)?\s*\)*")


def _variable(tr, f, name: str) -> bool:
    """Whether `name` is a parameter or local of f (declared in its body), so no type."""
    if f.param(name) is not None:
        return True
    return any(n.type == "declaration" and any(ident_name(d) == name for d in n.children_by_field_name("declarator"))
               for n in walk(f.body)) if f.body is not None else False


def _file_variable(tr, name: str) -> bool:
    return any(item.type == "declaration" and any(ident_name(x) == name and x.type != "function_declarator"
                                                  for x in item.children_by_field_name("declarator"))
               for item in file_scope_items(tr.src))


def _field_type(tr, at: Node, name: str) -> str | None:
    """The type's text of data member `name` of the class whose member function holds `at` (a plain declarator)."""
    n = at.parent
    while n is not None and n.type != "field_declaration_list":
        n = n.parent
    for fd in (n.named_children if n is not None else ()):
        if fd.type == "field_declaration" and fd.child_by_field_name("type") is not None:
            for x in fd.children_by_field_name("declarator"):
                if x.type == "field_identifier" and tr.src.text_of(x) == name:
                    return " ".join(tr.src.text_of(fd.child_by_field_name("type")).split())
                if ident_name(x) == name:
                    return ""
    return None


def _named_type(tr, f, n: Node) -> str | None:
    """The declared type of a name the grammar read as a parameter's type (`s(a)`), else None."""
    if n.type != "type_identifier":
        return None
    got = _declaration_of(tr.src, f, tr.src.text_of(n), n)
    return got.base if got is not None and got.depth == 0 and not got.array else None


def _zeros(tr, f, whole: Node, tname: str, args: list[Node], types: list[str | None] | None, lanes: int) -> str | None:
    """The members CUDA's aggregate leaves 0 (`", 0, 0"`; "" for every member or a copy), None where not CUDA
    (too many) or refused (KP248 at the one value of a type the port cannot tell)."""
    if len(args) > lanes:
        return None  # not CUDA (too many members): its compiler's error stands
    if len(args) == 1:
        t = types[0] if types is not None else _named_type(tr, f, args[0]) or (
            _macro_type(tr, tr.src.text_of(args[0])) if args[0].type == "identifier" else None)
        if t in VECTORS or types is None and args[0].type != "type_identifier" and vector_item(tr, args[0]):
            return ""  # a copy: one argument, nothing to complete
        if t not in _ARITHMETIC and (types is not None or args[0].type == "type_identifier"
                                     or not _scalar(tr, args[0])):
            tr.problem("KP248", args[0], f"'{tr.src.text_of(whole)}' initialises a CUDA vector from one value of a type "
                       f"the port cannot tell: a {tname} is a copy of it, a scalar its first member (the rest 0), where "
                       "the target's constructor would copy a scalar to every member",
                       "write the members (`float2 v = make_float2(a, 0)`) or a copy (`float2 v = u`)")
            return None
    return ", 0" * (lanes - len(args))


def rewrite_casts(tr, be) -> None:
    """`float2(a)`, `float4(a, b)`: C++20's parenthesised aggregate initialisation of a temporary (nvcc -std=c++20),
    the members left out 0 where both targets' constructors broadcast one scalar (module doc)."""
    for call in tr.src.index.of_type("call_expression"):
        fn, al = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        lanes = _vector(tr.src, fn) if fn is not None and fn.type == "identifier" and al is not None else None
        f = tr.module.function_at(call) if lanes is not None else None
        if f is None or tr.rw.has(call) or tr.rw.has(al):
            continue
        args = [c for c in al.named_children if c.type != "comment"]
        name = tr.src.text_of(fn)
        zeros = _zeros(tr, f, call, _aliases(tr.src).get(name, name), args, None, lanes) if args else None
        if zeros:
            tr.rw.replace(al, lambda rw, node, args=args, zeros=zeros: "(" + ", ".join(rw.stitch(a) for a in args)
                          + zeros + ")")
            tr.note(call, f"{name}({', '.join(tr.src.text_of(a) for a in args)}{zeros})", "a CUDA vector is an "
                    "aggregate: `T(args)` gives the members in order, those left out 0")


def _rewrite(tr, be, f, decl: Node, d: Node, args: list[Node], types: list[str | None] | None, lanes: int) -> None:
    texts = [tr.src.text_of(a) for a in args]
    zeros = _zeros(tr, f, d, tr.src.text_of(decl.child_by_field_name("type")), args, types, lanes)
    if zeros is None:
        return
    spelled = " ".join(tr.src.text_of(decl.child_by_field_name("type")).split()).removeprefix("::")
    tname = _aliases(tr.src).get(spelled, spelled)  # (the vector's own name: the constructor Metal spells)
    name = tr.src.text_of(d.child_by_field_name("declarator"))
    if be.vector_types_are_classes and not zeros:
        return  # every member, or a copy: the class's constructor is CUDA's meaning

    def render(rw, node: Node) -> str:
        inner = ", ".join(rw.stitch(a) for a in args) + zeros
        return f"{name}({inner})" if be.vector_types_are_classes else f"{name} = {tname}({inner})"
    tr.rw.replace(d, render)
    tr.note(d, f"{tname}({', '.join(texts)}{zeros})", "a CUDA vector is an aggregate: `T v(args)` gives the members "
            "in order, those left out 0")
