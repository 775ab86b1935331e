"""Uses of a library type's members and the type they are used on: cooperative groups' calls
(`block.group_dim()`) and runtime structs' fields (`prop.sharedMemPerMultiprocessor`).

The type is known from the receiver: a call of `this_thread_block()` / `this_grid()`, or a name
declared with the type (`cg::thread_block block`, `const cudaDeviceProp &p`) or as `auto` from
such a call.  A type the file declares itself (its own `thread_block`) is not the library's."""
from __future__ import annotations

import re

from tree_sitter import Node

# The group each factory returns.
FACTORIES = {"this_thread_block": "thread_block", "this_grid": "grid_group"}
GROUPS = ("thread_block", "grid_group", "thread_block_tile")
# The words one of which a file's bytes hold wherever `receiver_group` finds a group: a declared
# type's name, a factory's, `tiled_partition<N>` (each of GROUPS and FACTORIES holds one of them).
_GROUP_WORDS = (b"thread_block", b"grid_group", b"this_grid", b"tiled_partition")
_SCOPES = ("function_definition", "translation_unit", "lambda_expression")


def _last_name(text: str) -> str:
    """`cg::thread_block_tile<cfg::tile>` -> `thread_block_tile<cfg::tile>` (a `::` in its arguments stays)."""
    head, lt, args = text.replace(" ", "").partition("<")
    return head.rsplit("::", 1)[-1] + lt + args


def base(group: str) -> str:
    """A group type's template name: `thread_block_tile<32>` -> `thread_block_tile`."""
    return group.split("<", 1)[0]


class _Scopes:
    """Each scope's declarations listed once, and each name's type in a scope looked up once, for
    one pass over a file (a walk of the scope per use made the pass quadratic in the file's size)."""

    def __init__(self) -> None:
        self.decls: dict[int, list[Node]] = {}
        self.found: dict[tuple[int, str], str | None] = {}

    def group(self, scope: Node, name: str, src) -> str | None:
        key = (scope.id, name)
        if key not in self.found:
            if scope.id not in self.decls:
                self.decls[scope.id] = list(_walk_decls(scope))
            self.found[key] = next((t for n in self.decls[scope.id] if (t := _decl_group(n, name, src, self))
                                    is not None), None) or _tile_declared(scope, name, src)
        return self.found[key]


def _scopes_of(src) -> _Scopes:
    """The parse's one _Scopes: what it holds reads nothing but the tree and its text, so every pass over
    the parse shares it (each translator's passes and a file's several `tiled_partition` calls made their own)."""
    got = src.__dict__.get("_kp_member_scopes")
    if got is None:
        got = src.__dict__["_kp_member_scopes"] = _Scopes()
    return got


def _declared_type(name: str, use: Node, src, scopes: _Scopes) -> str | None:
    """The group type of `name` where `use` reads it: its declaration in the enclosing function
    (a parameter or a local), else at file scope."""
    scope = use.parent
    while scope is not None:
        if scope.type in _SCOPES:
            t = scopes.group(scope, name, src)
            if t is not None:
                return t
        scope = scope.parent
    return None


def _tile_declared(scope: Node, name: str, src) -> str | None:
    """`cg::thread_block_tile<32> warp = ...;`, which the grammar reads as two comparisons (it does not
    know the template): the tile's type, from the scope's text."""
    m = re.search(rf"\bthread_block_tile\s*<\s*([^<>;,]+?)\s*(?:,[^<>;]*)?>\s*(?:const\s*)?&?\s*"
                  rf"{re.escape(name)}\b",
                  src.text_of(scope))
    return f"thread_block_tile<{m.group(1)}>" if m else None


def _walk_decls(scope: Node):
    stack = [scope]
    while stack:
        n = stack.pop()
        if n.type in ("parameter_declaration", "declaration"):
            yield n
        stack.extend(c for c in n.children if c.type not in ("function_definition",) or n == scope)


def _decl_group(decl: Node, name: str, src, scopes: _Scopes) -> str | None:
    typ = decl.child_by_field_name("type")
    for d in decl.children_by_field_name("declarator"):
        init = d.child_by_field_name("value") if d.type == "init_declarator" else None
        inner = d
        while inner is not None and inner.type not in ("identifier",):
            inner = inner.child_by_field_name("declarator") or next(
                (c for c in inner.named_children if c.type in ("identifier", "reference_declarator",
                                                               "pointer_declarator", "init_declarator")), None)
        if inner is None or src.text_of(inner) != name or typ is None:
            continue
        t = _last_name(src.text_of(typ).replace("struct ", ""))
        if t == "auto" and init is not None:
            return receiver_group(init, src, scopes)
        return t
    return None


def receiver_group(recv: Node, src, scopes: _Scopes | None = None) -> str | None:
    """The declared type of the expression `recv` (a name, or a group factory's call), or None."""
    while recv.type == "parenthesized_expression" and recv.named_children:
        recv = recv.named_children[0]
    if recv.type == "call_expression":
        fn = recv.child_by_field_name("function")
        head, lt, args = src.text_of(fn).replace(" ", "").partition("<") if fn is not None else ("", "", "")
        tile = re.fullmatch(r"tiled_partition<([^<>()]+)>", head.rsplit("::", 1)[-1] + lt + args)  # (a qualified size)
        if tile is not None:  # `auto warp = cg::tiled_partition<32>(block);` (or `<btree::branching_factor>`)
            return f"thread_block_tile<{tile.group(1)}>"
        return FACTORIES.get(_last_name(src.text_of(fn))) if fn is not None else None
    if recv.type == "subscript_expression" or recv.type == "pointer_expression" and recv.children[0].type == "*":
        inner = recv.child_by_field_name("argument")  # `auto &r = props[1];`, `auto g = *gp;`: the element's type
        return receiver_group(inner, src, scopes) if inner is not None else None
    if recv.type == "identifier":
        return _declared_type(src.text_of(recv), recv, src, scopes if scopes is not None else _scopes_of(src))
    return None


def own_types(src) -> set[str]:
    """The type names the file defines (a struct or class with a body, a typedef, a `using`)."""
    out = set()
    for n in src.index.of_types("struct_specifier", "class_specifier", "alias_declaration", "type_definition"):
        if n.type in ("struct_specifier", "class_specifier") and n.child_by_field_name("body") is not None \
                or n.type == "alias_declaration":
            name = n.child_by_field_name("name")
        elif n.type == "type_definition":
            name = n.child_by_field_name("declarator")
        else:
            continue
        if name is not None:
            out.add(src.text_of(name))
    return out


def _may_name(src, words: tuple[bytes, ...]) -> bool:
    """Whether the file's bytes (what `text_of` reads) hold one of `words`: the types `receiver_group`
    can find are spelled in the file, so a file without them has no use to find (the declarations
    and receivers are not walked)."""
    return any(w in src.data for w in words)


def _names_of(src, types: set[str]) -> set[str]:
    """Names declared anywhere with one of `types` (or `auto`): the only receivers worth resolving."""
    out = set()
    for n in src.index.of_types("parameter_declaration", "declaration"):
        typ = n.child_by_field_name("type")
        if typ is None or base(_last_name(src.text_of(typ).replace("struct ", ""))) not in (*types, "auto"):
            continue
        for d in n.children_by_field_name("declarator"):
            out.update(src.text_of(i) for i in _identifiers(d))
    if "thread_block_tile" in types:  # a tile's declaration the grammar read as comparisons (_tile_declared)
        out.update(re.findall(r"\bthread_block_tile\s*<[^<>;]*>\s*(?:const\s*)?&?\s*([A-Za-z_]\w*)", src.text))
    return out


def _identifiers(node: Node):
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            yield n
        elif n.type != "argument_list":
            stack.extend(n.named_children)


def _worth(recv: Node | None, src, names: set[str]) -> bool:
    return recv is not None and (recv.type != "identifier" or src.text_of(recv) in names)


def member_calls(src) -> list[tuple[Node, str, str]]:
    """(call, group type, member) for each `g.member(...)` / `g->member(...)` on a cooperative group (a
    tile's type with its size: `thread_block_tile<32>`)."""
    if not _may_name(src, _GROUP_WORDS):  # no group is named: no receiver can be one (nothing to resolve)
        return []
    if own_types(src) & set(GROUPS):  # the file's own type of that name: not cooperative groups'
        return []
    out, names, scopes = [], _names_of(src, set(GROUPS)), _scopes_of(src)
    for n in src.index.of_type("call_expression"):  # the file's index: no walk of every node
        fn = n.child_by_field_name("function")
        if fn is None or fn.type != "field_expression":
            continue
        recv, field = fn.child_by_field_name("argument"), fn.child_by_field_name("field")
        group = receiver_group(recv, src, scopes) if _worth(recv, src, names) and field is not None else None
        if group is not None and base(group) in GROUPS:
            out.append((n, group, src.text_of(field)))
    return out


def tiles_of_blocks(src) -> bool:
    """Every `tiled_partition<N>(parent)` of the file partitions a thread block (this_thread_block() or
    a name declared `thread_block`): a tile's rank among its siblings is then the block's linear thread
    rank over N (a tile of a tile counts within its parent tile).  Once per parse (a translator asks at each
    tile member it rewrites)."""
    got = src.__dict__.get("_kp_tiles_of_blocks")
    if got is None:
        got = src.__dict__["_kp_tiles_of_blocks"] = _tiles_of_blocks(src)
    return got


def _tiles_of_blocks(src) -> bool:
    scopes = _scopes_of(src)
    for n in src.index.of_type("call_expression"):
        fn, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
        if fn is None or args is None or "tiled_partition" not in src.text_of(fn):
            continue
        parent = [a for a in args.named_children if a.type != "comment"]
        if len(parent) != 1 or receiver_group(parent[0], src, scopes) != "thread_block":
            return False
    return True


def field_uses(src, types: set[str]) -> list[tuple[Node, str, str]]:
    """(field node, type, field) for each `s.field` / `s->field` read on a value of one of `types`
    (a call's `g.f()` is member_calls')."""
    if not _may_name(src, tuple(t.encode() for t in types) + (_GROUP_WORDS if set(types) & set(GROUPS) else ())):
        return []  # no type of `types` is named: no receiver has one (an `auto` one is a group's)
    aliases = {a: t for a, t in _aliases(src).items() if t in types}  # `typedef cudaDeviceProp Prop;`
    types = types - own_types(src)
    named = types | set(aliases)
    out, names, scopes = [], _names_of(src, named) if types else set(), _scopes_of(src)
    members = _members(src, named) if types else {}
    for n in src.index.of_type("field_expression") if names or members else ():
        if (n.parent is not None and n.parent.type == "call_expression"
                and n.parent.child_by_field_name("function") == n):
            continue
        recv, field = _element(n.child_by_field_name("argument")), n.child_by_field_name("field")
        if recv is not None and recv.type == "field_expression":  # `h.prop.x`: a member the file declares so
            f = recv.child_by_field_name("field")
            t = members.get(src.text_of(f)) if f is not None else None
        else:
            t = receiver_group(recv, src, scopes) if recv is not None and recv.type == "identifier" and \
                src.text_of(recv) in names and field is not None else None
        t = aliases.get(t, t)
        if t in types and field is not None:
            out.append((field, t, src.text_of(field)))
    return out


def _element(recv: Node | None) -> Node | None:
    """The value whose type a receiver's is: `prop[0]`, `(*pp)`, `(p)` -> the name or member inside."""
    while recv is not None and (recv.type in ("subscript_expression", "parenthesized_expression") or
                                recv.type == "pointer_expression" and recv.children[0].type == "*"):
        recv = recv.child_by_field_name("argument") if recv.type != "parenthesized_expression" else \
            (recv.named_children[0] if recv.named_children else None)
    return recv


def _aliases(src) -> dict[str, str]:
    """The file's type aliases of a named type: alias -> the type's last name (`typedef struct cudaDeviceProp P;`)."""
    out = {}
    for n in src.index.of_types("alias_declaration", "type_definition"):
        name = n.child_by_field_name("name" if n.type == "alias_declaration" else "declarator")
        typ = n.child_by_field_name("type")
        if name is not None and typ is not None and name.type in ("type_identifier", "identifier") and \
                typ.child_by_field_name("body") is None:
            out[src.text_of(name)] = _last_name(src.text_of(typ).replace("struct ", "").replace("const ", ""))
    return out


def _members(src, types: set[str]) -> dict[str, str]:
    """Struct members declared with one of `types` (not pointers' or arrays' element: the member itself, or
    an array of it), by name; a name the file also declares as a member of another type is left out."""
    out: dict[str, str | None] = {}
    for fd in src.index.of_type("field_declaration"):
        typ = fd.child_by_field_name("type")
        t = _last_name(src.text_of(typ).replace("struct ", "")) if typ is not None else ""
        for d in fd.children_by_field_name("declarator"):
            while d is not None and d.type == "array_declarator":
                d = d.child_by_field_name("declarator")
            if d is None or d.type != "field_identifier":
                continue
            name = src.text_of(d)
            out[name] = t if t in types and out.get(name, t) == t else None
    return {n: t for n, t in out.items() if t is not None}


# Values that leave a runtime struct's flag or count at what a zeroed struct holds (CUDA's default).
_ZERO = re.compile(r"(false|0[uUlL]*|0?\.0*[fF]?|0\.[fF]?|nullptr|NULL)")


def default_assignment(src, node: Node) -> Node | None:
    """The statement `d.field = 0;` (false, 0.0f, nullptr: a zeroed struct's value) whose field is
    `node`, or None: setting a field the target's struct lacks to its default asks nothing of it."""
    fe = node.parent
    asg = fe.parent if fe is not None and fe.type == "field_expression" else None
    if asg is None or asg.type != "assignment_expression" or asg.child_by_field_name("left") != fe:
        return None
    op, right = asg.child_by_field_name("operator"), asg.child_by_field_name("right")
    stmt = asg.parent
    if op is None or src.text_of(op) != "=" or right is None or not _ZERO.fullmatch(src.text_of(right).strip()) or \
            stmt is None or stmt.type != "expression_statement":
        return None
    return stmt


def drop_default(tr, node: Node, typ: str, name: str) -> bool:
    """Leave out of the port the assignment of a zeroed struct's value to a field `typ` lacks on the
    target (DoseCUDA's `txdesc.disableTrilinearOptimization = false;`: ROCm 5.2's hipTextureDesc has
    no such field, and false asks for what every texture gets there); True where it did."""
    stmt = default_assignment(tr.src, node)
    if stmt is None:
        return False
    from . import backends
    table = backends.get(tr.backend).api()
    said, ours = tr.src.text_of(stmt).replace("*/", "* /"), table.spelling(typ) if table is not None else typ
    tr.rw.replace(stmt, f"/* {said} (kernelport: {ours} has no {name}; this value is its default) */")
    tr._api_note(stmt, said, "(left out)", "struct field")
    return True
