"""The functions a call through a function pointer may run: the call graph's edges for `(*fp)(args)`.

GPUPrefixSums' CSDL takes its scan as a parameter, `void (*ScanVariantFull)(uint4*, uint32_t*, uint32_t*,
const uint32_t)`, and its kernels pass `ScanExclusiveFull<PER_THREAD>`: the scan's width-32 shuffles run in
CSDL's threads, so they belong to CSDL's warp-level group (kernelport/warpwidth.py), though no call names
them.  A call whose callee is a parameter or local of function-pointer type may run every function whose
address the file takes (its name outside a call's callee: an argument, `&f`, an initializer) with as many
parameters as the pointer's type has; those are its callees.  A callee the file never names that way
(a pointer from another unit) is not seen, as before.
"""
from __future__ import annotations

from tree_sitter import Node

from .model import Function, Module


def pointer_name(fn: Node | None) -> str | None:
    """The pointer a call goes through: `fp` of `fp(x)`, `(*fp)(x)`, `(fp)(x)`; None otherwise."""
    while fn is not None and fn.type in ("parenthesized_expression", "pointer_expression") and fn.named_children:
        if fn.type == "pointer_expression" and not fn.text.decode().lstrip().startswith("*"):
            return None  # `&f`: no pointer read
        fn = fn.named_children[-1]
    return fn.text.decode() if fn is not None and fn.type == "identifier" else None


def _arity(decl: Node) -> int | None:
    """The parameter count of a function-pointer declarator under `decl` (`void (*fp)(int, float)`: 2)."""
    stack = [decl]
    while stack:
        n = stack.pop()
        if n.type == "function_declarator":
            inner = n.child_by_field_name("declarator")
            if inner is not None and "*" in inner.text.decode():
                ps = n.child_by_field_name("parameters")
                named = [p for p in ps.named_children if p.type in ("parameter_declaration",
                                                                     "optional_parameter_declaration")]
                return 0 if len(named) == 1 and named[0].text.decode().strip() == "void" else len(named)
        stack.extend(n.named_children)
    return None


def _pointer_arities(f: Function) -> dict[str, int | None]:
    """Each name `f` declares as a parameter or a top-level local, with the arity of its function-pointer
    type (None: not one): a parameter's first, then a local's first, as a look-up of one name reads them."""
    out: dict[str, int | None] = {}
    d = _own_declarator(f)
    ps = d.child_by_field_name("parameters") if d is not None else None
    decls = list(ps.named_children if ps is not None else ())
    if f.body is not None:
        decls += [d for d in f.body.named_children if d.type == "declaration"]
    for decl in decls:
        names = _declared(decl)
        if not names:
            continue
        arity = _arity(decl)
        for name in names:
            out.setdefault(name, arity)  # (the first declaration of the name: parameters come first)
    return out


def _own_declarator(f: Function) -> Node | None:
    d = f.node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    return d


def _declared(decl: Node) -> set[str]:
    """The names `decl` declares through a pointer or function declarator (not a parameter list's inside)."""
    out: set[str] = set()
    stack = [decl]
    while stack:
        n = stack.pop()
        if n.type == "identifier" and n.parent is not None and \
                n.parent.type in ("pointer_declarator", "function_declarator", "parenthesized_declarator"):
            out.add(n.text.decode())
        stack.extend(c for c in n.named_children if c.type != "parameter_list" or n is decl)
    return out


def address_taken(module: Module) -> set[str]:
    """The names of the file's functions used as values (not as a call's callee): whose address may be held."""
    cache = module.__dict__.setdefault("_kp_address_taken", {})
    if "names" in cache:
        return cache["names"]
    src = module.source
    fnames = {f.name for f in module.functions.values()}
    out = set()
    for n in src.index.of_type("identifier"):
        name = src.text_of(n)
        if name not in fnames:
            continue
        p = n.parent
        while p is not None and p.type in ("template_function", "qualified_identifier"):
            n, p = p, p.parent
        if p is None or p.type in ("function_declarator", "preproc_def", "preproc_function_def"):
            continue
        if p.type == "call_expression" and p.child_by_field_name("function") == n:
            continue
        if p.type in ("argument_list", "pointer_expression", "initializer_list", "init_declarator",
                      "assignment_expression"):
            out.add(name)
    cache["names"] = out
    return out


class Pointers:
    """The calls through a function pointer in one model (warpflow's group-width decision asks of every call
    that names no function of the file): the file's function names, the addresses it takes and each function's
    pointer parameters and locals, each read once, where a look-up per call walked them again for every call."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.names = {g.name for g in module.functions.values()}
        self._arities: dict[int, dict[str, int | None]] = {}  # id(Function) -> name -> arity (the model keeps f)

    def targets(self, f: Function, call: Node) -> list[Function]:
        """The functions `call` (in `f`) may run through a function pointer; [] where it calls no pointer."""
        name = pointer_name(call.child_by_field_name("function"))
        if name is None or name in self.names:
            return []
        arities = self._arities.get(id(f))
        if arities is None:  # a pointer's arity is read from a function declarator in its declaration: where f
            own = _own_declarator(f)  # holds none but its own, every name's is None (the node index: a bisect)
            others = any(x != own for x in self.module.source.index.under(f.node, "function_declarator"))
            arities = self._arities[id(f)] = _pointer_arities(f) if others else {}
        arity = arities.get(name)
        if arity is None:
            return []
        taken = address_taken(self.module)
        return [g for g in self.module.functions.values() if g.name in taken and len(g.params) == arity and
                g.body is not None]


def targets(module: Module, f: Function, call: Node) -> list[Function]:
    """The functions `call` (in `f`) may run through a function pointer; [] where it calls no pointer
    (one call: a caller asking of many calls keeps one `Pointers`)."""
    return Pointers(module).targets(f, call)
