"""CUDA's 64-bit `atomicAdd` as two 32-bit atomics, where that is provably the same.

Metal has no 64-bit atomic add (MSL 6.15: atomic_ulong takes only atomic_min/max_explicit, MSL 3.1). A
counter's add can be split: a 32-bit atomic add on the low word, and when that add wraps the low word
(the old low word plus the addend's low word passes 2^32) the carry with the addend's high word added
to the high word. Every carry is counted once, so the sum the two words hold after the last add is
the exact 64-bit sum; what is lost is the 64-bit value between adds (a reader could see the low word
wrapped before its carry lands) and the old value CUDA returns. The split is therefore taken only
where nothing reads the counter while kernels add to it:

- the call's value is unused (an expression statement);
- the counter is a struct member (`&s[i].n`, `&p->n`): no device function of the file reads a member
  of that name (a plain `=` store is no read), and none copies a struct declaring it by value;
- or a variable (`&c`, `c`, `&c[i]`, `c + i`): a kernel's parameter, a `__device__` global or a local;
  the name is used in its scope (the kernel; every device function for a global) only as a split
  add's address or a store's target, and no other 64-bit pointer parameter of the kernel that could
  alias it is used otherwise.  A device helper's pointer parameter is refused: its callers' uses of
  the counter are not followed.

Where a condition fails the call stays KP212, the message naming it and the use that broke it.
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function
from ...source import call_args, walk
from .scalars import INT64

SPLIT_CALLS = ("atomicAdd", "atomicAdd_system", "atomicAdd_block")


def _bare(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _counter(addr: Node, src) -> tuple[str, str] | None:
    """('member', field) or ('name', variable) of the object an atomic's address names; None otherwise."""
    addr = _bare(addr)
    if addr.type == "pointer_expression" and src.text_of(addr.child_by_field_name("operator")) == "&":
        target = _bare(addr.child_by_field_name("argument"))
    elif addr.type == "binary_expression" and src.text_of(addr.child_by_field_name("operator")) == "+":
        target = _bare(addr.child_by_field_name("left"))  # `c + i`: element i of c
    else:
        target = addr
    if target.type == "field_expression":
        return "member", src.text_of(target.child_by_field_name("field"))
    while target.type == "subscript_expression":
        target = _bare(target.child_by_field_name("argument"))
    return ("name", src.text_of(target)) if target.type == "identifier" else None


class SplitAtomics:
    """Mixin of MetalTranslator: `split_add_blocker`, the reason a 64-bit atomicAdd cannot be split."""

    def split_add_blocker(self, call: Node, addr: Node, f: Function) -> str | None:
        """None where the add may be split (the conditions above), else what fails, said for a user."""
        if not self._value_unused(call):  # (calls.py)
            return "its returned old value is used (a split add has no 64-bit old value)"
        key = _counter(addr, self.src)
        if key is None:
            return f"the address '{self.src.text_of(addr)}' names no variable or struct member to check for reads"
        kind, name = key
        if kind == "member":
            scope = [g for g in self.module.functions.values() if g.is_device]
            use = self._plain_use(scope, name, member=True) or self._struct_copy(scope, name)
        else:
            scope, why = self._name_scope(f, name)
            if why:
                return why
            use = self._plain_use(scope, name, member=False)
            for p in (f.params if f.is_kernel else ()):  # another 64-bit buffer the host may bind to the same memory
                if use is None and p.pointer and p.name != name and p.type in INT64:
                    use = self._plain_use(scope, p.name, member=False)
        if use is not None:
            seen = self.src.text_of(use) if use.type == "identifier" else name
            what = "member" if kind == "member" else "variable"
            what = f"{what} '{name}'" if seen == name else f"variable '{seen}', a 64-bit buffer that may alias '{name}'"
            return f"device code reads the counter ({what}) at line {self._user_line(use)}: a split add's " \
                   f"64-bit value is whole only after the kernel ends"
        return None

    def _user_line(self, node: Node) -> int:
        return self.origin_location(self.src.loc(node)).line

    def _name_scope(self, f: Function, name: str) -> tuple[list[Function], str | None]:
        p = f.param(name)
        if p is not None:
            if not f.is_kernel:
                return [], f"'{name}' is a parameter of device function {f.name}: its callers' uses are not followed"
            return [f], None
        decl = self._local_decl(f, name)
        if decl is None:  # a file-scope (__device__) variable: every device function may read it
            return [g for g in self.module.functions.values() if g.is_device], None
        if any(d.type == "pointer_declarator" or d.type == "init_declarator" and
               d.child_by_field_name("declarator").type == "pointer_declarator"
               for d in decl.children_by_field_name("declarator")):
            return [], f"'{name}' is a local pointer: what it points to is not followed"
        return [f], None

    def _plain_use(self, scope: list[Function], name: str, member: bool) -> Node | None:
        """The first use of `name` (a member's field, or a variable) in these functions that is neither a
        split add's address nor the target of a plain `=` store."""
        want = "field_identifier" if member else "identifier"
        for g in scope:
            for n in walk(g.body):
                if n.type != want or self.src.text_of(n) != name:
                    continue
                if member and (n.parent is None or n.parent.type != "field_expression"):
                    continue
                if not member and self._declares(n):
                    continue
                if not self._split_or_store(n):
                    return n
        return None

    def _declares(self, ident: Node) -> bool:
        """Whether an identifier is the name a declaration declares (not a use)."""
        p = ident.parent
        while p is not None and p.type in ("pointer_declarator", "array_declarator", "reference_declarator"):
            p = p.parent
        return p is not None and (p.type in ("declaration", "parameter_declaration") or
                                  p.type == "init_declarator" and p.child_by_field_name("value") != ident)

    def _split_or_store(self, n: Node) -> bool:
        """Whether the expression holding `n` is a split add's address or a plain store's target."""
        top = n
        while top.parent is not None and top.parent.type in (
                "field_expression", "subscript_expression", "pointer_expression", "parenthesized_expression",
                "binary_expression") and (top.parent.type != "subscript_expression" or
                                          top.parent.child_by_field_name("argument") == top) and \
                (top.parent.type != "binary_expression" or top.parent.child_by_field_name("left") == top):
            top = top.parent
        p = top.parent
        if p is not None and p.type == "assignment_expression" and p.child_by_field_name("left") == top:
            return self.src.text_of(p.child_by_field_name("operator")) == "="
        if p is not None and p.type == "argument_list" and call_args(p.parent) and call_args(p.parent)[0] == top:
            call = p.parent
            fn = call.child_by_field_name("function")
            stmt = call.parent
            while stmt is not None and stmt.type == "parenthesized_expression":
                stmt = stmt.parent
            return fn is not None and self.src.text_of(fn) in SPLIT_CALLS and stmt is not None and \
                stmt.type == "expression_statement"
        return False

    def _struct_copy(self, scope: list[Function], member: str) -> Node | None:
        """A by-value declaration (a copy, which reads every member) in these functions of a struct that
        declares `member`."""
        structs = set()
        for s in self.src.index.of_types("struct_specifier", "class_specifier"):
            name, body = s.child_by_field_name("name"), s.child_by_field_name("body")
            if body is not None and any(self.src.text_of(d) == member for d in walk(body)
                                        if d.type == "field_identifier" and d.parent.type != "field_expression"):
                if name is not None:
                    structs.add(self.src.text_of(name))
                if s.parent is not None and s.parent.type == "type_definition":
                    structs |= {self.src.text_of(d) for d in s.parent.children_by_field_name("declarator")
                                if d.type == "type_identifier"}
        for g in scope:
            decls = [p.node for p in g.params if not p.pointer] + \
                [n for n in walk(g.body) if n.type == "declaration"]
            for d in decls:
                ty = d.child_by_field_name("type")
                if ty is None or self.src.text_of(ty).split()[-1] not in structs:
                    continue
                for dd in d.children_by_field_name("declarator"):
                    inner = dd.child_by_field_name("declarator") if dd.type == "init_declarator" else dd
                    if inner is not None and inner.type not in ("pointer_declarator", "reference_declarator"):
                        return d
        return None
