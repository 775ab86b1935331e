"""The extras a device function receives in its Metal port, on its prototypes too.

A helper that reads a built-in (`threadIdx`), declares `__shared__` memory or reads a bound
`__constant__` takes each as an added parameter in Metal (signatures.py), and every call passes them.
A prototype above the definition (`__device__ void wave(float* a, int n);` in a header, the kernel
that calls it, then the body) must declare the same list: a call below the prototype and above the
definition sees only the prototype (cuTimeWarp's soft_dtw_tiled.cu: Metal's `no matching function`).
"""
from __future__ import annotations

from tree_sitter import Node

from ...model import Function, _params
from ...source import ident_name


class PrototypeExtras:
    """Mixin of MetalTranslator: a prototype's parameter list as its definition's, extras included."""

    def extra_params(self, h: Function) -> list[str]:
        """The parameters Metal adds to helper `h`: its threadgroup arrays, bound constants, built-ins."""
        plan = self.plan_of(h)
        extra = []
        for s in plan.shared:
            dims = "".join(f"[{self.rw.text(d)}]" for d in s.dims[1:])
            if not s.dims and not s.dynamic:  # a scalar (`__shared__ unsigned int next;`): the kernel's, by reference
                extra.append(f"threadgroup {s.type}& {s.name}")
                continue
            extra.append(f"threadgroup {s.type} (*{s.name}){dims}" if dims else f"threadgroup {s.type}* {s.name}")
        extra += [self.constant_param(c) for c in plan.constants]
        return extra + [self._builtin_decl(b, False) for b in plan.builtins]

    def _defined_helper(self, fd: Node) -> Function | None:
        """The one helper this file defines that the prototype's declarator `fd` declares (same name and
        parameter count), or None (declared only, or overloads of one count)."""
        name = ident_name(fd.child_by_field_name("declarator"))
        n = len(_params(self.src, fd))
        found = [h for h in self.helpers.values() if h.name == name and len(h.params) == n
                 and h.node.type == "function_definition"]
        return found[0] if len(found) == 1 else None

    def prototype_text(self, node: Node, drop: set, fd: Node) -> str:
        """A free function's prototype, rendered when the plans are complete: the extras its definition
        takes appended (before defaulted parameters, as the definition puts them)."""
        h = self._defined_helper(fd)
        extra = self.extra_params(h) if h is not None else []
        if not extra:
            return self._head_stitch(node, drop, {})
        plist, params = fd.child_by_field_name("parameters"), _params(self.src, fd)
        texts = [self.rw.text(p.node) for p in params]
        r = sum(1 for p in params if p.node.child_by_field_name("default_value") is None)
        self.rw.replace(plist, "(" + ", ".join(texts[:r] + extra + texts[r:]) + ")")
        try:
            return self._head_stitch(node, drop, {})
        finally:
            self.rw.remove(plist)
