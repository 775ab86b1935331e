"""Members that return the address of a data member of their object (`ADSR* getFreqAdsr() { return
&lfoFreq; }`, CudaSynth's kernel.h on the fifty-sixth held-out set, called as `start->getFreqAdsr()` on a
device `LFO *start`): the pointer points where the object is, so its space is the object's at each call
site (`this`'s space of the specialisation being rendered: object_spaces.py), and the member's return
type is written in that space (`device ADSR* getFreqAdsr() device`).  A member whose returns are
anything else (a parameter, a pointer member's value, a local) gives no space: KP215 stays, located.
A const/non-const pair of such members (`getFreqAdsr() const` beside `getFreqAdsr()`) is planned as
one: each gets every call site's signature, whichever of the two C++ picks."""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import walk


class MemberReturns:
    """Mixin of MetalTranslator: the space of `obj->getter()` and the getter's return type."""

    def returns_own_member(self, h: Function) -> bool:
        """h is an in-class member returning a pointer, every return of which is `&m`, `&this->m` (m a
        non-static data member) or `this`."""
        memo = self.__dict__.setdefault("_kp_returns_own_member", {})
        if id(h) not in memo:
            memo[id(h)] = self._returns_own_member(h)
        return memo[id(h)]

    def _returns_own_member(self, h: Function) -> bool:
        d = h.node.child_by_field_name("declarator")
        if d is None or d.type != "pointer_declarator" or not self.in_class_member(h) or h.body is None:
            return False
        rets = [n for n in walk(h.body) if n.type in ("return_statement", "lambda_expression")]
        return bool(rets) and all(n.type == "return_statement" and n.named_child_count == 1 and
                                  self._own_address(h, n.named_children[0]) for n in rets)

    def _own_address(self, h: Function, e: Node) -> bool:
        while e.type == "parenthesized_expression" and e.named_child_count == 1:
            e = e.named_children[0]
        if e.type == "this":
            return True
        if e.type != "pointer_expression" or self.src.text_of(e.child_by_field_name("operator")) != "&":
            return False
        m = e.child_by_field_name("argument")
        if m.type == "field_expression" and self.src.text_of(m.child_by_field_name("argument")) == "this":
            m = m.child_by_field_name("field")
        name = self.src.text_of(m)
        return m.type in ("identifier", "field_identifier") and h.param(name) is None and \
            self._local_decl(h, name) is None and self.own_field_space(h, name) is not None

    def member_overloads(self, fn: Node) -> list[Function]:
        """The device members `obj.f` / `obj->f` may call where f names several, all defined in one class
        body with the same parameters (a const/non-const pair) and all returning their own member's
        address: each is planned with the call's signature.  [] otherwise."""
        field = fn.child_by_field_name("field")
        name = self.src.text_of(field) if field is not None else ""
        found = [h for h in self.helpers.values() if h.name.split("::")[-1] == name]
        if len(found) < 2 or len({(h.template_node or h.node).parent.id for h in found}) != 1 or \
                len({len(h.params) for h in found}) != 1 or not all(self.returns_own_member(h) for h in found):
            return []
        return found

    def member_return_space(self, call: Node, f: Function) -> str | None:
        """The space `obj->getter()` / `obj.getter()` / `getter()` (in a member) points into: its
        object's, where every device function of that name returns its own member's address."""
        space = self._member_return_space(call, f)
        # a thread object's getter stays unqualified, its `this` generic to the checker (check/thread_this.py):
        # its pointer's space is not written (KP215, as before)
        return space if space in ("device", "threadgroup", "constant") else None

    def _member_return_space(self, call: Node, f: Function) -> str | None:
        fn = call.child_by_field_name("function")
        if fn is None or fn.type not in ("field_expression", "identifier"):
            return None
        name = self.src.text_of(fn.child_by_field_name("field") if fn.type == "field_expression" else fn)
        found = [h for h in self.helpers.values() if h.name.split("::")[-1] == name]
        if not found or not all(self.returns_own_member(h) for h in found):
            return None
        if fn.type == "identifier":  # `getter()` in a member: the caller's own object
            return self.this_space(f) if self.in_class_member(f) and self._local_decl(f, name) is None else None
        obj = fn.child_by_field_name("argument")
        if self.src.text_of(fn.child_by_field_name("operator")) == "->":
            return self.space_of(obj, f)
        space = self.object_space(call, f, found[0])  # a kernel's by-value struct: `constant` (object_spaces.py)
        return None if space == "constant" and not all(self.const_member(h) for h in found) else space

    def member_return_types(self) -> None:
        """Each own-member getter's return type in its object's space, per specialisation (a thread
        object's: unqualified, as its `this` is)."""
        for h in self.helpers.values():
            if self.returns_own_member(h) and (t := h.node.child_by_field_name("type")) is not None:
                self._dynamic_prefix(t, lambda sig, h=h: self.object_qualifier(h, sig) or "")
