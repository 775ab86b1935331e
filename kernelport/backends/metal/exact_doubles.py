"""A `double` local that Metal can hold as a float with no change to any result.

Metal has no double (KP214).  cuTimeWarp's soft-DTW kernels (held-out set 47) write
`double prev_min = softmin(r1, r2, r3, gamma);  R[i] = cost + prev_min;`: softmin returns float, so the
local holds a float value exactly, and its one use is `float + double` stored to a float.  Computing
a op b in double and rounding to float gives the float a op b for + - * / (double rounding is innocuous
when the wider format has at least 2p+2 bits: 53 >= 2*24+2), so the port declares the local float and
means what the source does.  The conditions, all checked, else KP214 stands:
  - the declaration is `double v = E;` (one declarator) in device code, E float-valued: a float local or
    parameter, an element of a float array or pointer, a call of a function every declaration of which
    returns float, a float literal;
  - no other declaration in the function is named v;
  - every use of v is one operand of a binary + - * / whose other operand is float-valued and which is
    itself the whole right side of `=` to a float lvalue (or a float local's initialiser).
Anything else (v reassigned, passed, compared, its address taken, fed to a longer expression) is refused.
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import ident_name, walk

_OPS = ("+", "-", "*", "/")


class ExactDoubles:
    """Mixin of MetalTranslator: `exact_double(node)` for the `double` type use `node`."""

    def exact_double(self, node: Node) -> bool:
        decl = node.parent
        if decl is None or decl.type != "declaration" or decl.child_by_field_name("type") != node:
            return False
        ds = decl.children_by_field_name("declarator")
        if len(ds) != 1 or ds[0].type != "init_declarator":
            return False
        d, value = ds[0].child_by_field_name("declarator"), ds[0].child_by_field_name("value")
        f = self.module.function_at(node)
        device = {id(g.node) for g in self.device.values()}
        if d is None or d.type != "identifier" or value is None or f is None or id(f.node) not in device \
                or not self._f32(value, f):
            return False
        name = self.src.text_of(d)
        return all(self._rounded_once(u, f) for u in walk(f.body) if u.type == "identifier" and u != d
                   and self.src.text_of(u) == name and self._visible(u, f) == (decl, ds[0]))

    def _rounded_once(self, use: Node, f: Function) -> bool:
        """`use` is an operand of `a op use` (op + - * /, a float-valued) assigned whole to a float."""
        b = use.parent
        if b is None or b.type != "binary_expression" or self.src.text_of(b.child_by_field_name("operator")) not in _OPS:
            return False
        other = b.child_by_field_name("left" if b.child_by_field_name("right") == use else "right")
        if other is None or other == use or not self._f32(other, f):
            return False
        to = b.parent
        if to is not None and to.type == "assignment_expression":
            return to.child_by_field_name("right") == b and self.src.text_of(to.child_by_field_name("operator")) == "=" \
                and self._f32(to.child_by_field_name("left"), f)
        if to is not None and to.type == "init_declarator" and to.child_by_field_name("value") == b:
            dd, decl = to.child_by_field_name("declarator"), to.parent
            return dd is not None and dd.type == "identifier" and decl is not None and decl.type == "declaration" \
                and self._type_text(decl) == "float"
        return False

    def _f32(self, n: Node | None, f: Function) -> bool:
        """Whether expression `n` is of type float (as far as the file says; unknown is not)."""
        if n is None:
            return False
        t = n.type
        if t == "parenthesized_expression" and len(n.named_children) == 1:
            return self._f32(n.named_children[0], f)
        if t == "number_literal":
            s = self.src.text_of(n).lower()
            return s.endswith("f") and not s.startswith("0x") and any(c in s for c in ".e")
        if t == "identifier":
            return self._scalar_of(n, f, array=False) == "float"
        if t == "subscript_expression":
            a = n.child_by_field_name("argument")
            return a is not None and a.type == "identifier" and self._scalar_of(a, f, array=True) == "float"
        if t == "call_expression":
            fn = n.child_by_field_name("function")
            return fn is not None and fn.type == "identifier" and self._returns(self.src.text_of(fn)) == {"float"}
        return False

    def _scalar_of(self, n: Node, f: Function, array: bool) -> str | None:
        """The element type of identifier `n`: a scalar parameter or local (array False), or a pointer
        parameter, a local array or pointer (array True); None when it is declared otherwise or not here."""
        seen = self._visible(n, f)
        if seen is None:
            return None
        if seen[0] == "param":
            return " ".join(seen[1].type.split()) if seen[1].pointer == array else None
        decl, x = seen
        inner = x.child_by_field_name("declarator") if x.type == "init_declarator" else x
        kind = inner.type if inner is not None else None
        if (kind == "identifier") == array or kind not in ("identifier", "array_declarator", "pointer_declarator"):
            return None
        if kind != "identifier" and (inner.child_by_field_name("declarator") is None
                                     or inner.child_by_field_name("declarator").type != "identifier"):
            return None  # `float *a[4]`, `float (*p)[n]`: not one float per element
        return self._type_text(decl)

    def _visible(self, use: Node, f: Function) -> tuple | None:
        """What identifier `use` names in f, by C's block scope: (declaration, declarator) of the nearest
        local declared before it in an enclosing block (or a for's initialiser), ("param", Param), or None."""
        name, n = self.src.text_of(use), use
        while n.parent is not None and n != f.body:
            up, found = n.parent, None
            heads = up.named_children if up.type == "compound_statement" else \
                [up.child_by_field_name("initializer")] if up.type == "for_statement" else []
            for st in heads:
                if st is None or st.start_byte >= n.start_byte:
                    break
                if st.type == "declaration":
                    found = next(((st, x) for x in st.children_by_field_name("declarator") if ident_name(x) == name),
                                 found)
            if found is not None:
                return found
            n = up
        p = f.param(name)
        return ("param", p) if p is not None else None

    def _type_text(self, decl: Node) -> str | None:
        t = decl.child_by_field_name("type")
        return " ".join(self.src.text_of(t).split()) if t is not None else None

    def _returns(self, name: str) -> set[str]:
        """The return types of every declaration and definition of free function `name` in the port
        (read for every function of the port at once, on the first question: a scan per call asked
        made a file of many double sites quadratic)."""
        by_name = self.__dict__.get("_kp_returns")
        if by_name is None:
            by_name = self.__dict__["_kp_returns"] = {}
            for n in self.src.index.of_types("function_definition", "declaration"):
                fd = n.child_by_field_name("declarator")
                while fd is not None and fd.type not in ("function_declarator", "identifier", "init_declarator"):
                    fd = fd.child_by_field_name("declarator")
                if fd is not None and fd.type == "function_declarator":
                    by_name.setdefault(ident_name(fd.child_by_field_name("declarator")), set()).add(
                        self._type_text(n) if n.child_by_field_name("declarator").type == "function_declarator" else "*")
        return set(by_name.get(name, ()))
