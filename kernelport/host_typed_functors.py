"""A `__device__`-only functor whose result type the target's library computes on the host: `__host__ __device__`.

cuinterval's tests_loop.cu (heldout53) hands `struct pi_recip_fn { template <typename I> __device__ I operator()(const
I &) const; }` to `thrust::make_transform_iterator`.  The iterator's value type is `std::invoke_result` of the functor,
computed in host code as well (the type is the same on both sides: NVIDIA/cccl#8009).  nvcc answers it whatever the
operator's execution space; clang removes a `__device__`-only candidate from a host context, so rocThrust's
transform_iterator has no value type ("no type named 'type' in std::invoke_result<pi_recip_fn, ...>").  Measured
with ROCm 5.2's hipcc and rocThrust 5.3.3: `make_transform_iterator`, the `transform_iterator<F, It>` type and
`transform_inclusive_scan`'s unary operator fail so; `transform`, `transform_reduce`, `transform_exclusive_scan`,
`make_transform_output_iterator`, `inclusive_scan` and `sort` take a `__device__` functor as it is.  The names
and where their functor stands are backend data (`Backend.host_typed_functors`).

The port gives the functor's operator() `__host__` as well: clang defers a `__host__ __device__` body's calls of
device-only functions to host code it emits, and the functor is still called only from device code, so nothing
is emitted for the host (hipcc builds it for gfx90a and gfx1030).  Only where every `operator()` of the class is
`__device__` alone (one with `__host__` would collide with a widened twin), each defined in the class this file
defines, and the functor handed over is that class: `F()`, `F{}`, `F<T>(x)` or a local or parameter declared `F`.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends

WHY = ("its result type is computed in host code too ({entry}): clang drops a __device__-only operator() there "
       "(nvcc does not); a __host__ __device__ one is still emitted for the device only")


def widen_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    entries = backends.get(tr.backend).host_typed_functors
    if not entries or not any(name.encode() in tr.src.data for name in entries):
        return
    classes = _classes(tr.src)
    done: set[int] = set()
    for name, rec, at in _handed(tr, entries, classes):
        if rec.id in done:
            continue
        ops = operators(tr, rec)
        if not ops or any("__device__" not in sp or "__host__" in sp or "__global__" in sp for _, sp in ops):
            continue
        done.add(rec.id)
        for fn, _ in ops:
            tr.rw.insert_before(fn, "__host__ ")
            tr.note(fn, "__host__", f"`{name}::operator()` is __device__ and handed to `{at}`: " + WHY.format(entry=at))


def _classes(src) -> dict[str, Node | None]:
    """The classes this file defines with a body, by name (None where two share it)."""
    out: dict[str, Node | None] = {}
    for kind in ("struct_specifier", "class_specifier"):
        for rec in src.index.of_type(kind):
            name = rec.child_by_field_name("name")
            if name is not None and rec.child_by_field_name("body") is not None:
                key = src.text_of(name)
                out[key] = rec if key not in out else None
    return out


def _handed(tr, entries: dict[str, tuple[str, int]], classes):
    """(class name, class node, entry's name) of each functor handed to an entry."""
    src = tr.src
    for call in src.index.of_type("call_expression"):
        fn = call.child_by_field_name("function")
        name = _last_name(src, fn)
        kind, pos = entries.get(name, ("", 0))
        if fn is None or kind not in ("call", "template") or not _thrust_or_plain(src, fn):
            continue
        if kind == "call":
            args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
            if -len(args) <= pos < len(args):
                cls = _functor_class(tr, args[pos], classes)
                if cls is not None:
                    yield (*cls, name)
    for t in src.index.of_type("template_type"):  # transform_iterator<F, It>
        name = _last_name(src, t.child_by_field_name("name"))
        kind, pos = entries.get(name, ("", 0))
        targs = t.child_by_field_name("arguments")
        if kind != "template" or targs is None or not _thrust_or_plain(src, t):
            continue
        items = [a for a in targs.named_children if a.type != "comment"]
        if 0 <= pos < len(items):
            cls = _named_class(src.text_of(items[pos]), classes)
            if cls is not None:
                yield (*cls, name)


def _last_name(src, node: Node | None) -> str:
    while node is not None and node.type in ("qualified_identifier", "template_function", "template_type"):
        node = node.child_by_field_name("name")
    return src.text_of(node) if node is not None else ""


def _thrust_or_plain(src, node: Node) -> bool:
    """`thrust::name` (any depth of thrust's own namespaces) or the name alone (a `using`, ADL)."""
    p = node
    while p.parent is not None and p.parent.type == "qualified_identifier":
        p = p.parent
    if p.type != "qualified_identifier":
        return True
    scope = p.child_by_field_name("scope")
    return scope is not None and src.text_of(scope) == "thrust"


def _functor_class(tr, arg: Node, classes):
    """The class of the functor expression `arg`, where this file defines it."""
    src = tr.src
    if arg.type in ("call_expression", "compound_literal_expression"):
        t = arg.child_by_field_name("function") or arg.child_by_field_name("type")
        return _named_class(src.text_of(t), classes) if t is not None else None
    if arg.type == "identifier":
        return _named_class(_declared_type(tr, arg), classes)
    return None


def _named_class(text: str, classes):
    name = re.sub(r"<.*>$", "", " ".join(text.split())).removeprefix("const ").strip()
    rec = classes.get(name)
    return (name, rec) if rec is not None else None


def _declared_type(tr, ident: Node) -> str:
    """The written type of a local variable or parameter named `ident` in the function around it."""
    return declared(tr, ident)[0]


def declared(tr, ident: Node) -> tuple[str, Node | None]:
    """(the written type, the declarator) of a local variable or parameter named `ident` in the function
    around it; ("", None) where none is found."""
    src, name = tr.src, tr.src.text_of(ident)
    f = tr.module.function_at(ident)
    if f is None:
        return "", None
    for kind in ("declaration", "parameter_declaration"):
        for d in src.index.under(f.node, kind):
            if d.start_byte > ident.start_byte:
                break
            t = d.child_by_field_name("type")
            for x in d.children_by_field_name("declarator"):
                if t is not None and _declared_name(src, x) == name:
                    return src.text_of(t), x
    return "", None


def _declared_name(src, d: Node) -> str:
    while d is not None and d.type not in ("identifier",):
        d = d.child_by_field_name("declarator")
    return src.text_of(d) if d is not None else ""


def operators(tr, rec: Node, symbol: str = "()") -> list[tuple[Node, tuple[str, ...]]]:
    """(definition, its execution spaces as written) of each `operator{symbol}` of the class; [] where one
    is only declared there."""
    from .member_spaces import _declarator, _spaces
    src, out = tr.src, []
    for item in rec.child_by_field_name("body").named_children:
        node = item.named_children[-1] if item.type == "template_declaration" and item.named_children else item
        fd = _declarator(node) if node.type in ("function_definition", "field_declaration", "declaration") else None
        op = fd.child_by_field_name("declarator") if fd is not None else None
        if op is None or op.type != "operator_name" or "".join(src.text_of(op).split()) != "operator" + symbol:
            continue
        if node.type != "function_definition":
            return []
        spaces = _spaces(src.data[node.start_byte:fd.start_byte].decode("utf-8", "replace")) or \
            tr._written_spaces(node, fd)
        out.append((node, tuple(spaces)))
    return out
