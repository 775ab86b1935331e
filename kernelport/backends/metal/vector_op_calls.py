"""A project's operator on CUDA vector types whose body is NOT Metal's built-in meaning, as a named helper.

MSL allows no operator overload on its built-in vector types (they are no classes), so an overload that
is not left out as the built-in's (vector_operators.py) cannot stay an operator.  OptiX's vec_math.h
divides `float3 / float` by multiplying with the reciprocal (`a * (1.0f / s)`: another rounding than
Metal's `/`) and compares `int2 == int2` to one bool (Metal's `==` gives a bool2).  Such an overload
becomes a function, `kp_operator_div(a, s)`, and each expression of device code that C++ resolves to it is
rewritten as a call; an expression whose operand types the model cannot tell, where the overload could
apply, is refused at its line (KP224), never left to Metal's built-in operator.
"""
from __future__ import annotations

from tree_sitter import Node

from ... import dialect
from ...overload_ranks import _better, _plain, _rank, expression_type
from ...source import walk
from ...vector_types import VECTORS

NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "==": "eq", "!=": "ne", "<": "lt",
         ">": "gt", "<=": "le", ">=": "ge", "&": "and", "|": "or", "^": "xor", "<<": "shl", ">>": "shr",
         **{f"{op}=": f"{name}_assign" for op, name in (("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "div"),
                                                          ("%", "mod"), ("&", "and"), ("|", "or"), ("^", "xor"))}}
_COMPARE = ("==", "!=", "<", ">", "<=", ">=", "&&", "||")


class VectorOperatorCalls:
    """Mixin of MetalTranslator: `named_vector_operators`, run by builtin_vector_operators (vectorops.py)."""

    def named_vector_operators(self, kept: list, dropped: list) -> None:
        """`kept`: (function, operator, parameter types) of the overloads that stay; `dropped`: those left
        out as Metal's built-in (still candidates: an expression that resolves to one is Metal's)."""
        kept = [k for k in kept if k[1] in NAMES and len(k[2]) == 2]
        if not kept:
            return
        for f, op, _ in kept:
            oname = next(n for n in walk(f.node.child_by_field_name("declarator")) if n.type == "operator_name")
            self.rw.replace(oname, f"kp_operator_{NAMES[op]}")
        ops = {op for _, op, _ in kept}
        for g in list(self.device.values()):
            for n in walk(g.body):
                if n.type == "binary_expression":
                    op, a, b = self.src.text_of(n.child_by_field_name("operator")), n.child_by_field_name("left"), \
                        n.child_by_field_name("right")
                elif n.type == "assignment_expression":
                    op, a, b = self.src.text_of(n.child_by_field_name("operator")), n.child_by_field_name("left"), \
                        n.child_by_field_name("right")
                else:
                    continue
                if op not in ops or a is None or b is None:
                    continue
                self._resolve_operator(g, n, op, a, b, kept, dropped)

    def _resolve_operator(self, g, n: Node, op: str, a: Node, b: Node, kept: list, dropped: list) -> None:
        types = [self._value_type(g, a), self._value_type(g, b)]
        if all(t is not None and _plain(t) not in VECTORS for t in types):
            return  # scalars: no overload on a vector type applies
        cands = [(k, True) for k in kept if k[1] == op] + [(k, False) for k in dropped if k[1] == op]
        ranked = []
        for (f, _, params), named in cands:
            r = [_rank(t, p) for t, p in zip(types, params)]
            if None not in r:
                ranked.append((r, f, named))
        unsure = any("?" in r for r, _, _ in ranked)  # a type the model cannot place: no ranking
        best = [] if unsure else [x for x in ranked if not any(_better(y[0], x[0]) for y in ranked if y is not x)]
        sure = len(best) == 1
        if sure and not best[0][2]:
            return  # the built-in's meaning: Metal's operator
        if not sure:
            if any(named for _, _, named in ranked) or None in types:
                sig = next(f"operator{op}({', '.join(p)})" for (f, _, p), named in cands if named)
                self.problem("KP224", n, f"cannot tell whether '{self.src.text_of(n)}' runs the file's {sig} (not "
                             f"Metal's built-in '{op}': Metal allows no operator on its vector types, so the port "
                             "calls it by name)", "give the operands declared types (a local of the vector type)")
            return
        name = f"kp_operator_{NAMES[op]}"
        self.rw.replace(n, lambda rw, node, a=a, b=b: f"{name}({rw.text(a)}, {rw.text(b)})")

    def _value_type(self, g, n: Node) -> str | None:
        """expression_type, and arithmetic over known operands (a vector with anything is that vector)."""
        while n.type == "parenthesized_expression" and n.named_children:
            n = n.named_children[0]
        if n.type == "number_literal":
            text = self.src.text_of(n).lower()
            return "float" if not text.startswith("0x") and any(c in text for c in ".ef") else "int"
        if n.type == "binary_expression":
            op = self.src.text_of(n.child_by_field_name("operator"))
            ts = [self._value_type(g, n.child_by_field_name(s)) for s in ("left", "right")]
            if None in ts:
                return None
            vec = next((t for t in ts if _plain(t) in VECTORS), None)
            if op in _COMPARE:
                return None if vec else "bool"
            return vec or ("float" if "float" in ts or "double" in ts else ts[0])
        if n.type == "identifier":
            c = dialect.lookup("cuda", self.src.text_of(n))
            if c is not None and c.kind == "index":  # CUDA's built-in indices: uint3 (warpSize: int)
                return "int" if c.key == "warp_size" else "uint3"
        if n.type == "field_expression" and n.child_by_field_name("operator") is not None and \
                n.child_by_field_name("operator").type == ".":
            t = self._value_type(g, n.child_by_field_name("argument"))
            vec = VECTORS.get(_plain(t)) if t is not None else None
            if vec is not None and self.src.text_of(n.child_by_field_name("field")) in "xyzw"[:vec[1]]:
                return vec[0]
        if n.type == "subscript_expression":  # an element of a pointer or array of known type
            t = self._value_type(g, n.child_by_field_name("argument"))
            return _plain(t)[:-1] if t is not None and _plain(t).endswith("*") else None
        if n.type == "call_expression":
            fn = n.child_by_field_name("function")
            if fn is not None and fn.type == "primitive_type":
                return self.src.text_of(fn)  # a functional cast, `float(count)`
            name = self.src.text_of(fn) if fn is not None and fn.type == "identifier" else None
            c = dialect.lookup("cuda", name) if name else None
            if c is not None and c.kind == "math" and name.endswith("f"):
                return "float"  # CUDA's float math (sqrtf, fminf): a float
        t = expression_type(self, g, n, self._return_type)
        return t if t is not None or n.type != "identifier" else self._own_field_type(n)

    def _own_field_type(self, ident: Node) -> str | None:
        """A member function's bare use of its class's field (`child_l == -1` in bvh.h's is_leaf): its type."""
        spec = ident.parent
        while spec is not None and spec.type not in ("struct_specifier", "class_specifier"):
            spec = spec.parent
        body = spec.child_by_field_name("body") if spec is not None else None
        name = self.src.text_of(ident)
        for fd in (body.named_children if body is not None else ()):
            if fd.type == "field_declaration" and fd.child_by_field_name("type") is not None and \
                    any(d.type == "field_identifier" and self.src.text_of(d) == name
                        for d in fd.children_by_field_name("declarator")):
                return self.src.text_of(fd.child_by_field_name("type"))
        return None

    def _return_type(self, name: str) -> str | None:
        rets = {" ".join(self.src.text_of(f.node.child_by_field_name("type")).replace("const", " ").split())
                for f in self.module.functions.values() if f.name == name and f.node.child_by_field_name("type")}
        return rets.pop() if len(rets) == 1 else None
