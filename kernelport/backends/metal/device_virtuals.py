"""Virtual member functions of classes device code uses as objects (stop 65, KP254).

MSL has no virtual functions: the checker refused every port with one (KP224 at `virtual`).  Where the dynamic
type of every object device code calls them on is known from the code, the call CUDA makes is the direct
call of the static type's member, and the port writes the members without `virtual`, `override` and `final`:
C++'s static resolution then calls what CUDA's dispatch calls.  That holds when, in the code the port keeps,
every object of the classes of the hierarchy (those that declare a virtual member, their bases and the classes
derived from them) is one of the class itself: a local, a by-value parameter of a device function, an element
of a local or `__shared__` array (its type is its dynamic type: a copy of a derived object is sliced), and no
pointer or reference to one is formed (a parameter, a local, a member, a return type, a cast, a template
argument, a typedef), and a member calls a virtual member on its own object (`area()`, `this->area()`) only where no
class derived from its own overrides that member (else `c.twice()` of a derived `c` runs the derived one).
A pure virtual member (`virtual T &operator*() = 0;` of cuda-samples' SharedMemory primary template, which
only its specialisations instantiate) is left out with a comment: no object of an abstract class exists, and a
call that named it would be a call through `this` (refused below) or fail the checker.
Refused at the first site that breaks it (KP254): a pointer or reference to a class of the hierarchy, a kernel's
by-value argument or a file-scope variable of one (the host's object carries its vtable pointer, which the
port's class lacks), a call through `this` that a derived class overrides.
"""
from __future__ import annotations

from ...source import walk
from .self_calls import _reaches

_CLASSES = ("class_specifier", "struct_specifier")
_DECLARATORS = ("pointer_declarator", "reference_declarator", "abstract_pointer_declarator",
                "abstract_reference_declarator")


class DeviceVirtuals:
    """Mixin of MetalTranslator: the `device_virtuals` pass (after host_virtuals)."""

    def device_virtuals(self) -> None:
        classes = {}  # name -> (specifier, bases, virtual keyword nodes, member names)
        for cls in self.src.index.of_types(*_CLASSES):
            name, body = cls.child_by_field_name("name"), cls.child_by_field_name("body")
            if name is None or body is None or self.rw.has(cls) or self.rw.within(cls) or self.left_out_at(cls):
                continue
            bases = [self.src.text_of(c).split("<")[0].split("::")[-1] for b in cls.children
                     if b.type == "base_class_clause" for c in b.named_children if c.type in ("type_identifier",
                                                                                            "qualified_identifier",
                                                                                            "template_type")]
            marks = [k for m in body.named_children if not (self.rw.has(m) or self.rw.within(m))  # (host_virtuals')
                     for k in walk(m) if k.type == "virtual" or (k.type == "virtual_specifier")]
            members = {self.src.text_of(i) for m in body.named_children for d in walk(m)
                       if d.type == "function_declarator" for i in [d.child_by_field_name("declarator")]
                       if i is not None and i.type in ("identifier", "field_identifier", "operator_name")}
            classes[self.src.text_of(name)] = (cls, bases, marks, members)
        if not any(v[2] for v in classes.values()):
            return
        family = {n for n, v in classes.items() if v[2]}
        for _ in range(len(classes)):  # bases and derived classes, transitively
            family |= {b for n in family for b in classes[n][1] if b in classes}
            family |= {n for n, v in classes.items() if any(b in family for b in v[1])}
        site = self._virtual_site(classes, family)
        if site is not None:
            node, why = site
            self.problem("KP254", node, f"{why}: Metal has no virtual functions, and the port can call the "
                         "static type's member only where every object's dynamic type is its declared one",
                         "use objects of the class itself (no pointer or reference to one), or replace the "
                         "virtual call with a direct one (a switch on a kind member)")
            return
        for n in family:
            pure = [d for d in (self._pure(k) for k in classes[n][2]) if d is not None]
            for d in dict.fromkeys(pure):  # no object of an abstract class exists: its pure members go
                text = " ".join(self.src.text_of(d).split()).replace("*/", "* /")
                self.rw.replace(d, f"/* {text} a pure virtual member: left out of the Metal port (MSL has no "
                                   "virtual functions; no object of an abstract class exists) */")
            for k in classes[n][2]:
                if self._pure(k) is None:
                    self.rw.replace(k, "")

    def _pure(self, k):
        """The declaration a `virtual` (or `override`) mark `k` belongs to if it declares a pure member."""
        fn = k.parent
        while fn is not None and fn.type not in ("function_definition", "field_declaration", "declaration"):
            fn = fn.parent
        return fn if fn is not None and fn.type != "function_definition" and any(
            c.type == "pure_virtual_clause" or self.src.text_of(c) == "0" for c in fn.children) else None

    def _virtual_site(self, classes: dict, family: set[str]):
        """(node, what) of the first site where an object's dynamic type is not its declared one; None."""
        names = self._aliases(family)
        for t in self.src.index.of_type("decltype"):  # `decltype(sh)& p = c;`: the referent's type unread
            holder = t.parent
            if t.named_children and holder is not None and holder.type in ("declaration", "parameter_declaration",
                                                                           "field_declaration") and \
                    not self.left_out_at(t) and any(c.type in _DECLARATORS for c in walk(holder)):
                return holder, "a pointer or reference declared with decltype"
        for t in self.src.index.of_type("type_identifier"):
            name = self.src.text_of(t)
            if name not in names or self.left_out_at(t) or self.rw.within(t):
                continue
            up = t.parent
            if up is not None and up.type in ("base_class_clause",) or any(t == classes[c][0].child_by_field_name("name")
                                                                       for c in classes):
                continue
            while up is not None and up.type in ("qualified_identifier", "template_type", "type_descriptor") \
                    and up.type != "type_descriptor":
                up = up.parent
            if up is not None and up.type == "qualified_identifier":
                continue  # `Shape::area()`: a named member, no dispatch
            holder = t.parent
            while holder is not None and holder.type not in ("declaration", "parameter_declaration",
                                                             "field_declaration", "function_definition",
                                                             "type_descriptor", "new_expression", "type_definition"):
                holder = holder.parent
            if holder is None:
                continue
            if holder.type in ("type_descriptor", "new_expression"):
                if any(c.type in _DECLARATORS for c in walk(holder)) or holder.type == "new_expression":
                    return holder, f"a pointer or reference to '{name}'"
                arg = holder.parent
                if arg is not None and arg.type == "template_argument_list" and not (
                        arg.parent is not None and arg.parent.parent is not None and
                        arg.parent.parent.type == "base_class_clause"):  # `g<Shape>(&c)`, `Mix<Shape> m;`
                    return arg, (f"'{name}' as a template argument (the template may form a pointer or reference "
                                 "to it, or derive from it and override its members)")
                continue
            ds = holder.children_by_field_name("declarator")
            if any(d.type in _DECLARATORS or (d.type == "init_declarator" and
                                              d.child_by_field_name("declarator").type in _DECLARATORS) for d in ds) \
                    or (holder.type == "function_definition" and
                        any(c.type in _DECLARATORS for c in [holder.child_by_field_name("declarator")])):
                return holder, f"a pointer or reference to '{name}'"
            if holder.type == "parameter_declaration" and self._kernel_param(holder):
                return holder, f"a kernel's argument of '{name}' (the host's object has a vtable pointer)"
            if holder.type == "declaration" and holder.parent is not None and holder.parent.type in (
                    "translation_unit", "declaration_list", "linkage_specification"):
                return holder, f"a file-scope variable of '{name}' (the host's object has a vtable pointer)"
        site = self._held_site(names)
        if site is not None:
            return site
        for n in sorted(family, key=lambda n: classes[n][0].start_byte):
            derived = {d for d in family if d != n and self._derives(classes, d, n)}
            overridden = {m for d in derived for m in classes[d][3]}
            for fn in self._members_of(classes, n):
                for c in walk(fn):
                    if c.type == "this" and overridden and not self._plain_this(c):
                        return c, (f"'this' of a '{n}' member used whole, and a class derived from '{n}' overrides "
                                   "its members (the object's dynamic type is not known here)")
                    if c.type != "call_expression":
                        continue
                    f = c.child_by_field_name("function")
                    callee = None
                    if f is not None and f.type == "identifier":
                        callee = self.src.text_of(f)
                    elif f is not None and f.type == "field_expression" and \
                            self.src.text_of(f.child_by_field_name("argument")).replace(" ", "") in ("this", "(*this)"):
                        callee = self.src.text_of(f.child_by_field_name("field"))
                    if callee in overridden:
                        return c, (f"'{callee}' called on a '{n}' object's own member, which a class derived from "
                                   f"'{n}' overrides (its dynamic type is not known here)")
        return None

    def _held_site(self, names: set[str]):
        """(node, what) of a kernel's argument (by value or through a pointer) or a file-scope variable of a
        class that holds an object of the hierarchy as a member (`struct H { Circle c; float k; };`): the host's
        H holds the host's Circle with its vtable pointer, so the port's H reads its members at other offsets."""
        held: dict[str, str] = {}
        bodies = [c for c in self.src.index.of_types(*_CLASSES) if c.child_by_field_name("name") is not None
                  and c.child_by_field_name("body") is not None and not self.left_out_at(c)]
        for _ in range(len(bodies)):
            grown = {self.src.text_of(c.child_by_field_name("name")): held.get(t, t) for c in bodies
                     for f in c.child_by_field_name("body").named_children if f.type == "field_declaration"
                     for t in [self.src.text_of(f.child_by_field_name("type") or f).split("<")[0].split("::")[-1]]
                     if (t in names or t in held) and not any(
                         d.type in _DECLARATORS or d.type == "function_declarator"
                         for d in f.children_by_field_name("declarator"))}
            grown = {k: v for k, v in grown.items() if k not in names and k not in held}
            if not grown:
                break
            held.update(grown)
        for t in self.src.index.of_type("type_identifier"):
            name = self.src.text_of(t)
            if name not in held or self.left_out_at(t) or self.rw.within(t):
                continue
            holder = t.parent
            while holder is not None and holder.type not in ("declaration", "parameter_declaration"):
                holder = holder.parent
            why = f"'{name}' holds a '{held[name]}' (the host's object has a vtable pointer the port's lacks)"
            if holder is not None and holder.type == "parameter_declaration" and self._kernel_param(holder):
                return holder, "a kernel's argument of " + why
            if holder is not None and holder.type == "declaration" and holder.parent is not None and \
                    holder.parent.type in ("translation_unit", "declaration_list", "linkage_specification"):
                return holder, "a file-scope variable of " + why
        return None

    def _aliases(self, family: set[str]) -> set[str]:
        """`family` with the names typedef and `using` give its classes (`typedef Shape S;`), transitively."""
        names = set(family)
        aliases = [(d, t) for a in self.src.index.of_type("type_definition")
                   for t in [a.child_by_field_name("type")] for d in a.children_by_field_name("declarator")
                   if t is not None and d.type == "type_identifier"] + \
                  [(a.child_by_field_name("name"), a.child_by_field_name("type"))
                   for a in self.src.index.of_type("alias_declaration")]
        for _ in range(len(aliases)):
            grown = {self.src.text_of(d) for d, t in aliases if d is not None and t is not None
                     and t.type in ("type_identifier", "type_descriptor") and
                     self.src.text_of(t).replace("struct ", "").replace("class ", "").strip() in names}
            if grown <= names:
                break
            names |= grown
        return names

    def _plain_this(self, c) -> bool:
        """Whether `this` names a member of its own object (`this->s`, `(*this).s`, a lambda's `[this]`) or is
        copied by value (`return *this;`, `Shape g = *this;`: a copy of the static type, as CUDA's); a call
        through it is read by the caller's check."""
        up = c.parent
        if up is not None and up.type == "lambda_capture_specifier":
            return True
        if up is not None and up.type == "field_expression" and up.child_by_field_name("argument") == c:
            return True
        if up is None or up.type != "pointer_expression" or self.src.text_of(up.child_by_field_name("operator") or
                                                                           up).strip() != "*":
            return False
        top = up.parent
        if top is not None and (top.type == "return_statement" or top.type == "init_declarator" and
                                top.child_by_field_name("declarator").type == "identifier"):
            return True  # `return *this;`, `Shape g = *this;`: copies of the static type
        return top is not None and top.type == "parenthesized_expression" and top.parent is not None and \
            top.parent.type == "field_expression" and top.parent.child_by_field_name("argument") == top

    def _derives(self, classes: dict, d: str, base: str) -> bool:
        """Whether class `d` derives from `base`, directly or not (self_calls' graph walk over the bases)."""
        return _reaches({n: set(v[1]) for n, v in classes.items()}, d, base)

    def _members_of(self, classes: dict, n: str):
        """The member function definitions of class `n`: in its body, and out of it (`Shape::twice`)."""
        body = classes[n][0].child_by_field_name("body")
        yield from (m for m in body.named_children if m.type == "function_definition")
        for fn in self.src.index.of_type("function_definition"):
            d = fn.child_by_field_name("declarator")
            while d is not None and d.type != "function_declarator":
                d = next((c for c in d.named_children if "declarator" in c.type), None)
            q = d.child_by_field_name("declarator") if d is not None else None
            if q is not None and q.type == "qualified_identifier" and \
                    self.src.text_of(q.child_by_field_name("scope")).split("<")[0] == n and not self.left_out_at(fn):
                yield fn

    def _kernel_param(self, p) -> bool:
        fn = p.parent
        while fn is not None and fn.type != "function_definition":
            fn = fn.parent
        return fn is not None and any(f.is_kernel and f.node == fn for f in self.device.values())
