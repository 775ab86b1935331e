"""Local references bound to memory outside the thread: `bvh_node& node = nodes[i];` (cuda-lbvh's build.cu),
`const T& x = buf[i]`, `float& s = tile[ty][tx]`.  In MSL an unqualified reference is a `thread` reference, so
one bound to a device (or threadgroup, constant) object must say so: its space is its initialiser's, the object's
where it lives, as a local pointer's is where its initialiser points (spaces.local_pointers).  The reference is
then written `device bvh_node& node`, per specialisation of a helper, and an expression through it
(`&node.visited`, passed to an atomic) is in that space.  A reference whose object stays in thread memory,
or whose initialiser's space the model cannot tell (a const reference may bind a temporary) in every
specialisation, is left as written (a thread reference; the checker refuses a wrong one at its line).  A list
initialiser of one element, `float& r{tile[i]}`, binds that element (stop 65).  `float& r(tile[i])` parses as a
function's declaration (a parameter of type `tile`, an array of it): where `tile` names no type and is a
variable the function sees (a parameter, a local, a `__shared__` array or program-scope variable), it binds
that element, and takes its space the same way (metal66; main left it to the checker, refused);
`float (&row)[8] = tile2[i]`, which the grammar reads as an expression, is alias_pointers.array_pointer_statement's."""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import ident_name


class ReferenceSpaces:
    """Mixin of MetalTranslator: `local_references`, run by local_pointers on each local declaration."""

    def local_references(self, f: Function, decl: Node) -> None:
        """Give each `T& r = lvalue` declarator of `decl` its object's space (all of them one space)."""
        refs = []
        for d in decl.children_by_field_name("declarator"):
            if (paren := self._paren_bound_object(f, d)) is not None:  # `float& r(tile[i])`
                refs.append((ident_name(d), paren))
                continue
            inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else None
            if inner is None or inner.type != "reference_declarator" or \
                    not any(c.type == "identifier" for c in inner.named_children):
                continue  # `T*& r` and the like: where the pointer points is another question
            value = d.child_by_field_name("value")
            if value is not None and value.type == "initializer_list":  # `float& r{tile[i]}`: the one element
                items = [c for c in value.named_children if c.type != "comment"]
                value = items[0] if len(items) == 1 else None
            refs.append((ident_name(d), value))
        if not refs or len(refs) != len(decl.children_by_field_name("declarator")):
            return  # a reference declared beside a value: the space written on the type would be the value's too
        sigs = [()] if f.is_kernel else self.plan_of(f).sigs

        def space(sig, init) -> str | None:
            return self._lvalue_at(f, sig, init)
        spaces = {space(sig, init) for sig in sigs for _, init in refs}
        if not spaces - {None, "thread"} or any(len({space(sig, i) for _, i in refs}) > 1 for sig in sigs):
            return  # every object in thread memory (or unknown), or objects of different spaces declared together
        for name, init in refs:
            self.local_spaces[(f.name, name)] = lambda sig, init=init: space(sig, init) or "thread"
        self._dynamic_prefix(decl.child_by_field_name("type"), lambda sig: space(sig, refs[0][1]) or "thread")

    def _paren_bound_object(self, f: Function, d: Node) -> Node | None:
        """The name whose element (or whole object) `T& r(name[i]...)` binds, as the grammar reads it: a
        reference to a function of one parameter, `name` its type and the indices array declarators; None
        where `name` is a type or no variable of f (a real prototype: `float& g(int)`)."""
        fd = d.named_children[0] if d.type == "reference_declarator" and d.named_child_count == 1 else None
        if fd is None or fd.type != "function_declarator":
            return None
        params = fd.child_by_field_name("parameters")
        ps = [c for c in params.named_children if c.type != "comment"] if params is not None else []
        if len(ps) != 1 or ps[0].type != "parameter_declaration" or ps[0].named_child_count > 2:
            return None
        obj, sub = ps[0].child_by_field_name("type"), ps[0].child_by_field_name("declarator")
        while sub is not None and sub.type == "abstract_array_declarator":
            sub = sub.child_by_field_name("declarator")
        name = self.src.text_of(obj) if obj is not None and obj.type == "type_identifier" else None
        if name is None or sub is not None or name in self._type_names() or not (
                f.param(name) is not None or self._local_decl(f, name) is not None
                or any(s.name == name and s.function in (f.name, None) for s in self.module.shared)
                or name in self._program_constants()):
            return None
        return obj

    def _lvalue_at(self, f: Function, sig, expr: Node | None) -> str | None:
        """Where the object `expr` names lives, under the helper's specialisation `sig`."""
        return self._space_at(f, sig, expr, self._space_of_lvalue) if expr is not None else None
