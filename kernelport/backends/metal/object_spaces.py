"""The address space of the object a member function is called on: MSL's `this`.

In MSL a member function with no address-space qualifier is a `thread` object's.  A call on an
object in device, constant or threadgroup memory (a kernel's struct argument, `constant DeviceGrid&
grid` of gpu-path-planning's raycast kernel calling `grid.inBounds(x, y)`; `p->f()` of a device
pointer; `s[i].f()` of threadgroup memory) needs an overload qualified with that space,
`int idx(int x) const constant { ... }`, as MLX's bfloat16 type writes its conversions once per
space.  (C++ for OpenCL, which the checker runs, gives `this` the generic space, which takes device
and threadgroup objects but not constant ones.)  Each call site's object space, where not `thread`, is
one more element of the member's address-space signature (spaces.py's plan_calls), after its pointer
and reference parameters'; the member is rendered once per signature, the qualifier after its
parameter list.
A member called without an object (`idx(x, y)` in `inBounds`) is called on the caller's `this`.

A member defined out of its class that writes none of its object (or is `const`) is called on a thread
copy of the object (object_copies.py); another gets the qualifier on its definition and on its declaration
in the class (stop 64: operator_calls.py's out_of_class_twin), or, where that is not sound to check, is
refused by the checker, which gives unqualified members a thread object (check/thread_members.py).
A `constant` object is read-only: a member that is not `const` called on a kernel's by-value
argument makes that argument a thread copy, as CUDA's by-value parameter is (argcopies.py).
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import ident_name

_OBJECT_SPACES = ("device", "constant", "threadgroup")


class ObjectSpaces:
    """Mixin of MetalTranslator: member functions' object spaces (queried by plan_calls and rendering)."""

    def in_class_member(self, h: Function) -> bool:
        """A non-static member function defined in its class body."""
        parent = h.node.parent
        if h.template_node is not None:
            parent = h.template_node.parent
        return parent is not None and parent.type == "field_declaration_list" and \
            not any(self.src.text_of(c) == "static" for c in h.node.children if c.type == "storage_class_specifier")

    def const_member(self, h: Function) -> bool:
        """`int idx(int x) const`: the function declarator's own `const`."""
        d = self._declarator(h)
        return any(c.type == "type_qualifier" and self.src.text_of(c) == "const" for c in d.children)

    def object_space(self, call: Node, f: Function, h: Function) -> str:
        """Where the object of `call` (a call of member `h` from `f`, or `a += b` of its operator) lives."""
        if call.type == "assignment_expression":  # (operator_calls.py: the left operand)
            return self._space_of_lvalue(call.child_by_field_name("left"), f) or "thread"
        fn = call.child_by_field_name("function")
        if fn is not None and fn.type == "template_function":
            fn = fn.child_by_field_name("name")
        if fn is None or fn.type == "identifier":  # `idx(x, y)` in a member: the caller's own object
            local = fn is not None and self._local_decl(f, self.src.text_of(fn)) is not None  # a functor
            return self.this_space(f) if self.twin_member(f) and not local else "thread"
        if fn.type != "field_expression":
            return "thread"
        obj = fn.child_by_field_name("argument")
        if self.src.text_of(fn.child_by_field_name("operator") or fn) == "->":
            return self.space_of(obj, f) or "device"
        if f.is_kernel and obj is not None and obj.type == "identifier":
            p = f.param(self.src.text_of(obj))
            if p is not None and not p.pointer and self._local_decl(f, p.name) is None:
                # a by-value argument: `constant T&` unless the kernel changes or calls it (then a thread copy)
                return "thread" if self.copied_argument(f, p.name) else "constant"
        space = self._space_of_lvalue(obj, f) if obj is not None else None
        return space or "thread"

    def this_space(self, f: Function) -> str:
        """The object space of member `f` in the signature being rendered or planned."""
        sig = self.cur_sig.get(f.name) or ()
        n = len(self.spaced_params(f))
        return sig[n] if len(sig) > n else "thread"

    def own_field_space(self, f: Function, name: str) -> str | None:
        """Where `name`, read bare in member `f` (`ModP(val_)` in `FFP::Mul`), lives when it is a
        non-static data member of f's class: in the object f is called on (None: not such a member)."""
        if not self.twin_member(f):
            return None
        bodies = [(f.template_node or f.node).parent] if self.in_class_member(f) else \
            self._class_bodies(f.name.rsplit("::", 1)[0]) or []  # (out of its class: operator_calls.py)
        for fd in (fd for body in bodies for fd in body.named_children):
            if fd.type != "field_declaration" or any(self.src.text_of(c) in ("static", "constexpr")
                                                     for c in fd.children if c.type == "storage_class_specifier"):
                continue
            if any(ident_name(d) == name for d in fd.children_by_field_name("declarator")):
                return self.this_space(f)
        return None

    def object_qualifier(self, h: Function, sig: tuple[str, ...]) -> str | None:
        """The qualifier member `h` is written with for signature `sig` (None: a thread object's)."""
        n = len(self.spaced_params(h))
        space = sig[n] if len(sig) > n else "thread"
        return space if space in _OBJECT_SPACES else None

    def with_object_space(self, call: Node, f: Function, h: Function, hsig: list[str]) -> list[str]:
        """`hsig` with the object's space of `call` added, where `h` is a member it is spelt for: a
        `constant` object only for a `const` member (another one cannot be called on it in Metal,
        and keeps the thread `this`: the checker refuses the call)."""
        if not self.in_class_member(h) and not self.out_of_class_twin(h):
            return hsig
        space = self.object_space(call, f, h)
        if space == "thread" or space == "constant" and not self.const_member(h):
            return hsig  # a thread object's signature is the one a member had without this element
        return hsig + [space]
