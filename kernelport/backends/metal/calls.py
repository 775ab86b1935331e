"""Calls the table renders with Metal's help: shuffles narrower than the SIMD-group (kp_ helpers
that take the lane id) and atomics (an `{space} atomic_T*` cast, or a CAS loop where Metal has
no native atomic for the type, operation and address space)."""
from __future__ import annotations

from tree_sitter import Node

from ... import backends, cexpr, dialect
from ...rewrite import Rewriter
from .scalars import INT32, INT64, NARROW, metal_type

# integer types a value of which converts to float where CUDA's float math takes it
INTEGER = (set(INT32) | INT64 | NARROW) - {"float", "half", "bool"}
ATOMIC_OPS = {"atomic_add": "add", "atomic_sub": "sub", "atomic_min": "min", "atomic_max": "max",
              "atomic_exch": "exch", "atomic_and": "and", "atomic_or": "or", "atomic_xor": "xor",
              "atomic_cas": "cas", "atomic_inc": "inc", "atomic_dec": "dec"}


def cexpr_int(text: str) -> int | None:
    try:
        v = cexpr.evaluate(text, {})
        return int(v) if float(v).is_integer() else None
    except (cexpr.CExprError, ValueError, TypeError):
        return None


class Calls:
    """Mixin of MetalTranslator: `_render_call` for shuffles with a width and for atomics."""

    # -- calls rendered from the table -----------------------------------------------------
    def _render_call(self, concept: dialect.Concept, bound: dict[str, Node], width: str | None = None):
        # `width` (a logical group's explicit 32) is every lane of a SIMD-group here: nothing to spell.
        if concept.kind == "shuffle" and "value" in bound and not self._narrow_value(bound["value"]):
            self.wide_shuffles = True  # the prologue's 64-bit overloads (metal_polyfills.j2: simd_shuffle64)
        if concept.kind == "shuffle" and "width" in bound:
            w = bound["width"]
            wv = cexpr_int(self.src.text_of(w))
            if wv is not None and wv >= 32:
                bound = {k: v for k, v in bound.items() if k != "width"}
            else:
                wide = dialect.concept(concept.key + "_width")

                def render(rw: Rewriter, node: Node) -> str:
                    texts = {p: rw.text(bound[p]) for p in wide.params if p in bound}
                    texts["lane_id"] = self.names["lane_id"]
                    return dialect.render(wide, "metal", texts)
                return render
        if concept.kind == "atomic":
            return self._render_atomic(concept, bound)
        return super()._render_call(concept, bound)

    def _narrow_value(self, value: Node) -> bool:
        """Whether a shuffled value is plainly of a type Metal's SIMD-group functions take (a variable, a
        cast or a literal of one); a 64-bit or unknown one shuffles through the prologue's 64-bit overloads."""
        while value.type == "parenthesized_expression" and value.named_children:
            value = value.named_children[0]
        if value.type == "number_literal":
            return "l" not in self.src.text_of(value).lower()  # 1ul, 2LL: 64-bit
        words = self._plain_type(value)
        return words in NARROW or words in backends.get("metal").vector_types

    def call_context(self, concept: dialect.Concept, bound: dict[str, Node], call: Node) -> dict[str, str]:
        """A math concept's argument that is plainly an integer, in `float(...)`: CUDA's forms take
        float (`sqrtf(hs)` of an `int hs` converts it), Metal's overloads take float types only
        (`precise::sqrt(int)` matches none)."""
        out = super().call_context(concept, bound, call)
        b = backends.get("metal")
        if concept.kind == "math" and (concept.spelling("metal") or "").split("(")[0] not in b.float_math:
            # (one the prologue defines with CUDA's float signature converts its arguments itself)
            for p, arg in bound.items():
                if p in concept.params and self._integer_value(arg):
                    out[p] = f"float({self.rw.text(arg)})"
        return out

    def _integer_value(self, value: Node) -> bool:
        """Whether an expression is plainly of an integer type: an integer literal, a variable or a cast
        of one, or arithmetic on such (`C / NH`)."""
        while value.type == "parenthesized_expression" and value.named_children:
            value = value.named_children[0]
        if value.type == "number_literal":
            text = self.src.text_of(value).lower()
            return not text.startswith("0x") and not any(c in text for c in ".ef") or \
                text.startswith("0x") and "." not in text and "p" not in text
        if value.type == "binary_expression":
            op = value.child_by_field_name("operator")
            return op is not None and self.src.text_of(op) in ("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^") \
                and self._integer_value(value.child_by_field_name("left")) \
                and self._integer_value(value.child_by_field_name("right"))
        return self._plain_type(value) in INTEGER

    def _plain_type(self, value: Node) -> str:
        """The declared type (its words, less cv-qualifiers) of a variable, or a cast's type; "" where
        the expression is neither."""
        f = self.module.function_at(value)
        t = None
        if value.type == "cast_expression":
            t = self.src.text_of(value.child_by_field_name("type"))
        elif value.type == "identifier" and f is not None:
            name = self.src.text_of(value)
            p = f.param(name)
            decl = None if p is not None else self._local_decl(f, name)
            if p is not None and not p.pointer:
                t = p.type
            elif decl is not None and decl.child_by_field_name("type") is not None and \
                    all(d.type in ("identifier", "init_declarator") for d in decl.children_by_field_name("declarator")):
                t = self.src.text_of(decl.child_by_field_name("type"))
        return " ".join(w for w in (t or "").split() if w not in ("const", "volatile", "register"))

    def _aliased(self, t: str | None) -> str | None:
        """The type a file's `typedef float INFORMATION_SET;` names (gpucfr's atomicAdd on one), followed
        four steps at most; `t` where the file defines no alias of it."""
        aliases = self.__dict__.get("_kp_aliases")
        if aliases is None:
            aliases = self.__dict__["_kp_aliases"] = {}
            for n in self.src.index.of_type("type_definition"):
                ty, ds = n.child_by_field_name("type"), n.children_by_field_name("declarator")
                if ty is not None and len(ds) == 1 and ds[0].type == "type_identifier" and \
                        ty.type in ("primitive_type", "sized_type_specifier", "type_identifier"):
                    aliases.setdefault(self.src.text_of(ds[0]), " ".join(self.src.text_of(ty).split()))
        for _ in range(4):
            if t not in aliases:
                break
            t = aliases[t]
        return t

    def _render_atomic(self, concept: dialect.Concept, bound: dict[str, Node]):
        def render(rw: Rewriter, node: Node) -> str:
            f = self.module.function_at(node)
            if f is None:  # a statement at file scope (a block the grammar took as one): left as written,
                return rw.stitch(node)  # as the other constructs there, for the Metal check to refuse (KP224)
            addr = bound["address"]
            space = self.space_of(addr, f) or "device"
            op = ATOMIC_OPS[concept.key]
            # (an operand whose type is not known: atomicInc/atomicDec exist for unsigned int alone)
            cuda_t = self._aliased(self.elem_type_of(addr, f)) or ("unsigned int" if op in ("inc", "dec") else "int")
            texts = {p: (rw.text(bound[p]) if p in bound else None) for p in concept.params}
            if cuda_t in INT64:
                if op in ("min", "max") and metal_type(cuda_t) == "ulong" and space == "device" and \
                        self._value_unused(node):  # MSL 3.1's one 64-bit atomic: min/max of a device ulong
                    return dialect.render(dialect.concept(f"atomic_{op}_ulong"), "metal", texts)
                why = None if op == "add" else "only an add is split"
                if why is None and space not in ("device", "threadgroup"):
                    why = f"the counter is in {space} memory"
                why = why or self.split_add_blocker(node, addr, f)  # split_atomics.py: the conditions
                if why is None:
                    self.polyfill_atomics.add(("add_split", space, metal_type(cuda_t)))
                    return dialect.render(dialect.concept("atomic_add_split"), "metal", texts)
                self._late_problem("KP212", node, f"Metal has no 64-bit atomic {op} ('{cuda_t}')" +
                                   ("" if op != "add" else f"; not split into 32-bit adds: {why}") +
                                   (f"; MSL 3.1's atomic_{op}_explicit is of a device ulong alone, and returns no "
                                    f"old value (here: {'a signed type' if metal_type(cuda_t) != 'ulong' else space + ' memory' if space != 'device' else 'the old value is used'})"
                                    if op in ("min", "max") else ""),
                                   "use 32-bit counters (int/unsigned), or split the value")
                return rw.stitch(node)
            mtype = INT32.get(cuda_t) or ("float" if cuda_t == "float" else None)
            if mtype is None and f is not None and cuda_t in f.template_params and \
                    op not in ("cas", "inc", "dec"):  # `atomic<T>` where every instance has it (atomic_instances.py)
                why = self.atomic_instance_blocker(f, cuda_t, op, space,
                                                   lambda t: INT32.get(t) or ("float" if t == "float" else None))
                if why is not None:
                    self._late_problem("KP212", node, f"Metal has {why}",
                                       "atomics exist for int, uint and (device memory, add/sub/exchange) float")
                    return rw.stitch(node)
                texts.update({"space": space, "atomic": f"atomic<{cuda_t}>"})
                return dialect.render(concept, "metal", texts)
            if mtype is None:
                self._late_problem("KP212", node, f"Metal has no atomics on '{cuda_t}'",
                                   "atomics exist for int, uint and (device memory, add/sub/exchange) float")
                return rw.stitch(node)
            if op in ("cas", "inc", "dec") or (mtype == "float" and (space == "threadgroup" or op in ("min", "max"))):
                if mtype == "float" and op not in ("add", "sub", "min", "max", "cas"):
                    self._late_problem("KP212", node, f"Metal has no float atomic {op} on {space} memory",
                                       "use an integer type (as_type<uint>) for this atomic")
                    return rw.stitch(node)
                self.polyfill_atomics.add((op, space, mtype))
                if op in ("add", "sub", "min", "max"):
                    return dialect.render(dialect.concept(f"atomic_{op}_cas"), "metal", texts)
                return dialect.render(concept, "metal", texts)
            if mtype == "float" and op not in ("add", "sub", "exch"):
                self._late_problem("KP212", node, f"Metal has no float atomic {op}",
                                   "use an integer type for bitwise atomics")
                return rw.stitch(node)
            texts.update({"space": space, "atomic": f"atomic_{mtype}"})
            return dialect.render(concept, "metal", texts)
        return render

    def _value_unused(self, call: Node) -> bool:
        """Whether a call's value is unused (the call is an expression statement)."""
        p = call.parent
        while p is not None and p.type == "parenthesized_expression":
            p = p.parent
        return p is not None and p.type == "expression_statement"

    def _late_problem(self, code: str, node: Node, message: str, hint: str) -> None:
        loc = self.src.loc(node)
        if not any(d.code == code and d.location == loc for d in self.port.diagnostics):
            self.problem(code, node, message, hint)
