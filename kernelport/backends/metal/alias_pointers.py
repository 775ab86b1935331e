"""Local pointers declared through a type alias: `typedef float* fptr; fptr p = buf;` (stop 65).

An alias of an unqualified pointer type (`typedef float* fptr;`, `using iptr = int*;`) names a `thread` pointer
in MSL, as an unqualified pointer local does: `fptr p = buf;` of a device buffer is rejected by Metal (and the
checker's model now says so: check/thread_aliases.py).  A local declared through such an alias gets its space
as a pointer declared with `*` does (spaces.local_pointers: its initialiser's, else the one space of every
value assigned to it), and where that is not `thread` the alias is written out with the space on its pointee:
`device float *p = buf;` (`fptr p = a, q = b;`: `device float *p = a, *q = b;`, one space for all).  Also where
a helper's specialisations differ (each writes its own).  Left as written (the checker refuses a wrong one at
its line): an alias defined twice, of a pointer to pointer or with a `const` pointer, a declaration with a
qualifier or storage class of its own (`const fptr p`, `static`), and declarators other than plain names.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ...model import Function
from ...source import ident_name

_SPACE_WORDS = re.compile(r"\b(?:device|threadgroup|constant|thread|__restrict__|__restrict|restrict)\b")
_TYPEDEF = re.compile(r"^typedef\s+([^*;()\[\]{}]+?)\s*\*\s*([A-Za-z_]\w*)\s*;$", re.S)
_USING = re.compile(r"^using\s+([A-Za-z_]\w*)\s*=\s*([^*;()\[\]{}]+?)\s*\*\s*;$", re.S)


class AliasPointers:
    """Mixin of MetalTranslator: `alias_pointer_locals`, run by local_pointers on each local declaration."""

    def pointer_aliases(self) -> dict[str, str]:
        """The file's aliases of a one-level unqualified pointer type: name -> its pointee as written
        (`fptr` -> `float`, `cfptr` -> `const float`); a name defined twice (differently) is left out."""
        got = self.__dict__.get("_kp_pointer_aliases")
        if got is not None:
            return got
        seen: dict[str, set[str]] = {}
        for n in self.src.index.of_types("type_definition", "alias_declaration"):
            text = " ".join(self.src.text_of(n).split())
            m = _TYPEDEF.match(text)
            name, pointee = (m.group(2), m.group(1)) if m else (None, None)
            if (u := _USING.match(text)) is not None:
                name, pointee = u.group(1), u.group(2)
            if name is None:
                if n.type == "type_definition":  # (`typedef float f32, *fptr;` and the like: another alias's)
                    for d in n.children_by_field_name("declarator"):
                        seen.setdefault(self.src.text_of(d).lstrip("*& "), set()).add("?")
                continue
            seen.setdefault(name, set()).add(pointee if not _SPACE_WORDS.search(pointee) else "?")
        got = self.__dict__["_kp_pointer_aliases"] = {k: next(iter(v)) for k, v in seen.items()
                                                      if len(v) == 1 and "?" not in v}
        return got

    def alias_pointer_locals(self, f: Function, decl: Node) -> bool:
        """Give the locals of `decl`, declared through a pointer alias, their space (the module); whether
        `decl` is such a declaration."""
        tnode = decl.child_by_field_name("type")
        pointee = self.pointer_aliases().get(self.src.text_of(tnode)) if tnode is not None else None
        if pointee is None or any(c.type in ("type_qualifier", "storage_class_specifier") for c in decl.children):
            return False
        ds = decl.children_by_field_name("declarator")
        plain = [d.child_by_field_name("declarator") if d.type == "init_declarator" else d for d in ds]
        if not ds or any(p is None or p.type != "identifier" for p in plain):
            return False
        sigs = [()] if f.is_kernel else self.plan_of(f).sigs
        spaces = {}
        for d in ds:
            name = ident_name(d)
            init = d.child_by_field_name("value") if d.type == "init_declarator" else None

            def space(sig, init=init, name=name):
                saved = self.cur_sig.get(f.name)
                self.cur_sig[f.name] = sig
                try:
                    return self.space_of(init, f) if init is not None else self._adopted_space(f, name)
                finally:
                    self.cur_sig[f.name] = saved
            spaces[name] = space
            self.local_spaces[(f.name, name)] = lambda sig, space=space: space(sig) or "thread"
        got = {sig: [self.local_spaces[(f.name, ident_name(d))](sig) for d in ds] for sig in sigs}
        if all(sp == "thread" for v in got.values() for sp in v):
            return True  # a thread pointer, as the alias says
        for sig, v in got.items():
            if len(set(v)) > 1:
                at = next(i for i, sp in enumerate(v) if sp != v[0])
                self.problem("KP215", ds[at], f"'{ident_name(ds[0])}' and '{ident_name(ds[at])}' are declared "
                             f"together but point into {v[0]} and {v[at]} memory: Metal writes the space once, on "
                             "their shared type", "declare them apart")
                return True
        self.rw.replace(tnode, pointee)
        for p in plain:
            self.rw.insert_before(p, "*")
        self._dynamic_prefix(tnode, lambda sig: got[sig][0] if sig in got else
                             self.local_spaces[(f.name, ident_name(ds[0]))](sig))
        return True

    def array_pointer_statement(self, f: Function, st: Node) -> None:
        """`fr_t (*xchg)[Z][Z] = reinterpret_cast<decltype(xchg)>(exchange);` (sppark's bitpermute), which the
        grammar reads as an expression statement (a call `fr_t(*xchg)` indexed and assigned): where its first
        word is a type the file or C++ names, it declares a pointer to an array, whose space is its
        initialiser's, written before it (`threadgroup fr_t (*xchg)[Z][Z] = ...`; main wrote a thread pointer
        cast from threadgroup memory, which Metal rejects and its checker passed).  A reference to an array,
        `float (&row)[8] = tile2[i];`, read the same way, takes the space of the object it binds (metal66)."""
        m = _ARRAY_POINTER.match(self.src.text_of(st))
        expr = st.named_children[0] if st.named_children else None
        init = expr.child_by_field_name("right") if expr is not None and expr.type == "assignment_expression" else None
        if m is None or init is None or m.group(1).split()[-1] not in self._type_names():
            return
        name = m.group(3)
        how = self._space_of_lvalue if m.group(2) == "&" else None  # `T (&row)[N] = x`: where x lives

        def space(sig):
            saved = self.cur_sig.get(f.name)
            self.cur_sig[f.name] = sig
            try:
                return (how or self.space_of)(init, f) or "thread"
            finally:
                self.cur_sig[f.name] = saved
        self.local_spaces[(f.name, name)] = space
        if all(space(sig) == "thread" for sig in ([()] if f.is_kernel else self.plan_of(f).sigs)):
            return
        self._dynamic_prefix(st, space)

    def _type_names(self) -> set[str]:
        got = self.__dict__.get("_kp_type_names")
        if got is None:
            got = set(_PRIMITIVES)
            for n in self.src.index.of_types("type_definition", "alias_declaration", "struct_specifier",
                                             "class_specifier", "union_specifier", "enum_specifier"):
                fields = ("declarator",) if n.type == "type_definition" else ("name",)
                got |= {self.src.text_of(d) for fld in fields for d in n.children_by_field_name(fld)
                        if d.type in ("type_identifier", "identifier")}
            self.__dict__["_kp_type_names"] = got
        return got


_ARRAY_POINTER = re.compile(r"\s*((?:const\s+)?[A-Za-z_]\w*)\s*\(\s*([*&])\s*([A-Za-z_]\w*)\s*\)\s*(?:\[[^\]=]*\]\s*)+=[^=]")
_PRIMITIVES = frozenset("bool char short int long float half unsigned signed uint uchar ushort ulong size_t int8_t "
                        "uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t".split())
