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
function, never a type.  Kept: a vector type's own names through the file's typedefs (vector_short_lists).
"""
from __future__ import annotations

from tree_sitter import Node

from . import backends
from .overload_ranks import _ARITHMETIC
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
            args = _arguments(tr, f, d)
            if args is None or tr.rw.has(d):
                continue
            _rewrite(tr, be, f, decl, d, args, lanes)


def _arguments(tr, f, d: Node) -> list[Node] | None:
    """The initialiser's arguments of declarator `d` (`v(a + 1, b)`; `p(x, y)` read as a prototype: the
    names, each a variable of f), else None."""
    if d.type == "init_declarator":
        value = d.child_by_field_name("value")
        if value is None or value.type != "argument_list":
            return None
        return [c for c in value.named_children if c.type != "comment"]
    if d.type != "function_declarator" or d.child_by_field_name("declarator").type != "identifier":
        return None
    params = d.child_by_field_name("parameters")
    ps = [c for c in params.named_children if c.type != "comment"] if params is not None else []
    names = [p.child_by_field_name("type") for p in ps]
    if not ps or any(p.type != "parameter_declaration" or p.named_child_count != 1 or t is None
                     or t.type != "type_identifier" or not _variable(tr, f, tr.src.text_of(t))
                     for p, t in zip(ps, names)):
        return None
    return names


def _variable(tr, f, name: str) -> bool:
    """Whether `name` is a parameter or local of f (declared in its body), so no type."""
    if f.param(name) is not None:
        return True
    return any(n.type == "declaration" and any(ident_name(d) == name for d in n.children_by_field_name("declarator"))
               for n in walk(f.body)) if f.body is not None else False


def _named_type(tr, f, n: Node) -> str | None:
    """The declared type of a name the grammar read as a parameter's type (`s(a)`), else None."""
    if n.type != "type_identifier":
        return None
    got = _declaration_of(tr.src, f, tr.src.text_of(n), n)
    return got.base if got is not None and got.depth == 0 and not got.array else None


def _rewrite(tr, be, f, decl: Node, d: Node, args: list[Node], lanes: int) -> None:
    texts = [tr.src.text_of(a) for a in args]
    if len(args) > lanes:
        return  # not CUDA (too many members): its compiler's error stands
    if len(args) == 1 and _named_type(tr, f, args[0]) not in VECTORS and (
            args[0].type == "type_identifier" or not vector_item(tr, args[0])):
        if _named_type(tr, f, args[0]) not in _ARITHMETIC and (args[0].type == "type_identifier"
                                                              or not _scalar(tr, args[0])):
            tr.problem("KP248", args[0], f"'{tr.src.text_of(d)}' initialises a CUDA vector from one value of a type "
                       f"the port cannot tell: a {tr.src.text_of(decl.child_by_field_name('type'))} is a copy of it, "
                       "a scalar its first member (the rest 0), where the target's constructor would copy a scalar "
                       "to every member",
                       "write the members (`float2 v = make_float2(a, 0)`) or a copy (`float2 v = u`)")
            return
    elif len(args) == 1:
        lanes = 1  # a copy: one argument, nothing to complete
    zeros = ", 0" * (lanes - len(args))
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
