"""The Metal (MSL) backend: CUDA kernels as `kernel void` functions an Apple GPU engineer would accept.

Everything the HIP port does by renaming, this backend does too (the dialect table's Metal
column); on top of that Metal needs structure that CUDA leaves implicit:

- kernel signatures: every pointer in an address space with a `[[buffer(i)]]` index, scalars as
  `constant T&`, the built-in inputs the body uses as attributed parameters, launch bounds as
  `[[max_total_threads_per_threadgroup(N)]]`, template kernels instantiated with `[[host_name]]`;
- device helpers: pointer parameters in the address space of their call sites (one overload per
  combination seen), built-ins and hoisted threadgroup arrays passed down as parameters;
- threadgroup memory only at kernel scope; `extern __shared__` as a `[[threadgroup(0)]]`
  parameter whose length the sidecar gives;
- barriers that also order device memory where a group shares data through it, votes and
  shuffles as SIMD-group functions (a width below the SIMD width through kp_ helpers), atomics on
  `{space} atomic_T*` casts (float atomics Metal lacks through CAS loops);
- host code left out: the sidecar (`<stem>.metal.json`) tells a host how to bind and dispatch.

What has no Metal equivalent is a diagnostic at its line (codes KP21x).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from tree_sitter import Node

from ... import __version__, annotations, cexpr, dialect, templates
from ...model import Function, Param
from ...rewrite import Rewriter, key
from ...source import SourceFile, call_args, ident_name, walk
from ...translate import Translator, extend

THREADGROUP_LIMIT = 32 * 1024  # bytes of threadgroup memory every Apple GPU family guarantees

# Built-in kernel inputs, in the order they are appended to a signature.
BUILTINS = ("thread_idx", "block_idx", "block_dim", "grid_dim", "warp_size", "lane_id", "warp_id")

_INT32 = {"int": "int", "int32_t": "int", "signed": "int", "signed int": "int",
          "unsigned": "uint", "unsigned int": "uint", "uint": "uint", "uint32_t": "uint"}
_INT64 = {"long long", "unsigned long long", "long", "unsigned long", "int64_t", "uint64_t", "size_t",
          "long long int", "unsigned long long int"}
_ATOMIC_OPS = {"atomic_add": "add", "atomic_sub": "sub", "atomic_min": "min", "atomic_max": "max",
               "atomic_exch": "exch", "atomic_and": "and", "atomic_or": "or", "atomic_xor": "xor",
               "atomic_cas": "cas", "atomic_inc": "inc", "atomic_dec": "dec"}
_VEC3 = re.compile(r"^(float|int|uint|half|short|ushort|char|uchar)3$")

# MSL language-version floors, by what the port uses (Metal Shading Language specification).
_FEATURES = (
    (re.compile(r"\bsimd_\w+\s*\(|\[\[(threads_per_simdgroup|thread_index_in_simdgroup|"
                r"simdgroup_index_in_threadgroup)\]\]"), "2.1", "SIMD-group functions and attributes"),
    (re.compile(r"\bdevice atomic_float\b"), "3.0", "atomic_float on device memory"),
    (re.compile(r"\bbfloat\b"), "3.1", "bfloat"),
    (re.compile(r"\bthread_scope_device\b"), "3.2", "device-scope atomic_thread_fence"),
)


@dataclass
class Shared:
    """A threadgroup array: where CUDA declared it and what the kernel that owns it declares."""
    name: str  # name in the kernel (and passed to helpers)
    type: str  # Metal element type text
    cuda_type: str
    dims: list[Node]
    dynamic: bool
    node: Node  # the CUDA declaration
    function: str  # function that declared it


@dataclass
class Plan:
    """What a device function needs beyond its CUDA parameters."""
    fn: Function
    sigs: list[tuple[str, ...]] = field(default_factory=list)  # address space per pointer parameter
    shared: list[Shared] = field(default_factory=list)  # hoisted threadgroup arrays it receives
    builtins: list[str] = field(default_factory=list)  # concept keys, in BUILTINS order
    callees: list[str] = field(default_factory=list)


class MetalTranslator(Translator):
    def __init__(self, src: SourceFile, backend: str = "metal", allow_unported: bool = False, **options):
        super().__init__(src, backend, allow_unported, **options)
        self.demote_double = bool(options.get("demote_double"))
        self.specs = annotations.parse(self.module)
        fns = self.module.functions
        self.kernels = [f for f in sorted(fns.values(), key=lambda f: f.node.start_byte) if f.is_kernel]
        self.helpers = {n: f for n, f in fns.items() if f.is_device and not f.is_kernel}
        self.host = {n: f for n, f in fns.items() if not f.is_device}
        self.device = {n: f for n, f in fns.items() if f.is_device}
        self.plans: dict[str, Plan] = {n: Plan(f) for n, f in self.device.items()}
        self.cur_sig: dict[str, tuple[str, ...]] = {}
        self.local_spaces: dict[tuple[str, str], object] = {}  # (fn, var) -> space or callable(sig)
        self.polyfill_atomics: set[tuple[str, str, str]] = set()  # (op, space, type)
        self.kernel_info: dict[str, dict] = {}
        self._lazy_prefixes: list = []  # (function, before-list, slot, fn(sig) -> space)
        self.names = self._builtin_names()

    # -- names ---------------------------------------------------------------------------------
    def _builtin_names(self) -> dict[str, str]:
        """Metal parameter names for the built-ins: the table's short name unless the file uses it."""
        taken = {self.src.text_of(n) for n in walk(self.src.root)
                 if n.type in ("identifier", "field_identifier", "type_identifier")}
        names = {}
        for k in BUILTINS:
            c = dialect.concept(k)
            short, attr = c.spelling("metal"), c.attribute("metal")[1]
            names[k] = short if short not in taken else attr if attr not in taken else f"kp_{attr}"
        return names

    def spell(self, key_: str) -> str:
        if key_ in self.names:
            return self.names[key_]
        return super().spell(key_)

    # -- the pipeline: the shared passes, and Metal's structure around them ----------------------
    passes = extend(Translator.passes, ("leave_out_host_code", "plan_calls", "pre_rewrites", "mixed_min_max"),
                    before="rewrite_sites")
    passes = extend(passes, ("recognise_reductions",), after="rewrite_sites")
    passes = extend(passes, ("barriers", "file_scope", "shared_memory", "local_pointers", "functions",
                             "prototypes", "needs", "check_threadgroup_sizes"))
    realigns_comments = False
    asm_message = "inline PTX assembly has no Metal translation"
    asm_hint = "replace it with an intrinsic or a SIMD-group function"

    def ports_function(self, name: str | None) -> bool:
        return name is None or name in self.device  # host code is left out

    # -- host code -------------------------------------------------------------------------------
    def leave_out_host_code(self) -> None:
        refs = {s.reference[0] for s in self.specs.values() if s.reference}
        for name, f in self.host.items():
            node = f.template_node or f.node
            if node.parent is not None and node.parent.type == "linkage_specification":
                node = node.parent  # extern "C" goes with the function
            stem = self.src.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            if name in refs:
                text = f"// {name}() is the CPU reference (kernelport verify runs it): left out of the Metal port."
            elif any(l.function == name for l in self.module.launches):
                text = f"// {name}() is a host launcher: left out (a Metal host binds and dispatches as {stem}.metal.json says)."
            else:
                text = f"// {name}() is host code: left out of the Metal port."
            self.rw.replace(node, text)
        host_nodes = [(f.node.start_byte, f.node.end_byte) for f in self.host.values()]

        def in_host(n: Node) -> bool:
            return any(s <= n.start_byte < e for s, e in host_nodes)

        self.module.uses = [u for u in self.module.uses if u.function not in self.host]
        for s in self.analysis.sites:
            if s.function in self.host or (s.function is None and in_host(s.node)):
                s.confirmed = False

    # -- calls and address spaces -------------------------------------------------------------
    def _calls(self, f: Function) -> list[tuple[Node, Function]]:
        out = []
        for n in walk(f.body):
            if n.type == "call_expression":
                fn = n.child_by_field_name("function")
                if fn is not None and fn.type == "template_function":
                    fn = fn.child_by_field_name("name")
                if fn is not None and fn.type == "identifier" and self.src.text_of(fn) in self.helpers:
                    out.append((n, self.helpers[self.src.text_of(fn)]))
        return out

    def plan_calls(self) -> None:
        for name, p in self.plans.items():
            p.callees = []
            for _, h in self._calls(p.fn):
                if h.name not in p.callees:
                    p.callees.append(h.name)
        # Address-space signatures of helpers, from their call sites (a worklist from the kernels).
        work = [(k, ()) for k in self.kernels]
        seen = set()
        while work:
            f, sig = work.pop(0)
            if (f.name, sig) in seen:
                continue
            seen.add((f.name, sig))
            self.cur_sig[f.name] = sig
            for call, h in self._calls(f):
                args = call_args(call)
                hsig = []
                for p, a in zip(h.params, args):
                    if p.pointer:
                        hsig.append(self.space_of(a, f) or "device")
                hsig = tuple(hsig)
                if hsig not in self.plans[h.name].sigs:
                    self.plans[h.name].sigs.append(hsig)
                work.append((h, hsig))
        for name, h in self.helpers.items():
            if not self.plans[name].sigs:  # never called from a kernel: device memory
                self.plans[name].sigs.append(tuple("device" for p in h.params if p.pointer))
            self.cur_sig[name] = self.plans[name].sigs[0]
        for k in self.kernels:
            self.cur_sig[k.name] = ()

    def _param_space(self, f: Function, p: Param) -> str:
        if f.is_kernel:
            return "device"
        idx = [q.name for q in f.params if q.pointer].index(p.name)
        sig = self.cur_sig.get(f.name) or ()
        return sig[idx] if idx < len(sig) else "device"

    def _local_decl(self, f: Function, name: str) -> Node | None:
        for n in walk(f.body):
            if n.type == "declaration":
                for d in n.children_by_field_name("declarator"):
                    if ident_name(d) == name:
                        return n
        return None

    def space_of(self, expr: Node | None, f: Function) -> str | None:
        """Address space of a pointer-valued expression in function f (current specialisation)."""
        if expr is None:
            return None
        t = expr.type
        if t in ("parenthesized_expression",):
            return self.space_of(expr.named_children[0] if expr.named_children else None, f)
        if t == "cast_expression":
            return self.space_of(expr.child_by_field_name("value"), f)
        if t == "call_expression":  # reinterpret_cast<int*>(smem + off) keeps the space of its operand
            fn = expr.child_by_field_name("function")
            args = call_args(expr)
            if fn is not None and fn.type == "template_function" and len(args) == 1 and self.src.text_of(
                    fn.child_by_field_name("name")) in ("reinterpret_cast", "static_cast", "const_cast"):
                return self.space_of(args[0], f)
            return None
        if t == "pointer_expression":
            op = expr.child_by_field_name("operator")
            arg = expr.child_by_field_name("argument")
            if op is not None and self.src.text_of(op) == "&":
                return self._space_of_lvalue(arg, f)
            return None
        if t == "binary_expression":
            return self.space_of(expr.child_by_field_name("left"), f) or \
                self.space_of(expr.child_by_field_name("right"), f)
        if t == "identifier":
            name = self.src.text_of(expr)
            p = f.param(name)
            if p is not None:
                return self._param_space(f, p) if p.pointer else None
            if any(s.name == name and (s.function == f.name) for s in self.module.shared):
                return "threadgroup"
            if (f.name, name) in self.local_spaces:
                sp = self.local_spaces[(f.name, name)]
                return sp(self.cur_sig.get(f.name, ())) if callable(sp) else sp
            decl = self._local_decl(f, name)
            if decl is not None:
                for d in decl.children_by_field_name("declarator"):  # a local pointer: where it points
                    inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else None
                    if ident_name(d) == name and inner is not None and inner.type == "pointer_declarator":
                        init = d.child_by_field_name("value")
                        return (self.space_of(init, f) if init is not None else None) or "thread"
                return "thread"  # a local array
            if any(s.name == name and s.function is None for s in self.module.shared):
                return "threadgroup"
        return None

    def _space_of_lvalue(self, n: Node, f: Function) -> str | None:
        while n is not None and n.type in ("subscript_expression", "field_expression", "parenthesized_expression"):
            if n.type == "field_expression" and self.src.text_of(n).find("->") >= 0:
                return self.space_of(n.child_by_field_name("argument"), f)
            n = n.child_by_field_name("argument") if n.type != "parenthesized_expression" else \
                (n.named_children[0] if n.named_children else None)
        if n is None:
            return None
        if n.type == "identifier":
            name = self.src.text_of(n)
            p = f.param(name)
            if p is not None:
                return self._param_space(f, p) if p.pointer else "thread"
            sp = self.space_of(n, f)
            return sp or "thread"
        if n.type == "pointer_expression":
            return self.space_of(n.child_by_field_name("argument"), f)
        return None

    def elem_type_of(self, expr: Node, f: Function) -> str | None:
        """CUDA element type of the object a pointer expression addresses."""
        n = expr
        while n is not None and n.type in ("parenthesized_expression", "pointer_expression", "subscript_expression",
                                           "binary_expression", "cast_expression", "call_expression"):
            if n.type == "call_expression":  # reinterpret_cast<unsigned long long*>(p) and its kin
                fn = n.child_by_field_name("function")
                if fn is None or fn.type != "template_function" or self.src.text_of(
                        fn.child_by_field_name("name")) not in ("reinterpret_cast", "static_cast", "const_cast"):
                    return None
                targs = fn.child_by_field_name("arguments")
                t = self.src.text_of(targs)[1:-1] if targs is not None else ""
                return " ".join(t.replace("*", " ").replace("const", " ").split()) or None
            if n.type == "binary_expression":
                n = n.child_by_field_name("left")
            elif n.type == "cast_expression":
                td = n.child_by_field_name("type")
                tn = td.child_by_field_name("type") if td is not None else None
                return " ".join(self.src.text_of(tn).split()) if tn is not None else None
            elif n.type == "parenthesized_expression":
                n = n.named_children[0] if n.named_children else None
            else:
                n = n.child_by_field_name("argument")
        if n is None or n.type != "identifier":
            return None
        name = self.src.text_of(n)
        p = f.param(name)
        if p is not None:
            return " ".join(p.type.split())
        for s in self.module.shared:
            if s.name == name and s.function in (f.name, None):
                return " ".join(s.type.split())
        decl = self._local_decl(f, name)
        if decl is not None and decl.child_by_field_name("type") is not None:
            return " ".join(self.src.text_of(decl.child_by_field_name("type")).split())
        return None

    # -- rewrites before the table's ----------------------------------------------------------
    def pre_rewrites(self) -> None:
        for use in self.module.uses:
            c, node = use.concept, use.node
            if c.key in self.names and node.type != "call_expression":
                self.rw.replace(node, self.names[c.key])
            elif c.key == "double":
                if self.demote_double:
                    self.rw.replace(node, "float")
                    self.note(node, "float", "Metal has no double; demoted to float (--demote-double)")
                else:
                    self.problem("KP214", node, "Metal has no double-precision type",
                                 "use float, or pass --demote-double to demote every double to float")
                    self.rw.replace(node, self.src.text_of(node))  # reported once, here
        for f in self.device.values():
            for n in walk(f.node):
                if n.type == "null" and self.src.text_of(n) == "NULL":  # tree-sitter's node for NULL
                    self.rw.replace(n, dialect.concept("null").spelling("metal"))
                if n.type == "sized_type_specifier":
                    t = " ".join(self.src.text_of(n).split())
                    k = {"long long": "long_long", "long long int": "long_long", "unsigned long long": "ulong_long",
                         "unsigned long long int": "ulong_long"}.get(t)
                    if k:
                        self.rw.replace(n, dialect.concept(k).spelling("metal"))

    # -- mixed-signedness min/max: CUDA has overloads, Metal's are templates over one type ------
    _SIGNED = {"int", "short", "char", "signed", "signed int", "int32_t", "int16_t", "int8_t", "long", "int64_t",
               "long long"}
    _UNSIGNED = {"unsigned", "unsigned int", "uint", "uint32_t", "unsigned short", "unsigned char", "size_t",
                 "uint64_t", "unsigned long", "unsigned long long"}

    def scalar_kind(self, n: Node, f: Function) -> str | None:
        """'int', 'uint', 'float' or None: the arithmetic kind of an expression, as far as it is known."""
        t = n.type
        if t == "number_literal":
            text = self.src.text_of(n).lower()
            if any(ch in text for ch in ".e") and not text.startswith("0x") or text.endswith("f"):
                return "float"
            return "uint" if "u" in text else "int"
        if t == "parenthesized_expression" and n.named_children:
            return self.scalar_kind(n.named_children[0], f)
        if t == "field_expression":
            c = dialect.lookup("cuda", self.src.text_of(n.child_by_field_name("argument")))
            return "uint" if c is not None and c.kind == "index" else None
        if t == "identifier":
            name = self.src.text_of(n)
            p = f.param(name)
            tt = " ".join(p.type.replace("const", " ").split()) if p is not None and not p.pointer else None
            if tt is None:
                decl = self._local_decl(f, name)
                tn = decl.child_by_field_name("type") if decl is not None else None
                tt = " ".join(self.src.text_of(tn).replace("const", " ").split()) if tn is not None else None
            if tt in self._SIGNED:
                return "int"
            if tt in self._UNSIGNED:
                return "uint"
            return "float" if tt in ("float", "half", "double") else None
        if t == "binary_expression":
            op = self.src.text_of(n.child_by_field_name("operator"))
            if op in ("<", ">", "<=", ">=", "==", "!=", "&&", "||"):
                return "int"
            a, b = self.scalar_kind(n.child_by_field_name("left"), f), self.scalar_kind(n.child_by_field_name("right"), f)
            if op in ("<<", ">>"):
                return a
            kinds = {a, b}
            return "float" if "float" in kinds else None if None in kinds else "uint" if "uint" in kinds else "int"
        if t == "cast_expression":
            tn = n.child_by_field_name("type")
            tt = " ".join(self.src.text_of(tn).split()) if tn is not None else ""
            return "int" if tt in self._SIGNED else "uint" if tt in self._UNSIGNED else "float" if tt == "float" else None
        return None

    def mixed_min_max(self) -> None:
        """`min(tid.x, n)`: CUDA's overload converts the int to unsigned; Metal needs one type."""
        for f in self.device.values():
            for n in walk(f.body):
                fn = n.child_by_field_name("function") if n.type == "call_expression" else None
                if fn is None or fn.type != "identifier" or self.src.text_of(fn) not in ("min", "max"):
                    continue
                args = call_args(n)
                if len(args) != 2:
                    continue
                kinds = [self.scalar_kind(a, f) for a in args]
                if set(kinds) == {"int", "uint"}:
                    target = "uint"
                elif "float" in kinds and None not in kinds and len(set(kinds)) > 1:
                    target = "float"
                else:
                    continue
                for a, k in zip(args, kinds):
                    if k != target:
                        self.rw.replace(a, lambda rw, node, t=target: f"{t}({rw.stitch(node)})")
                        self.note(a, f"{target}(...)", "Metal's min/max take one type; CUDA converted this argument")

    # -- calls rendered from the table -----------------------------------------------------
    def _render_call(self, concept: dialect.Concept, bound: dict[str, Node]):
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

    def _render_atomic(self, concept: dialect.Concept, bound: dict[str, Node]):
        def render(rw: Rewriter, node: Node) -> str:
            f = self.module.function_at(node)
            addr = bound["address"]
            space = self.space_of(addr, f) or "device"
            cuda_t = self.elem_type_of(addr, f) or "int"
            op = _ATOMIC_OPS[concept.key]
            texts = {p: (rw.text(bound[p]) if p in bound else None) for p in concept.params}
            if cuda_t in _INT64:
                self._late_problem("KP212", node, f"Metal has no 64-bit atomic {op} ('{cuda_t}')",
                                   "use 32-bit counters (int/unsigned), or split the value")
                return rw.stitch(node)
            mtype = _INT32.get(cuda_t) or ("float" if cuda_t == "float" else None)
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
            texts.update({"space": space, "type": mtype})
            return dialect.render(concept, "metal", texts)
        return render

    def _late_problem(self, code: str, node: Node, message: str, hint: str) -> None:
        loc = self.src.loc(node)
        if not any(d.code == code and d.location == loc for d in self.port.diagnostics):
            self.problem(code, node, message, hint)

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
            if op == "sum" and vtype not in _INT32:
                continue
            if vtype not in _INT32 and vtype not in ("float", "half", "__half"):
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

    # -- barriers ------------------------------------------------------------------------------
    def barriers(self) -> None:
        """`__syncthreads()` also orders device memory where the group shares data through it.

        That is: a device buffer written before the barrier and read after it (or both inside one
        loop around the barrier) at a different index by the block.
        """
        for k in self.kernels:
            ptrs = {p.name for p in k.params if p.pointer}
            accesses = []  # (buffer, index text, is_write, node)
            for n in walk(k.body):
                if n.type == "subscript_expression":
                    base = n.child_by_field_name("argument")
                    if base.type == "identifier" and self.src.text_of(base) in ptrs:
                        idx = n.child_by_field_name("indices")
                        write = n.parent is not None and n.parent.type in ("assignment_expression",) and \
                            n.parent.child_by_field_name("left") == n
                        write = write or (n.parent is not None and n.parent.type == "update_expression")
                        accesses.append((self.src.text_of(base), re.sub(r"\s+", "", self.src.text_of(idx)), write, n))
                elif n.type == "call_expression":
                    c = dialect.lookup("cuda", self.src.text_of(n.child_by_field_name("function")))
                    if c is not None and c.kind == "atomic":
                        args = call_args(n)
                        if args:
                            base = args[0]
                            while base.type in ("pointer_expression", "subscript_expression", "parenthesized_expression",
                                                "binary_expression"):
                                base = base.child_by_field_name("argument") or base.child_by_field_name("left") or \
                                    (base.named_children[0] if base.named_children else base)
                                if base.type == "identifier":
                                    break
                            if base.type == "identifier" and self.src.text_of(base) in ptrs:
                                accesses.append((self.src.text_of(base), self.src.text_of(args[0]), True, n))
            for use in self.module.uses:
                if use.concept.key != "syncthreads" or use.function != k.name:
                    continue
                b = use.node
                loop = b.parent
                while loop is not None and loop.type not in ("for_statement", "while_statement", "do_statement") \
                        and loop != k.body:
                    loop = loop.parent
                in_loop = loop is not None and loop != k.body

                def inside(n: Node) -> bool:
                    return in_loop and loop.start_byte <= n.start_byte < loop.end_byte
                before = [a for a in accesses if a[2] and (a[3].end_byte <= b.start_byte or inside(a[3]))]
                after = [a for a in accesses if not a[2] and (a[3].start_byte >= b.end_byte or inside(a[3]))]
                hit = next(((w, r) for w in before for r in after if w[0] == r[0] and w[1] != r[1]), None)
                if hit:
                    text = dialect.concept("syncthreads_device").spelling("metal")
                    self.rw.replace(b, text)
                    self.note(b, text, f"'{hit[0]}' is written before the barrier and read at another index after it")

    # -- file scope --------------------------------------------------------------------------
    def file_scope(self) -> None:
        """Program-scope variables live in Metal's constant address space; cooperative groups have
        no Metal counterpart."""
        for n in walk(self.src.root, lambda n: n.type in ("translation_unit", "namespace_definition",
                                                          "declaration_list", "preproc_if", "preproc_ifdef",
                                                          "preproc_else")):
            if n.type == "declaration" and self.module.function_at(n) is None:
                words = {self.src.text_of(c) for c in n.children if c.type in ("type_qualifier",
                                                                                 "storage_class_specifier")} | \
                    {c.type for c in n.children}
                if "__shared__" in words or "extern" in words or "typedef" in words:
                    continue
                if any(c.type == "function_declarator" for c in walk(n)):
                    continue  # a prototype
                tnode = n.child_by_field_name("type")
                if tnode is None:
                    continue
                if "__constant__" in words:
                    q = next(c for c in n.children if self.src.text_of(c) == "__constant__")
                    self.rw.replace(q, dialect.concept("constant_mem").spelling("metal"))
                elif "const" in words or "constexpr" in words:
                    self.rw.insert_before(tnode, "constant ")
                else:
                    name = ident_name(n.child_by_field_name("declarator"))
                    used_on_device = any(  # a parameter or local of the same name shadows it there
                        m.type == "identifier" and self.src.text_of(m) == name
                        for f in self.device.values() if f.param(name) is None and self._local_decl(f, name) is None
                        for m in walk(f.node))
                    if not used_on_device:  # host state (a device buffer pointer kept by the host code)
                        self.rw.replace(n, f"// {name}: host-side state, left out of the Metal port")
                        continue
                    self.problem("KP213", n, f"Metal has no writable program-scope variables ('{name}')",
                                 "pass the value in a buffer, or make it const")
        self._cooperative_groups()

    def _cooperative_groups(self) -> None:
        """The thread-block part of cooperative groups is the threadgroup: `cg::sync(block)` and
        `block.sync()` are its barrier, `cg::thread_block` an empty token type; the rest
        (tiles, grids, coalesced groups, cg::reduce) has no Metal counterpart (KP217)."""
        names = {"cooperative_groups"}
        for n in walk(self.src.root):
            if n.type == "namespace_alias_definition" and "cooperative_groups" in self.src.text_of(n):
                names.add(self.src.text_of(n.child_by_field_name("name")))
                self.rw.replace(n, f"// {self.src.text_of(n)}: its thread_block is the threadgroup here")
        barrier = dialect.concept("syncthreads").spelling("metal")
        blocks = set()
        for n in walk(self.src.root):
            if n.type != "qualified_identifier" or n.parent is None or n.parent.type == "qualified_identifier":
                continue
            scope, name = n.child_by_field_name("scope"), n.child_by_field_name("name")
            if scope is None or self.src.text_of(scope) not in names or name is None:
                continue
            what = self.src.text_of(name)
            if what in ("thread_block", "this_thread_block"):
                self.rw.replace(n, "kp_thread_block")
                if what == "thread_block" and n.parent.type in ("parameter_declaration", "declaration"):
                    blocks.add(ident_name(n.parent.child_by_field_name("declarator")))
            elif what == "sync" and n.parent.type == "call_expression":
                self.rw.replace(n.parent, barrier)
            else:
                self.problem("KP217", n, f"cooperative groups' {self.src.text_of(n)} has no Metal counterpart",
                             "use __syncthreads() and warp intrinsics, which kernelport maps to Metal")
                return
        for n in walk(self.src.root):  # block.sync()
            fn = n.child_by_field_name("function") if n.type == "call_expression" else None
            if fn is not None and fn.type == "field_expression" and \
                    self.src.text_of(fn.child_by_field_name("field")) == "sync" and \
                    self.src.text_of(fn.child_by_field_name("argument")) in blocks:
                self.rw.replace(n, barrier)

    # -- threadgroup memory -----------------------------------------------------------------
    def shared_memory(self) -> None:
        self.own_shared: dict[str, list[Shared]] = {n: [] for n in self.device}
        for sh in self.module.shared:
            f = self.device.get(sh.function) if sh.function else None
            tnode = sh.node.child_by_field_name("type")
            if f is None:
                if sh.function is None:
                    self.problem("KP213", sh.node, "file-scope __shared__ variables have no Metal equivalent",
                                 "declare the array inside the kernel that uses it")
                continue
            mtype = self.rw.text(tnode) if tnode is not None else sh.type
            name = sh.name
            if f.is_kernel and not sh.dynamic and sh.node.parent != f.body:
                # Hoisted to kernel scope: arrays of one name from sibling scopes must not collide.
                taken = {o.name for o in self.own_shared[f.name]}
                i = 2
                while name in taken:
                    name, i = f"{sh.name}_{i}", i + 1
                if name != sh.name:
                    for n in walk(sh.node.parent):
                        if n.type == "identifier" and n.start_byte >= sh.node.end_byte and \
                                self.src.text_of(n) == sh.name:
                            self.rw.replace(n, name)
            s = Shared(name, mtype, sh.type, sh.dims, sh.dynamic, sh.node, f.name)
            self.own_shared[f.name].append(s)
            qual = next(c for c in sh.node.children if c.type == "type_qualifier" and self.src.text_of(c) == "__shared__")
            if f.is_kernel and not sh.dynamic and sh.node.parent == f.body:
                self.rw.replace(qual, dialect.concept("shared").spelling("metal"))
            elif sh.dynamic:
                self.rw.replace(sh.node, f"/* {sh.name}: the kernel's threadgroup(0) parameter */")
            elif f.is_kernel:
                self.rw.replace(sh.node, f"/* threadgroup {name}: declared at kernel scope */")
            else:
                self.rw.replace(sh.node, f"/* threadgroup {sh.name}: declared by the kernel, passed in */")

    def _hoisted(self, name: str, seen=None) -> list[Shared]:
        """Threadgroup arrays a device function receives as parameters (its own and its callees')."""
        seen = seen or set()
        if name in seen:
            return []
        seen.add(name)
        f = self.device[name]
        out: list[Shared] = []
        if not f.is_kernel:
            out += self.own_shared.get(name, [])
        for c in self.plans[name].callees:
            for s in self._hoisted(c, seen):
                if all(s.name != o.name for o in out):
                    out.append(s)
        return out

    def _kernel_shared(self, k: Function) -> tuple[list[Shared], list[Shared]]:
        """(threadgroup arrays the kernel declares or receives, dynamic ones) with hoisted helpers'."""
        own = list(self.own_shared.get(k.name, []))
        for s in self._hoisted(k.name):
            if all(s.name != o.name for o in own):
                own.append(s)
        return [s for s in own if not s.dynamic], [s for s in own if s.dynamic]

    def check_threadgroup_sizes(self) -> None:
        for k in self.kernels:
            static, _ = self._kernel_shared(k)
            spec = self.specs.get(k.name)
            insts = [self._template_args(k, t.text) for t in spec.instantiate] if spec and spec.instantiate else [{}]
            for targs in insts:
                total, worst = 0, None
                for s in static:
                    size = self._static_bytes(s, targs)
                    if size is None:
                        total = None
                        break
                    total += size
                    worst = s if worst is None or size > (self._static_bytes(worst, targs) or 0) else worst
                if total is not None and total > THREADGROUP_LIMIT:
                    self.problem("KP211", worst.node, f"kernel '{k.name}' declares {total} bytes of threadgroup "
                                 f"memory; Apple GPUs guarantee {THREADGROUP_LIMIT}",
                                 "use smaller tiles, or dynamic shared memory sized per device")
                    break

    def _static_bytes(self, s: Shared, targs: dict) -> int | None:
        size = cexpr.SIZEOF.get(" ".join(s.cuda_type.split()))
        if size is None:
            return None
        names = dict(self._macro_values())
        names.update(targs)
        for d in s.dims:
            try:
                size *= int(cexpr.evaluate(self.src.text_of(d), names))
            except cexpr.CExprError:
                return None
        return size

    def _macro_values(self) -> dict[str, int]:
        vals: dict[str, int] = {}
        for name, m in self.module.macros.items():
            try:
                vals[name] = int(cexpr.evaluate(m.value, vals))
            except (cexpr.CExprError, ValueError, TypeError):
                pass
        return vals

    def _template_args(self, f: Function, text: str) -> dict[str, int]:
        parts = [p for p, _ in cexpr.split_top_level(text.strip()[1:-1])]
        out = {}
        for name, value in zip(f.template_params, parts):
            try:
                out[name] = int(cexpr.evaluate(value, self._macro_values()))
            except cexpr.CExprError:
                pass
        return out

    # -- local pointers ------------------------------------------------------------------------
    def local_pointers(self) -> None:
        """Pointer variables and pointer casts in device code get the address space they point into."""
        for f in self.device.values():
            for n in walk(f.body):
                if n.type == "declaration" and not any(self.src.text_of(c) == "__shared__" for c in n.children):
                    tnode = n.child_by_field_name("type")
                    for d in n.children_by_field_name("declarator"):
                        inner = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                        if inner is None or inner.type != "pointer_declarator":
                            continue
                        init = d.child_by_field_name("value") if d.type == "init_declarator" else None
                        name = ident_name(d)

                        def space(sig, f=f, init=init):
                            saved = self.cur_sig.get(f.name)
                            self.cur_sig[f.name] = sig
                            try:
                                return self.space_of(init, f) if init is not None else None
                            finally:
                                self.cur_sig[f.name] = saved
                        self.local_spaces[(f.name, name)] = lambda sig, space=space: space(sig) or "thread"
                        if init is not None and self.space_of(init, f) is None:
                            self.problem("KP215", d, f"cannot tell which address space '{name}' points into",
                                         "initialise the pointer from a kernel parameter, a __shared__ array "
                                         "or a local array")
                        self._dynamic_prefix(tnode, lambda sig, name=name, f=f: self.local_spaces[(f.name, name)](sig))
                elif n.type == "cast_expression":
                    td = n.child_by_field_name("type")
                    if td is None or not any(c.type == "abstract_pointer_declarator" for c in walk(td)):
                        continue
                    val = n.child_by_field_name("value")
                    self._dynamic_prefix(td.child_by_field_name("type") or td,
                                         lambda sig, f=f, val=val: self._space_at(f, sig, val) or "thread")

    def _space_at(self, f: Function, sig, expr: Node) -> str | None:
        saved = self.cur_sig.get(f.name)
        self.cur_sig[f.name] = sig
        try:
            return self.space_of(expr, f)
        finally:
            self.cur_sig[f.name] = saved

    def _dynamic_prefix(self, node: Node, fn) -> None:
        """Text before `node` computed when it is rendered (for the current specialisation)."""
        f = self.module.function_at(node)
        self.rw.insert_before(node, "")
        lst = self.rw.before[key(node)]
        self._lazy_prefixes.append((f.name, lst, len(lst) - 1, fn))

    def _apply_prefixes(self, fname: str, sig) -> None:
        for name, lst, i, fn in self._lazy_prefixes:
            if name == fname:
                lst[i] = f"{fn(sig)} "

    # -- functions -----------------------------------------------------------------------------
    def functions(self) -> None:
        for k in self.kernels:
            self.rw.replace(k.template_node or k.node, lambda rw, n, k=k: self._render_kernel(k))
        for name, h in self.helpers.items():
            self.rw.replace(h.template_node or h.node, lambda rw, n, h=h: self._render_helper(h))
        for f in self.device.values():
            for call, h in self._calls(f):
                args = call.child_by_field_name("arguments")
                self.rw.replace(args, lambda rw, n, h=h: self._render_call_args(n, h))

    def prototypes(self) -> None:
        """Declarations of device functions (`__device__ void f(T* p);`, primary templates): no
        CUDA qualifiers, and pointer parameters in the address spaces the definition gets."""
        from ...model import _params
        scopes = ("translation_unit", "namespace_definition", "declaration_list", "template_declaration",
                  "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "linkage_specification")
        for n in walk(self.src.root, lambda n: n.type in scopes):
            if n.type != "declaration":
                continue
            drop = {key(c) for c in n.children if self.src.text_of(c) in ("__device__", "__host__", "__noinline__")}
            fd = n.child_by_field_name("declarator")
            while fd is not None and fd.type != "function_declarator":
                fd = fd.child_by_field_name("declarator")
            if not drop or fd is None:
                continue
            name = ident_name(fd.child_by_field_name("declarator"))
            plan = self.plans.get(name)
            sig = iter(plan.sigs[0] if plan is not None and plan.sigs else ())
            for p in _params(self.src, fd):
                if p.pointer:
                    self.rw.replace(p.node, self._param_text(p, next(sig, "device"), False, None, False))
            self.rw.replace(n, lambda rw, node, drop=drop: self._head_stitch(node, drop, {}))

    def _extras(self, h: Function) -> list[str]:
        p = self.plans[h.name]
        return [s.name for s in p.shared] + [self.names[b] for b in p.builtins]

    @staticmethod
    def _required(f: Function) -> int:
        """Parameters before the first defaulted one: extras go there (C++ wants defaults last)."""
        return next((i for i, p in enumerate(f.params) if p.node.type == "optional_parameter_declaration"),
                    len(f.params))

    def _render_call_args(self, args: Node, h: Function) -> str:
        text = self.rw.stitch(args)
        extra = self._extras(h)
        if not extra:
            return text
        r = self._required(h)
        if r < len(h.params):  # defaulted parameters follow the extras: insert them after the required ones
            given = [self.rw.text(a) for a in call_args(args.parent)]
            return "(" + ", ".join(given[:r] + extra + given[r:]) + ")"
        inner = text[1:-1]
        return "(" + (inner + ", " if inner.strip() else "") + ", ".join(extra) + ")"

    def _head_stitch(self, fn_node: Node, drop: set, over: dict) -> str:
        """Stitch a function definition, dropping some head children (and the space after them)."""
        out, pos = [], fn_node.start_byte
        for c in fn_node.children:
            gap = self.src.data[pos:c.start_byte].decode("utf-8")
            if key(c) in drop:
                pos = c.end_byte
                continue
            out.append(gap if out else "")
            out.append(over[key(c)] if key(c) in over else self.rw.text(c))
            pos = c.end_byte
        out.append(self.src.data[pos:fn_node.end_byte].decode("utf-8"))
        return "".join(out)

    def _qualifiers(self, f: Function) -> tuple[set, dict]:
        drop, over = set(), {}
        for c in f.node.children:
            t = self.src.text_of(c)
            if c.type in ("__device__", "__host__", "__noinline__") or t in ("__device__", "__host__", "__noinline__"):
                drop.add(key(c))
            elif t == "__forceinline__":
                over[key(c)] = dialect.concept("forceinline").spelling("metal")
            elif t == "__global__":
                over[key(c)] = dialect.concept("kernel").spelling("metal")
            elif t == "static" and f.is_kernel:
                drop.add(key(c))  # a Metal kernel is an entry point: it cannot be static
            elif c.type == "launch_bounds":
                drop.add(key(c))
        return drop, over

    def _params_text(self, f: Function, entries: list[str], extra: list[str]) -> str:
        """A parameter list: the CUDA parameters' texts (with the user's separators) plus extras."""
        plist = self._declarator(f).child_by_field_name("parameters")
        params = [p.node for p in f.params]
        r = self._required(f)
        if extra and r < len(params):  # extras before the defaulted parameters
            return "(" + ", ".join(entries[:r] + extra + entries[r:]) + ")"
        out = ["("]
        pos = plist.start_byte + 1
        for node, text in zip(params, entries):
            out.append(self.src.data[pos:node.start_byte].decode("utf-8"))
            out.append(text)
            pos = node.end_byte
        if len(params) >= 2:
            sep = self.src.data[params[-2].end_byte:params[-1].start_byte].decode("utf-8")
        else:
            sep = ", "
        last_line = "".join(out).rsplit("\n", 1)[-1]
        if "\n" not in sep and len(last_line) + sum(len(e) + 2 for e in extra) > 100 and extra:
            sep = ",\n" + " " * (self.src.loc(plist).column)  # one per line, under the '('
        for e in extra:
            out.append(sep if len(out) > 1 else "")
            out.append(e)
        out.append(self.src.data[pos:plist.end_byte].decode("utf-8"))
        return "".join(out)

    def _declarator(self, f: Function) -> Node:
        d = f.node.child_by_field_name("declarator")
        while d is not None and d.type != "function_declarator":
            d = d.child_by_field_name("declarator")
        return d

    def _param_text(self, p: Param, space: str | None, ref: bool, attr: str | None, buffer: bool) -> str:
        node = p.node
        tnode = node.child_by_field_name("type")
        dnode = node.child_by_field_name("declarator")
        out, pos = [], node.start_byte
        for c in node.children:
            if attr and c.type == "=":  # a kernel parameter has no default value in Metal
                break
            gap = self.src.data[pos:c.start_byte].decode("utf-8")
            t = self.rw.text(c)
            if tnode is not None and key(c) == key(tnode):
                m = _VEC3.match(t.strip())
                if buffer and p.pointer and m:
                    t = dialect.render(dialect.concept("vec3_buffer"), "metal", {"t": m.group(1)})
                if space:
                    t = f"{space} {t}"
            if ref and dnode is not None and key(c) == key(dnode):
                gap, t = "", f"& {t}"
            out.append(gap + t)
            pos = c.end_byte
        text = "".join(out)
        return f"{text} [[{attr}]]" if attr else text

    def _builtin_decl(self, b: str, attr: bool) -> str:
        typ, a = dialect.concept(b).attribute("metal")
        return f"{typ} {self.names[b]}" + (f" [[{a}]]" if attr else "")

    def _kernel_signature(self, k: Function) -> tuple[str, list[dict]]:
        entries, args = [], []
        for i, p in enumerate(k.params):
            if p.pointer:
                entries.append(self._param_text(p, "device", False, f"buffer({i})", True))
                args.append({"param": p, "index": i, "kind": "buffer"})
            else:
                entries.append(self._param_text(p, "constant", True, f"buffer({i})", True))
                args.append({"param": p, "index": i, "kind": "bytes"})
        _, dynamic = self._kernel_shared(k)
        extra = []
        if dynamic:
            d = dynamic[0]
            extra.append(f"threadgroup {d.type}* {d.name} [[threadgroup(0)]]")
            args.append({"shared": d, "index": 0, "kind": "threadgroup"})
        extra += [self._builtin_decl(b, True) for b in self.plans[k.name].builtins]
        return self._params_text(k, entries, extra), args

    def _realign(self, f: Function, text: str, plist_text: str) -> str:
        """Keep parameters aligned under the '(' when the head before it changed length."""
        plist = self._declarator(f).child_by_field_name("parameters")
        old_col = self.src.loc(plist).column - 1
        pos = text.find(plist_text)
        if pos < 0 or "\n" not in plist_text:
            return text
        new_col = pos - (text.rfind("\n", 0, pos) + 1)
        if new_col == old_col:
            return text
        fixed = re.sub(r"\n" + " " * (old_col + 1) + r"(?=\S)", "\n" + " " * (new_col + 1), plist_text)
        return text[:pos] + fixed + text[pos + len(plist_text):]

    def _render_kernel(self, k: Function) -> str:
        drop, over = self._qualifiers(k)
        sig, args = self._kernel_signature(k)
        plist = self._declarator(k).child_by_field_name("parameters")
        over[key(plist)] = sig
        # the parameter list sits inside the declarator: render the declarator with it replaced
        self.rw.replace(plist, sig)
        try:
            self._apply_prefixes(k.name, ())
            self._kernel_body_prefix(k)
            text = self._head_stitch(k.node, drop, {kk: v for kk, v in over.items() if kk != key(plist)})
        finally:
            self.rw.remove(plist)
        text = self._realign(k, text, sig)
        if k.launch_bounds is not None:
            n = k.launch_bounds.named_children[0] if k.launch_bounds.named_children else None
            lb = dialect.render(dialect.concept("launch_bounds"), "metal", {"threads": self.rw.text(n)})
            text = f"{lb}\n{text}"
        self.kernel_info[k.name] = {"args": args}
        if k.template_node is not None:
            tn = k.template_node
            head = self.src.data[tn.start_byte:k.node.start_byte].decode("utf-8")
            text = head + text
            spec = self.specs.get(k.name)
            insts = []
            wanted = [[a for a, _ in cexpr.split_top_level(t.text.strip()[1:-1])] for t in (spec.instantiate if spec else [])]
            if not wanted:  # a plain CUDA file: the instances its host code launches
                for launch in self.module.launches:
                    fn = launch.node.child_by_field_name("function")
                    if launch.kernel == k.name and fn is not None and fn.type == "template_function":
                        targ = self.src.text_of(fn.child_by_field_name("arguments")).strip()[1:-1]
                        args = [a for a, _ in cexpr.split_top_level(targ)]
                        host = self.module.function_at(launch.node)
                        if host is not None and set(host.template_params) & set(re.findall(r"\w+", targ)):
                            continue  # arguments of a host template: no concrete instance here
                        if args not in wanted:
                            wanted.append(args)
            for targs in wanted:
                host = k.name + "_" + "_".join(re.sub(r"\W+", "_", a).strip("_") for a in targs)
                insts.append(templates.env().get_template("metal_signature.j2").module.instantiation(
                    host_name=host, name=k.name, args=", ".join(targs), params=sig))
                self.kernel_info.setdefault("_instances", {}).setdefault(k.name, []).append((host, targs))
            if not insts:
                self.problem("KP216", k.node, f"template kernel '{k.name}' has no instantiation",
                             f"add '// @kp instantiate <...>' above '{k.name}': Metal needs each instance "
                             "named with [[host_name]]")
            text += "".join("\n" + i for i in insts)
        return text

    def _kernel_body_prefix(self, k: Function) -> None:
        """Threadgroup arrays the kernel declares for its helpers (and nested ones of its own)."""
        static, dynamic = self._kernel_shared(k)
        lines = []
        first = next((c for c in k.body.named_children), None)
        indent = (self._indent_of(first) if first is not None else "") or "    "
        for s in static:
            if s.function == k.name and s.node.parent == k.body:
                continue
            owner = self.module.functions.get(s.function) or k
            dims = "".join(f"[{self._hoisted_size(d, owner)}]" for d in s.dims)
            why = f"for {s.function}()" if s.function != k.name else "hoisted to kernel scope"
            lines.append(f"{indent}threadgroup {s.type} {s.name}{dims};  // {why}")
        for s in dynamic[1:]:
            lines.append(f"{indent}threadgroup {s.type}* {s.name} = (threadgroup {s.type}*){dynamic[0].name};"
                         f"  // extern __shared__ arrays alias")
        open_brace = k.body.children[0]
        after = self.src.data[open_brace.end_byte:open_brace.end_byte + 1]
        tail = "" if not lines or after in (b"\n", b"\r") else "\n" + indent
        self.rw.replace(open_brace, "{" + "".join("\n" + l for l in lines) + tail)

    def _hoisted_size(self, d: Node, f: Function, depth: int = 0) -> str:
        """An array size moved to kernel scope: local constants it names are inlined."""
        text = self.rw.text(d)
        if depth > 8:
            return text
        for n in sorted((n for n in walk(d) if n.type == "identifier"), key=lambda n: -n.start_byte):
            decl = self._local_decl(f, self.src.text_of(n))
            init = None
            for dd in (decl.children_by_field_name("declarator") if decl is not None else []):
                if dd.type == "init_declarator" and ident_name(dd) == self.src.text_of(n):
                    init = dd.child_by_field_name("value")
            if init is not None:
                off0, off1 = n.start_byte - d.start_byte, n.end_byte - d.start_byte
                if self.rw.text(d) == self.src.text_of(d):  # offsets hold only on unrewritten text
                    text = text[:off0] + f"({self._hoisted_size(init, f, depth + 1)})" + text[off1:]
        return text

    def _render_helper(self, h: Function) -> str:
        drop, over = self._qualifiers(h)
        plan = self.plans[h.name]
        plist = self._declarator(h).child_by_field_name("parameters")
        copies = []
        for sig in plan.sigs:
            self.cur_sig[h.name] = sig
            self._apply_prefixes(h.name, sig)
            entries, i = [], 0
            for p in h.params:
                if p.pointer:
                    entries.append(self._param_text(p, sig[i], False, None, True))
                    i += 1
                else:
                    entries.append(self._param_text(p, None, False, None, False))
            extra = []
            for s in plan.shared:
                dims = "".join(f"[{self.rw.text(d)}]" for d in s.dims[1:])
                extra.append(f"threadgroup {s.type} (*{s.name}){dims}" if dims else f"threadgroup {s.type}* {s.name}")
            extra += [self._builtin_decl(b, False) for b in plan.builtins]
            ptext = self._params_text(h, entries, extra)
            self.rw.replace(plist, ptext)
            try:
                text = self._realign(h, self._head_stitch(h.node, drop, over), ptext)
            finally:
                self.rw.remove(plist)
            if h.template_node is not None:
                text = self.src.data[h.template_node.start_byte:h.node.start_byte].decode("utf-8") + text
            copies.append(text)
        self.cur_sig[h.name] = plan.sigs[0]
        return "\n\n".join(copies)

    # -- what each function needs (callees first) -----------------------------------------------
    def needs(self) -> None:
        order, seen = [], set()

        def visit(n: str) -> None:
            if n in seen:
                return
            seen.add(n)
            for c in self.plans[n].callees:
                visit(c)
            order.append(n)
        for n in sorted(self.device, key=lambda n: self.device[n].node.start_byte):
            visit(n)
        for n in order:
            f = self.device[n]
            plan = self.plans[n]
            plan.shared = [] if f.is_kernel else self._hoisted(n)
            self._apply_prefixes(n, self.cur_sig.get(n, ()))
            body = self.rw.text(f.body)
            if f.launch_bounds is not None:
                body += self.rw.text(f.launch_bounds)
            plan.builtins = [b for b in BUILTINS if re.search(r"\b%s\b" % re.escape(self.names[b]), body)]

    # -- prologue and sidecar --------------------------------------------------------------------
    def prologue_context(self, body: str) -> dict:
        version, reasons = "2.0", []
        for rx, v, why in _FEATURES:
            if rx.search(body):
                reasons.append(f"{why} ({v})")
                if tuple(map(int, v.split("."))) > tuple(map(int, version.split("."))):
                    version = v
        if self.polyfill_atomics and any(t == "float" and s == "device" for _, s, t in self.polyfill_atomics):
            if tuple(map(int, version.split("."))) < (3, 0):
                version = "3.0"
            reasons.append("atomic_float compare-exchange on device memory (3.0)")
        self.msl_version = version
        used = set(re.findall(r"\bkp_(\w+)\s*\(", body))
        atomics = sorted(self.polyfill_atomics)
        return {"msl_version": version, "msl_reasons": reasons, "polyfills": used, "atomics": atomics,
                "sidecar": None}

    def extra_files(self, source_label: str, command: str | None) -> dict[str, str]:
        from pathlib import PurePosixPath
        stem = PurePosixPath(source_label).stem
        doc = {
            "kernelport": f"Generated by kernelport {__version__} from {source_label}: edit the source, not this file.",
            "kernelport-checksum": "",
            "regenerate": command or f"kernelport translate {source_label} --to metal",
            "source": source_label,
            "metal": f"{stem}.metal",
            "msl_version": getattr(self, "msl_version", "2.0"),
            "kernels": [],
        }
        for k in self.kernels:
            doc["kernels"] += self._sidecar_kernels(k)
        return {".json": json.dumps(doc, indent=2) + "\n"}

    def _sidecar_kernels(self, k: Function) -> list[dict]:
        spec = self.specs.get(k.name)
        info = self.kernel_info.get(k.name, {"args": []})
        vals = spec.scalar_values() if spec else {}
        instances = self.kernel_info.get("_instances", {}).get(k.name) or [(k.name, None)]
        out = []
        for host, targs in instances:
            args = []
            for a in info["args"]:
                if a["kind"] == "threadgroup":
                    s = a["shared"]
                    e = {"name": s.name, "index": 0, "kind": "threadgroup", "type": s.type}
                    if spec and spec.shared:
                        e["bytes"] = f"round_up({spec.shared.text}, 16)"
                        b = spec.shared_bytes()
                        e["bytes_value"] = -(-b // 16) * 16
                    else:
                        e["bytes"] = None
                    e["host"] = "setThreadgroupMemoryLength:atIndex:0"
                    args.append(e)
                    continue
                p: Param = a["param"]
                mtype = _metal_type(p.type)
                e = {"name": p.name, "index": a["index"], "kind": a["kind"], "type": mtype}
                if a["kind"] == "buffer":
                    e["access"] = "read" if p.const else "read_write"
                    ann = spec.args.get(p.name) if spec else None
                    if ann is not None:
                        e["role"] = ann.role
                        e["count"] = ann.length.text
                        e["count_value"] = spec.length(p.name)
                        e["bytes"] = f"({ann.length.text}) * sizeof({mtype})"
                        size = cexpr.SIZEOF.get(" ".join(p.type.split())) or cexpr.SIZEOF.get(mtype)
                        e["bytes_value"] = e["count_value"] * size if size else None
                    e["host"] = "setBuffer:offset:atIndex:"
                else:
                    size = cexpr.SIZEOF.get(" ".join(p.type.split())) or cexpr.SIZEOF.get(mtype)
                    e["bytes"] = f"sizeof({mtype})"
                    e["bytes_value"] = size
                    if spec and p.name in spec.scalars:
                        e["value"] = spec.scalars[p.name].text
                        e["value_evaluated"] = vals.get(p.name)
                    e["host"] = "setBytes:length:atIndex:"
                args.append(e)
            entry = {"name": k.name, "host_name": host}
            if targs is not None:
                entry["template_args"] = targs
            entry["arguments"] = args
            entry["builtins"] = [{"name": self.names[b], "type": dialect.concept(b).attribute("metal")[0],
                                  "attribute": dialect.concept(b).attribute("metal")[1]} for b in self.plans[k.name].builtins]
            if k.launch_bounds is not None and k.launch_bounds.named_children:
                entry["max_total_threads_per_threadgroup"] = self.src.text_of(k.launch_bounds.named_children[0])
            if spec:
                grid = [t.text for t in spec.grid] + ["1"] * (3 - len(spec.grid))
                block = [t.text for t in spec.block] + ["1"] * (3 - len(spec.block))
                entry["dispatch"] = {
                    "method": "dispatchThreadgroups:threadsPerThreadgroup:",
                    "threadgroups_per_grid": grid,
                    "threads_per_threadgroup": block,
                    "threadgroups_per_grid_value": list(spec.dims("grid")),
                    "threads_per_threadgroup_value": list(spec.dims("block")),
                }
            else:
                entry["dispatch"] = None
            out.append(entry)
        return out

    # -- small helpers --------------------------------------------------------------------------
    def _indent_of(self, node: Node) -> str:
        line_start = self.src.data.rfind(b"\n", 0, node.start_byte) + 1
        return re.match(rb"[ \t]*", self.src.data[line_start:node.start_byte]).group(0).decode()


def cexpr_int(text: str) -> int | None:
    try:
        v = cexpr.evaluate(text, {})
        return int(v) if float(v).is_integer() else None
    except (cexpr.CExprError, ValueError, TypeError):
        return None


def _metal_type(cuda_type: str) -> str:
    t = " ".join(cuda_type.split())
    if t in _INT32:
        return _INT32[t]
    c = dialect.lookup("cuda", t)
    if c is not None and c.kind == "type" and c.spelling("metal"):
        return c.spelling("metal")
    return {"long long": "long", "unsigned long long": "ulong", "int64_t": "long", "uint64_t": "ulong",
            "unsigned char": "uchar", "unsigned short": "ushort", "uint8_t": "uchar", "int8_t": "char"}.get(t, t)
