"""Threadgroup memory: Metal declares it only at kernel scope.

A `__shared__` array in a nested scope of a kernel is hoisted to the kernel's top; one in a
helper is declared by every kernel that calls it and passed down as a parameter; `extern
__shared__` arrays are the kernel's `[[threadgroup(0)]]` parameter (aliases of it when several).
Static sizes are checked against what every Apple GPU guarantees (KP211).
"""
from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from ... import cexpr, dialect
from ...model import Function
from ...source import ident_name, walk
from .helper_shared import HelperShared
from .instance_shared import InstanceShared
from .template_ids import substitute_types

THREADGROUP_LIMIT = 32 * 1024  # bytes of threadgroup memory every Apple GPU family guarantees


@dataclass
class Shared:
    """A threadgroup array: where CUDA declared it and what the kernel that owns it declares."""
    name: str  # name in the kernel (and passed to helpers)
    type: str  # Metal element type text
    cuda_type: str
    dims: list[Node]
    dynamic: bool
    node: Node  # the CUDA declaration
    function: str  # function that declared it (for a file-scope array: one function that names it)
    file_scope: bool = False  # one CUDA declaration outside every function, named by each user
    inst: tuple | None = None  # a helper's array: its owner's template binding (None: not known; instance_shared.py)
    base: str = ""  # the name in its owner (one instance's copy is `base_1`)


class ThreadgroupMemory(InstanceShared, HelperShared):
    """Mixin of MetalTranslator: the `shared_memory` and `check_threadgroup_sizes` passes."""

    # -- threadgroup memory -----------------------------------------------------------------
    def shared_memory(self) -> None:
        self.own_shared: dict[str, list[Shared]] = {n: [] for n in self.device}
        for sh in self.module.shared:
            f = self._device_owner(sh)
            tnode = sh.node.child_by_field_name("type")
            if f is None:
                if sh.function is None and self._at_file_scope(sh.node):
                    self._file_scope_shared(sh)
                elif sh.function is None:  # a class member's body (a `SharedMemory` operator): not a device function here
                    self.problem("KP213", sh.node, "__shared__ in a function the Metal port does not translate",
                                 "declare the array inside the kernel that uses it")
                continue
            mtype = self.rw.text(tnode) if tnode is not None else sh.type
            name = sh.name
            key = self.fkeys[id(f)]  # (a::k and b::k are two kernels: by key, not by name)
            if f.is_kernel and not sh.dynamic and sh.node.parent != f.body:
                # Hoisted to kernel scope: arrays of one name from sibling scopes must not collide.
                taken = {o.name for o in self.own_shared[key]}
                i = 2
                while name in taken:
                    name, i = f"{sh.name}_{i}", i + 1
                if name != sh.name:
                    for n in walk(sh.node.parent):
                        if n.type == "identifier" and n.start_byte >= sh.node.end_byte and \
                                self.src.text_of(n) == sh.name:
                            self.rw.replace(n, name)
            s = Shared(name, mtype, sh.type, sh.dims, sh.dynamic, sh.node, key)
            self.own_shared[key].append(s)
            qual = next(c for c in sh.node.children if c.type == "type_qualifier" and self.src.text_of(c) == "__shared__")
            if f.is_kernel and not sh.dynamic and sh.node.parent == f.body:
                if not self.shared_table_declaration(sh, f):  # `device node * threadgroup slots[4]`
                    self.rw.replace(qual, dialect.concept("shared").spelling("metal"))
                for c in sh.node.children:  # `extern __shared__ T s[N]`: nvcc's definition (sized_extern_shared.py)
                    if c.type == "storage_class_specifier" and self.src.text_of(c) == "extern":
                        self.rw.replace(c, "")
                        if c.next_sibling is not None and self.src.data[c.end_byte:c.next_sibling.start_byte].isspace():
                            self.rw.drop_span(c.end_byte, c.next_sibling.start_byte)
            elif sh.dynamic:
                self.rw.replace(sh.node, f"/* {sh.name}: the kernel's threadgroup(0) parameter */")
            elif f.is_kernel:
                self.rw.replace(sh.node, f"/* threadgroup {name}: declared at kernel scope */")
            else:
                self.rw.replace(sh.node, f"/* threadgroup {sh.name}: declared by the kernel, passed in */")
        self._rename_shared_collisions()

    @staticmethod
    def _at_file_scope(node: Node) -> bool:
        """Outside every function (in the file, a namespace or an `extern "C"` block)."""
        n = node.parent
        while n is not None:
            if n.type in ("function_definition", "lambda_expression", "field_declaration_list"):
                return False
            n = n.parent
        return True

    def _file_scope_shared(self, sh) -> None:
        """A file-scope `__shared__` array is per block, as one in a kernel is: each device function
        that names it (where no parameter or local shadows it) owns it as a helper's array, so a kernel
        declares it at its scope (a dynamic one: its threadgroup(0) parameter) and passes it to the
        helpers that use it."""
        tnode = sh.node.child_by_field_name("type")
        mtype = self.rw.text(tnode) if tnode is not None else sh.type
        kept = ""  # `__shared__ struct tag { ... } stack[N];`: the struct stays a file-scope definition
        body = tnode.child_by_field_name("body") if tnode is not None and tnode.type in (
            "struct_specifier", "union_specifier", "class_specifier") else None
        if body is not None:
            tag = tnode.child_by_field_name("name")
            keyword = tnode.type.split("_")[0]
            mtype = f"{keyword} {self.src.text_of(tag) if tag is not None else f'kp_{sh.name}_t'}"
            kept = f"{mtype} {self.rw.text(body)};\n"

        def names_it(f) -> bool:  # in the body, or in a macro the body names (`#define STACK (stack[threadIdx.x])`)
            words = {self.src.text_of(m) for m in walk(f.body) if m.type == "identifier"}
            return sh.name in words or sh.name in self._macro_words(words)
        users = [f for f in self.device.values()
                 if f.param(sh.name) is None and self._local_decl(f, sh.name) is None
                 and sh.name not in f.template_params and names_it(f)]
        for f in users:
            key = self.fkeys[id(f)]
            self.own_shared[key].append(Shared(sh.name, mtype, sh.type, sh.dims, sh.dynamic, sh.node, key, True))
        where = "the threadgroup(0) parameter of" if sh.dynamic else "declared by"
        self.rw.replace(sh.node, f"{kept}/* threadgroup {sh.name}: {where} each kernel that uses it */")

    def _device_owner(self, sh) -> Function | None:
        """The device definition whose body declares the model's shared array `sh` (the outermost
        one holding it, as the model's owner), None at file scope or in host code."""
        f = self.module.function_at(sh.node)
        while f is not None and f.node.parent is not None:
            g = self.module.function_at(f.node.parent)
            if g is None or g is f or (g.node.start_byte, g.node.end_byte) == (f.node.start_byte, f.node.end_byte):
                break
            f = g
        return f if f is not None and id(f) in self.fkeys else None

    def _hoisted(self, name: str) -> list[Shared]:
        """Threadgroup arrays a device function receives as parameters (its own and its callees', one
        per template instance: instance_shared.py)."""
        return list(self._slots(name))

    def _kernel_shared(self, k: Function) -> tuple[list[Shared], list[Shared]]:
        """(threadgroup arrays the kernel declares or receives, dynamic ones) with hoisted helpers'."""
        key = self.fkeys.get(id(k), k.name)
        own = list(self.own_shared.get(key, []))
        for s in self._hoisted(key):
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
        for p, v in (self.instance_binding(s) or {}).items():  # this instance's template arguments
            try:
                names[p] = int(cexpr.evaluate(v, names))
            except (cexpr.CExprError, ValueError, TypeError):
                pass
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

    def _kernel_body_prefix(self, k: Function) -> None:
        """Threadgroup arrays the kernel declares for its helpers (and nested ones of its own)."""
        static, dynamic = self._kernel_shared(k)
        lines = []
        first = next((c for c in k.body.named_children), None)
        indent = (self._indent_of(first) if first is not None else "") or "    "
        lines += self.argument_copy_lines(k, indent)
        for s in static:
            if s.function == self.fkeys.get(id(k)) and s.node.parent == k.body:
                continue
            owner = self.device.get(s.function) or k
            # A file-scope array's sizes name file-scope things only: no helper's locals or template
            # parameters (a helper's `N` is not the file's `N`).
            sizes = [self.rw.text(d) if s.file_scope else self._hoisted_size(d, owner) for d in s.dims]
            bound = {} if owner is k or s.file_scope else self.instance_binding(s)
            if bound is None:
                bound = self._helper_binding(k, s, owner, sizes)
            if bound is None:  # refused (KP213 at the array)
                continue
            dims = "".join(f"[{substitute_types(d, bound)}]" for d in sizes)
            why = "file scope" if s.file_scope else f"for {owner.name}()" if owner is not k else "hoisted to kernel scope"
            lines.append(f"{indent}threadgroup {substitute_types(s.type, bound)} {s.name}{dims};  // {why}")
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
