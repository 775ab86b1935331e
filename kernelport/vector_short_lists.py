"""A braced list with fewer elements than its CUDA vector type has members, completed with zeros.

CUDA's vector types are aggregates: `uint3 v = {a, b};` is (a, b, 0), `float4 f{x}` is (x, 0, 0, 0), and
`return {-a.x, -a.y};` in a function returning uint3 the same (CudaTextureGen's operators.cuh, heldout90).
Metal rejects such a list ("too few elements in vector initialization"); where the backend's vector types are
classes (ROCm's HIP_vector_type) the list
calls a constructor: one of every member, or one scalar, which is explicit and copies the scalar to every
member.  So on hipcc two of three is "no matching constructor for initialization of 'uint3'", `uint3 v = {x}`
"chosen constructor is explicit", and `uint3{x}` or `float4 f{x}` compile and broadcast: (x, x, x), a port
silently wrong.  The port writes the members the list leaves out as `0`, which is what CUDA's aggregate
initialisation gives them: `uint3 v = {a, b, 0};`, `uint3{x, 0, 0}`, on every backend whose
`completes_short_vector_lists` says so (HIP, Metal: one fact, read as data).

Read where the list's type is written: a declaration of a vector (and each list of an array of vectors), a
functional cast `T{...}`, `return {...}` in a function whose return type is the vector, a member's default
(`float4 f{1.0f};`), a constructor's initialiser of a member its class declares (`: u{a}`) and `new uint3{a}`
(direct-list forms hipcc compiles as the broadcast), the type named as written or through the file's typedefs
and `using` aliases of a vector type (`typedef float2 F2; F2 g{x}`), and a list of a vector member inside
the list of the file's own struct (`S s = {{a}, 1};`, positional, no base class: hipcc rejected it).  In a macro body
whose function returns a parameter of the macro (`#define DEFINE_VEC2_UNARY_OPS(TYPE) DH_INLINE TYPE
operator-(const TYPE &a) { return {-a.x, -a.y}; }`, used as `DEFINE_VEC2_UNARY_OPS(int2)` and `(uint3)`), where
every use of the macro in the file gives that parameter a CUDA vector type and one has more members than the
list, the return is written member by member, which every one of those types takes: `{ TYPE kp_v{}; kp_v.x =
(-a.x); kp_v.y = (-a.y); return kp_v; }` (a body that names a concept is macro_bodies', left to it).  A list with
designators, an empty one (the default constructor: zeros everywhere), one of every member and one whose only
item is a vector (`float4 v = {u};`: a copy of u) stay as written;
`dim3` is a class with defaults of 1 on both platforms (not one of these types).
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends
from .vector_elided_lists import refuse_elided_scalars, vector_item
from .vector_types import VECTORS


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    if not backends.get(tr.backend).completes_short_vector_lists or not any(v.encode() in tr.src.data for v in _NAMES):
        return
    src = tr.src
    if not backends.get(tr.backend).vector_types_are_classes:  # (built-in vectors take a scalar whole)
        refuse_elided_scalars(tr, lambda outer, item: _element_lanes(src, outer, item))
    for lst in src.index.of_type("initializer_list"):
        lanes = _lanes(src, lst)
        if lanes is None or tr.rw.has(lst):
            continue
        items = [c for c in lst.named_children if c.type != "comment"]
        if not items or len(items) >= lanes or any(c.type in ("initializer_pair", "initializer_list") for c in items):
            continue
        if len(items) == 1 and vector_item(tr, items[0]):
            continue  # `float4 v = {u};` of a float4 u: a copy of u (CUDA's aggregate of one of its own type)
        _complete(tr, lst, lanes - len(items))
    _macro_returns(tr)


_NAMES = tuple(sorted({n for n, (_, lanes) in VECTORS.items() if lanes > 1}))


def _vector(src, tnode: Node | None) -> int | None:
    """The member count of the vector type `tnode` names (2-4; through the file's typedefs and `using`
    aliases of one, `typedef float2 F2;`), else None."""
    if tnode is None:
        return None
    name = " ".join(src.text_of(tnode).split()).removeprefix("::")
    got = VECTORS.get(_aliases(src).get(name, name))
    return got[1] if got is not None and got[1] > 1 else None


def _aliases(src) -> dict[str, str]:
    """The file's names for a vector type (`typedef uint3 U3;`, `using F2 = float2;`, chains of them): each
    name that every one of its definitions makes the same vector type."""
    memo = src.__dict__.setdefault("_kp_vector_aliases", {})
    if "map" in memo:
        return memo["map"]
    seen: dict[str, set[str]] = {}
    for d in src.index.of_type("type_definition"):
        t = d.child_by_field_name("type")
        for dec in d.children_by_field_name("declarator"):
            if t is not None and dec.type == "type_identifier":
                seen.setdefault(src.text_of(dec), set()).add(" ".join(src.text_of(t).split()).removeprefix("::"))
    for d in src.index.of_type("alias_declaration"):
        n, t = d.child_by_field_name("name"), d.child_by_field_name("type")
        if n is not None and t is not None:
            seen.setdefault(src.text_of(n), set()).add(" ".join(src.text_of(t).split()).removeprefix("::"))
    out: dict[str, str] = {}
    for _ in range(4):  # (chains: `typedef F2 G2;`)
        for k, ts in seen.items():
            ts = {out.get(t, t) for t in ts}
            if len(ts) == 1 and next(iter(ts)) in VECTORS and k not in VECTORS:
                out[k] = next(iter(ts))
    memo["map"] = out
    return out


def _field_type(src, tnode: Node | None, outer: Node, lst: Node) -> Node | None:
    """The type node of the member of the file's own struct `tnode` names that element `lst` of the struct's
    list `outer` initialises (`S s = {{a}, 1};`: S's first member), where every element is positional and the
    struct has no base: its non-static data members in order, a declarator each."""
    if tnode is None:
        return None
    name = src.text_of(tnode).strip()
    items = [c for c in outer.named_children if c.type != "comment"]
    if any(c.type == "initializer_pair" for c in items):
        return None
    k = items.index(lst)
    bodies = [b for t in ("struct_specifier", "class_specifier") for b in src.index.of_type(t)
              if b.child_by_field_name("name") is not None and src.text_of(b.child_by_field_name("name")) == name
              and b.child_by_field_name("body") is not None]
    if len(bodies) != 1 or any(c.type == "base_class_clause" for c in bodies[0].children):
        return None
    fields = []
    for f in bodies[0].child_by_field_name("body").named_children:
        if f.type != "field_declaration" or any(src.text_of(c) == "static" for c in f.children) or \
                any(d.type == "function_declarator" for d in f.children_by_field_name("declarator")):
            continue
        if not f.children_by_field_name("declarator"):
            return None  # (an anonymous union or struct takes a position of its own)
        fields += [f.child_by_field_name("type")] * len(f.children_by_field_name("declarator"))
    return fields[k] if k < len(fields) else None


def _member_type(src, init: Node) -> Node | None:
    """The type node of the member a constructor's initialiser `init` (`: u{a}`) names, where the class that
    declares the constructor declares it."""
    name = init.child_by_field_name("name") or next((c for c in init.named_children if c.type == "field_identifier"),
                                                   None)
    body = init.parent
    while body is not None and body.type != "field_declaration_list":
        body = body.parent
    if name is None or body is None:
        return None
    for f in body.named_children:
        if f.type == "field_declaration" and any(src.text_of(d) == src.text_of(name)
                                                 for d in f.children_by_field_name("declarator")):
            return f.child_by_field_name("type")
    return None


def _element_lanes(src, outer: Node, item: Node) -> int | None:
    """The member count of the vector whose place `item` takes in list `outer`: an element of a declared array
    of vectors, a positional member of the file's own struct (as `_lanes` reads an element's list)."""
    d = outer.parent
    if d is None or d.type != "init_declarator" or d.child_by_field_name("value") != outer or d.parent is None:
        return None
    if d.child_by_field_name("declarator").type == "array_declarator":
        return _vector(src, d.parent.child_by_field_name("type"))
    if d.child_by_field_name("declarator").type == "identifier":
        return _vector(src, _field_type(src, d.parent.child_by_field_name("type"), outer, item))
    return None


def _lanes(src, lst: Node) -> int | None:
    """The member count of the vector type the list `lst` initialises, where its type is written there."""
    p = lst.parent
    if p is None:
        return None
    if p.type == "compound_literal_expression" and p.child_by_field_name("value") == lst:
        return _vector(src, p.child_by_field_name("type"))
    if p.type == "initializer_list":  # an element of an array of vectors: `uint3 a[2] = {{1, 2}, {3, 4}};`
        d = p.parent
        if d is not None and d.type == "init_declarator" and d.child_by_field_name("value") == p and \
                d.child_by_field_name("declarator").type == "array_declarator" and d.parent is not None:
            return _vector(src, d.parent.child_by_field_name("type"))
        if d is not None and d.type == "init_declarator" and d.child_by_field_name("value") == p and \
                d.child_by_field_name("declarator").type == "identifier" and d.parent is not None:
            return _vector(src, _field_type(src, d.parent.child_by_field_name("type"), p, lst))
        return None
    if p.type == "init_declarator" and p.child_by_field_name("value") == lst and p.parent is not None and \
            p.parent.type == "declaration" and p.child_by_field_name("declarator").type == "identifier":
        return _vector(src, p.parent.child_by_field_name("type"))
    if p.type == "field_declaration" and p.child_by_field_name("default_value") == lst and \
            all(d.type == "field_identifier" for d in p.children_by_field_name("declarator")):
        return _vector(src, p.child_by_field_name("type"))  # `float4 f{1.0f};` (a member's default)
    if p.type == "field_initializer":  # `S(unsigned a) : u{a} {}`
        return _vector(src, _member_type(src, p))
    if p.type == "new_expression" and p.child_by_field_name("arguments") == lst:
        return _vector(src, p.child_by_field_name("type"))  # `new uint3{a}`
    if p.type == "return_statement":
        fn = p.parent
        while fn is not None and fn.type not in ("function_definition", "lambda_expression"):
            fn = fn.parent
        if fn is not None and fn.type == "function_definition":
            return _vector(src, fn.child_by_field_name("type"))
    return None


def _complete(tr, lst: Node, missing: int) -> None:
    zeros = ", 0" * missing

    def render(rw, node: Node) -> str:
        text = rw.stitch(node).rstrip()  # (its children as the port writes them)
        body = text[:-1].rstrip() if text.endswith("}") else text
        return body.removesuffix(",").rstrip() + zeros + "}"
    tr.rw.replace(lst, render)
    tr.note(lst, f"{{...{zeros}}}", f"a CUDA vector type is an aggregate (the members a list leaves out are 0); on "
            f"{backends.get(tr.backend).display_name} it is a class whose constructors take every member or one "
            "scalar for all of them")


_RETURN = re.compile(r"\breturn\s*\{")
_HEAD = re.compile(r"\b([A-Za-z_]\w*)\s*[&*]?\s+(?:operator\s*[^\s(]+|[A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:const\s*)?\{")
_MEMBERS = ("x", "y", "z", "w")


def _macro_returns(tr) -> None:
    """The module docstring's macro bodies: `return {...};` of a function returning a macro parameter."""
    from . import dialect
    from .translate import SOURCE
    from .verbatim_args import arg_spans
    src = tr.src
    if b"return" not in src.data:
        return
    text = src.data.decode("latin-1")  # (one character a byte: offsets are the nodes')
    names = dialect.respelled(SOURCE, tr.backend)
    for d in src.index.of_type("preproc_function_def"):
        v, params = d.child_by_field_name("value"), d.child_by_field_name("parameters")
        if v is None or params is None or tr.rw.has(v) or "return" not in src.text_of(v):
            continue
        body = text[v.start_byte:v.end_byte]
        if set(re.findall(r"[A-Za-z_]\w*", body)) & names:
            continue  # (macro_bodies translates it)
        plist = [src.text_of(p) for p in params.named_children if p.type == "identifier"]
        uses = _use_arguments(text, src.text_of(d.child_by_field_name("name")), len(plist), arg_spans)
        for r in _RETURN.finditer(body):
            head = [h for h in _HEAD.finditer(body, 0, r.start())]
            t = head[-1].group(1) if head else None
            if t not in plist or not uses:
                continue
            kinds = [VECTORS.get(u[plist.index(t)]) for u in uses]
            spans = arg_spans(body, r.end() - 1)
            end = body.find(";", spans[-1][1]) if spans else -1  # (spans[-1][1]: the list's `}`)
            if None in kinds or not spans or end < 0 or body[spans[-1][1] + 1:end].strip() or \
                    any(n < 2 for _, n in kinds):
                continue
            items = [body[a:b].strip() for a, b in spans if body[a:b].strip()]
            if not items or len(items) >= max(n for _, n in kinds) or len(items) > min(n for _, n in kinds) or \
                    any(re.match(r"\.\w+\s*=", i) for i in items):
                continue
            at = v.start_byte + r.start()
            new = "{ " + t + " kp_v{}; " + " ".join(f"kp_v.{m} = ({i});" for m, i in zip(_MEMBERS, items)) + \
                " return kp_v; }"
            if not tr.rw.touches(at, v.start_byte + end + 1):
                tr.rw.drop_span(at, v.start_byte + end + 1, new)


def _use_arguments(text: str, name: str, count: int, arg_spans) -> list[list[str]]:
    """The arguments of the file's uses of macro `name` outside its definitions (each a list of `count`)."""
    out = []
    for m in re.finditer(r"^[ \t]*" + re.escape(name) + r"\s*\(", text, re.M):
        spans = arg_spans(text, m.end() - 1)
        if spans is None or len(spans) != count:
            return []
        out.append([text[a:b].strip() for a, b in spans])
    return out
