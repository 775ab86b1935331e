"""Scalar types: what CUDA spells that Metal spells otherwise or lacks (double, long long, NULL),
and the mixed-signedness min/max that CUDA's overloads accept and Metal's templates do not."""
from __future__ import annotations

from tree_sitter import Node

from ... import dialect
from ...model import Function
from ...source import call_args, walk

# CUDA's 32-bit integer types -> Metal's spelling (atomics and reductions exist only for these).
INT32 = {"int": "int", "int32_t": "int", "signed": "int", "signed int": "int",
         "unsigned": "uint", "unsigned int": "uint", "uint": "uint", "uint32_t": "uint"}
INT64 = {"long long", "unsigned long long", "long", "unsigned long", "int64_t", "uint64_t", "size_t",
         "long long int", "unsigned long long int"}
# CUDA types of at most 32 bits that Metal's SIMD-group functions take (MSL 6.9.2: no 64-bit type)
NARROW = set(INT32) | {"float", "half", "short", "unsigned short", "ushort", "char", "signed char", "unsigned char",
                       "uchar", "int8_t", "int16_t", "uint8_t", "uint16_t", "bool"}


def metal_type(cuda_type: str) -> str:
    """The Metal spelling of a CUDA scalar type (a host binds buffers of it: the sidecar says)."""
    t = " ".join(cuda_type.split())
    if t.endswith(" int") and ("long" in t or "short" in t):  # `unsigned long long int`: the same type
        t = t[:-len(" int")]
    if t.startswith("signed ") and t != "signed char":
        t = t[len("signed "):]
    if t in INT32:
        return INT32[t]
    c = dialect.lookup("cuda", t)
    if c is not None and c.kind == "type" and c.spelling("metal"):
        return c.spelling("metal")
    return {"long long": "long", "unsigned long long": "ulong", "int64_t": "long", "uint64_t": "ulong",
            "unsigned char": "uchar", "unsigned short": "ushort", "uint8_t": "uchar", "int8_t": "char"}.get(t, t)


class Scalars:
    """Mixin of MetalTranslator: type rewrites before the table's, and min/max argument types."""

    # -- rewrites before the table's ----------------------------------------------------------
    def pre_rewrites(self) -> None:
        for use in self.module.uses:
            c, node = use.concept, use.node
            if c.key in self.names and node.type != "call_expression":
                self.rw.replace(node, self.names[c.key])
            elif c.key == "double":
                if self.left_out_at(node) or self.unread_double_constant(node):
                    # `extern double flops;` used by host code only, a `__constant__ double` table no kernel
                    # reads (unread_double_constants.py): not in the port, nothing to refuse
                    self.rw.replace(node, self.src.text_of(node))  # kept as is: the table's pass leaves it
                    continue
                if self.demote_double:
                    self.rw.replace(node, "float")
                    self.note(node, "float", "Metal has no double; demoted to float (--demote-double)")
                elif self.exact_double(node):  # a float value rounded once, as float would (exact_doubles.py)
                    self.rw.replace(node, "float")
                    self.note(node, "float", "Metal has no double; this local holds a float and feeds one float-rounded "
                              "+ - * /: float gives the same result (53 >= 2*24+2 bits)")
                elif self.moved_double(node):  # bytes moved, never computed on (moved_doubles.py)
                    self.rw.replace(node, dialect.concept("ulong_long").spelling("metal"))
                    self.note(node, "ulong", "Metal has no double; this function only moves these doubles: "
                              "a 64-bit integer moves the same bytes (the host's double buffers bind unchanged)")
                elif self.unread_double_member(node):  # bytes of a struct no device code names (unread_double_members.py)
                    self.rw.replace(node, dialect.concept("ulong_long").spelling("metal"))
                    self.note(node, "ulong", "Metal has no double; device code never names these members: a 64-bit "
                              "integer keeps the struct's layout (the host's struct binds unchanged)")
                else:
                    self.lacked_type("double", node)  # KP214, the backend's one wording
                    self.rw.replace(node, self.src.text_of(node))  # reported once, here
        for f in self.device.values():
            for n in walk(f.node):
                if n.type == "null" and self.src.text_of(n) == "NULL":  # tree-sitter's node for NULL
                    self.rw.replace(n, dialect.concept("null").spelling("metal"))
        # `long long` in device code and at file scope (a typedef, a struct's field the port keeps for
        # device code: `typedef unsigned long long LONG;`); host functions are left out, so not there
        device = {id(f.node) for f in self.device.values()}
        for n in self.src.index.of_type("sized_type_specifier"):
            # the type's own words: `SUTIL_INLINE SUTIL_HOSTDEVICE long long` (a macro before a return type,
            # which the grammar takes into the type) keeps the macros as written before Metal's word
            words = [c for c in n.children if c.type not in ("type_identifier", "ERROR", "comment")]
            t = " ".join(self.src.text_of(c) for c in words)
            if words and any(c.start_byte >= words[0].start_byte for c in n.children if c.type == "type_identifier"):
                t = ""  # a name among or after the words: not a spelling of the type alone
            k = {"long long": "long_long", "long long int": "long_long", "unsigned long long": "ulong_long",
                 "unsigned long long int": "ulong_long", "signed long long": "long_long",
                 "signed long long int": "long_long"}.get(t)
            f = self.module.function_at(n) if k else None
            if k and (f is None or id(f.node) in device):
                prefix = self.src.data[n.start_byte:words[0].start_byte].decode("utf-8")
                self.rw.replace(n, prefix + dialect.concept(k).spelling("metal"))

    # -- mixed-signedness min/max: CUDA has overloads, Metal's are templates over one type ------
    # C++ promotes a type narrower than int to int before CUDA's overloads are chosen: `max(int, uint16_t)` is
    # max(int, int), `max(ushort, uint)` max(uint, uint); Metal's one-type templates need the promoted argument cast.
    _NARROW = {"short", "char", "signed char", "int16_t", "int8_t", "unsigned short", "ushort", "unsigned char",
               "uchar", "uint16_t", "uint8_t", "bool"}
    _SIGNED = {"int", "signed", "signed int", "int32_t", "long", "int64_t", "long long"} | _NARROW
    _UNSIGNED = {"unsigned", "unsigned int", "uint", "uint32_t", "size_t", "uint64_t", "unsigned long",
                 "unsigned long long"}

    def scalar_kind(self, n: Node, f: Function) -> str | None:
        """'int', 'uint', 'float' or None: the arithmetic kind of an expression, as far as it is known."""
        t = n.type
        if t == "number_literal":
            text = self.src.text_of(n).lower()
            if any(ch in text for ch in ".e") and not text.startswith("0x") or text.endswith("f"):
                return "float"
            return "uint" if "u" in text else "int"
        if t == "parenthesized_expression" and n.named_children:
            return self.scalar_kind(n.named_children[0], f)
        if t == "field_expression":
            c = dialect.lookup("cuda", self.src.text_of(n.child_by_field_name("argument")))
            if c is None or c.kind != "index":
                t = "identifier" if self._decl_type(n, f) is not None else t  # a struct's scalar member: its type
            else:
                return "uint"
        if t in ("identifier", "subscript_expression"):
            tt = self._decl_type(n, f)
            if tt in self._SIGNED:
                return "int"
            if tt in self._UNSIGNED:
                return "uint"
            return "float" if tt in ("float", "half", "double") else None
        if t == "binary_expression":
            op = self.src.text_of(n.child_by_field_name("operator"))
            if op in ("<", ">", "<=", ">=", "==", "!=", "&&", "||"):
                return "int"
            a, b = self.scalar_kind(n.child_by_field_name("left"), f), self.scalar_kind(n.child_by_field_name("right"), f)
            if op in ("<<", ">>"):
                return a
            kinds = {a, b}
            return "float" if "float" in kinds else None if None in kinds else "uint" if "uint" in kinds else "int"
        if t == "call_expression" and self.src.text_of(n.child_by_field_name("function")) in ("min", "max") \
                and len(args := call_args(n)) == 2:  # `max(0, min(p - tx, n - 1))`: CUDA's overload's type
            kinds = {self.scalar_kind(a, f) for a in args}
            return "float" if "float" in kinds else None if None in kinds else "uint" if "uint" in kinds else "int"
        if t == "cast_expression":
            tn = n.child_by_field_name("type")
            tt = " ".join(self.src.text_of(tn).split()) if tn is not None else ""
            return "int" if tt in self._SIGNED else "uint" if tt in self._UNSIGNED else "float" if tt == "float" else None
        return None

    def _decl_type(self, n: Node, f: Function) -> str | None:
        """The declared type (less const) of a parameter or local `n`, or of the element `p[i]` of a pointer
        parameter p."""
        if n.type == "subscript_expression":
            a = n.child_by_field_name("argument")
            p = f.param(self.src.text_of(a)) if a is not None and a.type == "identifier" else None
            return " ".join(p.type.replace("const", " ").split()) if p is not None and p.pointer else None
        if n.type == "field_expression" and self.src.text_of(n.child_by_field_name("operator")) == ".":
            return self._member_type(self._decl_type(n.child_by_field_name("argument"), f), n.child_by_field_name("field"))
        if n.type == "field_expression":  # `stats->max_y`: a member of what a pointer parameter points to
            a = n.child_by_field_name("argument")
            p = f.param(self.src.text_of(a)) if a is not None and a.type == "identifier" else None
            owner = " ".join(p.type.replace("const", " ").split()) if p is not None and p.pointer else None
            return self._member_type(owner, n.child_by_field_name("field"))
        if n.type != "identifier":
            return None
        name = self.src.text_of(n)
        p = f.param(name)
        if p is not None:
            return " ".join(p.type.replace("const", " ").split()) if not p.pointer else None
        decl = self._local_decl(f, name)
        tn = decl.child_by_field_name("type") if decl is not None else None
        return " ".join(self.src.text_of(tn).replace("const", " ").split()) if tn is not None else None

    def _member_type(self, owner: str | None, field: Node | None) -> str | None:
        """The declared type of the scalar member `field` of the struct the file defines as `owner` (its tag or
        its typedef's name: `cur_n.pre` of a `Node cur_n`, `char pre;`), or None."""
        owner = owner.removeprefix("struct ").strip() if owner else None
        if not owner or field is None:
            return None
        for sn in self.src.index.of_type("struct_specifier"):
            tag, body = sn.child_by_field_name("name"), sn.child_by_field_name("body")
            names = {self.src.text_of(tag)} if tag is not None else set()
            if sn.parent is not None and sn.parent.type == "type_definition":
                names |= {self.src.text_of(d) for d in sn.parent.children_by_field_name("declarator")}
            if owner not in names or body is None:
                continue
            for d in body.named_children:
                tn = d.child_by_field_name("type") if d.type == "field_declaration" else None
                if tn is not None and any(x.type == "field_identifier" and self.src.text_of(x) == self.src.text_of(field)
                                          for x in d.children_by_field_name("declarator")):
                    return " ".join(self.src.text_of(tn).replace("const", " ").split())
        return None

    def mixed_min_max(self) -> None:
        """`min(tid.x, n)`: CUDA's overload converts the int to unsigned; Metal needs one type."""
        for f in self.device.values():
            for n in walk(f.body):
                fn = n.child_by_field_name("function") if n.type == "call_expression" else None
                if fn is None or fn.type != "identifier" or self.src.text_of(fn) not in ("min", "max"):
                    continue
                args = call_args(n)
                if len(args) != 2:
                    continue
                kinds = [self.scalar_kind(a, f) for a in args]
                if set(kinds) == {"int", "uint"}:
                    target = "uint"
                elif "float" in kinds and None not in kinds and len(set(kinds)) > 1:
                    target = "float"
                elif set(kinds) == {"int"} and any(self._decl_type(a, f) in self._NARROW for a in args) and \
                        not any(self._decl_type(a, f) in ("long", "int64_t", "long long") for a in args):
                    target = "int"  # `max(n, lens[i])` of an int and a uint16_t (a 64-bit one: not int's to decide)
                else:
                    continue
                for a, k in zip(args, kinds):
                    if k != target or self._decl_type(a, f) in self._NARROW:
                        self.rw.replace(a, lambda rw, node, t=target: f"{t}({rw.stitch(node)})")
                        self.note(a, f"{target}(...)", "Metal's min/max take one type; CUDA converted this argument")
