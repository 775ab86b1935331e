"""`__constant__` memory the host fills: bound buffers in the Metal port.

CUDA's `__constant__ float w[16];` is filled by the host (`cudaMemcpyToSymbol(w, ...)`).  Metal has
no symbol a host can write: a program-scope `constant` variable must be initialised in the
source.  So an uninitialised `__constant__` variable becomes a `constant T* w [[buffer(n)]]`
parameter (`constant T& w` for a scalar, `constant T (*w)[M][N]` for an array of arrays) of every kernel
that reads it, directly or through helpers, after the kernel's own buffers; helpers that read it
get it as a parameter, and every call passes it on (the mechanism that passes hoisted
threadgroup arrays).  The sidecar records each such argument with the host symbol and the
`cudaMemcpyToSymbol` that filled it.  An initialised `__constant__` stays a program-scope
`constant` variable.  An `extern __constant__` declaration (a header's, the definition in another
file) is bound the same way; a second declaration of a bound name is left out.  A `__device__`
variable the host fills with `cudaMemcpyToSymbol` and device code only reads is bound the same way
(ccminer's tables); one device code writes stays KP213.  What cannot be rebound soundly is refused at its line (KP213): a
`__constant__` variable whose address is taken, or that is written, or declared in a scope other
than the file's.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from ... import backends
from ...source import call_args, ident_name
from .constant_pointers import pointer_constant_shape


@dataclass
class BoundConstant:
    """A `__constant__` the Metal port passes as a buffer, and the host copies that fill it."""
    name: str
    type_node: Node
    dims: list[Node]  # array sizes, outermost first (empty: a scalar)
    node: Node  # the declaration
    filled_by: list[str] = field(default_factory=list)  # the host's cudaMemcpyToSymbol calls
    space: str = "__constant__"  # or `__device__`: global memory the host fills (cudaMemcpyToSymbol)
    # and device code only reads; `texture`, `texture_count`: a texture reference over linear memory and
    # its length (metal/texture_buffers.py); `assertion`: what a recorded assert writes (metal/assertions.py)
    pair: str = ""  # a texture reference's length argument, and the length's texture reference
    defined_elsewhere: bool = False  # `__device__ extern const`: its values are another file's definition's
    pointer: bool = False  # `__constant__ T *p[N]`: device addresses the host stored (constant_pointers.py)


class BoundConstants:
    """Mixin of MetalTranslator: the `bind_constants` pass and the texts the signatures use."""

    def bind_constants(self) -> None:
        self.bound: dict[str, BoundConstant] = dict(getattr(self, "linear_textures", {}))
        self.bound.update(self.assertion_flags())  # what a recorded assert writes (assertions.py)
        filled = self.host_filled()
        for n in self.src.index.of_type("declaration"):
            space = next((w for c in n.children if (w := self.src.text_of(c)) in ("__constant__", "__device__")), None)
            if space is None or self.rw.has(n):
                continue
            decls = n.children_by_field_name("declarator")
            if any(d.type == "init_declarator" for d in decls) or self.module.function_at(n) is not None:
                continue  # initialised: a program-scope constant stays (file_scope)
            extern = any(self.src.text_of(c) == "extern" for c in n.children)
            # `__device__ extern const T t[N];` (a header's): a read-only table another file defines, bound as
            # an extern `__constant__` is, unless this file defines it too (a program-scope constant then)
            elsewhere = extern and space == "__device__" and any(self.src.text_of(c) == "const" for c in n.children)
            for d in decls:
                dims, inner = [], d
                while inner is not None and inner.type == "array_declarator":
                    size = inner.child_by_field_name("size")
                    if size is not None:
                        dims.insert(0, size)
                    elif extern:
                        break  # `extern __constant__ T w[];`: its size is the definition's, elsewhere
                    inner = inner.child_by_field_name("declarator")
                name = ident_name(d)
                if extern and inner is not None and inner.type == "array_declarator":
                    continue
                if name in self.bound:  # declared again (a header's `extern` declaration, then the definition)
                    self.rw.replace(n, f"/* {name}: declared above */")
                    continue
                if elsewhere and name in self._initialised_here():
                    continue
                if space == "__device__" and ((name not in filled and not elsewhere) or inner is None or inner.type != "identifier"
                                              or not self._check_read_only(
                                                  BoundConstant(name, n.child_by_field_name("type"), dims, n), False)):
                    continue  # written in device code: a writable program-scope variable (file_scope: KP213)
                shape = pointer_constant_shape(d) if space == "__constant__" and not extern else None
                why = self.device_filled_pointers(name) if shape is not None else None
                if shape is not None and why is None:  # device addresses the host stored (constant_pointers.py)
                    self.bound[name] = BoundConstant(name, n.child_by_field_name("type"), shape[1], n, pointer=True)
                    continue
                if name is None or inner is None or inner.type != "identifier":
                    self.problem("KP213", d, "this __constant__ declaration cannot be bound as a Metal buffer" +
                                 (f" ({why})" if why else ""),
                                 "declare it as a scalar or an array of values; pass a device pointer to the kernel as a "
                                 "parameter (a Metal buffer the host fills holds no device address)" if why is None else
                                 "fill it with cudaMemcpyToSymbol from cudaMalloc'd pointers (the port binds their GPU "
                                 "addresses), or pass a device pointer to the kernel as a parameter")
                    continue
                self.bound[name] = BoundConstant(name, n.child_by_field_name("type"), dims, n, space=space,
                                                 defined_elsewhere=elsewhere)
        if not self.bound:
            return
        for name, c in self.bound.items():
            self._check_read_only(c)
        for n in self.src.index.of_type("call_expression"):  # what filled each one, for the sidecar
            args = call_args(n)
            fn = n.child_by_field_name("function")
            if fn is not None and self.src.text_of(fn).startswith("cudaMemcpyToSymbol") and args and \
                    self.src.text_of(args[0]) in self.bound:
                self.bound[self.src.text_of(args[0])].filled_by.append(" ".join(self.src.text_of(n).split()))
        for c in self.bound.values():  # `cudaMemcpyToSymbol(outs[0], &d, sizeof(float*), ch * sizeof(float*))`
            if c.pointer:
                c.filled_by = [" ".join(self.src.text_of(n).split()) for n in self._copies_to_symbol(c.name)]
        for n in self.src.index.of_type("qualified_identifier"):  # `zetas_table::zetas[i]`: the parameter now
            name = n.child_by_field_name("name")
            if name is not None and name.type == "identifier" and self.src.text_of(name) in self.bound and \
                    (n.parent is None or n.parent.type != "qualified_identifier") and not self.rw.has(n):
                self.rw.replace(n, self.src.text_of(name))
        for c in self.bound.values():
            if c.space.startswith("texture") or c.node is None:
                continue  # its declaration's comment is texture_buffers' (an assertion's: none)
            what = "device pointers the host stores in __constant__ memory" if c.pointer else \
                "__constant__ memory the host fills" if c.space == "__constant__" else \
                "a read-only __device__ table another file defines" if c.defined_elsewhere else \
                "__device__ memory device code only reads the host fills"
            self.rw.replace(c.node, f"/* {c.name}: {what}: a `constant` buffer argument "
                                    "of the kernels that read it (see the sidecar) */")

    def _initialised_here(self) -> set[str]:
        """The names an initialised file-scope `__device__`/`__constant__` declaration of the file defines."""
        from ...model import file_scope_items
        return {ident_name(d) for n in file_scope_items(self.src) if n.type == "declaration"
                for d in n.children_by_field_name("declarator") if d.type == "init_declarator"}

    def host_filled(self) -> set[str]:
        """The symbols host code writes with `cudaMemcpyToSymbol` (its first argument)."""
        return {self.src.text_of(call_args(n)[0]) for n in self.src.index.of_type("call_expression")
                if (fn := n.child_by_field_name("function")) is not None and call_args(n)
                and self.src.text_of(fn).startswith("cudaMemcpyToSymbol")}

    def _check_read_only(self, c: BoundConstant, report: bool = True) -> bool:
        """A bound constant is a pointer now: taking its address or writing it has no sound rewrite
        (refused where `report`; else only whether it is read-only)."""
        ok = True
        for f in self.device.values():
            for n in self.src.index.under(f.node, "identifier"):
                if self.src.text_of(n) != c.name or f.param(c.name) is not None:
                    continue
                p, loads = n.parent, 0
                while p is not None and p.type in ("subscript_expression", "field_expression",
                                                   "parenthesized_expression"):
                    if p.type == "field_expression" and p.child_by_field_name("field") == n:
                        break
                    if p.type == "subscript_expression" and (n.type == "field_expression" or
                                                             (c.pointer and loads == len(c.dims))):
                        p = None  # `c[i].ptr[j] = v`, `outs[c][j] = v`: where a stored pointer points, not the constant
                        break
                    loads += p.type == "subscript_expression"
                    n, p = p, p.parent
                if p is None:
                    continue
                written = (p.type == "assignment_expression" and p.child_by_field_name("left") == n) or \
                    p.type == "update_expression"
                address = p.type == "pointer_expression" and self.src.text_of(p).startswith("&") and \
                    (not c.dims or c.pointer)
                if (written or address) and not report:
                    return False
                if written or address:
                    ok = False
                    self.problem("KP213", p, f"__constant__ '{c.name}' is {'written' if written else 'addressed'} "
                                 "in device code: as a Metal constant buffer it is read-only",
                                 "keep __constant__ memory read-only in device code")
        return ok

    # -- texts for the signatures ---------------------------------------------------------------
    def constants_used(self, body_text: str, callees: list[str]) -> list[str]:
        import re
        words = set(re.findall(r"[A-Za-z_]\w*", body_text))
        names = [n for n in getattr(self, "bound", {}) if n in words or n in self._macro_words(words)]
        for c in callees:
            names += [n for n in self.plans[c].constants if n not in names]
        return names

    def _macro_words(self, words: set[str]) -> set[str]:
        """The names the bodies of the macros `words` name read, through the macros they name in turn
        (deepwave's `DIFFX1(a)` = `(...) * rdx`, from regular_grid.h: the kernel reads `rdx`)."""
        import re
        macros, out, work = self.src.macros, set(), [w for w in words if w in self.src.macros]
        seen = set(work)
        while work and len(seen) < 2000:
            body = macros[work.pop()].body or ""
            for w in re.findall(r"[A-Za-z_]\w*", body):
                out.add(w)
                if w in macros and w not in seen:
                    seen.add(w)
                    work.append(w)
        return out

    def constant_param(self, name: str, as_name: str | None = None) -> str:
        """The parameter that binds constant `name` (`as_name`: under another name, shadowed_constants.py)."""
        c = self.bound[name]
        if c.space == "assertion":
            return self.assertion_param(name)
        t = self.rw.text(c.type_node)
        name = as_name or name
        if c.space.startswith("texture"):
            return backends.get(self.backend).texture_buffer_params[c.space].format(type=t, name=name)
        # a pointer constant's elements are `device` pointers stored in constant memory (constant_pointers.py)
        ty = f"device {t} * constant" if c.pointer else f"constant {t}"
        if not c.dims:
            return f"{ty}& {name}"
        inner = "".join(f"[{self.rw.text(d)}]" for d in c.dims[1:])
        return f"{ty} (*{name}){inner}" if inner else f"{ty}* {name}"

    def constant_sidecar(self, name: str, index: int) -> dict:
        c = self.bound[name]
        if c.space == "assertion":
            return self.assertion_sidecar(name, index)
        count = " * ".join(f"({self.src.text_of(d)})" for d in c.dims) or "1"
        t = self.rw.text(c.type_node)
        if c.space == "texture":
            return {"name": name, "index": index, "kind": "buffer", "type": t, "access": "read", "role": "texture",
                    "symbol": name, "bound_by": c.filled_by, "host": "setBuffer:offset:atIndex:",
                    "from": f"the linear memory cudaBindTexture binds to '{name}' (its devPtr, less the offset it "
                            "returns), read as its element type"}
        if c.space == "texture_count":
            return {"name": name, "index": index, "kind": "bytes", "type": "uint", "role": "texture length",
                    "host": "setBytes:length:atIndex:", "from": f"the size cudaBindTexture binds to "
                    f"'{c.pair}', in elements (bytes / sizeof({t})): a fetch at or past it reads 0"}
        out = {"name": name, "index": index, "kind": "buffer", "type": t, "access": "read",
               "role": c.space, "count": count, "bytes": f"{count} * sizeof({t})",
               "symbol": name, "filled_by": c.filled_by, "host": "setBuffer:offset:atIndex:"}
        if c.pointer:  # constant_pointers.py: device addresses the host stores
            out.update(type=f"device {t}*", bytes=f"{count} * sizeof(uint64_t)", device_pointer_elements=True,
                       pointer_elements_host=("store, for each element the cudaMemcpyToSymbol calls fill, the "
                                              "MTLBuffer.gpuAddress (plus its byte offset) of the buffer its cudaMalloc'd "
                                              "pointer stands for, and make each such buffer resident (useResource:usage:)"))
        if c.defined_elsewhere:
            out["from"] = (f"the values of '{name}' as the file that defines it initialises them (this file declares "
                           "it extern const: the port reads them from this buffer)")
        members = self.pointer_members_of(t)
        if members:  # pointer_members.py: device addresses the host stores in the structs it copies in
            out["device_pointer_members"] = members
            out["pointer_members_host"] = ("store each member's MTLBuffer.gpuAddress (plus its byte offset) "
                                           "and make that buffer resident (useResource:usage:)")
        return out
