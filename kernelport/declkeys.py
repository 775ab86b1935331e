"""Which declaration a local name means, where a function declares the name more than once.

warpflow keys its facts by (function, name), flow- and scope-insensitively.  A function that
declares one name in two scopes (LC-framework's `const unsigned long long tmp = __ballot_sync(...)`
in one block and `const int tmp = __shfl_up_sync(~0, sum, i)` in a prefix-sum loop) would merge the
two: the prefix sum looks like a lane mask and the counts it stores like a 32-bit mask store
(KP207).  For such names each scope's declaration gets its own key, `name@byte` (the scope's start),
and each use the key of the scope C++ scoping gives it: the innermost enclosing scope that declares
the name before the use.  Declarations in one scope share a key (the alternatives of an `#if` and its
`#else` both reach the code after `#endif`); names declared in one scope keep their plain key.
"""
from __future__ import annotations

from tree_sitter import Node

from .source import ident_name

_SCOPES = frozenset({"compound_statement", "for_statement", "for_range_loop", "function_definition",
                     "if_statement", "while_statement", "switch_statement", "catch_clause", "lambda_expression"})
_DECLARATORS = frozenset({"init_declarator", "identifier", "pointer_declarator", "array_declarator",
                          "reference_declarator"})


def _scope(n: Node) -> Node | None:
    p = n.parent
    while p is not None and p.type not in _SCOPES:
        p = p.parent
    return p


def declared(d: Node) -> Node | None:
    """The identifier node a declarator declares."""
    while d is not None and d.type != "identifier":
        d = d.child_by_field_name("declarator") if d.type != "reference_declarator" else (
            d.named_children[-1] if d.named_children else None)
    return d


def of(src, fn: Node) -> dict[int, str]:
    """Identifier node id -> its declaration's key, for the names `fn` declares more than once."""
    cache = src.__dict__.setdefault("_kp_declkeys", {})
    if fn.id in cache:
        return cache[fn.id]
    decls: dict[str, list[tuple[Node, Node]]] = {}  # name -> [(identifier declared, its scope)]
    # the node index's kind groups (source.NodeIndex), in walk order: a walk of the whole function
    # visited every node (a third of all `walk` steps of a lint) for these few kinds
    for n in src.index.under_types(fn, "declaration", "parameter_declaration", "condition_clause"):
        for d in n.children_by_field_name("declarator"):
            ident = declared(d) if d.type in _DECLARATORS else None
            if ident is not None and ident_name(ident):
                decls.setdefault(ident_name(ident), []).append((ident, _scope(n)))
    keys: dict[int, str] = {}
    many = {name: ds for name, ds in decls.items() if len({sc.id if sc is not None else -1 for _, sc in ds}) > 1}
    if many:
        for n in src.index.under(fn, "identifier"):
            name = n.text.decode()  # (the parsed text, as the walk read it)
            if name not in many:
                continue
            seen = [sc for ident, sc in many[name] if sc is not None and ident.start_byte <= n.start_byte and
                    sc.start_byte <= n.start_byte < sc.end_byte]
            if seen:
                keys[n.id] = f"{name}@{max(sc.start_byte for sc in seen)}"
    cache[fn.id] = keys
    return keys


def key(an, node: Node | None, name: str) -> str:
    """warpflow's key for `name` at `node` (an identifier) in the function `an` analyses."""
    got = of(an.src, an.fn.node).get(node.id) if an.fn is not None and node is not None else None
    return got if got is not None and got.startswith(name + "@") else name
