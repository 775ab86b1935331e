"""`__constant__` pointers the host fills with device addresses: `__constant__ float *outs[N];` (heldout61's
ECE1782 CNN, one output buffer per channel) or `__constant__ int *table;`, filled by `cudaMemcpyToSymbol(outs,
&d_out[ch], sizeof(float*), ch * sizeof(float*))` after `cudaMalloc(&d_out[ch], ...)`.  A Metal buffer the host
fills can hold a device pointer only as a buffer's GPU address (MTLBuffer.gpuAddress, Metal 3), as
pointer_members.py binds a kernel struct's pointer members: so the symbol is bound like any other `__constant__`
(constants.py), typed `device float * constant *outs` (each element a `device` pointer stored in constant
memory), and an element loaded from it (`outs[c]`, `table`) points into device memory.  Conditions, each
checked, else the declaration keeps its located KP213:

- one pointer level, over a scalar or an array of any rank of the element type;
- the host fills it with cudaMemcpyToSymbol, and every such copy's source is a pointer the file's host code
  cudaMalloc'd (`&d_out[ch]`, `&d_buf`, `d_ptrs` of `cudaMalloc(&d_ptrs[i], ...)`): a host address, or one the
  file cannot trace, would be a silently wrong port;
- device code stores no pointer into it and takes no element's address (constants._check_read_only).
The sidecar says what the host stores (each buffer's gpuAddress plus its offset) and that each buffer must be
made resident; the MSL floor becomes 3.0."""
from __future__ import annotations

from tree_sitter import Node

from ...source import call_args

_MALLOCS = ("cudaMalloc", "cudaMallocManaged", "cudaMallocPitch", "cudaMallocAsync")


def pointer_constant_shape(d: Node) -> tuple[Node, list[Node]] | None:
    """(identifier, array sizes outermost first) of a `*name` / `*name[N][M]` declarator: one pointer level
    over a name or a sized array of any rank; None for any other form."""
    if d.type != "pointer_declarator":
        return None
    inner, dims = d.child_by_field_name("declarator"), []
    while inner is not None and inner.type == "array_declarator":
        size = inner.child_by_field_name("size")
        if size is None:
            return None
        dims.insert(0, size)
        inner = inner.child_by_field_name("declarator")
    return (inner, dims) if inner is not None and inner.type == "identifier" else None


def _base_name(src, n: Node | None) -> str | None:
    """The variable an address expression is rooted at (`&d_out[ch]`, `(void **)&d`, `ptrs + 2`, `::t`: d_out, d,
    ptrs, t)."""
    while n is not None:
        if n.type in ("pointer_expression", "cast_expression"):
            n = n.child_by_field_name("argument") if n.type == "pointer_expression" else n.child_by_field_name("value")
        elif n.type == "parenthesized_expression":
            n = n.named_children[0] if n.named_child_count == 1 else None
        elif n.type in ("subscript_expression", "field_expression"):
            n = n.child_by_field_name("argument")
        elif n.type == "binary_expression":
            n = n.child_by_field_name("left")
        elif n.type == "qualified_identifier" and n.child_by_field_name("scope") is None:
            n = n.child_by_field_name("name")  # `::epsilon`: the global one (fastgrid names its symbols so)
        else:
            break
    return src.text_of(n) if n is not None and n.type == "identifier" else None


class ConstantPointers:
    """Mixin of MetalTranslator: which `__constant__` pointers are bound, and the space of their loads."""

    def _copies_to_symbol(self, name: str) -> list[Node]:
        """The host's cudaMemcpyToSymbol calls whose symbol is `name` or one of its elements (`outs[0]`)."""
        return [n for n in self.src.index.of_type("call_expression")
                if (fn := n.child_by_field_name("function")) is not None and call_args(n)
                and self.src.text_of(fn).startswith("cudaMemcpyToSymbol")
                and _base_name(self.src, call_args(n)[0]) == name]

    def device_filled_pointers(self, name: str) -> str | None:
        """Why the pointer constant `name` cannot be bound with device addresses, or None where every
        cudaMemcpyToSymbol that fills it copies pointers the file cudaMalloc'd (and at least one does)."""
        copies = self._copies_to_symbol(name)
        if not copies:
            return "no cudaMemcpyToSymbol in this file fills it, so where its pointers point is not known"
        allocated = {_base_name(self.src, call_args(n)[0]) for n in self.src.index.of_type("call_expression")
                     if (fn := n.child_by_field_name("function")) is not None and call_args(n)
                     and self.src.text_of(fn) in _MALLOCS}
        for n in copies:
            args = call_args(n)
            if len(args) < 2 or _base_name(self.src, args[1]) not in allocated:
                return (f"the cudaMemcpyToSymbol at line {n.start_point[0] + 1} copies pointers this file does not "
                        "cudaMalloc, and only a device allocation has a Metal GPU address")
        return None

    def constant_pointer_space(self, n: Node, loads: int, f) -> str | None:
        """`device` for `outs[c]` (as many loads as the bound pointer constant has dimensions) or `table`
        (a scalar one, no load) in f: a pointer the host stored there from a device allocation (not where a
        parameter or local of f has the name)."""
        name = self.src.text_of(n) if n.type == "identifier" else None
        c = getattr(self, "bound", {}).get(name) if name else None
        if c is None or not c.pointer or loads != len(c.dims) or f.param(name) is not None or \
                self._local_decl(f, name) is not None:
            return None
        return "device"
