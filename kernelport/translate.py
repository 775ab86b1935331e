"""Translate a CUDA file to another dialect: edits on the user's text, spellings from the table.

The body of the output is the user's file with rewrites applied (comments and layout survive);
a Jinja prologue adds the generated-file header and the small helpers the rewrites need.
What has no safe rewrite is a diagnostic at its line (translate exits 1), or, with
`allow_unported`, is kept as written behind a marker comment.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from tree_sitter import Node

from .depth import big_stack
from . import arch_branches, atomic_refs, backends, cub_decomposers, dependent_templates, device_allocas, dim3_operands, folded_bounds, host_typed_functors, implicit_typename, private_memory, pass_branches, reduce_operands, stdint_typedefs, blocksizes, collective_widths, confined_votes, declsplit, dialect, directive_macros, fnscopes, groupmasks, guards, halfvotes, laddersteps, lexing, library_namespaces, macro_bodies, maskmemory, own_macros, thrust_cub, unroll_counts, vector_lists, warpcounts, warpflow, warpwidth, version_values, line_splices, include_lines, device_less_operators, pass_attributes, nvcc_leniencies, vla_initializers, thrust_headers, host_classifiers, shared_storage, sized_extern_shared, masked_types, lds_address_lists
from . import signed_masks, vector_paren_inits, vector_short_lists, verbatim_args  # (h/hip64b's passes and checks)
from . import hd_wave_reads, literal_lanes, named_full_masks, wave_constants, wide_ballot_holders
from .api_names import ApiNames
from .inline_asm import InlineAsm
from .attribute_order import AttributeOrder
from .mixed_sign import MixedSignCalls
from .retyped_calls import RetypedPointerCalls
from .member_spaces import MemberSpaces
from .literal_spacing import LiteralSpacing
from .braced_narrowing import BracedNarrowing
from .function_addresses import FunctionAddresses
from .reserved_names import ReservedWords
from .std_clashes import StdClashes
from .target_templates import TargetTemplates
from .soundness import Soundness, plain_parse_of, self_check
from .vector_operators import BuiltinVectorOperators
from .vector_declarations import VectorDeclarations
from .diagnostics import Diagnostic
from .errors import Location
from .model import Module, plain
from .realign import realign_comments
from .cprecedence import PREC as _PREC, binds_at_least as _binds_at_least
from .rewrite import Rewriter
from .source import SourceFile, call_args
from .code_contexts import context  # also lint's (which must not import this module to ask)


# The dialect translate reads (CUDA): its spellings are the ones looked up in the user's text.
SOURCE = backends.source().name


@dataclass
class Note:
    """One rewrite that was made, for `--explain`."""
    location: Location
    before: str
    after: str
    why: str
    category: str = ""  # "api:<kind>" for an API name or header from the backend's table (--statistics)


@dataclass
class Port:
    """One backend's port of a file: its text, diagnostics and notes; `context`: extra template values for the
    backend's prologue (a language-version floor); `extra_files`: files written next to the port, by suffix."""
    backend: str
    body: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    context: dict = field(default_factory=dict)
    extra_files: dict[str, str] = field(default_factory=dict)
    empty: bool = False  # nothing to write (a Metal port of host code only: KP227 says so; no file)
    # Names the port spells otherwise (Metal's reserved words: `kernel` -> `kernel_`): what calls into
    # the port (the sidecar's host_name, verify's run of a kernel) must use the port's spelling.
    renamed: dict[str, str] = field(default_factory=dict)
    # What the port calls of functions it declares and another source defines, by name (Metal: each
    # address-space signature): a project run gives the sources that define them (the extern_calls option).
    extern_calls: dict[str, list] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


# Contexts where a parenthesis around `warpSize - 1` would be noise.
_LOOSE_PARENTS = {"init_declarator", "argument_list", "return_statement", "subscript_argument_list",
                  "condition_clause", "parenthesized_expression", "assignment_expression", "expression_statement"}


def extend(passes: tuple[str, ...], added: tuple[str, ...], *, before: str | None = None,
           after: str | None = None) -> tuple[str, ...]:
    """`passes` with `added` inserted before or after the pass named (appended when neither is)."""
    if before is not None and after is not None:
        raise ValueError("name one of before= and after=")
    anchor = before or after
    if anchor is None:
        return passes + added
    if anchor not in passes:
        raise ValueError(f"no pass named {anchor!r} (passes: {', '.join(passes)})")
    i = passes.index(anchor) + (after is not None)
    return passes[:i] + added + passes[i:]


class Translator(ApiNames, AttributeOrder, MemberSpaces, LiteralSpacing, BracedNarrowing, Soundness, BuiltinVectorOperators, MixedSignCalls, RetypedPointerCalls,
                 InlineAsm, FunctionAddresses, ReservedWords, StdClashes, TargetTemplates, VectorDeclarations):
    def __init__(self, src: SourceFile, backend: str, allow_unported: bool = False, *, module: Module | None = None,
                 analysis: warpflow.Analysis | None = None, **options):
        """`module`/`analysis`: the model and dataflow of `src` when the caller already has them (lint)."""
        self.src, self.backend, self.allow_unported = src, backend, allow_unported
        self.options = options  # backend-specific switches (e.g. demote_double); others ignore them
        if module is not None and module.source is not src:  # a model of another text (a backend that
            module = analysis = None                          # spliced headers in): its nodes are not src's
        self.own_model = module is None and analysis is None  # include-free, as lint models the original
        # (the parse's one include-free model, built once: a translator that changes it takes its own copy)
        self.module = module if module is not None else plain(src).own_copy(src) if self.changes_model else plain(src)
        self.analysis = analysis if analysis is not None else warpflow.analyze(self.module)
        self.lint_analysis, self.analysis = self.analysis, collective_widths.analysis_for(backend, self.module, self.analysis)
        self.widths = halfvotes.adopted(warpcounts.adopted(  # translate's view: groups it keeps at 32 lanes
            self.analysis.widths or warpwidth.decide(self.module, self.analysis.warp_level), self.analysis))
        self.rw = Rewriter(src)
        self.port = Port(backend, "")

    # -- spellings --------------------------------------------------------------------------
    def spell(self, key: str) -> str:
        s = dialect.concept(key).spelling(self.backend)
        if s is None:
            raise LookupError(key)
        return s

    def wave(self, node: Node) -> str:
        ctx = context(node, self.module)
        if ctx == "const" and backends.get(self.backend).wave_constant == "bound":
            self.problem("KP218", node, f"a compile-time wave width is needed here; {self.backend} has only a bound "
                         f"({self.spell('wave_size_const')}) and the run-time width ({self.spell('warp_size')})",
                         "make the width a run-time value, or a template parameter chosen at run time "
                         "(kp_device_wave_size() == 64 ? k<64><<<...>>> : k<32><<<...>>>)")
        f = self.module.function_at(node) if ctx in ("device", "size") else None  # (a __host__ __device__ one: both passes')
        hd = "hd_wave_bound" if ctx == "size" else "hd_wave_size"  # (a run-time read only: hd_wave_reads)
        return self.spell(hd if f is not None and f.is_host and f.is_device and (ctx == "size" or hd_wave_reads.runtime(
            self.src, node)) and dialect.concept(hd).spelling(self.backend) else
            {"size": "wave_size_bound", "const": "wave_size_const", "device": "warp_size", "host": "host_wave_size"}[ctx])

    def note(self, node: Node, after: str, why: str) -> None:
        self.port.notes.append(Note(self.src.loc(node), self.src.text_of(node), after, why))

    def problem(self, code: str, node: Node, message: str, hint: str) -> bool:
        """Record what has no safe rewrite; True when the caller should keep the code as written."""
        if self.allow_unported:
            self.port.diagnostics.append(Diagnostic(code, self.src.loc(node), message, hint, "warning"))
            stmt = node
            while stmt.parent is not None and not (stmt.type.endswith("statement") or stmt.type == "declaration"):
                stmt = stmt.parent
            self.rw.insert_before(stmt, f"/* KERNELPORT-UNPORTED {code}: {message} */ ")
        else:
            self.port.diagnostics.append(Diagnostic(code, self.src.loc(node), message, hint))
        return True

    # -- the pipeline ---------------------------------------------------------------------------
    # The shared warp-width passes, in order: method names, so that a subclass's override of a
    # pass runs in its place.  A backend's translator extends the tuple (`extend`) with its own.
    passes: ClassVar[tuple[str, ...]] = (
        "rename_reserved_words", "qualify_std_clashes", "check_warp_widths", "rewrite_shadowed_builtins", "drop_builtin_redeclarations", "drop_vector_declarations", "drop_target_overloads", "rewrite_target_templates", "drop_builtin_vector_operators", "rewrite_vector_bases", "rewrite_sites", "rewrite_wide_ballot_holders", "check_runtime_wave_counts", "check_collapsed_overloads", "rewrite_lane_outputs", "rewrite_concepts", "rename_masked_types", "rewrite_cg_members", "rewrite_struct_fields", "check_device_launches", "check_arch_functions", "rewrite_member_spaces", "rewrite_specialization_spaces", "rewrite_declared_spaces", "rewrite_pass_attributes", "rewrite_atomic_refs", "rewrite_includes", "rename_stdint_typedefs", "rewrite_macro_uses", "rewrite_host_wave_constants", "rewrite_literal_spacing", "rewrite_braced_narrowing", "rewrite_function_addresses", "rewrite_device_allocas", "rewrite_sized_extern_shared", "rewrite_shared_storage", "rewrite_lds_address_lists", "rewrite_folded_bounds", "check_nvcc_leniencies", "rewrite_vla_initializers", "rewrite_host_classifiers", "check_private_memory", "rewrite_implicit_typename", "rewrite_dependent_templates", "check_dim3_operands", "widen_host_typed_functors", "widen_device_less_operators", "rewrite_vector_lists", "rewrite_launch_rows", "rewrite_macro_bodies", "check_macro_warp_math",
        "rewrite_constant_warp_size", "rewrite_vector_zero_inits", "rewrite_vector_short_lists", "rewrite_vector_paren_inits", "rewrite_reduce_operands", "rewrite_auto_coordinates", "rewrite_whole_coordinates", "rewrite_attribute_spellings", "rewrite_attribute_order", "drop_scalar_restricts", "drop_ignored_unrolls", "auto_vla_pointers", "check_cuda_only_code", "rewrite_inline_asm", "rewrite_carry_calls", "cast_overloaded_arguments", "cast_mixed_sign_arguments", "cast_retyped_pointer_arguments", "rename_float_pointer_calls", "cast_handle_arguments", "report_dataflow_issues",
        "report_masked_code", "declare_unreached_hazards", "rewrite_version_values", "drop_stray_splices", "take_arch_branches", "take_pass_branches")
    # The finishing step keeps aligned trailing comments aligned (off where a backend rewrites
    # whole signatures, whose lines no longer pair with the original's).
    realigns_comments: ClassVar[bool] = True
    # Whether the translator changes the model or analysis it is given (then the caller gives it a
    # model of its own and a private copy of the analysis, `Analysis.private`; else the project's
    # shared ones, built once per run).
    changes_model: ClassVar[bool] = False
    drop_ignored_unrolls, rewrite_version_values, drop_stray_splices = unroll_counts.drop_pass, version_values.rewrite_pass, line_splices.drop_pass  # passes: `#pragma unroll 0`, `\ ` (clang rejects them); CUDART_VERSION's value
    take_arch_branches = arch_branches.take_pass  # a pass: `#if __CUDA_ARCH__ >= N` in device code, the newest's branch
    take_pass_branches = pass_branches.take_pass  # a pass: the same where host code is compiled too, split by pass
    rewrite_device_allocas = device_allocas.rewrite_pass  # a pass: constant-size alloca as a local array (backend data)
    rewrite_shared_storage = shared_storage.rewrite_pass  # a pass: a __shared__ class with member initialisers as raw bytes (backend data)
    rewrite_sized_extern_shared = sized_extern_shared.rewrite_pass  # a pass: `extern __shared__ T s[N]` as nvcc's definition (backend data)
    rewrite_lds_address_lists = lds_address_lists.rewrite_pass  # a pass: a shared array's address in a local braced list (backend data)
    check_nvcc_leniencies = nvcc_leniencies.check_pass  # a pass: what nvcc accepts and clang rejects, undefined (backend data)
    rewrite_vla_initializers = vla_initializers.rewrite_pass  # a pass: a host VLA's zero initialiser as a loop, others KP252 (backend data)
    rewrite_host_classifiers = host_classifiers.rewrite_pass  # a pass: `isnan(x)` in host code as `std::isnan(x)` (backend data)
    rewrite_folded_bounds = folded_bounds.rewrite_pass  # a pass: a bound nvcc folds from `const` floating locals, as its value (backend data)
    check_private_memory, rewrite_implicit_typename, rewrite_dependent_templates, check_dim3_operands, rewrite_vector_lists = private_memory.check_pass, implicit_typename.rewrite_pass, dependent_templates.rewrite_pass, dim3_operands.check_pass, vector_lists.rewrite_pass  # passes
    widen_host_typed_functors, widen_device_less_operators = host_typed_functors.widen_pass, device_less_operators.widen_pass
    rewrite_reduce_operands, rename_stdint_typedefs = reduce_operands.rewrite_pass, stdint_typedefs.rename_pass  # passes: a CUB operator's `T&` operands as `const T&`; a file's own typedef of a <stdint.h> name (backend data)
    rewrite_pass_attributes = pass_attributes.rewrite_pass  # a pass: `__device__` on nvcc's device pass alone, both on hipcc's
    rewrite_includes = include_lines.rewrite_pass  # a pass: each #include as the backend spells it (a header this run ports: its port)
    rewrite_atomic_refs = atomic_refs.rewrite_pass  # a pass: libcu++'s cuda::atomic_ref as the target's atomic builtins (backend data)
    rename_masked_types = masked_types.rename_pass  # a pass: type names in macro uses the parse saw as blanks (`INST(f, __nv_bfloat16)`)
    rewrite_wide_ballot_holders = wide_ballot_holders.rewrite_pass  # a pass: `long long b; b = ballot; b < 0` reads the warp's word
    rewrite_vector_short_lists = vector_short_lists.rewrite_pass  # a pass: `uint3 v = {a, b}` completed with 0 (vector types are classes)
    rewrite_vector_paren_inits = vector_paren_inits.rewrite_pass  # a pass: `int2 p(x, y)` as CUDA's aggregate (metal66)

    def run(self) -> Port:
        for name in self.passes:
            getattr(self, name)()
        self.finish()
        return self.port

    def finish(self) -> None:
        """The port's body, notes and diagnostics in source order, and the prologue's values."""
        body = self.rw.result()
        self.port.body = realign_comments(self.src.text, body) if self.realigns_comments else body
        self.port.notes.sort(key=lambda n: (n.location.line, n.location.column))
        self.port.diagnostics.sort(key=lambda d: (d.location.line, d.location.column))
        self.port.context = self.prologue_context(self.port.body)

    def declare_unreached_hazards(self) -> None:  # (kept_hazards.declare_unreached)
        from .kept_hazards import declare_unreached
        declare_unreached(self)

    def prologue_context(self, body: str) -> dict:
        """Extra template values for the backend's prologue (e.g. a language-version floor)."""
        return {}

    # -- the shared passes -------------------------------------------------------------------------
    def report_masked_code(self) -> None:
        """Code the parse saw as blanks is not rewritten: KP230 where the port would keep it silently."""
        from . import body_macros
        from .macros import masked_code_diagnostics
        fs = [(f.node.start_byte, f.node.end_byte, f.name) for f in self.module.functions.values()]
        ported = lambda b: self.ports_function(next((n for s, e, n in fs if s <= b < e), None))  # noqa: E731
        self.port.diagnostics.extend(masked_code_diagnostics(self.src, self.backend, ported))
        self.port.diagnostics.extend(body_macros.refusals(self.src, self.backend, self.module))  # a block macro read as `{ }` (KP250)

    def rewrite_sites(self) -> None:
        for site in self.wave_sites():
            self.rewrite_site(site)

    def ports_function(self, name: str | None) -> bool:
        """Whether code in function `name` (None: file scope) is part of the port."""
        return True

    def report_dataflow_issues(self) -> None:
        """Masks stored into 32-bit memory (KP207), two waves' ballots packed in one word (KP226): hazards only
        where a wave can be 64 wide; a ballot shifted from lane 31 (KP236) at every width (64-bit masks)."""
        narrow = all(r.wave <= 32 for r in backends.get(self.backend).runs)
        for issue in self.analysis.issues:
            if (not narrow or issue.code in maskmemory.WIDE_MASK_CODES) and not self.cuda_only_region(issue.node) \
                    and not halfvotes.exact_word(self, issue):
                self.problem(issue.code, issue.node, issue.message, issue.hint or
                             "split the mask into 32-bit words, e.g. store (unsigned)(mask >> (lane & 32)) from the "
                             "leaders of both halves, or keep a 64-bit word type")

    def lacked_type(self, key: str, node: Node) -> None:
        """Type concept `key` at `node`, which the backend cannot spell: demoted where its data names an option
        given (`--demote-double`), else refused under its own code and wording (KP214 for Metal's double) or KP204."""
        lacked = backends.get(self.backend).lacked_types.get(key)
        if lacked is not None and lacked.demote_option and self.options.get(lacked.demote_option):
            self.rw.replace(node, lacked.demoted)
            self.note(node, lacked.demoted, f"{lacked.message}: demoted to {lacked.demoted}")
        elif lacked is not None:
            self.problem(lacked.code, node, lacked.message, lacked.hint)
        else:
            self.problem("KP204", node, f"{self.src.text_of(node)} is not available on {self.backend.upper()}",
                         "use float (or opt into demotion)")

    def cuda_only_region(self, node: Node) -> bool:
        """Compiled on no AMD pass (`#if __CUDA_ARCH__`, the #else of a HIP platform test): nothing to port.
        Judged on the tests as the port spells them: `#ifdef __CUDACC__` becomes HIP's `#ifdef __HIPCC__`,
        so what it guards is compiled, and ported, there.  Each conditional's tests once per translator."""
        return guards.cuda_only(node, self.src, self.ported_macro, self.__dict__.setdefault("_kp_reach", {}),
                                arch_branches.decided(self))  # (a branch the port leaves out: as good as absent)

    def amd_only_region(self, node: Node) -> bool:
        """Compiled on no NVIDIA pass (the AMD branch of a platform test): already written per platform."""
        return guards.amd_only(node, self.src, memo=self.__dict__.setdefault("_kp_reach_written", {}))

    def check_cuda_only_code(self) -> None:
        """Device code under a test false on every AMD pass (`#if __CUDA_ARCH__`) with no `#else`
        vanishes off NVIDIA: say so."""
        for f in self.module.functions.values():
            if not f.is_device or f.body is None:
                continue
            for n in self.src.index.under_types(f.body, "preproc_if", "preproc_ifdef"):  # (no walk of every node)
                if n.child_by_field_name("alternative") is not None:
                    continue
                cond = guards.test_node(n)
                text = self.src.text_of(cond) if cond is not None else ""
                if n.id in arch_branches.decided(self) or not guards.never_on_amd(n, self.src, self.ported_macro) \
                        or guards.never_compiled(n, self.src, self.ported_macro):  # (`#if 0`: NVIDIA's build lacks it too)
                    continue  # (an architecture conditional the port settles: KP237 says what it leaves out)
                stmts = [c for c in n.named_children if c != cond and c.type != "comment"]
                if not stmts:
                    continue
                body = [c for c in f.body.named_children if c.type != "comment"]
                whole = body == [n]
                msg = (f"all of '{f.name}' is under `#if {text.strip()}`, which is never true off NVIDIA: the "
                       f"{self.backend.upper()} port would do nothing" if whole else
                       f"this code exists only under `#if {text.strip()}`: the {self.backend.upper()} port "
                       "leaves it out")
                hint = "add an #else branch with a portable version (kernelport translates it)"
                if whole:
                    self.problem("KP208", n, msg, hint)
                else:
                    self.port.diagnostics.append(Diagnostic("KP208", self.src.loc(n), msg, hint, "warning"))

    def rewrite_site(self, site: warpflow.Site) -> None:
        n, role = site.node, site.role
        if self.amd_only_region(n):
            return
        if role in ("ws",):
            if blocksizes.refuse_wave_count(self, n):  # `blockDim.x / 32` for blocks that are not whole waves
                return
            text = self.wave(n)
        elif role == "ws_macro":
            blocksizes.refuse_macro_wave_counts(self, n)  # a header helper's `blockDim.x / WARP_SIZE`: its includers' blocks
            text = re.sub(r"\b(0[xX]20|32)[uUlL]*\b", self.spell("wave_size_const"), self.src.text_of(n), count=1)
        elif role in ("ws_m1", "ws_m1_macro"):
            w = self.wave(n) if role == "ws_m1" else self.spell("wave_size_const")
            inner = f"{w} - 1"
            loose = n.parent is not None and (n.parent.type in _LOOSE_PARENTS or (
                n.parent.type == "binary_expression" and
                self.src.text_of(n.parent.child_by_field_name("operator")) in ("==", "!=", "<", "<=", ">", ">=")))
            text = inner if loose and role == "ws_m1" else f"({inner})"
            if role == "ws_m1_macro":
                text = re.sub(r"\b(31|0[xX]1[fF])[uUlL]*\b", text, self.src.text_of(n), count=1)
        elif role == "half":
            text = f"{self.wave(n)} / 2"
            if n.parent is not None and n.parent.type == "binary_expression":
                text = f"({text})"
        elif role == "five":
            if not blocksizes.refuse_wave_count(self, n):  # `blockDim.x >> 5`: the same count
                self.rewrite_shift(n)
            return
        elif role == "one":
            text = self.spell("lanemask_one")
        elif role == "type32":
            text = declsplit.wide_type(self, site)  # (a declaration that declares other variables: split there)
            signed_masks.rewrite(self, site)  # `(int)ballot < 0`: lane 31 of the thread's warp
            literal_lanes.rewrite(self, site)  # `m & 1`: lane 0 of the thread's warp
        elif role == "full_value":
            if named_full_masks.rewrite(self, site):  # `constexpr unsigned F = 0xffffffffu`, `unsigned F = ...`
                return
            text = self.spell("activemask")
        elif role == "bitop64":
            self.rewrite_bitop64(n)
            return
        elif role == "ladder":
            laddersteps.wide_step(self, n)
            return
        else:
            return
        self.rw.replace(n, text)
        self.note(n, text, site.why)

    def rewrite_shift(self, five: Node) -> None:
        expr = five.parent
        if expr is None or expr.type != "binary_expression":
            return
        op = self.src.text_of(expr.child_by_field_name("operator"))
        new_op = {">>": "/", "<<": "*"}.get(op)
        if new_op is None:
            return
        left = expr.child_by_field_name("left")
        w = self.wave(five)

        def render(rw: Rewriter, node: Node) -> str:
            lt = rw.text(left)
            if not _binds_at_least(left, self.src, _PREC["/"]):
                lt = f"({lt})"
            return f"{lt} {new_op} {w}"

        self.rw.replace(expr, render)
        self.note(expr, f"... {new_op} {w}", "a shift by 5 assumes 32 lanes")

    def rewrite_bitop64(self, call: Node) -> None:
        name = self.src.text_of(call.child_by_field_name("function"))
        c = dialect.lookup(SOURCE, name)
        if c is None:  # a project macro that renames the built-in (`POPC(x)`): its definition is the user's
            return
        wide = dialect.concept(c.key + "64")
        arg = call_args(call)[0]
        self.rw.replace(call, lambda rw, node: dialect.render(wide, self.backend, {"x": rw.text(arg)}))
        wide_ballot_holders.wave_complements(self, arg)  # `__popc(~m)`: the wave's lanes that did not vote
        parent = call.parent
        if c.key == "clz" and parent is not None and parent.type == "binary_expression" and \
                self.src.text_of(parent.child_by_field_name("operator")) == "-" and \
                parent.child_by_field_name("right") == call:
            left = parent.child_by_field_name("left")
            if left.type == "number_literal" and warpflow.int_value(self.src.text_of(left)) == 31:
                self.rw.replace(left, "63")  # the highest set lane of a 64-bit mask
                return self.note(call, dialect.render(wide, self.backend, {"x": "..."}), "a lane mask has 64 bits")
        if c.key in ("clz", "brev"):  # `__clz(m)`: the lanes above the highest, `__brev(m)`: in the wave's width
            (wide_ballot_holders.clz_lanes if c.key == "clz" else wide_ballot_holders.brev_lanes)(self, call, arg, wide)
        self.note(call, dialect.render(wide, self.backend, {"x": "..."}), "a lane mask has 64 bits on a 64-wide wave")

    def rewrite_concepts(self) -> None:
        partial = {(n.start_byte, n.end_byte) for n, cls, _ in self.analysis.shuffle_masks if cls == "partial"}
        for use in self.module.uses:
            c, node = use.concept, use.node
            if self.rw.has(node):
                continue  # already rewritten as a wave-width site
            if node.type != "call_expression" and verbatim_args.inside(self.src, node.start_byte):
                continue  # `INST(k, __nv_bfloat16)` whose macro pastes `k_##T`: the CUDA build's name
            if self.rewrite_api_use(use):
                continue
            target = c.spelling(self.backend)
            if node.type == "call_expression":
                if target is None and self.cuda_only_region(node):
                    continue
                if target is None:
                    self.problem("KP202", node, f"{self.src.text_of(node.child_by_field_name('function'))} has no "
                                 f"{self.backend.upper()} equivalent", c.hint)
                    continue
                fn = node.child_by_field_name("function")
                if c.kind in ("index", "type", "runtime"):  # a plain rename: the arguments stay as written
                    new = dialect.rename(c, self.src.text_of(fn), SOURCE, self.backend)
                    if new and new != self.src.text_of(fn):
                        self.rw.replace(fn, new)
                    continue
                concept, order = dialect.spelled_by(SOURCE, self.src.text_of(fn))
                args = call_args(node)
                names = dialect.call_params(concept, order)[0]
                if not (dialect.call_params(concept, order)[1] <= len(args) <= len(names)):
                    continue  # not the intrinsic's arity: a user function of the same name
                bound = dict(zip(names, args))
                mask = bound.get("mask")
                if self.refused_group_mask(c, mask, node):
                    continue  # KP203: a warp reduction or a match with another mask than CUDA's full one
                elif mask is not None and (mask.start_byte, mask.end_byte) in partial and \
                        not backends.get(self.backend).honours_partial_masks:
                    group = groupmasks.ported(self, concept, bound, node)  # a group's shuffle or vote
                    if group is None and not self.allow_unported:
                        continue  # KP203 (groupmasks: what a group's mask needs to be ported)
                    concept = group or concept
                elif c.kind == "vote":
                    concept = halfvotes.concept(self, concept, node)  # a 32-lane group's vote in a 64-lane wave
                self.rw.replace(node, self._render_call(concept, bound, self.logical_width(concept, bound, use)))
            else:
                if c.key == "warp_size" and self.widths.logical(fn := fnscopes.owner(self.module, use.node)):
                    self.rw.replace(node, "32")
                    self.note(node, "32", f"a logical 32-lane group ({self.widths.by_function[fn].why})"
                              if fn in self.widths.by_function else "a logical 32-lane group")
                    continue
                if target is None:
                    if c.kind == "type":
                        self.lacked_type(c.key, node)
                    continue
                name = dialect.rename(c, self.src.text_of(node), SOURCE, self.backend)
                if c.kind == "index" and name == target:
                    name = self.spell(c.key)  # (a file's own name for it: Metal's where the file uses `tid`)
                if name and name != self.src.text_of(node) and c.kind in ("index", "type", "runtime"):
                    self.rw.replace(node, name)
        self.rewrite_api_namespaces()
        thrust_cub.include_cub(self)
        thrust_headers.include_pass(self)
        directive_macros.rename(self)
        library_namespaces.rewrite(self)
        cub_decomposers.rewrite(self)
        library_namespaces.rewrite_qualified(self)
        collective_widths.rewrite(self)
        lexing.respell_for_clang(self.src, self.module, self.rw, self.backend)

    def _render_call(self, concept: dialect.Concept, bound: dict[str, Node], width: str | None = None):
        mask, full = bound.get("mask"), dialect.concept("full_mask").spelling(self.backend)

        def render(rw: Rewriter, node: Node) -> str:
            texts = {p: (rw.text(bound[p]) if p in bound else None) for p in concept.params}
            if width is not None:
                texts["width"] = width
            if full is not None and mask is not None and (mask.start_byte, mask.end_byte) in self.full_masks():
                texts["mask"] = full  # CUDA's 32-lane full mask is every lane of the wave here
            if full is not None and mask is None and "mask" in concept.params and not texts.get("mask"):
                texts["mask"] = full  # a mask-less legacy call (__shfl_down before CUDA 9): every lane
            texts.update(self.call_context(concept, bound, node))
            return dialect.render(concept, self.backend, texts)
        return render

    def full_masks(self) -> set[tuple[int, int]]:
        """The spans of the shuffle masks the analysis found to be CUDA's full mask (a set, once:
        each call's rendering asks)."""
        if "_full_masks" not in self.__dict__:
            self._full_masks = {(m.start_byte, m.end_byte) for m, cls, _ in self.analysis.shuffle_masks if cls == "full"}
        return self._full_masks

    def call_context(self, concept: dialect.Concept, bound: dict[str, Node], call: Node) -> dict[str, str]:
        """Extra template values a backend's spelling needs (Metal atomics: address space, type)."""
        return {}

    def check_port(self, text: str) -> None:
        """A backend's own check of the finished port `text`: it adds diagnostics to the port."""

    def extra_files(self, source_label: str, command: str | None) -> dict[str, str]:
        """Files that accompany the port, unsealed: a key starting with "." is a suffix of the
        port's name (a sidecar), any other a file name beside it shared by every port (a header)."""
        return backends.get(self.backend).extra_files()

    rewrite_constant_warp_size = wave_constants.rewrite_constant_warp_size  # a pass: `warpSize` in constant expressions
    rewrite_macro_uses = wave_constants.rewrite_macro_uses  # a pass: a warp-size macro where its value is not the answer

    def rewrite_macro_bodies(self) -> None:
        """Macro bodies are unparsed text to the grammar: translate each as a tiny function body."""
        macro_bodies.rewrite(self)


@big_stack  # recursive analyses: depth.MAX_DEPTH levels of nesting need a big stack
def translate(src: SourceFile, backend: str, *, allow_unported: bool = False, source_label: str | None = None,
              command: str | None = None, prologue: dict | None = None, plain_model: Module | None = None,
              plain_analysis: warpflow.Analysis | None = None, **options) -> tuple[Port, str]:
    """Translate `src` to `backend`; returns the port and the full output text (prologue + body).
    `plain_model`: the include-free model of `src` the caller has (the project's), which the self-check's
    lint of the original reads; `plain_analysis`: its warpflow analysis (Project.plain_analysis) if any."""
    src.check_syntax(dead_ok=True)
    translator = backends.get(backend).translator()(src, backend, allow_unported, **options)
    translator.plain = (plain_model, plain_analysis)  # (the original's lint in declare_unreached_hazards)
    port = translator.run()
    port.diagnostics += src.dead_branch_warnings()  # KP230: what check_syntax let through
    src = translator.src  # what was translated (a backend may splice headers into one port)
    from . import templates  # jinja2 only when a port is written (lint imports this module)
    cli = [d[0] if isinstance(d, tuple) else d for d in options.get("defines", ())]  # the run's -D names
    text = templates.render_port(backend, port.body, source_label or src.path, command,
                                 **{**port.context, "command_line_defines": cli, **(prologue or {})})
    if port.ok:
        own = (translator.module, translator.lint_analysis) if translator.own_model and not translator.changes_model \
            else None  # the original's lint reads translate's model instead of analysing the file again
        if own is None and plain_model is not None and plain_parse_of(plain_model.source, src):
            own = (plain_model, plain_analysis)  # the same include-free model (lint analyses it if None)
        text = self_check(src, backend, port, text, translator.rw, allow_unported, model=own,
                          header=templates.port_header(backend, source_label or src.path, command),
                          exact=halfvotes.spans(translator) + collective_widths.spans(translator) +
                          warpcounts.spans(translator) + own_macros.header_spans(translator.module) +
                          confined_votes.spans(translator), widths=translator.widths, module=translator.module,
                          elsewhere=getattr(getattr(translator.module, "visible", None), "elsewhere", None))
    if port.ok:  # the text as written (sealed): its lines are the file's, and verify's compile check reads its bytes
        from . import output
        translator.check_port(output.seal(text))
    if port.ok:
        port.extra_files = translator.extra_files(source_label or src.path, command)
    return port, text


def destination(source: Path, backend: str, out_dir: Path | None = None) -> Path:
    return (out_dir if out_dir is not None else source.parent) / (source.stem + backends.get(backend).extension)


def companion(dest: Path, key: str) -> Path:
    """Where an extra file of the port at `dest` goes (see Translator.extra_files)."""
    return dest.with_name(dest.name + key if key.startswith(".") else key)


def port_file(src: SourceFile, backend: str, base: Path, *, allow_unported: bool = False, via: str | None = None,
              out_root: str | None = None, **options) -> tuple[Port, str]:
    """The sealed output text for `src`, labelled relative to `base` (the output directory).

    The header names the source relative to where the port lives and a command that, run from
    there, regenerates it: ports are byte-for-byte reproducible whatever the caller's cwd.
    """
    label = Path(os.path.relpath(Path(src.path).resolve(), base.resolve())).as_posix()
    given = via or label  # out_root: the run's -o seen from the port ('' in place), when a project run knows it
    command = f"kernelport translate {given} --to {backend}" + (
        (f" -o {out_root}" if out_root and (out_root != "." or "/" in given) else "") if out_root is not None
        else (" -o ." if "/" in given else ""))
    port, text = translate(src, backend, allow_unported=allow_unported, source_label=label, command=command, **options)
    from . import output
    port.extra_files = {suffix: output.seal(t) for suffix, t in port.extra_files.items()}
    return port, output.seal(text)

