"""`double` data a kernel only moves: Metal's 64-bit `ulong` holds the same bytes.

Metal has no double (KP214).  tokura-dgeev's tokura_blas_matrix_rearrangements.cu (held-out set 54)
transposes batches of double matrices through threadgroup memory: `tmp[k + i*pad] = a[...];` then
`a2[...] = tmp[...];`, with no arithmetic on any double.  A copy moves 8 bytes whatever they mean, so the
port declares those buffers, threadgroup arrays and locals `ulong` (8 bytes, as double, and the same
stride), and the host's double buffers are bound unchanged: every value arrives bit for bit.  The
conditions, all checked per function, else KP214 stands:
  - every `double` of the function declares a pointer parameter, or a local (pointer, array or scalar,
    `extern __shared__` arrays too) named once in it;
  - every use of each such name is a move: an element of it (`p[i]`, `*p`; a scalar itself) that is one
    side of a plain `=` statement whose other side is such an element too, or the initialiser of such a
    scalar; or the pointer itself (`p`, `p + k`, `&p[k]`) initialising such a pointer.
Anything else (arithmetic, a comparison, a cast, a call, a compound assignment, a by-value parameter, a
struct's field, a return type) leaves the function's doubles refused.
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import ident_name, walk


class MovedDoubles:
    """Mixin of MetalTranslator (with ExactDoubles' `_visible`): `moved_double(node)` for a `double` use."""

    def moved_double(self, node: Node) -> bool:
        f = self.module.function_at(node)
        if f is None or id(f.node) not in {id(g.node) for g in self.device.values()}:
            return False
        cache = self.__dict__.setdefault("_kp_moved_doubles", {})
        if id(f.node) not in cache:
            cache[id(f.node)] = self._only_moved(f)
        return cache[id(f.node)]

    def _only_moved(self, f: Function) -> bool:
        names: dict[str, tuple] = {}  # name -> ("param", Param) or (declaration, declarator)
        for t in walk(f.node):
            if t.type != "primitive_type" or self.src.text_of(t) != "double":
                continue
            holder = t.parent
            if holder is None or holder.child_by_field_name("type") != t:
                return False
            if holder.type == "parameter_declaration" and holder.parent is not None and \
                    holder.parent.parent is not None and holder.parent.parent.parent == f.node:
                d = holder.child_by_field_name("declarator")
                p = f.param(ident_name(d)) if d is not None else None
                if p is None or not p.pointer or d.type != "pointer_declarator" or \
                        d.child_by_field_name("declarator").type != "identifier":
                    return False  # `double x` by value, `double **p`: not only moved bytes
                names[p.name] = ("param", p)
            elif holder.type == "declaration" and f.body is not None and \
                    f.body.start_byte <= holder.start_byte < f.body.end_byte:
                for x in holder.children_by_field_name("declarator"):
                    inner = x.child_by_field_name("declarator") if x.type == "init_declarator" else x
                    if inner is None or inner.type not in ("identifier", "pointer_declarator", "array_declarator") or \
                            (inner.type != "identifier" and inner.child_by_field_name("declarator").type != "identifier"):
                        return False
                    name = ident_name(x)
                    if name in names:
                        return False  # one declaration per name: its uses are its own
                    names[name] = (holder, x)
            else:
                return False
        if not names or f.body is None:
            return False
        declared = {(d.start_byte, d.end_byte) for seen in names.values() if seen[0] != "param"
                    if (d := self._declared_identifier(seen[1])) is not None}
        for u in walk(f.body):
            if u.type == "identifier" and self.src.text_of(u) in names and (u.start_byte, u.end_byte) not in declared:
                if self._visible(u, f) != names[self.src.text_of(u)] or not self._moved(u, names, f):
                    return False  # (a use another declaration shadows: not this analysis's to follow)
        return True

    @staticmethod
    def _declared_identifier(x: Node) -> Node | None:
        """The identifier a declarator declares (`*p`, `a[N]`, `v = e`: p, a, v)."""
        while x is not None and x.type != "identifier":
            x = x.child_by_field_name("declarator")
        return x

    def _scalar(self, seen: tuple) -> bool:
        if seen[0] == "param":
            return False
        x = seen[1]
        inner = x.child_by_field_name("declarator") if x.type == "init_declarator" else x
        return inner is not None and inner.type == "identifier"

    def _element(self, e: Node, names: dict, f: Function) -> bool:
        """Whether expression `e` is an element of a tracked name: `p[i]`, `*p`, a tracked scalar."""
        while e.type == "parenthesized_expression" and len(e.named_children) == 1:
            e = e.named_children[0]
        if e.type == "identifier":
            seen = self._visible(e, f)
            return self.src.text_of(e) in names and seen is not None and self._scalar(seen)
        if e.type == "subscript_expression" or (e.type == "pointer_expression" and self.src.text_of(e)[:1] == "*"):
            a = self._pointer_of(e.child_by_field_name("argument"), names)
            seen = self._visible(a, f) if a is not None else None
            return seen is not None and not self._scalar(seen)
        return False

    def _pointer_of(self, e: Node | None, names: dict) -> Node | None:
        """The tracked name `e` offsets: `p`, `(p + i)`, `i + p`."""
        while e is not None and e.type == "parenthesized_expression" and len(e.named_children) == 1:
            e = e.named_children[0]
        if e is not None and e.type == "binary_expression" and self.src.text_of(e.child_by_field_name("operator")) == "+":
            found = [x for x in (e.child_by_field_name("left"), e.child_by_field_name("right"))
                     if x is not None and x.type == "identifier" and self.src.text_of(x) in names]
            return found[0] if len(found) == 1 else None
        return e if e is not None and e.type == "identifier" and self.src.text_of(e) in names else None

    def _moved(self, u: Node, names: dict, f: Function) -> bool:
        seen = self._visible(u, f)
        e = u
        if not self._scalar(seen):
            up = e.parent
            if up is not None and up.type == "subscript_expression" and up.child_by_field_name("argument") == e:
                e = up  # an element
            else:  # `*(p + i)`: an element; the pointer itself (`p`, `p + k`) initialising a tracked pointer
                while up is not None and up.type in ("parenthesized_expression", "binary_expression") and \
                        self._pointer_of(up, names) == u:
                    up = up.parent
                if up is None or up.type != "pointer_expression" or self.src.text_of(up)[:1] != "*":
                    return self._initialises(e, names, pointer=True)
                e = up
        while e.parent is not None and e.parent.type == "parenthesized_expression":
            e = e.parent
        up = e.parent
        if up is not None and up.type == "pointer_expression" and self.src.text_of(up)[:1] == "&":
            return self._initialises(up, names, pointer=True)
        if up is not None and up.type == "assignment_expression" and self.src.text_of(up.child_by_field_name("operator")) == "=" \
                and up.parent is not None and up.parent.type == "expression_statement":
            other = up.child_by_field_name("right") if up.child_by_field_name("left") == e else up.child_by_field_name("left")
            return other is not None and self._element(other, names, f)
        return self._initialises(e, names, pointer=False)

    def _initialises(self, e: Node, names: dict, pointer: bool) -> bool:
        """`e` (with `+ k` offsets) is the whole initialiser of a tracked declaration (a pointer one if `pointer`)."""
        while e.parent is not None and e.parent.type in ("parenthesized_expression", "binary_expression") and pointer:
            if e.parent.type == "binary_expression" and self.src.text_of(e.parent.child_by_field_name("operator")) != "+":
                return False
            e = e.parent
        x = e.parent
        if x is None or x.type != "init_declarator" or x.child_by_field_name("value") != e:
            return False
        inner = x.child_by_field_name("declarator")
        return ident_name(x) in names and inner is not None and (inner.type == "pointer_declarator") == pointer
