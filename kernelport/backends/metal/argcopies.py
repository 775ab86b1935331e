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
                why = f"the kernel changes '{p.name}', and Metal's constant arguments are read-only" \
                    if self._written(k, p.name) else \
                    f"the kernel calls '{p.name}', and MSL's operator() is a thread object's, not a constant argument's"
                self.note(decl, binding, why + ": the body starts with a copy")

    def argument_copy_lines(self, k: Function, indent: str) -> list[str]:
        """The copies that open kernel `k`'s body."""
        out = []
        for p, binding in getattr(self, "arg_copies", {}).get(k.name, []):
            t = p.node.child_by_field_name("type")
            quals = " ".join(self.src.text_of(c) for c in p.node.children
                             if c.type == "type_qualifier" and self.src.text_of(c) in ("volatile",))
            why = "Metal's kernel arguments are read-only" if self._written(k, p.name) else \
                "MSL calls operator() on a thread object"
            out.append(f"{indent}{quals + ' ' if quals else ''}{self.rw.text(t)} {p.name} = {binding};"
                       f"  // a copy: {why}")
        return out

    def copied_argument(self, k: Function, name: str) -> bool:
        """Kernel k's by-value parameter `name` is bound as `kp_<name>` and copied at entry: k changes it, or
        calls it as a function object (its operator() takes a thread object)."""
        return self._written(k, name) or self._called_object(k, name)

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
        if self._class_typed(k, name) and any(ident_name(a) == name for a in self._overloaded_operands(k)):
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

    def _overloaded_operands(self, k: Function) -> list[Node]:
        """The operands of k's operators that the file overloads (`look + Vec3(u) * up` with a member
        `Vec3 operator+(const Vec3 &b)`): the left one is the member's object, the right one binds its
        reference parameter, and neither may be a `constant` kernel argument (Metal: "invalid operands
        to binary expression ('Vec3' and 'constant Vec3')").  A built-in operator's operands are never
        taken: `n + 1` on an `int` argument stays a read of the binding."""
        ops = {self.src.text_of(n).replace(" ", "")[len("operator"):] for n in self.src.index.of_type("operator_name")}
        out = []
        for n in walk(k.body):
            op = n.child_by_field_name("operator")
            if n.type == "binary_expression" and op is not None and self.src.text_of(op) in ops:
                out += [n.child_by_field_name("left"), n.child_by_field_name("right")]
            elif n.type == "assignment_expression" and op is not None and self.src.text_of(op) in ops:
                out.append(n.child_by_field_name("right"))  # `acc += v`: v binds operator+='s parameter
            elif n.type == "unary_expression" and op is not None and self.src.text_of(op) in ops:
                out.append(n.child_by_field_name("argument"))  # `-v`: a member operator-() on v
        out = [o for o in out if o is not None]
        for i, o in enumerate(out):  # `(a) + b`; the argument itself, never a member of it (`a.x + a.y`: floats)
            while o.type == "parenthesized_expression" and o.named_children:
                o = out[i] = o.named_children[0]
        return out

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
