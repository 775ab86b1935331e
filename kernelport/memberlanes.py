"""Warp-size values held in class members, for warpflow.

cub-style warp classes compute their lane once, in the constructor, and keep it in a field
(mamba's WarpReverseScan: `: lane_id(threadIdx.x & 0x1f)`), then read the field in the methods that
shuffle.  warpflow follows values through a function's variables; here a member is one more variable,
shared by the methods of its class: what a method (the constructor's initializer list included)
stores in it is what every method of that class reads from it, unless the method declares a variable
of the same name.  So `threadIdx.x & 0x1f` in an initializer list is a lane wherever a method tests
the member against a lane bound, as it would be in one function.

A member array sized one slot per 32 threads (flashinfer's `T deterministic_scan[BLOCK_THREADS / 32]`
in the temp-storage union a kernel keeps in shared memory) is a per-warp array: a local pointer
taken to it (`T* smem_prefix_sum = temp_storage->block_prim.deterministic_scan;`) is indexed per
warp as a `__shared__` array of that size is.
"""
from __future__ import annotations

from tree_sitter import Node

from .model import Function
from .source import ident_name, walk
from .warpsites import WARP_SIZE_NAME, int_value

_CLASSES = ("struct_specifier", "class_specifier")


def _class_of(node: Node) -> Node | None:
    p = node.parent
    while p is not None:
        if p.type in _CLASSES:
            return p
        if p.type in ("function_definition", "translation_unit"):
            return None
        p = p.parent
    return None


def _declared_by(nodes, kind: str) -> frozenset[str]:
    """The names the `kind` nodes among `nodes` declare (`unsigned lane_id, warp_id;`: both)."""
    return frozenset(x for n in nodes if n.type == kind for d in n.children_by_field_name("declarator")
                     if (x := ident_name(d)))


class MemberLanes:
    """What each class's members hold, the union over its methods (kept by the analyzer)."""

    def __init__(self, az):
        self.az = az
        self.classes: dict[str, Node | None] = {}  # function key (fnscopes) -> its class (None: not a method)
        self.members: dict[int, frozenset[str]] = {}  # class node id -> its fields
        self.locals: dict[str, frozenset[str]] = {}  # function key -> the names it declares
        self.held: dict[tuple[int, str], frozenset] = {}  # (class id, member) -> facts
        self.methods: dict[int, list[Function]] = {}  # class node id -> the methods defined in it
        self.per_warp = self._per_warp_fields()
        self.pointed: set[str] = set()  # keys of the functions whose pointers to per-warp members are known

    def _fields(self, cls: Node) -> frozenset[str]:
        if cls.id not in self.members:
            body = cls.child_by_field_name("body")
            self.members[cls.id] = _declared_by(body.named_children if body is not None else (), "field_declaration")
        return self.members[cls.id]

    def _declared(self, f: Function) -> frozenset[str]:
        k = self.az.scopes.key(f)
        if k not in self.locals:
            own = _declared_by(walk(f.body) if f.body is not None else (), "declaration")
            self.locals[k] = own | {p.name for p in f.params}
        return self.locals[k]

    def _methods(self, cls: Node) -> list[Function]:
        if cls.id not in self.methods:
            self.methods[cls.id] = [g for g in self.az.m.functions.values()
                                    if (c := self.classes.setdefault(self.az.scopes.key(g), _class_of(g.node)))
                                    is not None and c.id == cls.id]
        return self.methods[cls.id]

    def _initialize(self, g: Function, fields: frozenset[str]) -> None:
        """A constructor's initializer list, `: lane_id(threadIdx.x & 0x1f), ...`, as stores in its
        environment, in order (a later initializer reads an earlier member)."""
        az = self.az
        for init in (c for c in g.node.named_children if c.type == "field_initializer_list"):
            for fi in init.named_children:
                name = next((az.src.text_of(c) for c in fi.named_children if c.type == "field_identifier"), None)
                args = next((c for c in fi.named_children if c.type in ("argument_list", "initializer_list")), None)
                if name in fields and args is not None:
                    az.bind(name, frozenset().union(*(az.ex(a) for a in args.named_children)))

    def _per_warp_fields(self) -> frozenset[str]:
        """Member arrays of the file's classes sized `N / 32` (or `N / WARP_SIZE`): one slot per warp."""
        src, out = self.az.src, set()
        for d in src.index.of_type("field_declaration"):
            for decl in d.children_by_field_name("declarator"):
                size = decl.child_by_field_name("size") if decl.type == "array_declarator" else None
                right = size.child_by_field_name("right") if size is not None and size.type == "binary_expression" else None
                if right is None or src.text_of(size.child_by_field_name("operator")) != "/":
                    continue
                if int_value(src.text_of(right)) == 32 or WARP_SIZE_NAME.search(src.text_of(right)):
                    name = ident_name(decl)
                    if name:
                        out.add(name)
        return frozenset(out)

    def _point(self, f: Function) -> None:
        """`T* p = storage->union.per_warp_member;`: p indexes a per-warp array (warpflow's shared names)."""
        az = self.az
        self.pointed.add(az.scopes.key(f))
        for n in (walk(f.body) if f.body is not None and self.per_warp else ()):
            if n.type != "init_declarator":
                continue
            v, d = n.child_by_field_name("value"), n.child_by_field_name("declarator")
            if v is not None and v.type == "field_expression" and d is not None and d.type == "pointer_declarator" \
                    and az.src.text_of(v.child_by_field_name("field")) in self.per_warp and (name := ident_name(d)):
                az.work.grow(az.shared_names, name)

    def seed(self, f: Function) -> None:
        """Before `f`'s pass: what the members of its class hold, from every method's stores (the
        constructors' initializer lists included, though a constructor that reaches no warp-level
        code is not passed itself)."""
        az = self.az
        k = az.scopes.key(f)
        if k not in self.pointed:
            self._point(f)
        if k not in self.classes:
            self.classes[k] = _class_of(f.node)
        cls = self.classes[k]
        if cls is None:
            return
        fields = self._fields(cls)
        methods = self._methods(cls)
        own = az.fn, az.cur
        try:
            for g in methods:
                az.fn, az.cur = g, az.scopes.key(g)
                self._initialize(g, fields - self._declared(g))
        finally:
            az.fn, az.cur = own
        grown = False
        for g in methods:
            for name in fields - self._declared(g):
                stored = az.work.read(az.env, (az.scopes.key(g), name))
                held = self.held.get((cls.id, name), frozenset())
                if not stored <= held:
                    self.held[(cls.id, name)] = held | stored
                    grown = True
        for name in fields - self._declared(f):
            if self.held.get((cls.id, name)):
                az.bind(name, self.held[(cls.id, name)])
        if grown:  # the other methods of the class read it: pass them again
            for g in methods:
                if g is not f:
                    az.work.touch_name(az.scopes.key(g))
            az.changed = True
