"""Recognised reductions: a helper that is exactly a full xor butterfly becomes simd_sum/max/min."""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import dialect
from ...source import call_args, ident_name
from .scalars import INT32


class Reductions:
    """Mixin of MetalTranslator: the `recognise_reductions` pass."""

    # -- warp reductions -------------------------------------------------------------------
    def recognise_reductions(self) -> None:
        """A helper that is exactly a full xor butterfly becomes the native SIMD-group reduction.

        Only where the result is the same bit for bit: max/min of floats or integers and sums of
        integers (a float sum in another order rounds differently, so those keep their shuffles);
        the butterfly must span the whole SIMD-group (from warpSize / 2 down to 1, full mask, no
        width), which leaves the result in every lane, so every use of it stays valid.
        """
        for name, h in self.helpers.items():
            value = [p for p in h.params if not p.pointer]
            if len(h.params) != 1 or len(value) != 1:
                continue
            v, vtype = value[0].name, " ".join(value[0].type.split())
            stmts = [c for c in h.body.named_children if c.type != "comment"]
            if len(stmts) != 2 or stmts[0].type != "for_statement" or stmts[1].type != "return_statement":
                continue
            ret = stmts[1].named_children
            if len(ret) != 1 or self.src.text_of(ret[0]) != v:
                continue
            op = self._butterfly(stmts[0], v)
            if op is None:
                continue
            if op == "sum" and vtype not in INT32:
                continue
            if vtype not in INT32 and vtype not in ("float", "half", "__half"):
                continue
            indent = self._indent_of(stmts[0])
            text = (f"{{\n{indent}// kernelport: this full xor butterfly over the SIMD-group is exactly simd_{op} "
                    f"(every lane gets the result)\n{indent}return "
                    f"{dialect.render(dialect.concept('simd_' + op), 'metal', {'value': v})};\n}}")
            self.rw.replace(h.body, text)
            self.note(h.body, f"simd_{op}({v})", f"a full xor butterfly is exactly simd_{op}")

    def _butterfly(self, loop: Node, v: str) -> str | None:
        init, cond, upd = (loop.child_by_field_name(k) for k in ("initializer", "condition", "update"))
        if init is None or cond is None or upd is None or init.type != "declaration":
            return None
        d = init.child_by_field_name("declarator")
        var = ident_name(d)
        start = d.child_by_field_name("value") if d is not None and d.type == "init_declarator" else None
        if var is None or start is None:
            return None
        st = re.sub(r"\s+", "", self.src.text_of(start))
        half_site = any(s.confirmed and s.role == "half" and s.node.start_byte == start.start_byte
                        for s in self.analysis.sites)
        if not (half_site or st in ("warpSize/2", "(warpSize/2)", "warpSize>>1")):
            return None
        if re.sub(r"\s+", "", self.src.text_of(cond)) not in (f"{var}>0", f"{var}>=1", f"0<{var}"):
            return None
        if re.sub(r"\s+", "", self.src.text_of(upd)) not in (f"{var}>>=1", f"{var}/=2", f"{var}={var}>>1",
                                                            f"{var}={var}/2"):
            return None
        body = loop.child_by_field_name("body")
        while body is not None and body.type == "compound_statement":
            inner = [c for c in body.named_children if c.type != "comment"]
            if len(inner) != 1:
                return None
            body = inner[0]
        if body is None or body.type != "expression_statement" or not body.named_children:
            return None
        e = body.named_children[0]
        if e.type != "assignment_expression" or self.src.text_of(e.child_by_field_name("left")) != v:
            return None
        aop = self.src.text_of(e.child_by_field_name("operator"))
        right = e.child_by_field_name("right")

        def is_shfl(n: Node) -> bool:
            if n.type != "call_expression":
                return False
            found = dialect.spelled_by("cuda", self.src.text_of(n.child_by_field_name("function")))
            if found is None or found[0].key != "shfl_xor":
                return False
            names = dialect.call_params(found[0], found[1])[0]
            args = dict(zip(names, call_args(n)))
            if "width" in args or self.src.text_of(args.get("value")) != v or \
                    self.src.text_of(args.get("lanemask")) != var:
                return False
            m = args.get("mask")
            return m is None or any(mn.start_byte == m.start_byte and cls == "full"
                                    for mn, cls, _ in self.analysis.shuffle_masks)
        if aop == "+=" and is_shfl(right):
            return "sum"
        if aop == "=" and right.type == "call_expression":
            fname = self.src.text_of(right.child_by_field_name("function"))
            args = call_args(right)
            kind = {"fmaxf": "max", "max": "max", "fmax": "max", "fminf": "min", "min": "min", "fmin": "min"}.get(fname)
            if kind and len(args) == 2:
                a, b = args
                if (self.src.text_of(a) == v and is_shfl(b)) or (self.src.text_of(b) == v and is_shfl(a)):
                    return kind
            return None
        if aop == "=" and right.type == "binary_expression" and \
                self.src.text_of(right.child_by_field_name("operator")) == "+":
            a, b = right.child_by_field_name("left"), right.child_by_field_name("right")
            if (self.src.text_of(a) == v and is_shfl(b)) or (self.src.text_of(b) == v and is_shfl(a)):
                return "sum"
        return None
