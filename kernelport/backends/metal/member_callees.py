"""The functions a call may run, its member calls resolved by the object's class (stop 64).

Two classes may each have a member of one name (sliding-puzzle's host `PatternDataBase::get_hash_value`
beside the device `local_pdb::get_hash_value`; a `put` that writes memory beside one that does not).
Followed by its name only, a call `w.put(q)` took the first function of that name the file defines:
callee_writes.py then judged the other class's `put`, and a member that writes through `q` was copied
as one that writes nothing (a wrong port: `C(*c).get(&c->v)` returned the old `v`).

`obj.f(...)` / `obj->f(...)` / `this->f(...)` with the object's class known from what the code writes
(member_arrays.py: a local, parameter or file-scope variable of a class this file defines, `this` in a
member) runs that class's members of the name (`d.B::put(q)`: B's, the base's member a derived one hides);
a class that has none (an inherited member) and every other call (unknown object, a free function, a
functor) may run any function of the name.  `C::f(...)` runs C's.
"""
from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace

from tree_sitter import Node

from ...host_typed_functors import _classes as classes
from ...member_arrays import _object_class, enclosing_class
from ...model import Function
from ...source import SourceFile


def member_class(src: SourceFile, g: Function) -> Node | None:
    """The class (its specifier node) g is a member of: defined in its body or out of it as `C::g`."""
    return enclosing_class(SimpleNamespace(src=src), g.node)


def object_class(src: SourceFile, fn: Node) -> Node | None:
    """The class of the object of `fn`, a call's field_expression (`obj.f`, `obj->f`, `this->f`); None
    where it is not known (a chain, a subscript, a call, a class no body here defines)."""
    obj, op, field = (fn.child_by_field_name(k) for k in ("argument", "operator", "field"))
    if obj is None or op is None:
        return None
    if field is not None and field.type == "qualified_identifier":  # `d.B::put(q)`: B's, whatever d's class
        scope = field.child_by_field_name("scope")
        return classes(src).get(src.text_of(scope)) if scope is not None and scope.type == "namespace_identifier" \
            else None
    arrow = src.text_of(op) == "->"
    tr = SimpleNamespace(src=src)
    if obj.type == "this":
        return enclosing_class(tr, fn) if arrow else None
    return _object_class(tr, obj, arrow) if obj.type == "identifier" else None


def candidates(src: SourceFile, call: Node, name: str, functions: Iterable[Function]) -> list[Function]:
    """The functions of `functions` named `name` (last part) that `call` may run: for a member call on an
    object of a known class, that class's (where it has one of the name); else every one of the name."""
    same = [g for g in functions if g.name.split("::")[-1] == name]
    fn = call.child_by_field_name("function")
    if fn is None or fn.type != "field_expression" or len(same) < 2:
        return same
    rec = object_class(src, fn)
    own = [g for g in same if rec is not None and member_class(src, g) == rec]
    return own or same

