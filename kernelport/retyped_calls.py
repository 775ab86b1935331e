"""Calls of CUDA overloads whose pointer type the target lacks, where another pointer type's overload
computes the same bits (`atomicOr(long long*, long long)`).

CUDA's sm_32_atomic_functions.h and sm_60_atomic_functions.h declare `atomicAnd`, `atomicOr` and
`atomicXor` (and their `_block`, `_system` forms) for `long long`; ROCm 5.2's amd_hip_atomic.h has
them for int, unsigned int, unsigned long and unsigned long long only, so FPcompress's
`atomicOr_block((long long*)&out_t[i], (long long)v)` does not compile ("no matching function").
A bitwise operation on the same 64 bits is the same through `unsigned long long`: the port converts
the pointer and the value to CUDA's other overload's types and the old value it returns back,
`((long long)atomicOr((unsigned long long *)(p), (unsigned long long)(v)))` (the backend's
`retyped_pointer_calls`: name -> (CUDA's pointee type, the target's)).

The overloads differ only in the pointer's type (no pointer converts to another), so the pointer
alone decides CUDA's overload. Its pointee type is read only where the code says it plainly: a cast
(C-style or `reinterpret_cast`) to a single pointer, a parameter or local declared as a single
pointer, `&a[i]` or `p + i` of one. Anything else (a template type, a member, a call) leaves the
call as written (hipcc then refuses it, never a silent guess).

The same reading renames CUDA's float-pointer overloads of double-named functions the target
declares for double pointers only (the backend's `float_pointer_calls`: ROCm 5.2 has no
`sincos(float, float*, float*)`): where every pointer argument plainly points to float (`&s` of a
float local or parameter, a float pointer, `&a[i]` of one), the call is the float function's,
`sincosf(x, &s, &c)`, which is the overload CUDA's call takes (the pointers decide it); in host
functions too where the target's host library has the float form (glibc's sincosf).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import backends

if TYPE_CHECKING:
    from tree_sitter import Node

_QUALIFIERS = frozenset({"const", "volatile", "__restrict__", "restrict", "__restrict"})


def _plain(text: str) -> str:
    """A type's words, less qualifiers, blanks collapsed (`const long long int` -> `long long int`)."""
    return " ".join(w for w in text.replace("\n", " ").split() if w not in _QUALIFIERS)


def _same_type(a: str, b: str) -> bool:
    """Whether two integer spellings name one type (`long long int` is `long long`, `signed` is implied)."""
    def norm(t: str) -> tuple[str, ...]:
        words = [w for w in t.split() if w != "signed"]
        if len(words) > 1 and words[-1] == "int":
            words = words[:-1]
        return tuple(words)
    return norm(a) == norm(b)


class RetypedPointerCalls:
    def _single_pointer_decl(self, decl: "Node") -> bool:
        """Whether a declarator (or abstract one) is exactly one `*` around the name (or nothing)."""
        d = decl.child_by_field_name("declarator") if decl.type == "init_declarator" else decl
        if d is None or d.type not in ("pointer_declarator", "abstract_pointer_declarator"):
            return False
        inner = d.child_by_field_name("declarator")
        return inner is None or inner.type == "identifier"

    def _name_pointee(self, name: str, where: "Node", plain: bool = False) -> str | None:
        """The pointee type of a parameter or local `name` every declaration of which in the function
        around `where` is a single pointer of one type (`plain`: the type of one every declaration of
        which is a plain variable, `float s`), None otherwise."""
        def fits(decl: "Node") -> bool:
            if not plain:
                return self._single_pointer_decl(decl)
            d = decl.child_by_field_name("declarator") if decl.type == "init_declarator" else decl
            return d is not None and d.type == "identifier"
        from .warpflow import ident_name
        f = self.module.function_at(where)
        if f is None:
            return None
        found = set()
        p = f.param(name)
        if p is not None:
            decl = p.node.child_by_field_name("declarator")
            ty = p.node.child_by_field_name("type")
            found.add(_plain(self.src.text_of(ty)) if decl is not None and ty is not None and
                      fits(decl) else None)
        for d in self.src.index.under(f.body, "declaration") if f.body is not None else ():
            for decl in d.children_by_field_name("declarator"):
                if ident_name(decl) == name:
                    ty = d.child_by_field_name("type")
                    found.add(_plain(self.src.text_of(ty)) if ty is not None and fits(decl)
                              else None)
        return found.pop() if len(found) == 1 else None

    def pointee_type(self, n: "Node") -> str | None:
        """The type a pointer expression points to, where the code says it plainly (module docstring)."""
        t = n.type
        if t == "parenthesized_expression" and n.named_child_count == 1:
            return self.pointee_type(n.named_children[0])
        if t == "cast_expression":
            td = n.child_by_field_name("type")
            ty = td.child_by_field_name("type") if td is not None else None
            decl = td.child_by_field_name("declarator") if td is not None else None
            return _plain(self.src.text_of(ty)) if ty is not None and decl is not None and \
                self._single_pointer_decl(decl) else None
        if t == "call_expression":  # reinterpret_cast<long long*>(p)
            fn = n.child_by_field_name("function")
            if fn is None or fn.type != "template_function" or \
                    self.src.text_of(fn.child_by_field_name("name")) not in ("reinterpret_cast", "static_cast"):
                return None
            targs = fn.child_by_field_name("arguments")
            inner = self.src.text_of(targs)[1:-1].strip() if targs is not None else ""
            return _plain(inner[:-1]) if inner.endswith("*") and inner.count("*") == 1 else None
        if t == "identifier":
            return self._name_pointee(self.src.text_of(n), n)
        if t == "pointer_expression" and self.src.text_of(n.child_by_field_name("operator")) == "&":
            a = n.child_by_field_name("argument")
            if a is not None and a.type == "subscript_expression":
                base = a.child_by_field_name("argument")
                return self.pointee_type(base) if base is not None and base.type == "identifier" else None
            if a is not None and a.type == "identifier":  # `&s` of a plain variable
                return self._name_pointee(self.src.text_of(a), a, plain=True)
            return None
        if t == "binary_expression" and self.src.text_of(n.child_by_field_name("operator")) in ("+", "-"):
            return self.pointee_type(n.child_by_field_name("left"))
        return None

    def cast_retyped_pointer_arguments(self) -> None:
        """`atomicOr(long long*, long long)` where the target has no such overload: through the
        target's one for the same bits (module docstring)."""
        calls = backends.get(self.backend).retyped_pointer_calls
        from .device_calls import device_calls
        for call, name, args in device_calls(self, calls):
            if self.rw.has(call):  # the API table's rename (to the same name): its text is the callee's stitch
                if self.rw.text(call) != self.src.text_of(call):
                    continue
                self.rw.remove(call)
            cuda_t, target_t = calls[name]
            pointee = self.pointee_type(args[0])
            if pointee is None or not _same_type(pointee, cuda_t):
                continue
            self.rw.replace(args[0], lambda rw, n, t=target_t: f"({t} *)({rw.stitch(n)})")
            self.rw.replace(args[1], lambda rw, n, t=target_t: f"({t})({rw.stitch(n)})")
            if call.parent is not None and call.parent.type != "expression_statement":  # the old value, used
                self.rw.replace(call, lambda rw, n, t=cuda_t: f"(({t}){rw.stitch(n)})")

    def rename_float_pointer_calls(self) -> None:
        """`sincos(x, &s, &c)` with float pointers where the target has only the double overload: the
        float function, `sincosf(x, &s, &c)` (module docstring)."""
        calls = backends.get(self.backend).float_pointer_calls
        from .device_calls import device_calls
        for arity, host in sorted({(a, h) for _, a, h in calls.values()}):
            names = {n for n, (_, a, h) in calls.items() if (a, h) == (arity, host)}
            for call, name, args in device_calls(self, names, arity, host):
                if self.rw.has(call):  # the API table's rename (to the same name), as above
                    if self.rw.text(call) != self.src.text_of(call):
                        continue
                    self.rw.remove(call)
                if any(self.pointee_type(a) != "float" for a in args[1:]):  # (the value, then the pointers)
                    continue
                self.rw.replace(call.child_by_field_name("function"), calls[name][0])
