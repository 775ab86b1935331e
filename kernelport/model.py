"""The kernel model: what a CUDA file holds, read from the lossless syntax tree.

Kernels, device and host functions with their parameters, static and dynamic shared arrays,
object-like macros, kernel launches and every use of a dialect concept, each with its node so
that positions and rewrites stay exact.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from typing import Iterator

from tree_sitter import Node

from .depth import big_stack
from .file_scope import SCOPE_CONTAINERS, file_scope_items  # noqa: F401 - (model.file_scope_items: its callers)
from . import backends, dialect, launch_macros, launchforms, member_builtins, own_macros, sized_extern_shared
from .macros import SPACE_WORDS
from .qualifier_macros import qualifier_macros
from .source import SourceFile, call_args, ident_name, uncomment, walk

FUNCTION_QUALIFIERS = ("__global__", "__device__", "__host__", "__forceinline__", "__noinline__", "inline",
                       "static", "extern")
_QUALIFIER_BYTES = max(len(q.encode()) for q in FUNCTION_QUALIFIERS)  # a longer node spells none of them


@dataclass
class Param:
    """A function's parameter."""
    name: str
    type: str  # element type text without pointer and qualifiers, e.g. "float"
    pointer: bool
    const: bool
    node: Node


@dataclass
class Function:
    """A function definition of the file."""
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
    """A `__shared__` array declaration."""
    name: str
    type: str
    dims: list[Node]  # size expressions (empty for `extern __shared__ T s[]`)
    dynamic: bool
    node: Node  # the declaration
    function: str | None


@dataclass
class Macro:
    """A `#define` of the file."""
    name: str
    value: str
    node: Node  # preproc_def
    value_node: Node | None


@dataclass
class ConceptUse:
    """A use of a dialect concept in the file."""
    concept: dialect.Concept
    node: Node  # the identifier (for calls: the call_expression)
    function: str | None


@dataclass
class Launch:
    """A kernel launch in the file."""
    kernel: str
    node: Node  # the call_expression: `k<<<...>>>(...)`, a runtime launch call or a launch macro's call
    config: list[Node]  # grid, block[, shared[, stream]]: as far as the file gives them in a row
    function: str | None
    target: Node | None = None  # the kernel's name expression (`k`, `ns::k`, `k<T>`): fnscopes resolves it
    args: list[Node] = field(default_factory=list)  # the kernel's arguments passed one by one
    form: str = "<<<>>>"  # or the runtime call or macro that launches (kernelport.launchforms)


@dataclass
class Visible:
    """What a file sees from the headers it includes (kernelport.project builds it): macros in
    include order (after #undef and the run's -D), the warp-level device functions they declare,
    and the warp-size macros the project decided are the wave width (name -> why)."""
    macros: dict[str, Macro] = field(default_factory=dict)
    where: dict[str, tuple[str, int, int]] = field(default_factory=dict)  # name -> (path, line, col) of the value
    # File-scope integer constants of the headers, read like their macros (kernelport.headerconsts).
    constants: dict[str, Macro] = field(default_factory=dict)
    wave_widths: set[str] = field(default_factory=set)  # constants per platform its wave width (headerconsts)
    warp_functions: frozenset[str] = frozenset()
    warp_qualified: frozenset[str] = frozenset()  # the same functions by qualified name (`ns::S::f`, fnscopes)
    confirmed: dict[str, str] = field(default_factory=dict)
    # Every name the included files declare (functions, macros, types, variables): the user's own,
    # never a CUDA API name to map or refuse (llm.c's `cudaCheck` lives in its common header).
    declared: frozenset[str] = frozenset()
    # Helpers that store through a pointer parameter at a full-wave lane index (kernelport.laneslots):
    # name -> (the parameters' positions, the defining path, the store's line).
    lane_slots: dict[str, tuple[frozenset[int], str, int]] = field(default_factory=dict)
    # Device helpers that work on the hardware wave (kernelport.wavehelpers): name -> WaveHelper.
    wave_helpers: dict = field(default_factory=dict)
    # Template parameters that count whole warps (`NumWarpQ / kWarpSize`, kernelport.warpmultiples).
    warp_multiples: dict[str, frozenset[int]] = field(default_factory=dict)
    types: dict = field(default_factory=dict)  # typedef/using name -> the type node it names (active branches)
    # Macros the project's AMD build compiles, this file's and its headers'
    # (kernelport.hipbuild): name -> HipMacro.
    hip_macros: dict = field(default_factory=dict)
    # Device helpers that return a lane mask or take a 32-bit integer (kernelport.masksources):
    # name -> MaskHelper.
    mask_helpers: dict = field(default_factory=dict)
    # NVIDIA macros an included header's `#error` requires on every build (kernelport.guards.pinned_on_amd).
    pinned_on_amd: frozenset[str] = frozenset()
    function_macros: dict = field(default_factory=dict)  # the headers' function-like #defines: name -> (node, path)
    # Header functions that forward parameters to a shuffle (kernelport.shufflewrappers): name -> (concept, names).
    shuffle_wrappers: dict = field(default_factory=dict)
    # Header macros that wrap a kernel launch (name -> LaunchForm) or declare a launch configuration
    # (name -> (its variable, parameter positions)): kernelport.launchforms.
    launch_forms: dict = field(default_factory=dict)
    launch_configs: dict = field(default_factory=dict)
    launch_fixed: dict = field(default_factory=dict)
    # Free functions the headers declare with an execution space: (name, arity) -> its spaces
    # (kernelport.member_spaces.declared_spaces; a definition without one takes them, as nvcc does).
    declared_spaces: dict = field(default_factory=dict)
    # The functions and constants of the files read before this one (kernelport.includers.Elsewhere).
    elsewhere: object = field(default=None, repr=False, compare=False)

    def feeds_warpflow(self, own_hip_macros) -> bool:
        """Whether warpflow reads anything here that the file alone lacks (Project.plain_analysis):
        macros, warp-level functions, decisions, mask helpers, shuffle wrappers, or AMD-build macros
        other than the file's own (`own_hip_macros()`).  A new field warpflow reads belongs here."""
        return bool(self.macros or self.warp_functions or self.confirmed or self.mask_helpers or
                    self.shuffle_wrappers) or bool(self.hip_macros) and self.hip_macros != own_hip_macros()


@dataclass
class Module:
    """A parsed file's model: its functions, macros, shared arrays, concept uses and launches."""
    source: SourceFile
    functions: dict[str, Function]
    macros: dict[str, Macro]
    shared: list[SharedArray]
    uses: list[ConceptUse]
    launches: list[Launch]
    asm: list[tuple[Node, str | None]]  # inline assembly statements and their function
    _spans: tuple | None = field(default=None, repr=False)
    visible: Visible | None = field(default=None, repr=False)  # from the includes (project mode)
    scopes: object = field(default=None, repr=False)  # its functions' keys and calls (fnscopes.of: made once)

    def copy(self, source: SourceFile) -> "Module":
        """The same model of the same tree, shown through `source` (a SourceFile.named twin), with
        its own macros and includes to change (the project's model of a file stays as it was)."""
        return replace(self, source=source, macros=dict(self.macros), visible=None)

    def own_copy(self, source: SourceFile) -> "Module":
        """`copy` for a caller that changes the model (a translator that takes host code out of it): a
        rebuild of the parse, without building: lists and shared arrays of its own (Metal renames a
        helper's shared array in place), the tables derived from them (spans, scopes) made again."""
        return replace(self.copy(source), functions=dict(self.functions), uses=list(self.uses), asm=list(self.asm),
                       shared=[replace(s) for s in self.shared], launches=list(self.launches), _spans=None, scopes=None)

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
        for k in range(i, -1, -1):  # nearest start first: the innermost definition (no copy of the list)
            f = fs[k]
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


def inner_declarator(node: Node) -> Node | None:
    """The declarator a pointer/array/init/reference declarator wraps (`int& l`: an unnamed child)."""
    if node.type == "reference_declarator":
        return node.named_children[-1] if node.named_children else None
    return node.child_by_field_name("declarator")


def _declarators(node: Node, fd: Node) -> Iterator[Node]:
    """The pointer and reference declarators between a function definition and its function declarator."""
    d = node.child_by_field_name("declarator")
    while d is not None and d != fd:
        yield d
        d = d.named_children[-1] if d.type == "reference_declarator" and d.named_children else \
            d.child_by_field_name("declarator") if d.type != "reference_declarator" else None


def spaces_after_type(src: SourceFile, f: Function) -> list[tuple[int, int]]:
    """The byte spans of the function qualifiers written after `f`'s return type (`T const & __device__
    __host__ max(`, `float * __device__ row(`): masked words to the parse, or a pointer's qualifiers."""
    fd = _function_declarator(f.node)
    if fd is None:
        return []
    out = [(m.start, m.end) for m in src.masks if f.node.start_byte <= m.start and m.end <= fd.start_byte
           and m.reason == "attribute" and m.name in SPACE_WORDS]
    for d in _declarators(f.node, fd):
        out += [(c.start_byte, c.end_byte) for c in d.children
                if c.type == "type_qualifier" and src.text_of(c) in SPACE_WORDS]
    return sorted(out)


def _function_declarator(node: Node) -> Node | None:
    d = node.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        if d.type == "reference_declarator":  # `T& f(...)`: the declarator is an unnamed child
            d = d.named_children[-1] if d.named_children else None
            continue
        d = d.child_by_field_name("declarator")
    return d


def plain(src: SourceFile) -> Module:
    """The include-free model of this parse, built once and kept on it, read-only like the parse (parses
    are kept by content for the process: the project of each file that reads the text and the command's
    own reading of it share one model)."""
    got = src.__dict__.get("_kp_plain_model")
    if got is None:
        got = src.__dict__["_kp_plain_model"] = build(src)
    return got


@big_stack  # recursive analyses: depth.MAX_DEPTH levels of nesting need a big stack
def _declared_spaces(src: SourceFile, functions: dict[str, Function]) -> None:
    """A free function defined with no execution space (or `__host__` alone) after a prototype in the file that
    names more (`void __host__ __device__ f(int);` in a header, `void f(int) {...}` after it) runs where the
    prototype says, as nvcc compiles it (kernelport.member_spaces.declared_spaces)."""
    bare = [f for f in functions.values() if not {"__device__", "__global__"} & f.qualifiers]
    if not bare or b"__device__" not in src.data and not src.masks:
        return
    from .member_spaces import _SCOPES, _free_function, declared_spaces, exact_key
    known = declared_spaces(src)
    for f in bare if known else ():  # a declaration of the definition's own parameter types (exact_key)
        got = _free_function(src, f.node) if f.node.parent is not None and f.node.parent.type in _SCOPES else None
        if got is not None and known.get(k := exact_key(src, f.node, got[0])) and set(got[1]) < set(known[k]):
            f.qualifiers = f.qualifiers | frozenset(known[k])


def build(src: SourceFile) -> Module:
    read_as = backends.source().name  # concepts are recognised by their source-dialect spellings
    functions: dict[str, Function] = {}
    macros: dict[str, Macro] = {}
    shared: list[SharedArray] = []
    uses: list[ConceptUse] = []
    launches: list[Launch] = []
    asm: list[tuple[Node, str | None]] = []

    ix = src.index  # one walk of the tree, shared with the analyses: only the node types read here are visited
    for node in ix.of_types("function_definition", "preproc_def"):
        if node.type == "function_definition":
            fd = _function_declarator(node)
            if fd is None or node.child_by_field_name("body") is None:
                continue  # `X() = default;`: nothing to analyse or port
            name = ident_name(fd.child_by_field_name("declarator")) or src.text_of(fd.child_by_field_name("declarator"))
            quals = frozenset(src.text_of(c) for c in node.children
                              if c.type in FUNCTION_QUALIFIERS or (c.type == "storage_class_specifier"))
            quals |= frozenset(q for c in node.children if c.end_byte - c.start_byte <= _QUALIFIER_BYTES
                               and (q := src.text_of(c)) in FUNCTION_QUALIFIERS)  # (not the text of a body)
            for d in _declarators(node, fd):  # `float * __device__ f(`: the grammar's qualifier of the pointer
                quals |= frozenset(q for c in d.children
                                   if c.type == "type_qualifier" and (q := src.text_of(c)) in SPACE_WORDS)
            if src.masks:  # qualifiers behind a masked macro (`HD float f()`, HD = `__host__ __device__`)
                lo = node.prev_sibling.end_byte if node.prev_sibling is not None else \
                    node.parent.start_byte if node.parent is not None else 0
                quals |= frozenset(w for w in src.macro_words(lo, fd.start_byte) if w in FUNCTION_QUALIFIERS)
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
            macros[name] = Macro(name, uncomment(src.text_of(v)).strip() if v else "", node, v)

    _declared_spaces(src, functions)
    # The outermost definition containing a node owns it.  Definitions nested in an earlier one
    # (member functions of a local class) never own anything, so only the outermost are kept and
    # a bisect finds the owner: linear in the file, where a scan per node was quadratic.
    outer: list[Function] = []
    for f in sorted(functions.values(), key=lambda f: f.node.start_byte):
        if outer and outer[-1].node.start_byte <= f.node.start_byte and f.node.end_byte <= outer[-1].node.end_byte:
            continue
        outer.append(f)
    outer_starts = [f.node.start_byte for f in outer]

    def owner_fn(n: Node) -> Function | None:
        i = bisect.bisect_right(outer_starts, n.start_byte) - 1  # outermost spans are disjoint
        return outer[i] if i >= 0 and n.start_byte < outer[i].node.end_byte else None

    def owner(n: Node) -> str | None:
        f = owner_fn(n)
        return f.name if f is not None else None
    forms = None  # the launch forms (runtime calls, the file's launch macros): read at the first call

    def names_a_use(text: str) -> bool:
        c = dialect.lookup(read_as, text)
        return c is not None and c.kind in ("index", "type", "runtime")

    # a name is looked up once per distinct text (most names are no concept): only its uses are visited
    picked = [k for t in ("identifier", "type_identifier", "primitive_type") for k in src.positions_where(t, names_a_use)]
    callee_ids: set[int] = set()  # the nodes that are a call's `function`
    held = {ix.position(p) for q in src.named_under(src.root, "type_qualifier", ("__shared__",))  # of the declarations,
            if (p := q.parent) is not None and p.type == "declaration"}  # those read below: from their `__shared__`
    for node in ix.at(ix.positions("call_expression", "gnu_asm_expression", "asm_statement") + [*held] + picked):
        t = node.type
        if t == "declaration" and any(c.type == "type_qualifier" and src.text_of(c) == "__shared__"
                                      for c in node.children):
            extern = any(c.type == "storage_class_specifier" and src.text_of(c) == "extern" for c in node.children)
            for d in node.children_by_field_name("declarator"):
                dims, n = [], d
                while n is not None and n.type in ("array_declarator", "init_declarator"):
                    if n.type == "array_declarator" and n.child_by_field_name("size") is not None:
                        dims.insert(0, n.child_by_field_name("size"))
                    n = n.child_by_field_name("declarator")
                # dynamic: `extern` of an array of unknown bound; nvcc defines a complete one (`extern __shared__ T
                # s[256]`, warning #20044) statically (kernelport/sized_extern_shared.py)
                dynamic = extern and sized_extern_shared.unbounded(d)
                shared.append(SharedArray(ident_name(d) or "?", _type_text(src, node), dims, dynamic, node, owner(node)))
        elif t == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None:
                callee_ids.add(fn.id)  # (pre-order: the call comes before its function's identifier)
            if any(c.type == "kernel_call_syntax" for c in node.children):
                ks = next(c for c in node.children if c.type == "kernel_call_syntax")
                kname = fn
                if kname.type == "template_function":
                    kname = kname.child_by_field_name("name")
                args = node.child_by_field_name("arguments")
                launches.append(Launch(src.text_of(kname), node, list(ks.named_children), owner(node), fn,
                                       call_args(node) if args is not None else []))
            elif fn is not None and fn.type == "call_expression" and (p := launch_macros.parts(src, node)):
                launches.append(Launch(src.text_of(p[0]), node, p[2], owner(node), p[1], p[3], p[4]))
            elif fn is not None and fn.type == "identifier":
                if forms is None:
                    forms = launchforms.forms_of(src)
                if (form := forms.calls.get(src.text_of(fn))) is not None:
                    la = launch_of(src, node, form, owner_fn(node), forms)
                    if la is not None:
                        launches.append(la)
                elif forms.fixed:
                    launches += fixed_launches(src, node, owner_fn(node), forms)
            if fn is not None and fn.type == "identifier":
                c = dialect.lookup(read_as, src.text_of(fn))
                if c is not None:
                    uses.append(ConceptUse(c, node, owner(node)))
        elif t in ("identifier", "type_identifier", "primitive_type"):
            c = dialect.lookup(read_as, src.text_of(node))  # first: most names are no concept
            if c is None or c.kind not in ("index", "type", "runtime"):
                continue
            if node.id in callee_ids:
                continue  # counted with the call
            if _macro_name(node) or own_macros.shadowed(src, node):
                continue  # `#define warpSize 32` and its uses: the file's own macro, which shadows the built-in
            if c.kind == "index" and (f := owner_fn(node)) is not None and f.param(src.text_of(node)) is not None:
                continue  # `__device__ void f(T* st, int threadIdx)`: the parameter shadows the built-in there
            if c.kind == "index" and member_builtins.is_member(src, node):
                continue  # `enum { warpSize = 32 };`, `Tile::warpSize`: a class's own member (member_builtins.py)
            uses.append(ConceptUse(c, node, owner(node)))
        elif t in ("gnu_asm_expression", "asm_statement"):
            asm.append((node, owner(node)))

    return Module(src, functions, macros, shared, uses, launches, asm)


def _macro_name(node: Node) -> bool:
    """The name a directive defines (`#define warpSize 32`): a macro of the file's own, not the built-in its
    name spells.  (A name a directive tests, `#ifndef __CUDACC__`, is the built-in's: it is ported.)"""
    p = node.parent
    return p is not None and p.type in ("preproc_def", "preproc_function_def") and \
        p.child_by_field_name("name") == node


def fixed_launches(src: SourceFile, node: Node, host: Function | None, forms) -> list[Launch]:
    """The launches of named-kernel launch macros (launchforms.Fixed) that the call `node` makes:
    the macro called, or passed by name to the macro called (`SWITCH_RANKS(CASE)`)."""
    fn = node.child_by_field_name("function")
    names = [src.text_of(fn)] + [src.text_of(a) for a in call_args(node) if a.type == "identifier"]
    body = host.body if host is not None else None
    return [Launch(fx.kernel.rsplit("::", 1)[-1], node, launchforms.fixed_config(src, fx, node, body, forms),
                   host.name if host is not None else None, None, [], name)
            for name in names if (fx := forms.fixed.get(name)) is not None]


def launch_of(src: SourceFile, node: Node, form, host: Function | None, forms) -> Launch | None:
    """The Launch of a runtime call or launch macro `node` of form `form` (kernelport.launchforms)."""
    parts = launchforms.launch_parts(src, node, form, host.body if host is not None else None, forms)
    if parts is None or parts[0] is None:
        return None
    target, config, args = parts
    kname = target.child_by_field_name("name") if target.type == "template_function" else target
    return Launch(src.text_of(kname), node, config, host.name if host is not None else None, target, args,
                  src.text_of(node.child_by_field_name("function")))


def _outermost(m: Module, node: Node) -> Function | None:
    """The outermost definition holding `node`: the one build() says owns it."""
    host = m.function_at(node)
    while host is not None and host.node.parent is not None and \
            (outer := m.function_at(host.node.parent)) is not None and outer is not host and \
            (outer.node.start_byte, outer.node.end_byte) != (host.node.start_byte, host.node.end_byte):
        host = outer
    return host


def with_header_launches(m: Module) -> list[Launch]:
    """The module's launches, read again with the launch macros its headers define where they
    define any (`m.visible`: DeepEP's LAUNCH_KERNEL and SETUP_LAUNCH_CONFIG in its launch.cuh)."""
    vis = m.visible
    if vis is None or not (vis.launch_forms or vis.launch_configs or vis.launch_fixed):
        return m.launches
    src = m.source
    own = launchforms.forms_of(src, vis.launch_forms)
    forms = launchforms.Forms({**vis.launch_forms, **own.calls}, {**vis.launch_configs, **own.configs},
                              {**vis.launch_fixed, **own.fixed})
    out = [la for la in m.launches if la.form == "<<<>>>"]
    for node in src.index.of_types("call_expression"):
        fn = node.child_by_field_name("function")
        form = forms.calls.get(src.text_of(fn)) if fn is not None and fn.type == "identifier" else None
        if form is not None:
            la = launch_of(src, node, form, _outermost(m, node), forms)
            if la is not None:
                out.append(la)
        elif forms.fixed and fn is not None:
            out += fixed_launches(src, node, _outermost(m, node), forms)
    return sorted(out, key=lambda la: la.node.start_byte)


# -- what device code needs from file scope --------------------------------------------------
_NAME_NODES = ("identifier", "type_identifier", "field_identifier", "namespace_identifier")


def defined_names(src: SourceFile, item: Node) -> set[str]:
    """The names a file-scope item defines: a macro, a type (and its enumerators), the variables
    or functions a declaration declares."""
    node = item.named_children[-1] if item.type == "template_declaration" and item.named_children else item
    if node.type in ("preproc_def", "preproc_function_def"):
        return {src.text_of(node.child_by_field_name("name"))}
    names: set[str] = set()
    if node.type in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
        nm = node.child_by_field_name("name")
        if nm is not None:
            names.add(src.text_of(nm))
        names |= {src.text_of(e.child_by_field_name("name")) for e in src.index.under(node, "enumerator")}
    elif node.type == "alias_declaration":
        names.add(src.text_of(node.child_by_field_name("name")))
    elif node.type in ("declaration", "type_definition", "function_definition", "field_declaration"):
        t = node.child_by_field_name("type")
        if t is not None and t.type in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
            names |= defined_names(src, t)
        for d in node.children_by_field_name("declarator"):
            n = ident_name(d)
            inner = d
            while n is None and inner is not None and inner.type != "function_declarator":  # typedef ... *Name
                if inner.type == "type_identifier":
                    n = src.text_of(inner)
                inner = inner.child_by_field_name("declarator")
            if n is None:  # a function declarator's name, or an operator
                fd = d
                while fd is not None and fd.type != "function_declarator":
                    fd = fd.child_by_field_name("declarator")
                inner = fd.child_by_field_name("declarator") if fd is not None else None
                n = src.text_of(inner) if inner is not None else None
            if n:
                names.add(n)
    return names


def specialization_of(src: SourceFile, item: Node) -> tuple[str, set[str]] | None:
    """`template <> struct k_type<v512> : ...`: its template's name and the names its arguments use
    (device code needs it where it needs both: `k_type<v768>` of a variant it never names is not needed)."""
    node = item.named_children[-1] if item.type == "template_declaration" and item.named_children else item
    name = node.child_by_field_name("name") if node.type in ("struct_specifier", "class_specifier") else None
    if name is None or name.type != "template_type":
        return None
    args = name.child_by_field_name("arguments")
    words = {src.text_of(n) for n in walk(args) if n.type in ("identifier", "type_identifier", "primitive_type")}
    return src.text_of(name.child_by_field_name("name")), words


def _names_in(src: SourceFile, node: Node) -> set[str]:
    names = {src.text_of(n) for t in _NAME_NODES for n in src.index.under(node, t)}
    for arg in src.index.under(node, "preproc_arg"):  # macro bodies are text to the grammar
        names |= set(re.findall(r"[A-Za-z_]\w*", src.text_of(arg)))
    return names


def device_references(module: Module, left_out: frozenset[int] = frozenset()) -> set[str]:
    """Every file-scope name device code needs: the names that kernels, `__device__` functions and
    `__device__`/`__constant__` variables use, and the template arguments of kernel launches (the
    kernel's instances), closed over the file-scope definitions of those names (a macro's body, a
    struct's fields' types, a constant's initialiser); a macro of qualifiers on a device function
    (`#define HD __host__ __device__`) too.  `left_out`: the start bytes of device functions a port
    leaves out (a header's helper nothing reaches), which need nothing."""
    src = module.source
    defs: dict[str, list[Node]] = {}
    device = [f for f in module.functions.values()
              if f.is_device and (f.template_node or f.node).start_byte not in left_out]
    roots: list[Node | str] = [f.template_node or f.node for f in device]
    roots += qualifier_macros(src, device)  # `HD float f()`: HD, a macro of qualifiers, is blanks to the parse
    for launch in module.launches:
        fn = launch.target
        if fn is not None and fn.type == "template_function" and fn.child_by_field_name("arguments") is not None:
            roots.append(fn.child_by_field_name("arguments"))
    specs: list[tuple[str, set[str], Node]] = []  # explicit specializations: needed with their template and arguments
    for item in file_scope_items(src):
        for name in defined_names(src, item):
            defs.setdefault(name, []).append(item)
        if (spec := specialization_of(src, item)) is not None:
            specs.append((*spec, item))
        if item.type == "declaration" and any(src.text_of(c) in ("__device__", "__constant__", "__managed__")
                                              for c in item.children if c.type in ("type_qualifier", "attribute_specifier",
                                                                                   "storage_class_specifier")):
            roots.append(item)
    # a name with device definitions and host-only ones (idas_black.cu's `__device__ state_move(dir)` beside the
    # host's `state_move(state, dir)`): device code calls the device ones, so the host overloads need nothing
    host_only = {(f.template_node or f.node).id for f in module.functions.values() if not f.is_device and
                 "constexpr" not in src.text_of(f.node)[:src.text_of(f.node).find("(") + 1].split()}
    for name, items in defs.items():
        if any(i.id not in host_only for i in items) and any(i.id in host_only for i in items):
            defs[name] = [i for i in items if i.id not in host_only]
    seen: set[int] = set()
    needed: set[str] = set()
    todo = list(roots)
    while todo or (todo := [i for b, args, i in specs if i.id not in seen and b in needed and args <= needed]):
        n = todo.pop()
        if isinstance(n, str):  # a macro name the parse saw as blanks
            needed.add(n)
            todo.extend(defs.get(n, ()))
            continue
        if n.id in seen:
            continue
        seen.add(n.id)
        for name in _names_in(src, n) - needed:
            needed.add(name)
            todo.extend(defs.get(name, ()))
    return needed
