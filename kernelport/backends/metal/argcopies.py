"""Kernel arguments the body changes: a CUDA kernel's by-value parameter is the thread's own copy,
which it may assign, increment or take the address of; Metal's `constant T& n [[buffer(i)]]` is
read-only (shared by the grid).  Such a parameter is bound under another name (`kp_n`) and the
body starts with the copy CUDA had: `int n = kp_n;`.  The sidecar still names the argument `n`.

A function object passed by value and called (`template <class F> __global__ void apply(F f, float* x,
int n) { x[i] = f(x[i]); }`, launched `apply<<<g, b>>>(Scale{2.f}, d, n)`: thrust-style transforms) is
copied the same way: its `operator()` is a member of a `thread` object in MSL (no qualifier), which the
`constant` argument cannot call ("'this' object is in address space 'constant'").  The copy is what
CUDA's by-value parameter is, works for whatever class a template's instances pass (each instance's
operator() as written, const or not), and leaves the functor's class as hand-written MSL has it.
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function, Param
from ...source import call_args, ident_name, walk

# The operand a write goes through: `n = ..`, `n++`, `&n`, `s.x = ..`, `a[i] = ..` (a by-value array
# member of a struct parameter), `T& r = s.x;` (a reference bound to it).
_THROUGH = ("field_expression", "subscript_expression", "parenthesized_expression")


_ANY = "*"  # an operator's reference parameter typed by its own template parameter: any class


def _class_name(text: str) -> str:
    """`const ns::V<float>` -> `V`: the class a type names, for matching a kernel argument against an
    operator's parameter (a template's instances match its name)."""
    text = text.split("<", 1)[0].split("::")[-1]
    words = [w for w in text.split() if w not in ("const", "volatile", "struct", "class", "typename")]
    return words[-1] if words else ""


def _friend(d: Node) -> bool:
    """Whether function declarator `d` declares a friend (`friend V operator*(float, const V&)`: no member)."""
    while d is not None and d.type != "field_declaration_list":
        if d.type == "friend_declaration":
            return True
        d = d.parent
    return False


def _template_params(src, d: Node) -> set[str]:
    """The type parameters of the template declaring function declarator `d` (`template <class T>`)."""
    while d is not None and d.type not in ("template_declaration", "translation_unit", "field_declaration_list"):
        d = d.parent
    if d is None or d.type != "template_declaration":
        return set()
    ps = d.child_by_field_name("parameters")
    return {src.text_of(n) for p in (ps.named_children if ps is not None else ())
            for n in p.named_children if n.type == "type_identifier"}


def kp_name(name: str, taken) -> str:
    """`kp_<name>`, else `kp_<name>_2`, `kp_<name>_3`, ...: the first not in `taken` (a copy's binding here, a
    shadowed constant's in shadowed_constants.py)."""
    got, i = f"kp_{name}", 2
    while got in taken:
        got, i = f"kp_{name}_{i}", i + 1
    return got


class ArgumentCopies:
    """Mixin of MetalTranslator: the `copy_written_arguments` pass."""

    def copy_written_arguments(self) -> None:
        self.arg_copies: dict[str, list[tuple[Param, str]]] = {}  # kernel -> (parameter, its binding's name)
        taken = set(self.names.values()) | {self.src.text_of(n) for n in self.src.index.of_type("identifier")}
        for k in self.kernels:
            for p in k.params:
                decl = p.node.child_by_field_name("declarator")
                if p.pointer or decl is None or decl.type != "identifier" or not self.copied_argument(k, p.name):
                    continue
                binding = kp_name(p.name, taken)
                taken.add(binding)
                self.rw.replace(decl, binding)
                self.arg_copies.setdefault(k.name, []).append((p, binding))
                op = None if self._written(k, p.name) else self._thread_operand(k, p.name)
                why = f"the kernel changes '{p.name}', and Metal's constant arguments are read-only" \
                    if self._written(k, p.name) else \
                    f"'{p.name}' is an operand of the file's operator{op}, which MSL takes as a thread object" \
                    if op is not None else \
                    f"the kernel calls '{p.name}', and MSL's operator() is a thread object's, not a constant argument's"
                self.note(decl, binding, why + ": the body starts with a copy")

    def argument_copy_lines(self, k: Function, indent: str) -> list[str]:
        """The copies that open kernel `k`'s body."""
        out = []
        for p, binding in getattr(self, "arg_copies", {}).get(k.name, []):
            t = p.node.child_by_field_name("type")
            quals = " ".join(self.src.text_of(c) for c in p.node.children
                             if c.type == "type_qualifier" and self.src.text_of(c) in ("volatile",))
            op = None if self._written(k, p.name) else self._thread_operand(k, p.name)
            why = "Metal's kernel arguments are read-only" if self._written(k, p.name) else \
                f"MSL's operator{op} takes a thread object" if op is not None else \
                "MSL calls operator() on a thread object"
            out.append(f"{indent}{quals + ' ' if quals else ''}{self.rw.text(t)} {p.name} = {binding};"
                       f"  // a copy: {why}")
        return out

    def copied_argument(self, k: Function, name: str) -> bool:
        """Kernel k's by-value parameter `name` is bound as `kp_<name>` and copied at entry: k changes it, or
        calls it as a function object (its operator() takes a thread object), or it is an operand of the
        file's operator that MSL takes in the thread space."""
        return self._written(k, name) or self._thread_operand(k, name) is not None or self._called_object(k, name)

    def _thread_operand(self, k: Function, name: str) -> str | None:
        """The operator (`+`) of the file's overloads whose `thread` object or reference parameter k's
        class-typed argument `name` binds (`a + b` with `V operator+(const V &o)`), else None."""
        if self._local_decl(k, name) is not None or not self._class_typed(k, name):
            return None
        return next((op for a, op in self._overloaded_operands(k)
                     if ident_name(a) == name and self._binds_thread(k, name, op)), None)

    def _called_object(self, k: Function, name: str) -> bool:
        """`f(x)` in k's body where f is k's parameter `name` (not a local of that name): a function object's call."""
        if self._local_decl(k, name) is not None:
            return False
        for n in walk(k.body):
            if n.type == "call_expression" and (fn := n.child_by_field_name("function")) is not None:
                while fn.type == "parenthesized_expression" and fn.named_children:
                    fn = fn.named_children[0]  # `(f)(x)`
                if fn.type == "identifier" and self.src.text_of(fn) == name:
                    return True
        return False

    def _written(self, k: Function, name: str) -> bool:
        if self._local_decl(k, name) is not None:
            return False  # a local of the same name: which one is written is not worth guessing
        if any(self._base_name(a) == name for a in self._reference_arguments(k)):
            return True
        for n in walk(k.body):
            target = None
            if n.type == "assignment_expression":
                target = n.child_by_field_name("left")
            elif n.type == "update_expression":
                target = n.child_by_field_name("argument")
            elif n.type == "pointer_expression" and self.src.text_of(n).lstrip().startswith("&"):
                target = n.child_by_field_name("argument")
            elif n.type == "call_expression" and (fn := n.child_by_field_name("function")) is not None \
                    and fn.type == "field_expression" \
                    and (h := self._member_helper(fn)) is not None and self.in_class_member(h) \
                    and not self.const_member(h):
                target = fn  # `s.reset()`: a member that may change its object (object_spaces.py)
            elif n.type == "init_declarator" and self._reference(n):
                # `T& r = n;`: a write may go through r, and a `const T&` in the port is a `thread`
                # reference, which cannot bind the `constant` argument either
                target = n.child_by_field_name("value")
            if target is not None and self._base_name(target) == name:
                return True
        return False

    def _reference_arguments(self, k: Function) -> list[Node]:
        """The arguments of k's calls that a helper's reference parameter binds (`void flip(char &c)`
        called `flip(player)`, c4.cu): a `T&` may write the argument, and even a `const T&` is a
        `thread` reference in the port, which cannot bind the `constant` kernel argument."""
        out = []
        for call, h in self._calls(k):
            args = call_args(call)
            for i, p in enumerate(h.params):
                d = p.node.child_by_field_name("declarator")
                if i < len(args) and d is not None and d.type == "reference_declarator":
                    out.append(args[i])
        return out

    @staticmethod
    def _class_typed(k: Function, name: str) -> bool:
        """Whether k's parameter `name` has a named type (`V a`, `ns::V a`, `P<T> a`): an `int n` is no operand
        of a user's operator."""
        p = next((p for p in k.params if p.name == name), None)
        t = p.node.child_by_field_name("type") if p is not None else None
        return t is not None and t.type in ("type_identifier", "qualified_identifier", "template_type", "struct_specifier")

    def _overloaded_operands(self, k: Function) -> list[tuple[Node, str]]:
        """The operands of k's operators that the file overloads, each with its operator (`look + Vec3(u) * up`
        with a member `Vec3 operator+(const Vec3 &b)`).  A built-in operator's operands are never taken:
        `n + 1` on an `int` argument stays a read of the binding."""
        ops = set(self._operator_thread_types())
        out = []
        for n in walk(k.body):
            op = n.child_by_field_name("operator")
            sym = self.src.text_of(op) if op is not None else None
            if sym not in ops:
                continue
            if n.type == "binary_expression":
                out += [(n.child_by_field_name("left"), sym), (n.child_by_field_name("right"), sym)]
            elif n.type == "assignment_expression":
                out.append((n.child_by_field_name("right"), sym))  # `acc += v`: v binds operator+='s parameter
            elif n.type == "unary_expression":
                out.append((n.child_by_field_name("argument"), sym))  # `-v`: a member operator-() on v
        found = []
        for o, sym in out:  # `(a) + b`; the argument itself, never a member of it (`a.x + a.y`: floats)
            while o is not None and o.type == "parenthesized_expression" and o.named_children:
                o = o.named_children[0]
            if o is not None:
                found.append((o, sym))
        return found

    def _binds_thread(self, k: Function, name: str, op: str) -> bool:
        """Whether k's argument `name`, an operand of `op`, may bind what MSL takes in the `thread` space: the
        object of a member `op` of its class, or a reference parameter (`const V &b`) of its type.  A by-value
        parameter (`float4 operator-(float4 a, float4 b)`, HeCBench sobel) copies out of `constant` as it is;
        so neither a `uint width` beside it nor a `float4` passed to it needs a thread copy.  A parameter typed
        by a template parameter (the kernel's or the operator's) may be any class: it counts."""
        types = {self._unaliased(t) for t in self._operator_thread_types().get(op, set())}
        p = next(p for p in k.params if p.name == name)
        t = self._unaliased(_class_name(self.src.text_of(p.node.child_by_field_name("type"))))
        return bool(types) and (t in types or t in k.template_params or _ANY in types)

    def _unaliased(self, name: str) -> str:
        """The class a file's `typedef Vec3 V3;` / `using V3 = Vec3;` name stands for (a few levels), else
        `name`: `V3 a` binds `Vec3 operator+(const Vec3&)`'s thread object as `Vec3 a` does."""
        cached = getattr(self, "_kp_aliases", None)
        if cached is None or cached[0] is not self.src:
            got = {}
            for n in self.src.index.of_types("type_definition", "alias_declaration"):
                t = n.child_by_field_name("type")
                names = [n.child_by_field_name("name")] if n.type == "alias_declaration" else \
                    n.children_by_field_name("declarator")
                for d in names:
                    if t is not None and d is not None and d.type == "type_identifier":
                        got.setdefault(self.src.text_of(d), set()).add(_class_name(self.src.text_of(t)))
            cached = self._kp_aliases = (self.src, {a: next(iter(v)) for a, v in got.items() if len(v) == 1})
        seen = set()
        while name in cached[1] and name not in seen and len(seen) < 8:
            seen.add(name)
            name = cached[1][name]
        return name

    def _operator_thread_types(self) -> dict[str, set[str]]:
        """Each operator the file overloads -> the class names whose objects its overloads take in the `thread`
        space: a member operator's class (its `this`) and the type of each reference parameter; `_ANY` where
        that type is the operator's own template parameter (`template <class T> T operator+(const T&, ...)`)."""
        cached = getattr(self, "_op_thread_types", None)
        if cached is not None and cached[0] is self.src:
            return cached[1]
        got = {}
        for n in self.src.index.of_type("operator_name"):
            sym = self.src.text_of(n).replace(" ", "")[len("operator"):]
            types = got.setdefault(sym, set())
            d = n.parent
            scope = d.child_by_field_name("scope") if d is not None and d.type == "qualified_identifier" else None
            while d is not None and d.type != "function_declarator":
                d = d.parent
            if d is None:
                continue
            owner = d.parent
            while owner is not None and owner.type not in ("field_declaration_list", "translation_unit",
                                                           "compound_statement"):
                owner = owner.parent
            if scope is not None:  # `V V::operator+(const V &o) const { ... }`
                types.add(_class_name(self.src.text_of(scope)))
            elif owner is not None and owner.type == "field_declaration_list" and not _friend(d) \
                    and (name := owner.parent.child_by_field_name("name")) is not None:
                types.add(_class_name(self.src.text_of(name)))
            generic = _template_params(self.src, d)
            for prm in (d.child_by_field_name("parameters") or d).named_children:
                pd = prm.child_by_field_name("declarator")
                if prm.type == "parameter_declaration" and pd is not None and pd.type == "reference_declarator":
                    t = _class_name(self.src.text_of(prm.child_by_field_name("type")))
                    types.add(_ANY if t in generic else t)
        self._op_thread_types = (self.src, got)
        return got

    @staticmethod
    def _reference(n: Node) -> bool:
        """`T& r = ...` or `const T& r = ...`: a local reference (an rvalue `&&` too)."""
        d = n.child_by_field_name("declarator")
        return d is not None and d.type == "reference_declarator" and n.parent is not None \
            and n.parent.type == "declaration"

    def _base_name(self, n: Node) -> str | None:
        while n is not None and n.type in _THROUGH:
            if n.type == "field_expression" and self.src.text_of(n.child_by_field_name("operator") or n) == "->":
                return None  # through a pointer: the pointee is written, not the argument
            if n.type == "subscript_expression" and (a := n.child_by_field_name("argument")).type == "field_expression" \
                    and self.src.text_of(a.child_by_field_name("field")) in self.device_pointer_fields():
                return None  # `grid.cells[i]`: through a pointer member (pointer_members.py), likewise
            n = n.child_by_field_name("argument") if n.type != "parenthesized_expression" else \
                (n.named_children[0] if n.named_children else None)
        return ident_name(n) if n is not None and n.type == "identifier" else None
