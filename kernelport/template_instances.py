"""The instantiations a unit writes out of its own function templates, with their arguments bound.

A kernel template's `T buf[N]` has no size until the file names one: a launch `k<float, 4096><<<...>>>`, an
explicit instantiation `template __global__ void k<double, 4096>(double *);` or a call `pick<float, 64>(v)`
(all a `template_function` node in the tree).  Each distinct argument list the file writes, with the template's
defaults for those it leaves out, binds the template's parameters: type parameters to the argument's text,
value parameters to the argument's text too (the caller evaluates them with what it knows).  Arguments deduced
from a call's arguments are not read: nothing is bound where the file does not write them.
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

_TYPE_PARAMS = ("type_parameter_declaration", "optional_type_parameter_declaration")
_VALUE_PARAMS = ("parameter_declaration", "optional_parameter_declaration")


@dataclass(frozen=True, eq=False)  # (a key by identity: Sizer.local_constants)
class Instance:
    """One instantiation of a function template the file writes (`k<float, 4096>`), its arguments bound."""
    node: Node  # the first `name<args>` that writes it
    text: str  # `k<float, 4096>`, its arguments as written (defaults added)
    types: dict  # type parameter -> its argument's text
    values: dict  # value parameter -> its argument's text


def parameters(src, template_node: Node | None) -> list[tuple[str, str, str | None]] | None:
    """(name, "type" | "value", default text or None) per parameter; None for a variadic or unread list."""
    plist = template_node.child_by_field_name("parameters") if template_node is not None else None
    params = [c for c in plist.named_children if c.type != "comment"] if plist is not None else None
    out: list[tuple[str, str, str | None]] = []
    for p in params or ():
        kind = "type" if p.type in _TYPE_PARAMS else "value" if p.type in _VALUE_PARAMS else None
        name = p.named_children[0] if kind == "type" and p.named_children else p.child_by_field_name("declarator")
        if kind is None or name is None or name.type not in ("type_identifier", "identifier"):
            return None
        default = p.child_by_field_name("default_type" if kind == "type" else "default_value")
        out.append((src.text_of(name), kind, src.text_of(default) if default is not None else None))
    return out if params is not None else None


def of(module) -> dict[str, list[Instance]]:
    """Per function template of the unit (by name): the instantiations the unit writes, in source order."""
    src, fns = module.source, module.functions
    out: dict[str, list[Instance]] = {}
    seen: set[tuple[str, tuple]] = set()
    params_of: dict[str, list | None] = {}
    for tf in src.index.of_type("template_function"):
        name_node, args = tf.child_by_field_name("name"), tf.child_by_field_name("arguments")
        f = fns.get(src.text_of(name_node)) if name_node is not None else None
        if f is None or args is None or not f.template_params or _specialisation(tf):
            continue
        if f.name not in params_of:
            params_of[f.name] = parameters(src, f.template_node)
        params = params_of[f.name]
        given = [" ".join(src.text_of(a).split()) for a in args.named_children if a.type != "comment"]
        if params is None or len(given) > len(params) or any(d is None for _, _, d in params[len(given):]):
            continue
        texts = given + [d for _, _, d in params[len(given):]]
        if (f.name, tuple(texts)) in seen:
            continue
        seen.add((f.name, tuple(texts)))
        out.setdefault(f.name, []).append(Instance(
            tf, f"{f.name}<{', '.join(texts)}>",
            {n: t for (n, k, _), t in zip(params, texts) if k == "type"},
            {n: t for (n, k, _), t in zip(params, texts) if k == "value"}))
    return out


def _specialisation(tf: Node) -> bool:
    """`template <> __global__ void k<float, 8>(...) {...}`: a definition of its own, not the primary's instance."""
    p = tf.parent
    return p is not None and p.type == "function_declarator" and p.parent is not None and \
        p.parent.type == "function_definition"
