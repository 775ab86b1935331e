"""Compound assignments of a class's member operator on an object in device or threadgroup memory (stop 64).

`out[i] += w` with `V& operator+=(const V& o) { a += o.a; ...; return *this; }` defined in V's body runs
the operator on the device object itself in CUDA.  MSL gives an unqualified member a `thread` object, so
the port (and Metal) had no `+=` for a `device V` ("no viable overloaded '+='", KP224 at the line).  A
member defined in its class is written once per object space already (object_spaces.py: `void set(float
x) device`); these calls now take part in that planning as `p.set(x)` does: the operator's `device` twin
is `device V& operator+=(const V& o) device { ...; return *this; }`, which writes the device object in
place, as CUDA does (no copy: nothing is lost).

Its return type is spelt in the object's space only where the operator returns a reference to its class
and every `return` is `return *this;` (the reference then is the object's); another returned reference
(a parameter's, a global's) keeps its thread type and the checker judges it.

A member defined out of its class (`void V::set(float x) {...}`, `V& V::operator+=(...)`) that object_copies.py
does not call on a thread copy (it writes its object or memory, names `this`, ...) was refused on a device
object; it is now written once per object space too, its declaration in the class with it (`void set(float x)
device;`: out_of_class_twin), unless it returns a pointer or reference other than `*this` (the checker reads an
unqualified return type as C++ for OpenCL's generic one, which Metal has not: such a twin could pass the checker
and fail Metal) or declares a local reference or pointer (`int &r = a[0];`; check/thread_locals.py now models
those as `thread`, the twin is still not written): they stay refused at the line.
A free operator (`V& operator+=(V& l, const V& o)`), a class with several `operator+=` and an object whose class
is not read from the code keep the call as written: the checker refuses it at its line.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ...model import Function
from ...rewrite import key
from ...source import walk
from .function_args import object_qualified


class OperatorCalls:
    """Mixin of MetalTranslator: `operator_calls` (spaces.py plans them with the calls)."""

    def operator_calls(self, f: Function) -> list[tuple[Node, Function]]:
        """(assignment, member operator) of f's compound assignments on objects of a class defining the operator."""
        memo = self.__dict__.setdefault("_kp_operator_calls", {})
        got = memo.get(id(f.node))
        if got is not None:
            return got
        got = memo[id(f.node)] = []
        for n in walk(f.body) if f.body is not None else ():
            op = n.child_by_field_name("operator") if n.type == "assignment_expression" else None
            sym = self.src.text_of(op) if op is not None else "="
            left = n.child_by_field_name("left")
            if sym == "=" or left is None:
                continue  # (a thread object's too: its signature stands beside the device one)
            cls = " ".join(w for w in (self.elem_type_of(left, f) or "").split() if w not in ("const", "struct", "class"))
            found = [h for h in self.helpers.values() if h.name.rsplit("::", 1)[-1] == f"operator{sym}" and len(h.params) == 1
                     and (self.in_class_member(h) or self.out_of_class_twin(h)) and self._class_name_of(h) == cls]
            if cls and len(found) == 1:
                got.append((n, found[0]))
        return got

    def operand_args(self, call: Node) -> list[Node]:
        """The arguments a call or a member operator's assignment passes (`a += b`: b)."""
        if call.type == "assignment_expression":
            right = call.child_by_field_name("right")
            return [right] if right is not None else []
        args = call.child_by_field_name("arguments")
        return [a for a in args.named_children if a.type != "comment"] if args is not None else []

    def returns_own_object(self, h: Function) -> bool:
        """Whether member h returns a reference to its class and every `return` is `return *this;`."""
        d = h.node.child_by_field_name("declarator")
        t = h.node.child_by_field_name("type")
        if d is None or d.type != "reference_declarator" or t is None or h.body is None:
            return False
        if " ".join(w for w in self.src.text_of(t).split() if w != "const") != self._class_name_of(h):
            return False
        returns = [r for r in walk(h.body) if r.type == "return_statement"]
        return bool(returns) and all("".join(self.src.text_of(r).split()) == "return*this;" for r in returns)

    def object_overrides(self, h: Function, sig: tuple[str, ...], node: Node) -> dict:
        """The rewrites of `node` (h's definition, or its declaration in the class) for signature `sig`: the
        object's space after the parameters (`int idx(int x) const constant`), and on the return type of an
        operator returning `*this` (`device V& operator+=(const V& o) device`); {} for a thread object's."""
        space = self.object_qualifier(h, sig)
        d = node.child_by_field_name("declarator")
        if space is None or d is None:
            return {}
        out = {key(d): object_qualified(self.src, d, self.rw.text(d), space)}
        if self.returns_own_object(h) and (t := node.child_by_field_name("type")) is not None:
            out[key(t)] = f"{space} {self.rw.text(t)}"
        return out

    def out_of_class_twin(self, h: Function) -> bool:
        """Whether h, a member defined out of its class (`void V::set(float x) {...}`) that this file defines, is
        written once per object space, its declaration in the class too (signatures.py), rather than called on
        a thread copy of the object (object_copies.py: only where the copy cannot be told)."""
        cls = h.name.rsplit("::", 1)[0] if "::" in h.name else ""
        d = h.node.child_by_field_name("declarator")
        if d is None or d.type != "function_declarator" and not self.returns_own_object(h):
            return False  # a returned pointer or reference (into the object?): its space unknown (the checker
            # reads an unqualified return type as C++ for OpenCL's generic one, which Metal has not)
        if h.body is None or any(n.type == "declaration" and _aliasing(n) for n in walk(h.body)):
            return False  # `int &r = a[0];`: a local reference or pointer, which the checker reads as generic
        return re.fullmatch(r"[A-Za-z_]\w*", cls) is not None and not self.in_class_member(h) and \
            cls in self._classes() and not self.copies_its_object(h)

    def twin_member(self, f: Function) -> bool:
        """Whether f is written once per object space: a member defined in its class, or out_of_class_twin."""
        return self.in_class_member(f) or self.out_of_class_twin(f)

    def _class_name_of(self, h: Function) -> str | None:
        """The name of the class whose body defines member h (or that qualifies its out-of-class name)."""
        if "::" in h.name and not self.in_class_member(h):
            return h.name.rsplit("::", 1)[0].rsplit("::", 1)[-1]
        body = (h.template_node or h.node).parent
        name = body.parent.child_by_field_name("name") if body is not None and body.parent is not None else None
        return self.src.text_of(name) if name is not None else None


def _aliasing(decl: Node) -> bool:
    """Whether a declaration declares a reference or a pointer, or deduces its type (`auto`: may be one)."""
    t = decl.child_by_field_name("type")
    return (t is not None and t.type == "placeholder_type_specifier") or any(
        d.type in ("reference_declarator", "pointer_declarator") for c in decl.children_by_field_name("declarator")
        for d in walk(c))
