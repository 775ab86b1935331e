"""Translate's CUDA API names and headers, spelled from the target backend's API table.

HIP's table is HIPIFY's maps (kernelport/backends/hip_api.tsv): a name it maps is renamed
exactly; a name it marks unsupported, or one that looks like CUDA API (the source backend's
`api_pattern`) and that no table lists, is refused at its line (KP210), never guessed.  A name
declared in the file is the user's own (`cudaStatus`, a `cuda_check` helper) and is left alone.
Backends with no table (Metal: host code is left out; portable: kp_warp.h spells the runtime)
keep the generic handling of a concept they cannot spell.
"""
from __future__ import annotations

import re
from pathlib import Path

from tree_sitter import Node

from . import coordinate_targets, address_types, backends, case_labels, compiler_tests, device_pass, hidden_defines, lazy_re, template_deduction, unavailable
from .api_fallbacks import defines, include_block
from .overload_ranks import calls_cuda_builtin
from .diagnostics import Diagnostic
from .declared_names import _NAME_TYPES, _TESTS, _names_a_type, declared_names, names_declared_in  # noqa: F401

_COORDINATES = ("threadIdx", "blockIdx", "blockDim", "gridDim")
# The rest of a directive's logical line (its `\\` continuations too).
_DIRECTIVE_REST = lazy_re.compile(rb"(?:[^\n]*\\\r?\n)*[^\n]*")


def _elaborated(name: Node) -> Node | None:
    """`struct cudaGraphicsResource*` used as a type: the whole specifier, which the port spells as
    the target's bare name (HIP declares hipGraphicsResource, hipError_t and others only as
    typedefs, which `struct`/`enum` cannot name; a tag's bare name means the same in C++).  A bare
    `struct X;` or a body declares the tag: left to the plain rename."""
    p = name.parent
    if p is None or p.child_by_field_name("name") != name or not _names_a_type(p):
        return None
    decl = p.parent
    return None if decl.type == "declaration" and decl.child_by_field_name("declarator") is None else p



def _has_effect(node: Node) -> bool:
    """An expression that calls, assigns or steps something (its value may differ when written twice)."""
    return node.type in ("call_expression", "assignment_expression", "update_expression", "new_expression") or \
        any(_has_effect(c) for c in node.named_children)


def _parameter_types(src, definition: Node) -> tuple[str, ...] | None:
    """The parameter types of a function definition as written (each parameter's text less its
    name, blanks collapsed, none beside `*`, `&`), None where there is no parameter list."""
    d = definition.child_by_field_name("declarator")
    while d is not None and d.type != "function_declarator":
        d = d.child_by_field_name("declarator")
    plist = d.child_by_field_name("parameters") if d is not None else None
    if plist is None:
        return None
    out = []
    for p in plist.named_children:
        if p.type == "comment":
            continue
        name = p.child_by_field_name("declarator")
        while name is not None and name.type not in _NAME_TYPES:
            name = name.child_by_field_name("declarator")
        cut = (name.start_byte, name.end_byte) if name is not None else (p.end_byte, p.end_byte)
        text = (src.data[p.start_byte:cut[0]] + src.data[cut[1]:p.end_byte]).decode("utf-8", "replace")
        out.append(re.sub(r"\s*([*&,<>])\s*", r"\1", " ".join(text.split())))  # `char *` is `char*`
    return tuple(out)

# An identifier (group 1), or a literal or comment to skip whole.
_TOKENS = lazy_re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/|\b([A-Za-z_]\w*)', re.S)


def _global_scope(node: Node) -> bool:
    """`::cudaFree(p)`: the global namespace's name, CUDA's, where the user's is in a namespace of
    its own (FLAMEGPU's `detail::cuda::cudaFree` wrapper calls `::cudaFree`)."""
    p = node.parent
    return p is not None and p.type == "qualified_identifier" and p.child_by_field_name("scope") is None \
        and p.child_by_field_name("name") == node


def _defined_here(node: Node) -> bool:
    """`X` of `#define X ...`: the name a macro definition defines, not a use of it."""
    p = node.parent
    return p is not None and p.type in ("preproc_def", "preproc_function_def") and p.child_by_field_name("name") == node


def _tested_macro(node: Node) -> bool:
    """`X` of `#ifdef X` or `defined(X)`: a macro's presence tested, not a use of it."""
    p = node.parent
    return p is not None and (p.type in _TESTS or p.type == "preproc_defined")


class ApiNames:
    """Mixed into the Translator: the API-name and API-header rewrites."""

    _declared: frozenset[str] | None = None

    def declared_names(self) -> frozenset[str]:
        if self._declared is None:
            self._declared = names_declared_in(self.src)
            vis = self.module.visible
            if vis is not None:  # and what the headers it includes declare: the project's own names
                self._declared |= vis.declared
        return self._declared

    def ported_macro(self, name: str, node: Node | None = None) -> str:
        """A macro name as the port writes it (HIP's table: `__CUDACC__` -> `__HIPCC__`; else `compiler_macros`; `node`: the use)."""
        new = self._respelled(name, node)
        if new and compiler_tests.kept(self.src, node, name, new, self._respelled,
                                       self.__dict__.setdefault("_kp_compiler_tests", {})):
            return name  # a test that tells the compilers apart itself (`defined(__CUDACC__) && !defined(__HIPCC__)`)
        return new or name

    def _respelled(self, name: str, node: Node | None = None) -> str | None:
        """`ported_macro`'s spelling before compiler_tests keeps a test as written (None: none)."""
        b = backends.get(self.backend)
        if name in self.declared_names():
            return None
        return device_pass.spelling(self, name, node) or (b.api().spelling(name) if b.api() else b.compiler_macros.get(name))

    def inherit_api_context(self, outer: "ApiNames") -> None:
        """A macro body translated on its own still knows the file's declarations."""
        self._declared = outer.declared_names()
        self.__dict__.pop("_kp_reach", None)  # (cuda_only_region's answers read the declarations: ported_macro)

    def _api_note(self, node: Node, before: str, after: str, kind: str) -> None:
        from .translate import Note
        self.port.notes.append(Note(self.src.loc(node), before, after, f"HIPIFY maps {kind}", category=f"api:{kind}"))

    def _absent_warning(self, node: Node, entry) -> None:
        if any(a <= node.start_byte < b for a, b in self.__dict__.get("_kp_left_out", ())):
            return  # in a definition the port leaves out (KP231): nothing of it is compiled
        if entry.hipcc != "absent" or defines(self.src, b := backends.get(self.backend), entry.hip, tuple(self.options.get("include_dirs", ()))):
            return  # present, or the port carries its definition (kernelport/api_fallbacks.py)
        since = f" (HIPIFY: from ROCm {entry.since})" if entry.since != "-" else ""
        self.port.diagnostics.append(Diagnostic(
            "KP210", self.src.loc(node), f"`{entry.hip}` (for `{entry.cuda}`) is not in {b.api_checked_with}'s headers{since}: "
            "the port needs a newer release", "build the port with a release that has it, or keep the CUDA "
            "name's use under #ifdef", "warning"))

    def rewrite_api_use(self, use) -> bool:
        """Rename or refuse one API name; False where the generic concept handling applies."""
        c, node = use.concept, use.node
        b = backends.get(self.backend)
        table = b.api()
        if c.key != "api" and (c.kind != "runtime" or table is None):
            return False
        target = node.child_by_field_name("function") if node.type == "call_expression" else node
        name = self.src.text_of(target)
        pattern = backends.source().api_pattern
        if name in self.declared_names() and not _global_scope(target) and not (table is not None and getattr(
                table.get(name), "supported", False) and calls_cuda_builtin(self, node, name)) or _defined_here(target):
            # (a call of a CUDA builtin the user's overloads of its name cannot take is CUDA's: overload_ranks.py)
            return True  # the user's own name; a `#define` of an API name (an alias) keeps the name it defines
        if table is None:  # a CUDA call: refused by the backend's own check, or as any unspelled concept
            return b.refuses_undefined_names or not (pattern and re.fullmatch(pattern, name))
        if self.cuda_only_region(node) or self.amd_only_region(node):
            return True
        e = table.get(name)
        why = f"HIPIFY: {e.why_unsupported}" if e is not None else hidden_defines.unknown_name(self, name)
        if (e is None or not e.supported) and (_tested_macro(target) or case_labels.drop(self, target, e) or
                unavailable.declare(self, target, "KP210", f"`{name}` has no {b.display_name} equivalent ({why})")):
            return True  # `#ifdef cudaX` with no HIP macro (false on HIP, as the code expects); or declared unavailable
        if (e is None or not e.supported) and self._optional_code(node):
            self.port.diagnostics.append(Diagnostic(
                "KP210", self.src.loc(target), f"`{name}` has no {b.display_name} equivalent ({why}); left as written: "
                "it is under a preprocessor test that only some builds compile", "fix it before a build that "
                "defines the test's macro", "warning"))
            return True
        if e is None or not e.supported:
            hint = f"use an API {b.display_name} has"
            if name in b.launch_forms_absent:  # a launch form: the toolchain checked lacks it, say which to use
                why += f"; {b.api_checked_with} has no `{b.launch_forms_absent[name]}`"
                calls = [f"`{n}`" for n, f in b.launch_forms.items() if f.args is not None]
                hint = (f"launch with {' or '.join(calls)} (the kernel, grid, block, dynamic shared memory, stream, "
                        "then the kernel's arguments) where the configuration has no attributes")
            self.problem("KP210", target, f"`{name}` has no {b.display_name} equivalent ({why})",
                         f"{hint}, or guard it so that only the CUDA build compiles it; "
                         f"if `{name}` is your own name, declare it in this file")
            return True
        if node.type == "call_expression":  # a C++ overload or default argument of this arity
            from .source import call_args
            ov = table.overload(name, len(call_args(node)))
            if ov is not None:
                self._rewrite_api_call(node, target, name, ov.hip, e.kind)
                return True
        if e.call_template is not None:
            self._rewrite_api_call(node, target, name, e.call_template)
            return True
        if e.target != name and compiler_tests.in_test(target) and self.ported_macro(name, target) == name:
            return True  # the project's own choice between the compilers (kernelport/compiler_tests.py)
        if e.target != name:
            self.rw.replace(_elaborated(target) or target, e.target)
            self._api_note(target, name, e.target, e.kind)
            address_types.rewrite_arithmetic(self, target, name, e.target)  # `(CUdeviceptr)p + n`, where HIP's is a pointer
        self._absent_warning(target, e)
        return True

    def rename_api_tokens(self, value: Node) -> None:
        """A macro body that does not parse (`if ((call) != cudaSuccess) { ... #call ... }`): the
        table's plain renames, token by token outside string and character literals and comments.
        Anything else (a template, a name with no spelling) stays as written: without a parse
        there is no call to spell or line to refuse at."""
        table = backends.get(self.backend).api()
        if table is None:
            return
        text, out, pos = self.src.text_of(value), [], 0
        for m in _TOKENS.finditer(text):
            name = m.group(1)
            new = table.spelling(name) if name and name not in self.declared_names() else None
            if new is not None and new != name:
                out += [text[pos:m.start()], new]
                pos = m.end()
                self._api_note(value, name, new, table.get(name).kind)
        if out:
            self.rw.replace(value, "".join(out) + text[pos:])

    def _rewrite_api_call(self, node: Node, target: Node, name: str, template: str,
                          kind: str = "device-function") -> None:
        """`__stcg(p, v)` -> `(*(p) = (v))`: the call, spelled by the table's template over its
        arguments' rewritten texts; a use other than a call with the template's arity is KP210."""
        from string import Formatter

        from .source import call_args
        arity = 1 + max((int(f) for _, f, _, _ in Formatter().parse(template) if f), default=-1)
        args = call_args(node) if node.type == "call_expression" else None
        b = backends.get(self.backend)
        if args is None or len(args) != arity:
            self.problem("KP210", target, f"`{name}` has a {b.display_name} spelling only as a call with {arity} "
                         f"argument(s): {template.format(*(f'arg{i + 1}' for i in range(arity)))}",
                         f"call `{name}` directly, or write that expression yourself")
            return
        self.rw.replace(node, lambda rw, _n: template.format(*(rw.text(a) for a in args)))
        self._api_note(target, name, template.format(*(self.src.text_of(a) for a in args)), kind)

    def _optional_code(self, node: Node) -> bool:
        """Under an #if/#ifdef the file does not decide (`#ifdef DEBUG`; an include guard is no such test):
        compiled by some builds only, so a name with no spelling there does not stop the port."""
        from . import arch_branches, guards  # (an architecture test the port settles is no build's choice)
        for br in (b for b in guards.branches(node, self.src) if b.test.id not in arch_branches.decided(self)):
            t = guards.test_node(br.test)
            body = [c for c in br.test.named_children if c.type != "comment" and c != t]
            guard = br.test.type == "preproc_ifdef" and t is not None and body and body[0].type == "preproc_def" \
                and self.src.text_of(body[0].child_by_field_name("name")) == self.src.text_of(t)
            if not guard:
                return True
        return False

    def rewrite_api_namespaces(self) -> None:
        """`cub::BlockReduce` -> `hipcub::BlockReduce`, a library namespace or type the table maps (`cudaError::X`)."""
        table = backends.get(self.backend).api()
        if table is None:
            return
        for n in self.src.index.order:
            if n.type != "namespace_identifier" or self.rw.has(n):
                continue
            name = self.src.text_of(n)
            e = table.get(name)
            if e is None or e.role not in ("namespace", "type") or name in self.declared_names() or self.cuda_only_region(n):
                continue
            if e.supported and not self._qualified_overload(n, table):
                self.rw.replace(n, e.target)
                self._api_note(n, name, e.target, e.kind)

    def _qualified_overload(self, n: Node, table) -> bool:
        """`cub::DeviceScan::InclusiveSum(tmp, bytes, d, n)`: a call, through namespace `n`, that the table
        spells by its arity (`name/N`, CUB's in-place scans: the iterator twice); False where it has no row."""
        from .source import call_args
        top = n.parent
        while top is not None and top.parent is not None and top.parent.type == "qualified_identifier":
            top = top.parent
        call = top.parent if top is not None and top.type == "qualified_identifier" else None
        if call is None or call.type != "call_expression" or call.child_by_field_name("function") != top:
            return False
        full, args = re.sub(r"\s+", "", self.src.text_of(top)), call_args(call)
        ov = table.overload(full, len(args))
        if ov is None:  # an overload of as many arguments that one argument tells apart (CUB's scans with a stream)
            from .cub_overloads import holds
            ov = next((e for cond, e in table.conditional(full, len(args)) if holds(self, cond, args)), None)
        if ov is None:
            return False
        twice = [a for i, a in enumerate(args) if ov.hip.count(f"{{{i}}}") > 1 and _has_effect(a)]
        if twice:  # an argument written twice must mean one value both times
            self.problem("KP210", twice[0], f"`{full}` has a {backends.get(self.backend).display_name} spelling "
                         f"that passes this argument twice: {ov.hip}", "pass a variable holding its value")
            return True
        self._rewrite_api_call(call, top, full, ov.hip, ov.kind)
        return True

    def rewrite_cg_members(self) -> None:
        """Cooperative groups' members the backend's library lacks, spelled as the built-ins they mean
        (`block.group_dim()` -> `blockDim`, a tile's `meta_group_rank()` on ROCm 5.2); else KP210."""
        b = backends.get(self.backend)
        from . import cg_names, tile_sizes
        cg_names.check(self, b)  # the names, overloads and tiles the target's library lacks
        if not b.cg_members:
            return
        from .member_uses import base, member_calls, tiles_of_blocks
        for call, group, member in member_calls(self.src):
            if self.cuda_only_region(call) or member in b.cg_members_present.get(base(group), ()):
                continue
            target, size = b.cg_members.get((base(group), member)), group[len(base(group)) + 1:-1].split(",")[0]
            vote = target is not None and "{predicate}" in target  # a tile's vote: its size read as written
            if target is not None and "{size}" in target:  # a tile's size; reading the block or its lanes, its parent
                size = tile_sizes.spelled(self.module, size, call) or (size if vote else None)  # (a name: its value)
                target = target.replace("{size}", size) if size is not None and \
                    ("blockDim" not in target and "__lane_id" not in target or tiles_of_blocks(self.src)) else None
            args = [a for a in call.child_by_field_name("arguments").named_children if a.type != "comment"]
            if target is None:
                self.problem("KP210", call, f"cooperative groups' {group}::{member}() is not in {b.api_checked_with}'s "
                             f"{b.display_name} cooperative groups", "use the built-in it stands for (blockDim, blockIdx, "
                             "gridDim, ...), or guard it so that only the CUDA build compiles it")
            elif vote and len(args) == 1:  # the predicate as the port spells it
                self.rw.replace(call, lambda rw, _, t=target, a=args[0]: t.replace("{predicate}", rw.text(a)))
                self._api_note(call, self.src.text_of(call), target.replace("{predicate}", "p"), "cooperative-groups member")
            elif not args:  # (else an overload the table lacks)
                self.rw.replace(call, target)
                self._api_note(call, self.src.text_of(call), target, "cooperative-groups member")
        from .tile_bindings import rewrite_votes  # a tile whose type is a template parameter
        rewrite_votes(self, b)

    def rewrite_struct_fields(self) -> None:
        """A runtime struct's field as the backend's struct has it (`prop.sharedMemPerMultiprocessor`
        -> `maxSharedMemoryPerMultiProcessor` on ROCm 5.2); one it lacks is KP210 at its line."""
        b = backends.get(self.backend)
        if not b.struct_fields_present:
            return
        from .member_uses import drop_default, field_uses
        for node, typ, name in field_uses(self.src, set(b.struct_fields_present)):
            if self.cuda_only_region(node) or name in b.struct_fields_present[typ] or drop_default(self, node, typ, name):
                continue
            target = b.struct_fields.get((typ, name))
            if target is None:
                self.problem("KP210", node, f"`{typ}::{name}` is not in {b.api_checked_with}'s {b.display_name} "
                             f"counterpart of {typ}", "leave the field out of the port, or guard it so that only "
                             "the CUDA build compiles it")
            else:
                self.rw.replace(node, target)
                self._api_note(node, name, target, "struct field")

    def check_collapsed_overloads(self) -> None:
        """Overloads the API renames make one: all but one left out under `#if 0` (kernelport/collapsed_overloads.py)."""
        from . import collapsed_overloads
        collapsed_overloads.check(self)

    def check_device_launches(self) -> None:
        """A kernel launched from device code where the backend has none: KP210 (kernelport/device_launches.py)."""
        from . import device_launches
        device_launches.check(self)

    def rewrite_vector_zero_inits(self) -> None:
        """`uint2 state[25] = { 0 };` where vector types are classes (the backend says): `= {}`."""
        from .vector_types import VECTORS
        if not backends.get(self.backend).vector_types_are_classes:
            return
        for d in self.src.index.of_type("init_declarator"):
            init, decl = d.child_by_field_name("value"), d.child_by_field_name("declarator")
            tnode = d.parent.child_by_field_name("type") if d.parent is not None else None
            if init is None or decl is None or decl.type != "array_declarator" or tnode is None or \
                    self.src.text_of(tnode) not in VECTORS or init.type != "initializer_list" or self.rw.has(init):
                continue
            if [self.src.text_of(c) for c in init.named_children if c.type != "comment"] == ["0"]:
                self.rw.replace(init, "{}")
                self.note(init, "{}", f"{self.src.text_of(tnode)} is a class on {backends.get(self.backend).display_name}: "
                          "an array of it zeroes with {}")

    def rewrite_auto_coordinates(self) -> None:
        """`auto i = threadIdx.x` where the backend's coordinates are objects (its
        `auto_coordinate_type`): the variable gets CUDA's type, `unsigned int i = threadIdx.x`."""
        spelled = backends.get(self.backend).auto_coordinate_type
        if spelled is None or b"auto" not in self.src.data:
            return
        for d in self.src.index.of_type("declaration"):
            tnode = d.child_by_field_name("type")
            if tnode is None or tnode.type != "placeholder_type_specifier" or self.src.text_of(tnode) != "auto" or \
                    self.rw.has(tnode):
                continue
            decls = d.children_by_field_name("declarator")
            if decls and all(x.type == "init_declarator" and x.child_by_field_name("declarator").type == "identifier"
                             and self._coordinate(x.child_by_field_name("value")) for x in decls):
                self.rw.replace(tnode, spelled)
                self.note(tnode, spelled, f"a built-in coordinate is not an integer on "
                          f"{backends.get(self.backend).display_name}: `auto` would take its own type")

    def rewrite_whole_coordinates(self) -> None:
        """`const uint3 bid = blockIdx;` (FLAMEGPU), `blockIdx * make_uint3(...) + threadIdx` (gvdb's uint3 operators): a
        coordinate read whole (initialiser, assigned value, argument, operand, returned value; not a local or parameter of
        that name), where the backend's coordinates are objects that do not convert to uint3 (its `whole_coordinate`)."""
        spelled = backends.get(self.backend).whole_coordinate
        if spelled is None:
            return
        for n in self.src.named_under(self.src.root, "identifier", _COORDINATES):  # in source order, the others unread
            c, p = self.src.text_of(n), n.parent
            if p is None or self.rw.has(n) or not (
                    p.type == "init_declarator" and p.child_by_field_name("value") == n or
                    p.type == "assignment_expression" and p.child_by_field_name("right") == n or
                    p.type in ("argument_list", "binary_expression", "return_statement")) or \
                    template_deduction.local_named(self.module.function_at(n), c, n):
                continue
            self.rw.replace(n, (to := coordinate_targets.spelled(self, n, spelled).format(c=c)))  # (a dim3's own spelling)
            self.note(n, to, f"a built-in coordinate is no vector on {backends.get(self.backend).display_name}")

    def _coordinate(self, v: Node | None) -> bool:
        while v is not None and v.type == "parenthesized_expression" and v.named_child_count == 1:
            v = v.named_children[0]
        if v is None or v.type != "field_expression":
            return False
        a, f = v.child_by_field_name("argument"), v.child_by_field_name("field")
        return a is not None and f is not None and self.src.text_of(a) in _COORDINATES and self.src.text_of(f) in "xyz"

    def rewrite_attribute_spellings(self) -> None:
        """CUDA's attribute spellings the backend names otherwise (`__builtin_align__(32)` ->
        `__align__(32)` on HIP) or lacks (`__device_builtin__`, C++17's removed `register`), in code (not comments or directives)."""
        from .macro_tokens import file_tokens, has_word, tokens
        table, why = (b := backends.get(self.backend)).word_spellings()
        if not table or not has_word(self.src.data, table):  # (each ident token of one is a whole word)
            return
        for t in file_tokens(self.src.data):
            if t.kind != "ident" or t.text not in table or b.keeps_word(t.text, self.src.data, t.end):
                continue
            n = self.src.root.descendant_for_byte_range(t.start, t.end)
            if n is not None and (n.start_byte, n.end_byte) == (t.start, t.end):
                self.rw.replace(n, table[t.text])  # a node holds it
            else:
                self.rw.drop_span(t.start, t.end, table[t.text])  # the parse saw blanks
            self.note(n if n is not None else self.src.root, table[t.text] or "(removed)", why[t.text])
        # A macro's body is code where it is used (`#define ALIGN(n) __align__(n)`), though the parse
        # saw it blanked (source._EXTENSIONS) or as text: its words are respelled in place.
        for d in self.src.index.of_types("preproc_def", "preproc_function_def"):
            head = d.child_by_field_name("parameters") or d.child_by_field_name("name")
            value = d.child_by_field_name("value")
            if head is None or self.rw.has(d) or (value is not None and self.rw.has(value)):
                continue
            end = _DIRECTIVE_REST.match(self.src.data, head.end_byte).end()  # the node may stop at a blank
            for t in tokens(self.src.data[head.end_byte:end]):  # the body's code: no comment, no literal
                if t.kind == "ident" and t.text in table:
                    self.rw.drop_span(head.end_byte + t.start, head.end_byte + t.end, table[t.text])
                    self.note(d, table[t.text] or "(removed)", why[t.text])

    def _project_header(self, raw: str) -> bool:
        """Whether `#include <cuda_helper.h>` names the project's own header, found on the run's
        include path (-I): a file to port or keep, not a toolkit header without a counterpart."""
        from .includes import locate
        return locate(Path(self.src.path).parent, raw, tuple(self.options.get("include_dirs", ()))) is not None

    def check_arch_functions(self) -> None:
        """A device function the backend's compiler refuses for one of its archs (ROCm 5.2's
        `tex2DLod` on gfx90a, the backend's `arch_missing`): KP210 at the call, naming the arch,
        not a port that fails to compile there."""
        b = backends.get(self.backend)
        if not b.arch_missing:
            return
        from .fnscopes import callee_name
        for call in self.src.index.of_type("call_expression"):
            name = callee_name(call.child_by_field_name("function"))
            if name not in b.arch_missing or name in self.declared_names() or self.cuda_only_region(call):
                continue
            archs, what, says = b.arch_missing[name]
            self.problem("KP210", call, f"`{name}` ({what}) does not compile for {', '.join(archs)} ({says})",
                         f"keep it out of the {', '.join(archs)} build (sample without "
                         "an explicit level of detail, gradients or gather there), or guard it so that only the "
                         "CUDA build compiles it")

    def rewrite_api_include(self, node: Node, path: Node, raw: str) -> None:
        """An include no header concept covers: the table's header, the library's main header for a
        sub-header (cub/...), or KP209 for a toolkit header with no counterpart."""
        from . import atomic_refs, header_uses, includes
        b = backends.get(self.backend)
        table = b.api()
        if table is None:
            return
        inner = raw[1:-1]
        e = table.get(inner)
        if e is None or not e.is_header:
            main = b.folder_header(inner)
            pattern = backends.source().api_header_pattern
            if main is not None:
                self.rw.replace(path, raw[0] + main + raw[-1])
                self._api_note(path, inner, main, "header")
            elif raw[0] == "<" and pattern and re.fullmatch(pattern, inner) and not self.cuda_only_region(node) \
                    and not self._project_header(raw) and not includes.has_include_guarded(self.src, node, inner) and \
                    not header_uses.left_out(self, node, inner):  # a header of names the file never uses
                if not atomic_refs.include_ported(self, node, inner):
                    self.problem("KP209", node, f"<{inner}> has no {b.display_name} equivalent (HIPIFY has no such "
                                 "header)", "rewrite what it provides with portable operations, or guard the include")
        elif not e.supported:
            self.problem("KP209", node, f"<{inner}> has no {b.display_name} equivalent (HIPIFY: {e.why_unsupported})",
                         "rewrite what it provides with portable operations, or guard the include")
        elif not e.hip:
            self.rw.replace(node, "")  # nothing to include on HIP (device_launch_parameters.h)
            self._api_note(node, inner, "(removed)", e.kind)
        else:  # (a header the checked toolchain lacks: its fallback where the backend has one)
            block = include_block(self.src, b, e.hip, self.src.text_of(node))
            self.rw.replace(*((node, block) if block else (path, raw[0] + e.hip + raw[-1])))
            self._api_note(path, inner, e.hip, e.kind)
            None if block else self._absent_warning(path, e)
