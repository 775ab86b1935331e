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
(a parameter's, a global's) keeps its thread type and the checker judges it.  An operator defined out of
its class, a free operator (`V& operator+=(V& l, const V& o)`), a class with several `operator+=` and an
object whose class is not read from the code keep the call as written: the checker refuses it at its line.
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import walk


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
            found = [h for h in self.helpers.values() if h.name == f"operator{sym}" and self.in_class_member(h)
                     and len(h.params) == 1 and self._class_name_of(h) == cls]
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

    def _class_name_of(self, h: Function) -> str | None:
        """The name of the class whose body defines member h."""
        body = (h.template_node or h.node).parent
        name = body.parent.child_by_field_name("name") if body is not None and body.parent is not None else None
        return self.src.text_of(name) if name is not None else None
