"""Launch blocks a class's constructors store in a member (`db(make_uint3(32, warp_per_block, 1))`).

heldout30's atpqc-cuda launches `global::sha3<Bits><<<dg, db, ns, stream>>>` from a member function of a
class whose constructor sets `db` in its member initialiser list; a launch block named by a member is
what every constructor of the launching function's class gives it: a member initialiser (`db(32, n)`,
`db{...}`, `db(dim3(...))`, `db(make_uint3(...))`) or an assignment in a constructor's body (`db =
dim3(32, n);`).  Constructors that disagree, or one that leaves the member unset, decide nothing.  A
part no constant decides (a constructor's parameter) is None: rows of 32 threads are still rows of 32.
"""
from __future__ import annotations

from tree_sitter import Node

from . import fnscopes
from .model import Function, Module
from .source import call_args

_MAKERS = ("dim3", "make_uint3", "make_int3")  # a block's constructors


def _items(src, init: Node) -> list[Node]:
    """The dimension expressions of a member's initialiser: `(32, n)`, `{32, n}`, `(dim3(32, n))`."""
    items = [c for c in init.named_children if c.type != "comment"]
    if len(items) == 1 and items[0].type == "call_expression":
        fn = items[0].child_by_field_name("function")
        if fn is not None and src.text_of(fn) in _MAKERS:
            return call_args(items[0])
    if len(items) == 1 and items[0].type in ("initializer_list", "argument_list"):
        return _items(src, items[0])
    return items


def _initialisers(module: Module, member: str, ctor: str) -> list[list[Node]]:
    """What each place in constructor `ctor` (a fnscopes key) sets `member` to: its dimension expressions."""
    src, out = module.source, []
    for n in src.index.under(src.root, "field_initializer"):
        field = n.named_children[0] if n.named_children else None
        init = n.named_children[-1] if len(n.named_children) > 1 else None
        if field is not None and init is not None and src.text_of(field) == member and \
                fnscopes.owner(module, n) == ctor:
            out.append(_items(src, init))
    for n in src.index.under(src.root, "assignment_expression"):
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if left is None or right is None or src.text_of(left) not in (member, f"this->{member}") or \
                src.text_of(n.child_by_field_name("operator")) != "=" or fnscopes.owner(module, n) != ctor:
            continue
        fn = right.child_by_field_name("function") if right.type == "call_expression" else None
        if fn is not None and src.text_of(fn) in _MAKERS:
            out.append(call_args(right))
        elif right.type == "initializer_list":
            out.append([c for c in right.named_children if c.type != "comment"])
        else:
            out.append([])  # something else: not decided here
    return out


def parts(name: Node, owner: Function | None, module: Module, value) -> tuple[int | None, ...] | None:
    """(x, y, z) of the block a member `name` of `owner`'s class holds, as its constructors set it (a
    part no constant decides: None); None where no constructor of the file sets it, or they disagree.
    `value(node, ctor)`: a dimension's value as constants decide it from the constructor."""
    key = fnscopes.of(module).key(owner) if owner is not None else ""
    if "::" not in key or name.type != "identifier":
        return None
    cls = key.rsplit("::", 1)[0]
    ctor = f"{cls}::{cls.rsplit('::', 1)[-1]}"
    src = module.source
    bodies = [b for d in src.index.under(src.root, "function_definition")
              if (b := d.child_by_field_name("body")) is not None and b.type == "compound_statement"
              and fnscopes.owner(module, b) == ctor]  # (`sha3() = delete;` has none)
    places = _initialisers(module, src.text_of(name), ctor)
    if not bodies or len(places) != len(bodies) or not all(0 < len(p) <= 3 for p in places):
        return None  # a constructor that leaves it unset (dim3's (1, 1, 1)), or sets it twice
    ctors = [f for f in module.functions.values() if fnscopes.of(module).key(f) == ctor]
    got = {tuple(value(d, ctors[0] if ctors else None) for d in p) + (1,) * (3 - len(p)) for p in places}
    return next(iter(got)) if len(got) == 1 else None
