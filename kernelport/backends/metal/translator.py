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

This module ties the concerns together as passes around the shared warp-width ones: address
spaces (spaces.py), signatures (signatures.py), threadgroup memory (threadgroup.py), scalar
types (scalars.py), host code and includes left out (hostcode.py), shuffles with a width and atomics (calls.py), recognised reductions
(reductions.py), the prologue's values and the sidecar (sidecar.py); barriers and file scope
are here.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from ... import annotations, backends, dialect
from ...errors import Location
from ...source import SourceFile, call_args, ident_name, walk
from ...translate import Translator, extend
from .alias_pointers import AliasPointers
from .argcopies import ArgumentCopies
from .device_virtuals import DeviceVirtuals
from .instance_types import InstanceTypes
from .class_instances import ClassInstances
from .unresolved_instances import UnresolvedInstances
from .atomic_instances import AtomicInstances
from .shared_pointer_tables import SharedPointerTables
from .local_pointer_arrays import LocalPointerArrays
from .filled_structs import FilledStructs
from .shadowed_constants import ShadowedConstants
from .constant_pointers import ConstantPointers
from .constant_refs import ConstantReferences
from .extern_spaces import ExternSpaces
from .object_spaces import ObjectSpaces
from .operator_calls import OperatorCalls
from .pointer_members import PointerMembers
from .reference_spaces import ReferenceSpaces
from .pointer_tables import PointerTables
from .prototype_extras import PrototypeExtras
from .exact_doubles import ExactDoubles
from .moved_doubles import MovedDoubles
from .unread_double_constants import UnreadDoubleConstants
from .unread_double_members import UnreadDoubleMembers
from .assertions import Assertions
from .calls import Calls
from .split_atomics import SplitAtomics
from .struct_vec3 import StructVec3Members
from .vector_op_calls import VectorOperatorCalls
from .cgtiles import CooperativeTiles
from .constants import BoundConstants
from .headers import splice
from .hostcode import HostCode
from .reductions import Reductions
from .scalars import Scalars
from .selfcheck import check_port
from .sidecar import Sidecar
from .signatures import BUILTINS, Plan, Signatures
from .spaces import AddressSpaces
from .threadgroup import ThreadgroupMemory
from .texture_buffers import TextureBuffers
from .textures import Textures
from .kernel_overloads import KernelOverloads
from .macro_kernels import MacroKernels
from .function_args import FunctionArgs
from .element_views import ElementViews
from .lambda_spaces import LambdaSpaces
from .loaded_pointers import LoadedPointers
from .member_returns import MemberReturns
from .host_static_members import StaticMembers
from .host_member_prototypes import HostMemberPrototypes
from .host_virtuals import HostVirtuals
from .unported import Unported
from .vectorops import VectorOperators


class MetalTranslator(AliasPointers, DeviceVirtuals, MacroKernels, ShadowedConstants, FilledStructs, SharedPointerTables, LocalPointerArrays, AtomicInstances, InstanceTypes, ClassInstances, UnresolvedInstances, ConstantPointers, ReferenceSpaces, ConstantReferences, ExternSpaces, PrototypeExtras, ExactDoubles, MovedDoubles, UnreadDoubleMembers, UnreadDoubleConstants, KernelOverloads, FunctionArgs, ElementViews, LambdaSpaces, ObjectSpaces, OperatorCalls, LoadedPointers, MemberReturns, StaticMembers, HostVirtuals, HostMemberPrototypes, PointerMembers, PointerTables, CooperativeTiles, HostCode, VectorOperators, VectorOperatorCalls, Textures, TextureBuffers, Unported, Assertions, ArgumentCopies, BoundConstants, AddressSpaces, Scalars, Calls, SplitAtomics, StructVec3Members, Reductions, ThreadgroupMemory, Signatures, Sidecar, Translator):
    """The mixins hold one concern each and share the state set up here (functions by kind, the
    per-function plans and address-space signatures, the built-ins' parameter names)."""
    changes_model = True  # host code is taken out of the model's uses and the analysis's sites (hostcode.py)

    def __init__(self, src: SourceFile, backend: str = "metal", allow_unported: bool = False, **options):
        src, self.origin = splice(src, tuple(options.get("include_dirs", ())),  # project headers device code needs: one self-contained port
                                  frozenset(n for n, _ in options.get("defines", ())))
        super().__init__(src, backend, allow_unported, **options)
        self.demote_double = bool(options.get("demote_double"))
        self.specs = annotations.parse(self.module, reference=False)  # the reference is verify's, not the port's
        fns = self.module.functions
        self.kernels = [f for f in sorted(fns.values(), key=lambda f: f.node.start_byte) if f.is_kernel]
        # host functions; a "function" whose parent is a block is a statement macro's use with its
        # block (`CUDA_KERNEL_LOOP(i, n) { ... }`): C++ has no nested functions, it is the body's code
        self.host = {n: f for n, f in fns.items() if not f.is_device
                     and (f.node.parent is None or f.node.parent.type != "compound_statement")}
        # Device functions by their name: a host function of the same name (left out) does not
        # take it; a second device definition of a name (an overload, an #if alternative) is kept
        # under the model's key (`name@2`), with a plan of its own.
        self.device = {}
        for k, f in sorted(((k, f) for k, f in fns.items() if f.is_device), key=lambda kf: kf[1].node.start_byte):
            self.device[f.name if f.name not in self.device else k] = f
        self.fkeys = {id(f): k for k, f in self.device.items()}
        self.helpers = {n: f for n, f in self.device.items() if not f.is_kernel}
        self.plans: dict[str, Plan] = {n: Plan(f) for n, f in self.device.items()}
        for n, f in self.device.items():  # plans are looked up by f.name: an overload keyed `f@2` (its namesake
            self.plans.setdefault(f.name, self.plans[n])  # a host function, say) must still have one
        self.cur_sig: dict[str, tuple[str, ...]] = {}
        self.local_spaces: dict[tuple[str, str], object] = {}  # (fn, var) -> space or callable(sig)
        self.polyfill_atomics: set[tuple[str, str, str]] = set()  # (op, space, type)
        self.wide_shuffles = False  # a shuffle of a 64-bit value: the prologue's overloads (calls.py)
        self.left_out_kernels: set[str] = set()  # template kernels nothing in the file instantiates
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

    def plan_of(self, f) -> Plan:
        """The plan of a device function (overloads have their own)."""
        return self.plans[self.fkeys.get(id(f), f.name)]

    def spell(self, key_: str) -> str:
        if key_ in self.names:
            return self.names[key_]
        return super().spell(key_)

    # -- the pipeline: the shared passes, and Metal's structure around them ----------------------
    def drop_builtin_vector_operators(self) -> None:
        """Metal's own pass, builtin_vector_operators (metal/vectorops.py), runs later in its place."""

    # (its reserved words are renamed after host code is left out, below, not first as the shared passes do)
    passes = extend(tuple(p for p in Translator.passes if p != "rename_reserved_words"), ("leave_out_host_code", "qualifier_macros", "plan_calls", "pre_rewrites",
                                        "mixed_min_max"),
                    before="rewrite_sites")
    passes = extend(passes, ("function_template_args", "builtin_vector_operators", "unreached_header_code", "leave_out_host_items", "host_static_members", "host_virtuals", "device_virtuals", "host_member_prototypes", "library_names", "block_votes", "textures", "texture_references", "no_metal_meaning", "asm_traps", "atomics_in_macros",
                             "rename_reserved_words", "bind_constants"),
                    after="leave_out_host_code")
    passes = extend(passes, ("recognise_reductions",), after="rewrite_sites")
    passes = extend(passes, ("barriers", "file_scope", "pointer_members", "pointer_tables", "shared_memory", "local_pointers", "packed_struct_members", "member_return_types", "lambda_pointers", "vector_element_views", "copy_written_arguments",
                             "constant_reference_copies", "functions", "prototypes", "needs", "check_threadgroup_sizes",
                             "command_line_defines", "macro_made_kernels", "nothing_to_port", "ported_by_includer", "check_unresolved_instances"))
    realigns_comments = False
    asm_message = "inline PTX assembly has no Metal translation"
    asm_hint = "replace it with an intrinsic or a SIMD-group function"
    asm_carry_hint = asm_hint

    def ports_function(self, name: str | None) -> bool:
        return name is None or name in self.device  # host code is left out

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
                                                          "preproc_else", "template_declaration")):
            if n.type == "declaration" and self.module.function_at(n) is None and not self.rw.has(n):
                words = {self.src.text_of(c) for c in n.children if c.type in ("type_qualifier",
                                                                                 "storage_class_specifier")} | \
                    {c.type for c in n.children}
                if "extern" in words and words & {"__device__", "__constant__"} and \
                        {ident_name(d) for d in n.children_by_field_name("declarator")} <= self._initialised_here():
                    self.rw.replace(n, f"/* {' '.join(self.src.text_of(n).split())}: defined in this file below */")
                    continue  # (a header's declaration of the file's own table: the definition is the port's)
                if "__shared__" in words or "extern" in words or "typedef" in words:
                    continue
                tnode = n.child_by_field_name("type")
                if tnode is None or any(c.type == "function_declarator" for c in walk(n)):
                    continue  # a prototype
                if self.src.text_of(tnode) == "void":  # `__device__ void f(P* p, V (*b)[8]);` parses as a `void`
                    for c in n.children:  # variable's constructor call: a prototype, without CUDA's space words
                        if self.src.text_of(c) in ("__host__", "__device__", "__forceinline__", "__noinline__"):
                            self.rw.replace(c, "")
                            if c.next_sibling is not None:
                                self.rw.drop_span(c.end_byte, c.next_sibling.start_byte)
                    continue
                device = next((c for c in n.children if self.src.text_of(c) == "__device__"), None)
                if "__constant__" in words:
                    q = next(c for c in n.children if self.src.text_of(c) == "__constant__")
                    self.rw.replace(q, dialect.concept("constant_mem").spelling("metal"))
                    if device is not None:  # `__device__ __constant__ T x = v;`: one space, the constant one
                        self.rw.replace(device, "")
                        if device.next_sibling is not None:
                            self.rw.drop_span(device.end_byte, device.next_sibling.start_byte)
                elif "const" in words or "constexpr" in words:
                    if device is not None:  # `__device__ const T t[] = {...};`: the space CUDA names, Metal's
                        self.rw.replace(device, dialect.concept("constant_mem").spelling("metal"))
                    else:
                        self.rw.insert_before(tnode, "constant ")
                else:
                    name = _declared_name(n.child_by_field_name("declarator"), self.src.text_of)
                    if not self._used_on_device(name):  # host state (a device buffer pointer kept by the host code)
                        self.rw.replace(n, f"// {name}: host-side state, left out of the Metal port")
                        continue
                    if self._read_only_table(n, words):  # `__device__ uint32_t d_AES0[256] = {...};`
                        q = next(c for c in n.children if self.src.text_of(c) == "__device__")
                        self.rw.replace(q, dialect.concept("constant_mem").spelling("metal"))
                        self.note(q, "constant", f"'{name}' is initialised and device code only reads it: "
                                  "a program-scope constant")
                        continue
                    self.problem("KP213", n, f"Metal has no writable program-scope variables ('{name}')",
                                 "pass the value in a buffer, or make it const")
        for n in self.src.index.of_type("field_declaration"):  # a class's `static constexpr int WIDTH = 4;`:
            words = {self.src.text_of(c) for c in n.children  # a program-scope variable too
                     if c.type in ("type_qualifier", "storage_class_specifier")}
            tnode = n.child_by_field_name("type")
            if tnode is not None and "static" in words and words & {"const", "constexpr"} and \
                    not self.rw.has(n) and not self.rw.within(n) and not self.rw.has(tnode):
                self.rw.insert_before(tnode, "constant ")
        for f in self.device.values():  # a device function's `static const float g = -98.0665f;`: MSL keeps
            for n in walk(f.node):  # a static local in `constant` space only
                if n.type != "declaration":
                    continue
                words = {self.src.text_of(c) for c in n.children if c.type in ("type_qualifier", "storage_class_specifier")}
                tnode = n.child_by_field_name("type")
                if "static" in words and words & {"const", "constexpr"} and "__shared__" not in words and \
                        tnode is not None and not self.rw.has(n) and not self.rw.within(n) and not self.rw.has(tnode):
                    self.rw.insert_before(tnode, "constant ")
        self._cooperative_groups()
        self._conversion_operators()

    def _used_on_device(self, name: str) -> bool:
        """Whether device code reads `name` as the file-scope variable (a parameter, local or template
        parameter of the same name shadows it there)."""
        return any(m.type == "identifier" and self.src.text_of(m) == name
                   for f in self.device.values() if f.param(name) is None and self._local_decl(f, name) is None
                   and name not in f.template_params for m in walk(f.node))

    def _conversion_operators(self) -> None:
        """`__host__ __device__ explicit operator uint64_t() { ... }` in a class: a conversion operator, which
        the model has no function for (its declarator names a type, not a function): Metal's is the member
        as written, without CUDA's space words; one of host code only (no `__device__`) goes."""
        for d in self.src.index.of_type("operator_cast"):
            n = d.parent
            if n is None or n.type != "function_definition" or self.rw.has(n) or self.rw.within(n):
                continue
            words = [c for c in n.children if self.src.text_of(c) in ("__host__", "__device__")]
            if not words:
                continue
            if not any(self.src.text_of(c) == "__device__" for c in words):
                self.rw.replace(n, f"/* {self.src.text_of(d).split('(')[0].strip()}: host code, left out of the Metal port */")
                continue
            for c in words:
                self.rw.replace(c, "")
                if c.next_sibling is not None:
                    self.rw.drop_span(c.end_byte, c.next_sibling.start_byte)

    def _read_only_table(self, n: Node, words: set[str]) -> bool:
        """An initialised `__device__` array or scalar that device code never writes nor addresses,
        nor host code refills (`cudaMemcpyToSymbol`)."""
        from .constants import BoundConstant
        decls = n.children_by_field_name("declarator")
        if "__device__" not in words or not decls or any(d.type != "init_declarator" for d in decls) or \
                {ident_name(d) for d in decls} & self.host_filled():
            return False
        for d in decls:
            inner, dims = d.child_by_field_name("declarator"), []
            while inner is not None and inner.type == "array_declarator":
                dims.append(inner.child_by_field_name("size"))
                inner = inner.child_by_field_name("declarator")
            if inner is None or inner.type != "identifier" or not self._check_read_only(
                    BoundConstant(self.src.text_of(inner), n.child_by_field_name("type"), dims, n), False):
                return False
        return True

    def _cooperative_groups(self) -> None:
        """The thread-block part of cooperative groups is the threadgroup: `cg::sync(block)` and
        `block.sync()` are its barrier, `cg::thread_block` an empty token type; a 32-thread tile is
        the SIMD-group (cgtiles.py); the rest (other tiles, grids, coalesced groups, cg::reduce over
        them) has no Metal counterpart (KP217)."""
        names = {"cooperative_groups"}
        for n in walk(self.src.root):
            if n.type == "namespace_alias_definition" and "cooperative_groups" in self.src.text_of(n):
                names.add(self.src.text_of(n.child_by_field_name("name")))
                self.rw.replace(n, f"// {self.src.text_of(n)}: its thread_block is the threadgroup here")
        barrier = dialect.concept("syncthreads").spelling("metal")
        blocks = set()
        self.cg_tiles: set[str] = set()
        self.cg_tile_width: dict[str, str] = {}  # tile variable -> its threads ("32": the SIMD-group)
        self.cg_done: list[tuple[int, int]] = []  # rendered whole (cg::reduce calls, tile declarations)
        for n in walk(self.src.root):
            if n.type != "qualified_identifier" or n.parent is None or n.parent.type == "qualified_identifier":
                continue
            scope, name = n.child_by_field_name("scope"), n.child_by_field_name("name")
            if scope is None or self.src.text_of(scope) not in names or name is None:
                continue
            if any(s <= n.start_byte < e for s, e in self.cg_done):
                continue
            what = " ".join(self.src.text_of(name).split())
            if self._tile(n, what, names):
                continue
            if what == "reduce" and n.parent.type == "call_expression" and self._tile_reduce(n.parent, names):
                self.cg_done.append((n.parent.start_byte, n.parent.end_byte))
                continue
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
        if self.cg_tiles and not self._tile_calls():
            return
        members = backends.get(self.backend).cg_block_members
        for n in walk(self.src.root):  # block.sync(), block.thread_rank(), ...
            fn = n.child_by_field_name("function") if n.type == "call_expression" else None
            if fn is None or fn.type != "field_expression" or \
                    self.src.text_of(fn.child_by_field_name("argument")) not in blocks or call_args(n):
                continue
            member = self.src.text_of(fn.child_by_field_name("field"))
            if member == "sync":
                self.rw.replace(n, barrier)
            elif member in members:
                self.rw.replace(n, members[member].format(**{b: self.names[b] for b in
                                                             ("thread_idx", "block_idx", "block_dim")}))

    def finish(self) -> None:
        super().finish()
        if self.late_instances:  # template kernels' instances that name function objects (function_args.py)
            self.port.body = self.port.body.rstrip("\n") + "\n\n" + "\n".join(self.late_instances) + "\n"
        for item in [*self.port.diagnostics, *self.port.notes]:  # spliced lines point into their header
            item.location = self.origin_location(item.location)
        self.fragment_of_includer()  # (after rendering, which refuses too: a template kernel with no instance)

    def origin_location(self, loc: Location) -> Location:
        """Where a line of the translated (spliced) text comes from: the file's own, or a header's."""
        if self.origin is None or loc.path != self.src.path or not 0 < loc.line <= len(self.origin):
            return loc
        return Location(*self.origin[loc.line - 1], loc.column)

    def check_port(self, text: str) -> None:
        if getattr(self, "fragment_port", False):
            return  # no port of its own: its includer's (ported_by_includer)
        check_port(self, self.port, text)
        self.fragment_of_includer()  # a fragment the checker finds incomplete: its includer's port has it

    # -- small helpers --------------------------------------------------------------------------
    def _indent_of(self, node: Node) -> str:
        line_start = self.src.data.rfind(b"\n", 0, node.start_byte) + 1
        return re.match(rb"[ \t]*", self.src.data[line_start:node.start_byte]).group(0).decode()


def _declared_name(decl, text_of) -> str:
    """The name a file-scope declaration declares: `x` of `T x[4] = {...}`, `Params::nextId` of a class's static
    member defined out of line (`unsigned Params::nextId(0);`), which has no plain identifier."""
    name, q = ident_name(decl), decl
    while name is None and q is not None and q.type != "qualified_identifier":
        q = q.child_by_field_name("declarator")
    return name or text_of(q if q is not None else decl)
