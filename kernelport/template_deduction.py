"""Template arguments C++ deduces from a call's arguments, from the declarations in view.

`k<<<g, b>>>(d_x, n)` of `template <typename T> __global__ void k(const T* x, int n)` names the
instance `k<float>` when `d_x` is declared `float *d_x` in the function that launches (a parameter,
a local declared before the launch, or a file-scope variable).  Only what is certain is deduced:
an argument that is a name (or `&name`, a cast, a literal, arithmetic over one scalar type, a
temporary `Op()` of a class the file defines) of a declared type whose pointer depth
fits the parameter's; two arguments that disagree, a `const` that would move into the argument,
a non-type parameter or an argument of unknown type leave the instance unknown (None), and the
caller keeps its refusal (the Metal port's KP216).  A deduced type may name the caller's own
template parameters (`T *dX` in `template <typename T> void conv3D()`): the caller resolves those
through its own instances.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import lazy_re
from .model import Function, file_scope_items
from .source import SourceFile, ident_name, walk

_QUALIFIERS = ("const", "volatile", "__restrict__", "__restrict", "restrict")


def _depth(declarator: Node | None) -> tuple[int, bool] | None:
    """Pointer depth of a declarator (an outermost array decays to a pointer) and whether it is a
    reference; None for a shape whose decayed type is no `T*...` (`float a[4][4]` decays to
    `float (*)[4]`)."""
    depth, ref, arrays = 0, False, 0
    n = declarator
    while n is not None:
        if n.type in ("array_declarator", "abstract_array_declarator"):
            arrays += 1
            if arrays > 1 or depth:
                return None  # an array of arrays, or a pointer to an array
            depth += 1
        elif n.type in ("pointer_declarator", "abstract_pointer_declarator"):
            depth += 1
        elif n.type in ("parenthesized_declarator", "abstract_parenthesized_declarator", "function_declarator",
                        "abstract_function_declarator"):
            return None  # `float (*p)[4]`, a function pointer
        if n.type in ("reference_declarator", "abstract_reference_declarator"):
            ref = True
            n = n.named_children[-1] if n.named_children else None
            continue
        n = n.child_by_field_name("declarator")
    return depth, ref


def _base(src: SourceFile, decl: Node) -> tuple[str, bool] | None:
    """The type a declaration names (qualifiers out) and whether `const` qualifies it."""
    t = decl.child_by_field_name("type")
    if t is None:
        return None
    const = any(c.type == "type_qualifier" and src.text_of(c) == "const" for c in decl.children)
    text = " ".join(w for w in src.text_of(t).split() if w not in _QUALIFIERS)
    if not text or text == "auto" or "decltype" in text:
        return None
    return text, const


class Declared:
    """An argument's type: base type text, pointer depth, `const` on the base type, and whether
    the name is an array (its address is a pointer to the array, not to an element)."""
    __slots__ = ("base", "depth", "const", "array")

    def __init__(self, base: str, depth: int, const: bool, array: bool = False):
        self.base, self.depth, self.const, self.array = base, depth, const, array


def local_named(fn: Function | None, name: str, at: Node) -> bool:
    """Whether `name` where `at` reads it is a parameter of `fn` or a local declared before `at` in a
    block around it (a host `dim3 blockDim(BN, BM);`): the user's variable, not a CUDA built-in."""
    if fn is None or fn.body is None:
        return False
    return fn.param(name) is not None or any(
        n.type == "declaration" and n.parent is not None and n.parent.start_byte <= at.start_byte
        and at.end_byte <= n.parent.end_byte and any(ident_name(d) == name for d in n.children_by_field_name("declarator"))
        for n in walk(fn.body) if n.start_byte < at.start_byte)


def _declaration_of(src: SourceFile, fn: Function | None, name: str, at: Node) -> Declared | None:
    """`name`'s declaration where `at` reads it: a parameter of `fn`, its nearest local declared
    before `at` in a block around it, else a file-scope variable."""
    found = None
    if fn is not None and fn.body is not None:
        for n in walk(fn.body):
            if n.start_byte >= at.start_byte:
                break
            if n.type != "declaration":
                continue
            block = n.parent
            if block is None or not (block.start_byte <= at.start_byte and at.end_byte <= block.end_byte):
                continue
            for d in n.children_by_field_name("declarator"):
                if ident_name(d) == name:
                    found = (n, d)
        if found is None:
            p = fn.param(name)
            if p is not None:
                found = (p.node, p.node.child_by_field_name("declarator"))
    if found is None:
        for item in file_scope_items(src):
            if item.type == "declaration" and item.start_byte < at.start_byte:
                for d in item.children_by_field_name("declarator"):
                    if ident_name(d) == name and d.type != "function_declarator":
                        found = (item, d)
    if found is None:
        return None
    base = _base(src, found[0])
    shape = _depth(found[1].child_by_field_name("declarator") if found[1].type == "init_declarator" else found[1])
    if base is None or shape is None:
        return None
    return Declared(base[0], shape[0], base[1], array=_is_array(found[1]))


def _is_array(declarator: Node) -> bool:
    n = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" else declarator
    while n is not None and n.type == "reference_declarator":
        n = n.named_children[-1] if n.named_children else None
    return n is not None and n.type == "array_declarator"


_LITERAL = [(lazy_re.compile(r"[0-9]+[uU]"), "unsigned int"), (lazy_re.compile(r"(0[xX][0-9a-fA-F]+|[0-9]+)"), "int"),
            (lazy_re.compile(r"([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?[fF]"), "float"),
            (lazy_re.compile(r"([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?"), "double")]


_ARITHMETIC = ("+", "-", "*", "/")


def argument_type(src: SourceFile, fn: Function | None, arg: Node) -> Declared | None:
    """The declared type of a call argument: a name, `&name`, a cast, a number literal, `+ - * /` over
    operands of one scalar type, a temporary of a class the file defines; else None."""
    n = arg
    while n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[0]
    if n.type == "identifier":
        return _declaration_of(src, fn, src.text_of(n), n)
    if n.type == "subscript_expression":
        # `dMsgs[t]` of `T **dMsgs`: an element of a pointer or array is its pointee (a class's operator[], depth 0, is not)
        arr = n.child_by_field_name("argument")
        t = argument_type(src, fn, arr) if arr is not None and arr.type == "identifier" else None
        return Declared(t.base, t.depth - 1, t.const) if t is not None and t.depth >= 1 else None
    if n.type == "pointer_expression" and src.text_of(n).startswith("&"):
        inner = n.child_by_field_name("argument")
        t = argument_type(src, fn, inner) if inner is not None and inner.type == "identifier" else None
        return Declared(t.base, t.depth + 1, t.const) if t is not None and not t.array else None
    if n.type == "cast_expression":
        td = n.child_by_field_name("type")
        base = _base(src, td) if td is not None else None
        shape = _depth(td.child_by_field_name("declarator")) if td is not None else None
        if base is None or shape is None:
            return None
        return Declared(base[0], shape[0], base[1])
    if n.type == "number_literal":
        text = src.text_of(n)
        for pat, t in _LITERAL:
            if pat.fullmatch(text):
                return Declared(t, 0, False)
    if n.type == "binary_expression" and src.text_of(n.child_by_field_name("operator")) in _ARITHMETIC:
        # `n + 1`, `v * v`: operands of one scalar type keep it (C's usual conversions change nothing)
        sides = [n.child_by_field_name(f) for f in ("left", "right")]
        types = [argument_type(src, fn, x) if x is not None else None for x in sides]
        if all(t is not None and t.depth == 0 and not t.array for t in types) and types[0].base == types[1].base:
            return Declared(types[0].base, 0, False)
        return None
    if n.type in ("call_expression", "compound_literal_expression"):
        # a temporary of a class the file defines: `Sum()`, `Sum{}`, `Max(0.5f)` (a function object)
        t = n.child_by_field_name("function" if n.type == "call_expression" else "type")
        name = src.text_of(t) if t is not None and t.type in ("identifier", "type_identifier") else None
        if name is not None and name in _classes(src):
            return Declared(name, 0, False)
    return None


def _classes(src: SourceFile) -> set[str]:
    """Names of the structs and classes the file defines (with a body), not templates of them."""
    out = set()
    for n in src.index.of_types("struct_specifier", "class_specifier"):
        name = n.child_by_field_name("name")
        if name is not None and n.child_by_field_name("body") is not None and \
                (n.parent is None or n.parent.parent is None or n.parent.parent.type != "template_declaration"):
            out.add(src.text_of(name))
    return out


def _param_shape(src: SourceFile, p_node: Node) -> tuple[str, int, bool] | None:
    """A parameter's base type text, pointer depth and `const`."""
    base = _base(src, p_node)
    shape = _depth(p_node.child_by_field_name("declarator"))
    if base is None or shape is None:
        return None
    return base[0], shape[0], base[1]


def deduce(src: SourceFile, callee: Function, args: list[Node], caller: Function | None,
           given: list[str] = ()) -> list[str] | None:
    """`callee`'s template arguments at a call passing `args` from `caller`: the `given` ones (written
    at the call, in order), the rest deduced; None when one is not certain."""
    params = callee.template_params
    if len(given) > len(params) or len(args) != len(callee.params):
        return None
    bound: dict[str, str] = dict(zip(params, given))
    for p, a in zip(callee.params, args):
        shape = _param_shape(src, p.node)
        named = set(re.findall(r"[A-Za-z_]\w*", src.text_of(p.node))) & set(params[len(given):])
        if not named:
            continue
        if shape is None:
            return None  # `T (&a)[N]`: a shape this reading does not deduce through
        tp, pdepth, pconst = shape
        t = argument_type(src, caller, a)
        if t is None or t.depth < pdepth:
            return None  # an argument of unknown type could make C++ deduce otherwise, or fail
        if tp not in named:
            # `GpuGrid<T> *g` given `GpuGrid<float> *d`: the template's arguments bind position by position
            pairs = _template_id_pairs(tp, t.base, named) if t.depth == pdepth and not (t.const and pdepth and
                                                                                      not pconst) else None
            if pairs is None or any(bound.get(k, v) != v for k, v in pairs.items()):
                return None
            bound.update(pairs)
            continue
        extra = t.depth - pdepth
        if t.const and (extra or (pdepth and not pconst)):
            return None  # the const would be part of T (`T*` given `const float*`): not guessed
        text = t.base + " " + "*" * extra if extra else t.base
        text = text.strip()
        if bound.get(tp, text) != text:
            return None  # two arguments disagree: C++ would reject the call
        bound[tp] = text
    if any(tp not in bound for tp in params):
        return None
    return [bound[tp] for tp in params]


_TEMPLATE_ID = lazy_re.compile(r"((?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)\s*<(.*)>")


def _template_args(text: str) -> tuple[str, list[str]] | None:
    """`GpuGrid<T, 4>` -> ("GpuGrid", ["T", "4"]): a template-id's name and its top-level arguments."""
    m = _TEMPLATE_ID.fullmatch(text.strip())
    if m is None:
        return None
    args, depth, cur = [], 0, ""
    for ch in m.group(2):
        depth += ch in "<([{"
        depth -= ch in ">)]}"
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    args.append(cur.strip())
    return (m.group(1), [" ".join(a.split()) for a in args]) if depth == 0 and all(args) else None


def _template_id_pairs(param: str, arg: str, named: set) -> dict | None:
    """The bindings C++ deduces from a parameter `X<T, ...>` given an argument of type `X<float, ...>`
    (one template, as many arguments): each parameter argument is a template parameter alone, bound to
    the argument's, or text equal to it; None for another template, arity or shape (`X<T*>`)."""
    p, a = _template_args(param), _template_args(arg)
    if p is None or a is None or p[0] != a[0] or len(p[1]) != len(a[1]):
        return None
    out: dict = {}
    for pa, aa in zip(p[1], a[1]):
        if pa in named:
            if out.get(pa, aa) != aa:
                return None
            out[pa] = aa
        elif pa != aa or set(re.findall(r"[A-Za-z_]\w*", pa)) & named:
            return None
    return out

