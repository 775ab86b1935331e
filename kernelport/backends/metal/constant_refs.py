"""Objects in `constant` memory bound to a helper's `const T&` parameter (cuFHE's twiddle factors: `r *=
con_twd[i]` with `FFP& operator*=(const FFP& a)`, `Pow(kRoot2e32_, n)` of a class's static constant).

MSL's unqualified reference is `thread`; a reference in one address space does not bind an object in
another, and CUDA's `const T&` of a `__constant__` object has no MSL spelling but a `constant T&`
overload or a copy.  The port copies: the argument becomes `T(arg)`, a thread temporary the const
reference binds as C++ binds any temporary (a struct copied out of `constant` memory is a value copy
in Metal: check/constant_copies.py).  That is exactly CUDA's meaning while the callee only reads
through the reference, which `const` promises (a `const_cast` write would be undefined in CUDA too).
Calls of the file's device functions and the file's operators on a class type get it; a template's
`const T&` (T unknown at the call) is left as written and the checker still judges it.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ...model import Function, Param, file_scope_items
from ...source import call_args, ident_name, walk
from ...vector_types import VECTORS
from .copy_observers import observes_a_copy
from .object_copies import ObjectCopies

_OPERATORS = frozenset("+ - * / % & | ^ << >> == != < > <= >=".split())


class ConstantReferences(ObjectCopies):
    """Mixin of MetalTranslator: the `constant_reference_copies` pass."""

    def constant_reference_copies(self) -> None:
        for f in self.device.values():
            for call, h in self._calls(f):
                self.copy_member_object(call, f, h)  # a const member defined out of its class (object_copies.py)
                args = call_args(call)
                h = self._by_arity(h, len(args)) or self._by_element_types(h, args, f)
                for p, arg in zip(h.params if h is not None else (), args):
                    t = self._const_reference_type(h, p)
                    if t is None:
                        t = self._class_template_reference(h, p, arg, f)
                        if t is None:
                            continue
                    if self._in_constant(arg, f):
                        self._copy(arg, t, f"'{p.name}' of {h.name} is a const reference")
                    elif not self._returns_reference(h) and self._in_memory(arg, f) in ("device", "threadgroup") \
                            and not observes_a_copy(self.src, h, p, self._object_in_memory(call, f), self.device, call, f):
                        self._copy(arg, t, f"'{p.name}' of {h.name} is a const reference", self._in_memory(arg, f))
            for n in walk(f.body):
                if n.type in ("binary_expression", "assignment_expression"):
                    op = self.src.text_of(n.child_by_field_name("operator")).rstrip("=") \
                        if n.type == "assignment_expression" else self.src.text_of(n.child_by_field_name("operator"))
                    if n.type == "assignment_expression" and op == "":
                        continue  # a plain `=`: the class's copy assignment (constant_copies.py)
                    sides = ("right",) if n.type == "assignment_expression" else ("left", "right")
                    names = (f"operator{op}", f"operator{op}=") if n.type == "assignment_expression" else \
                        (f"operator{op}",)  # `a += b`: the class's operator+=, or (hostcode) a + b
                    for side in sides:
                        arg = n.child_by_field_name(side)
                        t = self._class_in_constant(arg, f)
                        if t is not None and op in _OPERATORS and any(self._overloads(m, t) for m in names):
                            self._copy(arg, t, f"operator{op} takes a const {t}&")
                        elif t is None and op in _OPERATORS and (e := self._element_in_memory(arg, f)) is not None \
                                and any(self._overloads(m, e[0]) for m in names) \
                                and not any(self._operator_observes(m, e[0], n, f) for m in names) \
                                and (e[0] not in VECTORS or self.rw.has(n)):  # a vector's: only where the port
                            # calls the file's operator by name (vector_op_calls.py), not Metal's built-in
                            self._copy(arg, e[0], f"operator{op} takes a const {e[0]}&", e[1])

    def copies_constant_argument(self, h: Function, nargs: int, i: int) -> bool:
        """Whether this pass copies a `constant` argument i of a call of h with nargs arguments (else the
        parameter takes a `constant` overload: spaces.reference_space)."""
        g = self._by_arity(h, nargs)
        return g is not None and i < len(g.params) and self._const_reference_type(g, g.params[i]) is not None

    def _by_arity(self, h: Function, n: int) -> Function | None:
        """The one device function of h's name (its overloads: cuFHE's `void Pow(uint32_t)` beside `static FFP
        Pow(const FFP&, uint32_t)`) that takes n arguments; None where that is not one."""
        same = [g for g in self.device.values() if g.name == h.name]
        if len(same) == 1:
            return h
        fit = [g for g in same if len(g.params) == n]
        return fit[0] if len(fit) == 1 else None

    def _element_in_memory(self, arg: Node | None, f: Function) -> tuple[str, str] | None:
        """(type, space) of an operand `p[i]` of a pointer parameter p in device or threadgroup memory."""
        while arg is not None and arg.type == "parenthesized_expression" and arg.named_children:
            arg = arg.named_children[0]
        if arg is None or arg.type != "subscript_expression":
            return None
        base = arg.child_by_field_name("argument")
        p = f.param(self.src.text_of(base)) if base is not None and base.type == "identifier" else None
        space = self._in_memory(arg, f) if p is not None and p.pointer else None
        return (p.type, space) if space in ("device", "threadgroup") else None

    def _by_element_types(self, h: Function, args: list[Node], f: Function) -> Function | None:
        """The one overload of h's name and arity whose `const T&` parameters take the element types of
        the call's buffer elements (`acc(float&, const float&)` beside `acc(int&, const int&)` given x[0] of
        a `const float*` x); None where that is not one."""
        def element(a: Node) -> str | None:
            if a.type != "subscript_expression":
                return None
            base = a.child_by_field_name("argument")
            p = f.param(self.src.text_of(base)) if base is not None and base.type == "identifier" else None
            return p.type if p is not None and p.pointer else None
        fit = [g for g in self.device.values() if g.name == h.name and len(g.params) == len(args)]
        known = [(i, t) for i, a in enumerate(args) if (t := element(a)) is not None]
        fit = [g for g in fit if known and all(self._const_reference_type(g, g.params[i]) == t for i, t in known)]
        return fit[0] if len(fit) == 1 else None

    def _copy(self, arg: Node, t: str, why: str, space: str = "constant") -> None:
        if self.rw.has(arg):
            return
        self.rw.replace(arg, lambda rw, n, t=t: f"{t}({rw.stitch(n)})")
        self.note(arg, f"{t}(...)", f"{why}: MSL binds no thread reference to `{space}` memory: a thread copy")

    def _returns_reference(self, h: Function) -> bool:
        """Whether h returns a reference (a copy bound to its parameter would dangle)."""
        d = h.node.child_by_field_name("declarator")
        return d is not None and d.type == "reference_declarator"

    def _in_memory(self, arg: Node, f: Function) -> str | None:
        """The space of an lvalue argument in device or threadgroup memory, as spaces.py reads it."""
        while arg.type == "parenthesized_expression" and arg.named_children:
            arg = arg.named_children[0]
        if arg.type not in ("identifier", "subscript_expression", "field_expression"):
            return None
        space = self._space_of_lvalue(arg, f)
        if space is None and arg.type == "subscript_expression":  # `((const P *) a)[i]`: where the pointer points
            space = self.space_of(arg.child_by_field_name("argument"), f)
        return space

    def _const_reference_type(self, h: Function, p: Param) -> str | None:
        """T of a `const T&` parameter (not a template parameter's)."""
        d = p.node.child_by_field_name("declarator")
        if d is None or d.type != "reference_declarator" or not p.const or p.pointer:
            return None
        t = " ".join(w for w in p.type.split() if w not in ("const", "volatile"))
        return None if not re.fullmatch(r"[A-Za-z_][\w:]*", t) or t in h.template_params or \
            t in self._enclosing_template_params(h.node) else t

    def _class_template_reference(self, h: Function, p: Param, arg: Node, f: Function) -> str | None:
        """The argument's own type where p is a `const T&` of a class template's T (`push(const T&)` of
        `template <class T> class Stack` given `buf[i]`): the copy of that type binds the reference as the
        argument did (a temporary of T where the types differ, as C++ converts either way); None where
        the argument's type is not read (a field, a call) or p is another parameter."""
        d = p.node.child_by_field_name("declarator")
        t = " ".join(w for w in p.type.split() if w not in ("const", "volatile"))
        if d is None or d.type != "reference_declarator" or not p.const or p.pointer or t in h.template_params \
                or t not in self._enclosing_template_params(h.node):
            return None
        a = arg
        while a.type == "parenthesized_expression" and a.named_children:
            a = a.named_children[0]
        if a.type not in ("subscript_expression", "pointer_expression") or \
                (a.type == "pointer_expression" and self.src.text_of(a.child_by_field_name("operator")) != "*"):
            return None
        e = self.elem_type_of(a, f)
        e = " ".join(w for w in e.split() if w not in ("const", "volatile")) if e else None
        return e if e and re.fullmatch(r"[A-Za-z_][\w:]*", e) else None

    def _enclosing_template_params(self, n: Node) -> set[str]:
        """The type parameters of the class templates around n (`push(const T&)` of `template <class T>
        class Stack`: T is unknown at the call)."""
        out: set[str] = set()
        p = n.parent
        while p is not None:
            if p.type == "template_declaration" and (ps := p.child_by_field_name("parameters")) is not None:
                out |= {self.src.text_of(i) for c in ps.named_children if "type_parameter" in c.type
                        for i in c.named_children if i.type == "type_identifier"}
            p = p.parent
        return out

    def _in_constant(self, arg: Node, f: Function) -> bool:
        """An lvalue in `constant` memory: an element of a `__constant__` array, a program-scope constant
        or a class's static constant (MSL keeps those in `constant`: translator.file_scope)."""
        while arg.type == "parenthesized_expression" and arg.named_children:
            arg = arg.named_children[0]
        if arg.type == "identifier" and self.src.text_of(arg) in self._static_constants() and \
                f.param(self.src.text_of(arg)) is None and self._local_decl(f, self.src.text_of(arg)) is None:
            return True
        if arg.type not in ("identifier", "subscript_expression", "field_expression"):
            return False
        return self._space_of_lvalue(arg, f) == "constant"

    def _class_in_constant(self, arg: Node | None, f: Function) -> str | None:
        """The class type of an operand in `constant` memory (`con_twd[i]` of `__constant__ FFP con_twd[]`)."""
        if arg is None or not self._in_constant(arg, f):
            return None
        base = arg
        while base.type in ("subscript_expression", "parenthesized_expression") and base.named_children:
            base = base.child_by_field_name("argument") or base.named_children[0]
        t = self._constant_types().get(self.src.text_of(base)) if base.type == "identifier" else None
        return t if t is not None and t in self._classes() else None

    def _overloads(self, name: str, t: str) -> bool:
        """Whether the file's device code defines `name` (an operator) with a `const t&` parameter."""
        return any(h.name.split("::")[-1] == name and any(self._const_reference_type(h, p) == t for p in h.params)
                   for h in self.helpers.values())

    def _operator_observes(self, name: str, t: str, n: Node, f: Function) -> bool:
        """Whether an operator `name` taking a `const t&` could tell a copy of its operand (copy_observers.py);
        a compound assignment's left side in device or threadgroup memory is the object it writes."""
        left = n.child_by_field_name("left") if n.type == "assignment_expression" else None
        on_memory = left is not None and self._in_memory(left, f) in ("device", "threadgroup")
        return any(observes_a_copy(self.src, h, p, on_memory, self.device) for h in self.helpers.values()
                   if h.name.split("::")[-1] == name for p in h.params if self._const_reference_type(h, p) == t)

    def _object_in_memory(self, call: Node, f: Function) -> bool:
        """Whether a member call's object (`in[i].add(...)`) is in device or threadgroup memory."""
        fn = call.child_by_field_name("function")
        obj = fn.child_by_field_name("argument") if fn is not None and fn.type == "field_expression" else None
        if obj is None:
            return False
        if self.src.text_of(fn.child_by_field_name("operator") or fn) == "->":
            return self.space_of(obj, f) in ("device", "threadgroup")
        return self._in_memory(obj, f) in ("device", "threadgroup")

    def _classes(self) -> set[str]:
        got = self.__dict__.get("_kp_classes")
        if got is None:
            got = self.__dict__["_kp_classes"] = {
                self.src.text_of(n.child_by_field_name("name")) for n in self.src.index.of_types(
                    "struct_specifier", "class_specifier") if n.child_by_field_name("name") is not None}
        return got

    def _constant_types(self) -> dict[str, str]:
        """Program-scope `__constant__` variables: name -> type text."""
        got = self.__dict__.get("_kp_constant_types")
        if got is None:
            got = self.__dict__["_kp_constant_types"] = {}
            for n in file_scope_items(self.src):
                if n.type == "declaration" and any(self.src.text_of(c) == "__constant__" for c in n.children) and \
                        (t := n.child_by_field_name("type")) is not None:
                    for d in n.children_by_field_name("declarator"):
                        got[ident_name(d)] = self.src.text_of(t)
        return got

    def _static_constants(self) -> set[str]:
        """Names of classes' `static const` / `static constexpr` data members (MSL: program-scope `constant`)."""
        got = self.__dict__.get("_kp_static_constants")
        if got is None:
            got = self.__dict__["_kp_static_constants"] = set()
            for n in self.src.index.of_type("field_declaration"):
                words = {self.src.text_of(c) for c in n.children if c.type in ("type_qualifier", "storage_class_specifier")}
                if "static" in words and words & {"const", "constexpr"}:
                    got |= {ident_name(d) for d in n.children_by_field_name("declarator")} - {None}
        return got
