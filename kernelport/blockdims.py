"""The constants and launch blocks a file's code decides, as kernelport.warpwidth reads them.

A launch's block argument is read where constants decide it: `dim3(32, 4)`, a host local `dim3
threads(32, 4, 1);` or one initialised with braces (`dim3 block = {32};`, `dim3 block{NW, 2}`), or a
plain count.  A name in it is a macro (the file's or a header's), a `const`/`constexpr` local of the
function, a file-scope constant, or a `static const`/`constexpr` member of a class that encloses the
function (C++ finds a member first: LibintX's `DFJ::kernel` launches with `dim3 block = { NW };`, NW
a `static constexpr int` of `DFJ`; tests/labelled20).

A functor runs in the blocks of the launches that pass it to a kernel: a kernel template that calls its
argument (`template <class F, class... Args> __global__ void launch(F f, Args... args) { f(args...); }`,
in the file or in a header) runs `F::operator()`, so `launch<<<grid, block>>>(DFJ{}, ...)` says the block
of `DFJ::operator()` (and of what it calls) as a launch of a kernel says the kernel's.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import cexpr, fnscopes, memberdims
from .model import Function, Module, file_scope_items
from .source import call_args, ident_name
from .warpsites import int_value

_CLASSES = ("class_specifier", "struct_specifier")


def names(module: Module) -> dict[str, int | float]:
    """The file's object-like macros with an integer value."""
    out: dict[str, int | float] = {}
    for name, mac in module.macros.items():
        v = int_value(mac.value) if mac.value else None
        if v is not None:
            out[name] = v
    return out


def evaluate(text: str, known) -> int | None:
    try:
        v = cexpr.evaluate(text, known)
    except (cexpr.CExprError, ZeroDivisionError, TypeError, RecursionError):
        return None
    return int(v) if isinstance(v, (int, float)) and v == int(v) else None


def value(node: Node, module: Module, known, owner: Function | None = None) -> int | None:
    """An expression's value where constants decide it (a name: `constant`, as seen from `owner`)."""
    v = evaluate(module.source.text_of(node), known)  # a file-scope `constexpr int kRow = 32;` too
    return constant(module.source.text_of(node), owner, module, known) if v is None and node.type == "identifier" \
        else v


def _parts(items: list[Node], owner: Function | None, module: Module, known) -> tuple[int, ...] | None:
    parts = [value(a, module, known, owner) for a in items]
    return None if not 0 < len(parts) <= 3 or None in parts else tuple(parts + [1] * (3 - len(parts)))  # type: ignore


def dims(node: Node, owner: Function | None, module: Module, known, depth: int = 0) -> tuple[int, ...] | None:
    """(x, y, z) of a launch's block argument, where constants decide it."""
    src = module.source
    callee = node.child_by_field_name("function")
    if node.type == "call_expression" and callee is not None and src.text_of(callee) == "dim3":
        return _parts(call_args(node), owner, module, known)
    if node.type == "identifier" and src.text_of(node) not in known and owner is not None and depth < 4:
        name = src.text_of(node)
        for d in src.index.under(owner.body, "init_declarator"):
            if ident_name(d.child_by_field_name("declarator")) == name:
                init = d.child_by_field_name("value")
                if init is None:
                    return None
                if init.type in ("argument_list", "initializer_list"):  # dim3 threads(32, 4, 1), dim3 b = {32}
                    return _parts([c for c in init.named_children if c.type != "comment"], owner, module, known)
                return dims(init, owner, module, known, depth + 1)
        got = member_dims(node, owner, module, known)  # a member its class's constructors set (memberdims)
        if got is not None:
            return got if None not in got else None
    v = value(node, module, known, owner)  # (a name: a `constexpr int kBlock = 32;` of the file too, as a macro)
    return None if v is None else (v, 1, 1)


def row_width(node: Node, owner: Function | None, module: Module, known) -> int | None:
    """The x of a launch's 2-D or 3-D block, `dim3(x, y)` or a local `dim3 b(x, y, z)`, where a constant decides x
    and not the others (heldout37's Viterbi decoder: `dim3 block(32, blockDimY, 1)`, a 32-thread row per
    decoder): rows of x threads, any number of them; None otherwise (dims reads a block constants decide)."""
    src = module.source
    callee = node.child_by_field_name("function")
    items = call_args(node) if node.type == "call_expression" and callee is not None and src.text_of(callee) == "dim3" \
        else None
    if node.type == "identifier" and owner is not None:
        for d in src.index.under(owner.body, "init_declarator"):
            init = d.child_by_field_name("value")
            if ident_name(d.child_by_field_name("declarator")) == src.text_of(node) and init is not None and \
                    init.type in ("argument_list", "initializer_list"):
                items = [c for c in init.named_children if c.type != "comment"]
    return value(items[0], module, known, owner) if items is not None and 2 <= len(items) <= 3 else None


def member_dims(node: Node, owner: Function | None, module: Module, known) -> tuple[int | None, ...] | None:
    """(x, y, z) of a block a member of `owner`'s class holds (kernelport.memberdims); None parts unknown."""
    return memberdims.parts(node, owner, module, lambda d, ctor: value(d, module, known, ctor))


def _const(text: str) -> bool:
    return re.search(r"\b(const|constexpr)\b", text.split("=")[0].split("{")[0]) is not None


def _member(name: str, k: Function, module: Module, known) -> int | None:
    """A `static const`/`constexpr` member `name` of a class enclosing k (the innermost first)."""
    src = module.source
    n = k.node.parent
    while n is not None:
        body = n.child_by_field_name("body") if n.type in _CLASSES else None
        for f in body.named_children if body is not None else ():
            declared = [src.text_of(d) for d in f.children_by_field_name("declarator")]
            if f.type == "field_declaration" and declared == [name] and _const(src.text_of(f)):  # (one a line)
                init = f.child_by_field_name("default_value")
                if init is not None and init.type == "initializer_list":
                    init = init.named_children[0] if len(init.named_children) == 1 else None
                return value(init, module, known) if init is not None else None
        n = n.parent
    return None


def constant(name: str, k: Function | None, module: Module, known=None) -> int | None:
    """The value of a constant function `k` names: a macro (its own or a header's, `(32)` too), a
    `const`/`constexpr` local (of `k`) or file-scope variable with a constant initialiser (llm.c's
    `constexpr const int WarpSize = 32;`), or a constant member of a class enclosing `k`.
    `known`: names(module), where the caller has it."""
    known = names(module) if known is None else known
    if name in known:
        return int(known[name])
    vis = module.visible  # a header's macro (llm.c's WARP_SIZE in its common header)
    mac = module.macros.get(name) or (vis.macros.get(name) if vis is not None else None)
    if mac is not None and mac.value:
        v = int_value(mac.value)
        return v if v is not None else evaluate(mac.value, known)
    src = module.source
    scopes = ([k.body] if k is not None and k.body is not None else []) + \
        [n for n in file_scope_items(src) if n.type == "declaration"]
    for scope in scopes:
        for d in src.index.under(scope, "init_declarator"):
            decl = d.parent
            if ident_name(d.child_by_field_name("declarator")) != name or decl is None or \
                    not _const(src.text_of(decl)):
                continue
            init = d.child_by_field_name("value")
            return value(init, module, known) if init is not None else None
    return _member(name, k, module, known) if k is not None else None


def _class_of(src, arg: Node) -> str | None:
    """The class an argument constructs (`DFJ{}`, `ns::Op<T>{}`, `Op()`), by its last name."""
    t = arg.child_by_field_name("type") if arg.type == "compound_literal_expression" else \
        arg.child_by_field_name("function") if arg.type == "call_expression" else None
    while t is not None and t.type in ("qualified_identifier", "template_type"):
        t = t.child_by_field_name("name")
    return src.text_of(t) if t is not None and t.type in ("type_identifier", "identifier") else None


def functor_launches(module: Module) -> dict[str, list]:
    """The launches that pass an object of a class whose call operator the file defines, by the key of
    that operator (fnscopes): the launch's blocks run it."""
    cached = module.__dict__.get("_kp_functor_launches")
    if cached is None:
        scopes = fnscopes.of(module)
        ops: dict[str, set[str]] = {}
        for f in module.functions.values():
            parts = scopes.qualified(f).split("::")
            if len(parts) > 1 and parts[-1].startswith("operator()") and f.is_device:
                ops.setdefault(re.sub(r"<.*", "", parts[-2]), set()).add(scopes.key(f))
        cached = module.__dict__["_kp_functor_launches"] = {}
        for launch in module.launches if ops else ():
            for cls in {_class_of(module.source, a) for a in launch.args} & ops.keys():
                for key in sorted(ops[cls]):
                    cached.setdefault(key, []).append(launch)
    return cached
