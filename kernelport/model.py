"""The kernel model: what a CUDA file holds, read from the lossless syntax tree.

Kernels, device and host functions with their parameters, static and dynamic shared arrays,
object-like macros, kernel launches and every use of a dialect concept, each with its node so
that positions and rewrites stay exact.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from tree_sitter import Node

from .depth import big_stack
from . import backends, dialect
from .source import SourceFile, ident_name

FUNCTION_QUALIFIERS = ("__global__", "__device__", "__host__", "__forceinline__", "__noinline__", "inline",
                       "static", "extern")


@dataclass
class Param:
    name: str
    type: str  # element type text without pointer and qualifiers, e.g. "float"
    pointer: bool
    const: bool
    node: Node


@dataclass
class Function:
    name: str
    node: Node  # function_definition
    qualifiers: frozenset[str]
    params: list[Param]
    body: Node
    template_params: list[str] = field(default_factory=list)
    template_node: Node | None = None
    launch_bounds: Node | None = None

    @property
    def is_kernel(self) -> bool:
        return "__global__" in self.qualifiers

    @property
    def is_device(self) -> bool:
        return bool({"__global__", "__device__"} & self.qualifiers)

    @property
    def is_host(self) -> bool:
        return not self.is_device or "__host__" in self.qualifiers

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass
class SharedArray:
    name: str
    type: str
    dims: list[Node]  # size expressions (empty for `extern __shared__ T s[]`)
    dynamic: bool
    node: Node  # the declaration
    function: str | None


@dataclass
class Macro:
    name: str
    value: str
    node: Node  # preproc_def
    value_node: Node | None


@dataclass
class ConceptUse:
    concept: dialect.Concept
    node: Node  # the identifier (for calls: the call_expression)
    function: str | None


@dataclass
class Launch:
    kernel: str
    node: Node  # call_expression with kernel_call_syntax
    config: list[Node]
    function: str | None


@dataclass
class Module:
    source: SourceFile
    functions: dict[str, Function]
    macros: dict[str, Macro]
    shared: list[SharedArray]
    uses: list[ConceptUse]
    launches: list[Launch]
    asm: list[tuple[Node, str | None]]  # inline assembly statements and their function
    _spans: tuple | None = field(default=None, repr=False)

    @property
    def kernels(self) -> list[Function]:
        return [f for f in self.functions.values() if f.is_kernel]

    def function_at(self, node: Node) -> Function | None:
        """The innermost function definition containing `node` (bisect over their spans)."""
        if self._spans is None:
            fs = sorted(self.functions.values(), key=lambda f: f.node.start_byte)
            self._spans = ([f.node.start_byte for f in fs], fs)
        starts, fs = self._spans
        i = bisect.bisect_right(starts, node.start_byte) - 1
        for f in fs[i::-1] if i >= 0 else ():  # nearest start first: the innermost definition
            if node.end_byte <= f.node.end_byte:
                return f
            if f.node.end_byte <= node.start_byte and f.node.parent is not None and \
                    f.node.parent.type in ("translation_unit", "declaration_list", "template_declaration"):
                break  # top-level definitions do not nest: nothing earlier can contain the node
        return None


def _type_text(src: SourceFile, decl: Node) -> str:
    t = decl.child_by_field_name("type")
    return src.text_of(t) if t is not None else ""


def _params(src: SourceFile, fdecl: Node) -> list[Param]:
    plist = fdecl.child_by_field_name("parameters")
    out: list[Param] = []
    if plist is None:
        return out
    for p in plist.named_children:
        if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
            continue
        d = p.child_by_field_name("declarator")
        name = ident_name(d)
        if name is None:
            continue
        pointer = False
        n = d
        while n is not None:
            if n.type in ("pointer_declarator", "array_declarator"):
                pointer = True
            n = n.child_by_field_name("declarator")
        const = any(c.type == "type_qualifier" and src.text_of(c) == "const" for c in p.children)
        out.append(Param(name, _type_text(src, p), pointer, const, p))
    return out


def _function_declarator(node: Node) -> Node | None:
    d = node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    return d


@big_stack  # recursive analyses: depth.MAX_DEPTH levels of nesting need a big stack
def build(src: SourceFile) -> Module:
    read_as = backends.source().name  # concepts are recognised by their source-dialect spellings
    functions: dict[str, Function] = {}
    macros: dict[str, Macro] = {}
    shared: list[SharedArray] = []
    uses: list[ConceptUse] = []
    launches: list[Launch] = []
    asm: list[tuple[Node, str | None]] = []

    order = src.index.order  # one walk of the tree, shared with the analyses
    for node in order:
        if node.type == "function_definition":
            fd = _function_declarator(node)
            if fd is None:
                continue
            name = ident_name(fd.child_by_field_name("declarator")) or src.text_of(fd.child_by_field_name("declarator"))
            quals = frozenset(src.text_of(c) for c in node.children
                              if c.type in FUNCTION_QUALIFIERS or (c.type == "storage_class_specifier"))
            quals |= frozenset(src.text_of(c) for c in node.children if src.text_of(c) in FUNCTION_QUALIFIERS)
            tparams, tnode = [], None
            if node.parent is not None and node.parent.type == "template_declaration":
                tnode = node.parent
                plist = tnode.child_by_field_name("parameters")
                for tp in (plist.named_children if plist else []):
                    n = ident_name(tp.child_by_field_name("declarator")) or (
                        src.text_of(tp.named_children[-1]) if tp.named_children else None)
                    if n:
                        tparams.append(n)
            lb = next((c for c in node.children if c.type == "launch_bounds"), None)
            fkey, i = name, 1
            while fkey in functions:  # an overload: every definition is kept, the first under its name
                i += 1
                fkey = f"{name}@{i}"
            functions[fkey] = Function(name, node, quals, _params(src, fd), node.child_by_field_name("body"),
                                       tparams, tnode, lb)
        elif node.type == "preproc_def":
            name = src.text_of(node.child_by_field_name("name"))
            v = node.child_by_field_name("value")
            macros[name] = Macro(name, src.text_of(v).strip() if v else "", node, v)

    # The outermost definition containing a node owns it.  Definitions nested in an earlier one
    # (member functions of a local class) never own anything, so only the outermost are kept and
    # a bisect finds the owner: linear in the file, where a scan per node was quadratic.
    outer: list[Function] = []
    for f in sorted(functions.values(), key=lambda f: f.node.start_byte):
        if outer and outer[-1].node.start_byte <= f.node.start_byte and f.node.end_byte <= outer[-1].node.end_byte:
            continue
        outer.append(f)
    outer_starts = [f.node.start_byte for f in outer]

    def owner(n: Node) -> str | None:
        i = bisect.bisect_right(outer_starts, n.start_byte) - 1  # outermost spans are disjoint
        return outer[i].name if i >= 0 and n.start_byte < outer[i].node.end_byte else None

    for node in order:
        t = node.type
        if t == "declaration" and any(c.type == "type_qualifier" and src.text_of(c) == "__shared__"
                                      for c in node.children):
            dynamic = any(c.type == "storage_class_specifier" and src.text_of(c) == "extern" for c in node.children)
            for d in node.children_by_field_name("declarator"):
                dims, n = [], d
                while n is not None and n.type in ("array_declarator", "init_declarator"):
                    if n.type == "array_declarator" and n.child_by_field_name("size") is not None:
                        dims.insert(0, n.child_by_field_name("size"))
                    n = n.child_by_field_name("declarator")
                shared.append(SharedArray(ident_name(d) or "?", _type_text(src, node), dims, dynamic, node, owner(node)))
        elif t == "call_expression":
            fn = node.child_by_field_name("function")
            if any(c.type == "kernel_call_syntax" for c in node.children):
                ks = next(c for c in node.children if c.type == "kernel_call_syntax")
                kname = fn
                if kname.type == "template_function":
                    kname = kname.child_by_field_name("name")
                launches.append(Launch(src.text_of(kname), node, list(ks.named_children), owner(node)))
            if fn is not None and fn.type == "identifier":
                c = dialect.lookup(read_as, src.text_of(fn))
                if c is not None:
                    uses.append(ConceptUse(c, node, owner(node)))
        elif t in ("identifier", "type_identifier", "primitive_type"):
            parent = node.parent
            if parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node:
                continue  # counted with the call
            c = dialect.lookup(read_as, src.text_of(node))
            if c is not None and c.kind in ("index", "type", "runtime"):
                uses.append(ConceptUse(c, node, owner(node)))
        elif t in ("gnu_asm_expression", "asm_statement"):
            asm.append((node, owner(node)))

    return Module(src, functions, macros, shared, uses, launches, asm)
