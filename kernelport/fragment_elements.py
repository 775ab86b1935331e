"""Element accesses of a fragment type the port defines itself (HIP's wmma, backends/hip_wmma.py).

CUDA leaves a fragment's element layout unspecified: which matrix element `frag.x[i]` holds, and how
many there are, differ by type, shape and architecture.  Code that keeps to the documented use touches
the elements element-wise, every one of them, in a loop `for (i = 0; i < f.num_elements; ++i)` over
`f.x[i]`; it computes the same on the port's layout.  Any other subscript (a literal index, a lane-
derived one, a loop to a hard-coded count: `i < 8` is CUDA's accumulator count at 16x16x16, not
every type's) reads the tensor cores' layout, which the port does not have: it is refused at its
line (KP209) rather than ported to compute something else.  Fragments are found by their declared
type (`fragment<...>` variables, parameters, arrays, pointers, members); a fragment reached through a
template parameter's type is not seen.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import lazy_re

_DECLARATIONS = ("declaration", "parameter_declaration", "field_declaration", "optional_parameter_declaration")
_STEPS = lazy_re.compile(r"\+\+\s*(\w+)|(\w+)\s*\+\+|(\w+)\s*\+=\s*1")


def _declared(d: Node) -> str | None:
    """The name a declarator declares (`acc[2][2]`, `*p`, `&f`, `c = ...`)."""
    while d is not None and d.type != "identifier" and d.type != "field_identifier":
        d = d.child_by_field_name("declarator") or next((c for c in d.named_children
                                                         if c.type in ("identifier", "field_identifier")), None)
    return d.text.decode() if d is not None else None


def fragment_names(src, type_name: str) -> set[str]:
    shape = re.compile(rf"\b{re.escape(type_name)}\s*<")
    names: set[str] = set()
    for kind in _DECLARATIONS:
        for d in src.index.of_type(kind):
            t = d.child_by_field_name("type")
            if t is None or not shape.search(src.text_of(t)):
                continue
            names.update(n for n in map(_declared, d.children_by_field_name("declarator")) if n)
    return names


def _base(n: Node) -> Node:
    """`acc[i][j]`, `(*p)`, `p` -> the identifier underneath."""
    while n.type in ("subscript_expression", "parenthesized_expression", "pointer_expression"):
        n = n.child_by_field_name("argument") or (n.named_children[0] if n.named_children else n)
        if not n.named_children and n.type != "identifier":
            break
    return n


def _element_wise(src, index: Node, count: str) -> bool:
    """The index is the variable of an enclosing loop from 0 by 1 to some fragment's `count`."""
    if index.type != "identifier":
        return False
    var = src.text_of(index)
    p = index.parent
    while p is not None and p.type != "function_definition":
        if p.type == "for_statement":
            init, cond, step = (p.child_by_field_name(f) for f in ("initializer", "condition", "update"))
            texts = [" ".join(src.text_of(x).split()) if x is not None else "" for x in (init, cond, step)]
            starts = re.fullmatch(rf"(?:[\w:<>\s]+\s)?{var}\s*(?:=\s*|\{{)0[uU]?\s*\}}?\s*;?", texts[0])
            bounded = re.fullmatch(rf"{var}\s*<\s*[\w\[\]().>\-]*(?:\.|->|::){count}", texts[1])
            steps = _STEPS.fullmatch(texts[2])
            if starts and bounded and steps and var in steps.groups():
                return True
        p = p.parent
    return False


def refuse_layout_reads(tr, header: str, type_name: str, member: str, count: str) -> bool:
    """KP209 at each `f.member[...]` of a fragment that is not element-wise; True when one was."""
    src = tr.src
    names = fragment_names(src, type_name)
    refused = False
    for n in src.index.of_type("subscript_expression") if names else ():
        field = n.child_by_field_name("argument")
        if field is None or field.type != "field_expression":
            continue
        f = field.child_by_field_name("field")
        base = _base(field.child_by_field_name("argument"))
        if f is None or src.text_of(f) != member or base.type != "identifier" or src.text_of(base) not in names:
            continue
        idx = n.child_by_field_name("indices")
        args = [c for c in (idx.named_children if idx is not None else []) if c.type != "comment"]
        if len(args) == 1 and _element_wise(src, args[0], count):
            continue
        refused = True
        tr.problem("KP209", n, f"`{src.text_of(n)}` reads a fragment element by its place: CUDA leaves the layout "
                   f"unspecified, and the {tr.backend.upper()} port's <{header}> lays fragments out otherwise",
                   f"touch the elements element-wise, `for (i = 0; i < f.{count}; ++i) ... f.{member}[i]`, or store "
                   "the fragment to memory (store_matrix_sync) and index that")
    return _macro_reads(tr, header, member, count) | refused if names else refused


def _macro_reads(tr, header: str, member: str, count: str) -> bool:
    """KP209 at each `#define` whose body reads `X.member[...]` (or `X->member[...]`) other than element-wise
    (`[i]` with the body's own `for (... i = 0; i < F.count; ++i)`): the body is code where it expands, and
    its `X` a fragment there (a parameter: its type is the caller's), which the parse of the file does not see."""
    from .macro_body_words import body_words
    refused = False
    for d, at, toks in body_words(tr):
        text = tr.src.data[at:at + (toks[-1].end if toks else 0)].decode(errors="replace")
        for i, t in enumerate(toks[:-2]):
            if t.text != member or toks[i + 1].text != "[" or not i or not (
                    toks[i - 1].text == "." or toks[i - 1].text == ">" and i > 1 and toks[i - 2].text == "-"):
                continue
            var = toks[i + 2].text if i + 3 < len(toks) and toks[i + 3].text == "]" else None
            if var is not None and toks[i + 2].kind == "ident" and re.search(
                    rf"\bfor\s*\((?:[\w:<>\s]+\s)?{var}\s*=\s*0[uU]?\s*;\s*{var}\s*<\s*[\w\[\]().>\-]*(?:\.|->|::){count}"
                    rf"\s*;\s*(?:\+\+\s*{var}|{var}\s*\+\+|{var}\s*\+=\s*1)\s*\)", text):
                continue
            refused = True
            tr.problem("KP209", d, f"the macro's `{member}[...]` reads a fragment element by its place where it expands: CUDA "
                       f"leaves the layout unspecified, and the {tr.backend.upper()} port's <{header}> lays fragments "
                       "out otherwise", f"touch the elements element-wise, `for (i = 0; i < f.{count}; ++i) ... "
                       f"f.{member}[i]`, or store the fragment to memory (store_matrix_sync) and index that")
            break
    return refused
