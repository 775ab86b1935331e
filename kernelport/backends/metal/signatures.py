"""Signatures: kernels and helpers as Metal declares them.

A kernel's pointers are `device T* p [[buffer(i)]]`, its scalars `constant T& n [[buffer(i)]]`,
the built-in inputs its body uses attributed parameters (`uint3 tid
[[thread_position_in_threadgroup]]`), launch bounds `[[max_total_threads_per_threadgroup(N)]]`,
a template kernel one `[[host_name]]` instantiation per instance.  A helper gets one copy per
address-space signature, with the threadgroup arrays and built-ins it needs appended to its
parameters and to every call of it.  CUDA qualifiers are dropped; the user's layout is kept.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from ... import cexpr, dialect, templates
from ...model import Function, Param, _params, spaces_after_type
from ...orphan_directives import directive_lines
from ...rewrite import key
from ...source import call_args, ident_name, walk
from ...template_deduction import deduce
from .template_ids import concrete_words, host_template_ids, launch_template_args, macro_template_ids, substitute_types
from .array_params import decayed
from .host_constants import constexpr_locals
from .launch_bounds import masked_launch_bounds
from .pointer_members import device_levels
from .threadgroup import Shared

# Built-in kernel inputs, in the order they are appended to a signature.
BUILTINS = ("thread_idx", "block_idx", "block_dim", "grid_dim", "warp_size", "lane_id", "warp_id")

_VEC3 = re.compile(r"^(float|int|uint|half|short|ushort|char|uchar|long|ulong)3$")
# 3-vectors of a buffer with no packed type of CUDA's layout in MSL (2.2.3 lists packed_longn, Metal 2.3, and
# no unsigned one; ulong3 is 32 bytes where CUDA's ulonglong3 is 24): refused, never bound at Metal's stride
_UNPACKED = {"ulong": "MSL has no packed_ulong3 (2.2.3 lists packed_longn only): Metal's ulong3 is 32 bytes, "
                      "CUDA's 24, so the buffer's elements would be read at the wrong stride"}


@dataclass
class Plan:
    """What a device function needs beyond its CUDA parameters."""
    fn: Function
    sigs: list[tuple[str, ...]] = field(default_factory=list)  # address space per pointer parameter
    shared: list[Shared] = field(default_factory=list)  # hoisted threadgroup arrays it receives
    builtins: list[str] = field(default_factory=list)  # concept keys, in BUILTINS order
    callees: list[str] = field(default_factory=list)
    constants: list[str] = field(default_factory=list)  # bound __constant__ buffers it receives


class Signatures:
    """Mixin of MetalTranslator: the `functions`, `prototypes` and `needs` passes."""

    # -- functions -----------------------------------------------------------------------------
    def functions(self) -> None:
        for k in self.kernels:
            if k.launch_bounds is None and (masked := masked_launch_bounds(self.src, k)) is not None:
                self.rw.drop_span(masked[0], masked[1])  # before rendering: the gap before the kernel holds it
            self.rw.replace(k.template_node or k.node, lambda rw, n, k=k: self._render_kernel(k))
        for name, h in self.helpers.items():
            self.rw.replace(h.template_node or h.node, lambda rw, n, h=h: self._render_helper(h))
        for f in self.device.values():
            done = set()
            for call, h in self._calls(f):
                if call.id in done:
                    continue  # `op(x)` of a template's function parameter: one call, whichever function is passed
                done.add(call.id)
                args = call.child_by_field_name("arguments")
                self.rw.replace(args, lambda rw, n, h=h: self._render_call_args(n, h))

    def prototypes(self) -> None:
        """Declarations of device functions (`__device__ void f(T* p);`, primary templates): no
        CUDA qualifiers, and pointer parameters in the address spaces the definition gets."""
        from ...model import _params
        scopes = ("translation_unit", "namespace_definition", "declaration_list", "template_declaration",
                  "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "linkage_specification")
        extern = self.extern_call_sigs()  # functions declared here and defined in another source
        for n in walk(self.src.root, lambda n: n.type in scopes):
            if n.type != "declaration" or self.rw.has(n):
                continue  # (a redeclaration of a CUDA built-in is a comment already)
            drop = {key(c) for c in n.children if self.src.text_of(c) in ("__device__", "__host__", "__noinline__")}
            fd = n.child_by_field_name("declarator")
            while fd is not None and fd.type != "function_declarator":
                fd = fd.child_by_field_name("declarator") or _referenced(fd)  # `V& operator+=(...)`
            name = ident_name(fd.child_by_field_name("declarator")) if fd is not None else None
            if fd is not None and any(self.src.text_of(c) == "__global__" for c in n.children):
                # only host code launches a kernel, and it is left out: nothing needs the declaration
                whole = n
                while whole.parent is not None and whole.parent.type in ("template_declaration",
                                                                          "linkage_specification"):
                    whole = whole.parent
                self.rw.replace(whole, f"/* {name}: a kernel's declaration, left out of the Metal port */")
                continue
            if not drop or fd is None:
                continue
            plan = self.plans.get(name)
            sigs = plan.sigs if plan is not None and plan.sigs else extern.get(name) or [()]
            if len(sigs) > 1:  # one declaration per overload the definition (here or in another source) has
                self.rw.replace(n, lambda rw, node, drop=drop, sigs=sigs, fd=fd: self._declarations(node, drop, sigs, fd))
                continue
            sig = iter(sigs[0])
            for p in _params(self.src, fd):  # the prototype says what the definition says
                if p.pointer:
                    self.rw.replace(p.node, self._param_text(p, next(sig, "device"), False, None, False))
                elif self.spaced_reference(p) and (space := next(sig, "thread")) != "thread":
                    self.rw.replace(p.node, self._param_text(p, space, False, None, False))
            self.rw.replace(n, lambda rw, node, drop=drop, fd=fd: self.prototype_text(node, drop, fd))
        for n in self.src.index.of_types("field_declaration", "declaration", "function_definition"):  # a member's, in its class
            if self.rw.has(n) or self.rw.within(n) or n.parent is None or n.parent.type != "field_declaration_list" \
                    or n.type == "function_definition" and n.child_by_field_name("body") is not None:
                continue  # (a constructor's declaration parses as a `declaration`; `__device__ V() = default;` a bodiless definition)
            drop = {key(c) for c in n.children if self.src.text_of(c) in ("__device__", "__host__", "__noinline__")}
            fd = n.child_by_field_name("declarator")
            while fd is not None and fd.type != "function_declarator":
                fd = fd.child_by_field_name("declarator") or _referenced(fd)  # `V& operator+=(...)`
            h = self._defined_out_of_class(n, fd) if fd is not None else None
            if h is not None:  # the declaration the out-of-line definition matches: its spaces and extras
                self.rw.replace(n, lambda rw, node, drop=drop, h=h, fd=fd: self._member_declaration(node, drop, h, fd))
            elif drop and fd is not None:
                self.rw.replace(n, lambda rw, node, drop=drop: self._head_stitch(node, drop, {}))

    def _defined_out_of_class(self, decl: Node, fd: Node) -> Function | None:
        """The device function `C::f` defined outside class C that a declaration in C's body declares."""
        cls = decl.parent.parent if decl.parent is not None else None
        cname = cls.child_by_field_name("name") if cls is not None else None
        inner = fd.child_by_field_name("declarator")
        if cname is None or inner is None:
            return None
        want = f"{self.src.text_of(cname)}::{self.src.text_of(inner)}"
        found = [h for h in self.helpers.values() if h.name.endswith(want) and "(" not in h.name[:-len(want)]
                 and h.node.parent is not None and h.node.parent.type != "field_declaration_list"]
        return found[0] if len(found) == 1 and len(found[0].params) == len(_params(self.src, fd)) else None

    def _member_declaration(self, node: Node, drop: set, h: Function, fd: Node) -> str:
        """`void operator()(short2* p) const;` as each signature of its definition declares it."""
        plist, out = fd.child_by_field_name("parameters"), []
        for sig in self.plan_of(h).sigs:
            self.rw.replace(plist, self._helper_params(h, sig))
            try:
                out.append(self._head_stitch(node, drop, self.object_overrides(h, sig, node)))  # `void set() device;`
            finally:
                self.rw.remove(plist)
        return ("\n" + self._indent_of(node)).join(out)

    def _extras(self, h: Function) -> list[str]:
        p = self.plan_of(h)
        return [s.name for s in p.shared] + p.constants + [self.names[b] for b in p.builtins]

    @staticmethod
    def _required(f: Function) -> int:
        """Parameters before the first defaulted one: extras go there (C++ wants defaults last)."""
        return next((i for i, p in enumerate(f.params) if p.node.type == "optional_parameter_declaration"),
                    len(f.params))

    def _render_call_args(self, args: Node, h: Function) -> str:
        text = self.rw.stitch(args)
        extra = self._extras(h)
        extra = self.call_slot_names(args.parent, h, extra) if extra else extra
        if not extra:
            return text
        caller = self.module.function_at(args.parent)  # a kernel binds a constant its parameter hides as kp_
        extra = [self.constant_binding(caller, n) for n in extra] if caller is not None and caller.is_kernel else extra
        r = self._required(h)
        if r < len(h.params):  # defaulted parameters follow the extras: insert them after the required ones
            given = [self.rw.text(a) for a in call_args(args.parent)]
            return "(" + ", ".join(given[:r] + extra + given[r:]) + ")"
        inner = text[1:-1]
        return "(" + (inner + ", " if inner.strip() else "") + ", ".join(extra) + ")"

    def _head_stitch(self, fn_node: Node, drop: set, over: dict) -> str:
        """Stitch a function definition, dropping some head children (and the space after them)."""
        out, pos, held = [], fn_node.start_byte, ""
        for c in fn_node.children:
            gap = self.rw.span(fn_node, pos, c.start_byte)  # (less the spans dropped in it)
            if key(c) in drop:  # the word and the blanks before it go, a directive line among them stays
                held += directive_lines(gap)  # (`#ifdef __CUDACC__` / `__host__ __device__` / `#endif`)
                pos = c.end_byte
                continue
            if out:
                out.append(("\n" if held and not out[-1].endswith("\n") else "") + held + gap)
            else:  # the first word kept: the blanks before it go, less a directive line (and its indent)
                lead = held + directive_lines(gap)
                out.append(lead + (gap.rsplit("\n", 1)[-1] if lead else ""))
            held = ""
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
            elif t in ("inline", "__inline__", "__forceinline__") and f.is_kernel:
                drop.add(key(c))  # `__global__ inline`: a Metal kernel is an entry point, never inlined
            elif t == "__forceinline__":
                over[key(c)] = dialect.concept("forceinline").spelling("metal")
            elif t == "__global__" and (ty := f.node.child_by_field_name("type")) is not None \
                    and ty.start_byte < c.start_byte:  # `void __global__ k(`: Metal's `kernel` leads the type
                drop.add(key(c))
                over[key(ty)] = f'{dialect.concept("kernel").spelling("metal")} {self.rw.text(ty)}'
            elif t == "__global__":
                over[key(c)] = dialect.concept("kernel").spelling("metal")
            elif t == "static" and f.is_kernel:
                drop.add(key(c))  # a Metal kernel is an entry point: it cannot be static
            elif c.type == "launch_bounds":
                drop.add(key(c))
        for s, e in spaces_after_type(self.src, f):  # `T& __device__ f(`: no Metal spelling stands there
            blanks = len(self.src.data[e:e + 8]) - len(self.src.data[e:e + 8].lstrip(b" \t"))
            for span in [(s, e), (e, e + blanks)][:1 + bool(blanks)] if (s, e) not in self.rw.dropped else ():
                self.rw.drop_span(*span)  # the word, then its blanks
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
        if not params and (extra or f.is_kernel) and self.src.data[pos:plist.end_byte - 1].strip() == b"void":
            pos = plist.end_byte - 1  # `lane(void)`: C's empty list, which the extras now fill (a kernel's: `()`)
        for node, text in zip(params, entries):
            out.append(self.src.data[pos:node.start_byte].decode("utf-8"))
            out.append(text)
            pos = node.end_byte
        if len(params) >= 2:
            sep = self.src.data[params[-2].end_byte:params[-1].start_byte].decode("utf-8")
            if "#" in sep:  # `#endif` of a conditional parameter between the last two: not the extras' to repeat
                sep = ",\n" + sep.rsplit("\n", 1)[-1]
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
        from ...model import _function_declarator  # `T& f(...)` included
        return _function_declarator(f.node)

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
            q = dialect.lookup("cuda", t) if c.type == "type_qualifier" else None
            if q is not None and q.spelling(self.backend) == "":  # `__grid_constant__`: no Metal word
                pos = c.end_byte + len(self.src.data[c.end_byte:node.end_byte]) - \
                    len(self.src.data[c.end_byte:node.end_byte].lstrip(b" \t"))  # with the blank after it
                continue
            if tnode is not None and key(c) == key(tnode):
                m = _VEC3.match(t.strip())
                if buffer and p.pointer and m and m.group(1) in _UNPACKED:
                    self.problem("KP223", c, f"a buffer of {self.src.text_of(c).strip()} has no Metal layout: "
                                 f"{_UNPACKED[m.group(1)]}",
                                 "pass the components in a buffer of ulong (3 per element), or of long where they fit")
                elif buffer and p.pointer and m:
                    t = dialect.render(dialect.concept("vec3_buffer"), "metal", {"t": m.group(1)})
                if space:
                    t = f"{space} {t}"
            if ref and dnode is not None and key(c) == key(dnode):
                gap, t = "", f"& {t}"
            elif space == "device" and dnode is not None and key(c) == key(dnode):
                t = device_levels(self.src, dnode, t)  # `T** p` of device memory: every level
                if attr and (adjusted := decayed(self.rw, dnode)) is not None:
                    t = adjusted  # a kernel's `float a[N]`: the pointer C adjusts it to
            out.append(gap + t)
            pos = c.end_byte
        text = "".join(out)
        return f"{text} [[{attr}]]" if attr else text

    def _builtin_decl(self, b: str, attr: bool) -> str:
        typ, a = dialect.concept(b).attribute("metal")
        return f"{typ} {self.names[b]}" + (f" [[{a}]]" if attr else "")

    def _kernel_signature(self, k: Function) -> tuple[str, list[dict]]:
        entries, args = [], []
        textures = 0
        counts = []  # texture objects over linear memory: their lengths, after the constants
        for i, p in enumerate(k.params):
            if (lin := self.linear_texture_param(k, i)) is not None:  # a buffer, as a pointer parameter
                entries.append(f"{lin.type} {lin.name} [[buffer({i})]]")
                counts.append((p, lin, len(args)))
                args.append({"param": p, "index": i, "kind": "texture_buffer"})
            elif (tex := self.texture_param(k, i, textures)) is not None:  # [[texture(t)]] and [[sampler(t)]]
                entries.append(tex)
                args.append({"param": p, "index": textures, "kind": "texture"})
                textures += 1
            elif p.pointer:
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
        for j, c in enumerate(self.plan_of(k).constants):  # after the kernel's own buffers
            extra.append(f"{self.constant_param(c, self.constant_binding(k, c))} [[buffer({len(k.params) + j})]]")
            args.append({"constant": c, "index": len(k.params) + j, "kind": "constant"})
        for m, (p, lin, at) in enumerate(counts):
            index = len(k.params) + len(self.plan_of(k).constants) + m
            extra.append(f"{self._count_param(lin)} [[buffer({index})]]")
            args[at]["count_index"] = index
        extra += [self._builtin_decl(b, True) for b in self.plan_of(k).builtins]
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
        self.rename_overload(k)
        try:
            self._apply_prefixes(k.name, ())
            self._kernel_body_prefix(k)
            text = self._head_stitch(k.node, drop, {kk: v for kk, v in over.items() if kk != key(plist)})
        finally:
            self.rw.remove(plist)
        text = self._realign(k, text, sig)
        masked = masked_launch_bounds(self.src, k) if k.launch_bounds is None else None
        if k.launch_bounds is not None or masked:
            n = k.launch_bounds.named_children[0] if k.launch_bounds is not None and k.launch_bounds.named_children else None
            threads = masked[2] if masked else self.rw.text(n)  # (masked: dropped by `functions`)
            lb = dialect.render(dialect.concept("launch_bounds"), "metal", {"threads": threads})
            text = f"{lb}\n{text}"
        self.kernel_info[self.kernel_key(k)] = {"args": args}
        if k.template_node is not None:
            text = self.template_head(k) + text
            insts = []
            for targs in self.template_instances(k):
                host = k.name + "_" + "_".join(re.sub(r"\W+", "_", a).strip("_") for a in targs)
                if (targs := self.typed_instance(k, targs)) is None:
                    continue  # over a type Metal lacks (KP214 at the instance: instance_types.py)
                given, late = self.function_object_args(k, targs)  # (a function: after its function object)
                # the instance's parameters spell its types: `T` is not declared where the instantiation stands
                params = substitute_types(sig, dict(zip(k.template_params, given)))
                (self.late_instances if late else insts).append(templates.env().get_template(
                    "metal_signature.j2").module.instantiation(host_name=host, name=k.name, args=", ".join(given),
                                                               params=params))
                self.kernel_info.setdefault("_instances", {}).setdefault(k.name, []).append((host, targs))
            if not insts and not self.template_instances(k) and self._never_instantiated(k):
                self.left_out_kernels.add(k.name)
                self.note(k.node, "(left out)", f"template kernel '{k.name}': nothing in this translation unit names "
                          "it, so CUDA compiles no instance of it either")
                return (f"// template kernel {k.name}(): nothing in this file names it (CUDA compiles no instance "
                        "of it either): left out")
            if not self.template_instances(k):
                self.problem("KP216", k.node, f"template kernel '{k.name}' has no instantiation",
                             f"add '// @kp instantiate <...>' above '{k.name}': Metal needs each instance "
                             "named with [[host_name]]")
            text += "".join("\n" + i for i in insts)
        return text

    def _never_instantiated(self, k: Function) -> bool:
        """No code of the translation unit (the file and what it splices) names template kernel k outside
        its own definition, in code or in a macro's value, nor pastes a name (`##`) that could be k's:
        no launch, explicit instantiation, address or specialisation makes an instance of it.  Only beside
        a kernel the port has: a file of template kernels alone (a header translated by itself) keeps KP216
        and its hint, rather than an empty port."""
        from ... import backends
        if getattr(self, "includer_of_file", None) is not None or \
                not str(self.src.path).endswith(backends.get("cuda").source_extensions[:1]):
            return False  # a header, or a .cu another file includes: its includer's unit may instantiate it
        if not any(j is not k and (j.template_node is None or self.template_instances(j)) for j in self.kernels):
            return False
        data = self.src.data.decode("utf-8", "replace")
        start, end = (k.template_node or k.node).start_byte, k.node.end_byte
        start, end = len(self.src.data[:start].decode("utf-8", "replace")), len(self.src.data[:end].decode("utf-8", "replace"))
        code = re.sub(r"//[^\n]*|/\*.*?\*/", " ", data[:start] + " " + data[end:], flags=re.S)
        name = k.name.split("<")[0]  # an explicit specialisation `k<float>` is named by k<float><<<...>>>
        if re.search(r"\b%s\b" % re.escape(name), code):
            return False
        pasted = re.findall(r"(\w*)\s*##\s*(\w*)", code)
        return not any((a and name.startswith(a)) or (b and name.endswith(b)) for a, b in pasted)

    def template_instances(self, k: Function) -> list[list[str]]:
        """The template arguments of each instance of kernel k: its `@kp instantiate` lines, or
        (a plain CUDA file) the concrete instances its host code launches.  Kept per kernel: asked again
        for each other kernel (_never_instantiated), each answer walks every call of the unit."""
        memo = self.__dict__.setdefault("_kp_instances", {})
        if key(k.node) not in memo:
            memo[key(k.node)] = self._template_instances(k)
        return [list(a) for a in memo[key(k.node)]]

    def _template_instances(self, k: Function) -> list[list[str]]:
        spec = self.specs.get(k.name)
        wanted = [[a for a, _ in cexpr.split_top_level(t.text.strip()[1:-1])] for t in (spec.instantiate if spec else [])]
        if not wanted:
            for launch, host, given in launch_template_args(self.src, self.module, k):  # written, else deduced
                if given:
                    self._add_instances(wanted, launch.node, given, host)
            # `&k<float, 4>` in a host table, `launch(k<int>, ...)`, `template __global__ void k<int>(...);`
            for node, given, host in [*host_template_ids(self.src, self.module, k),
                                      *macro_template_ids(self.src, self.module, k)]:
                self._add_instances(wanted, node, given, host)
        return wanted

    def _add_instances(self, wanted: list[list[str]], node, given: list[str], host: Function | None) -> None:
        """The instances template arguments `given` (written at `node` in `host`) stand for, added to
        `wanted` once each: none where they name a parameter of an enclosing class template (not known here)."""
        if not concrete_words(self.src, node, host, ", ".join(given)):
            return
        # arguments of a host template: an instance per call of it with explicit arguments
        # (`test_copy<4, float>(n)` of `template <int V, typename T> void test_copy(...)`)
        # or with arguments it deduces (`search(d_x, n)` given `float* d_x`)
        for targs in self._concrete(", ".join(given), host, 0):
            args = [a for a, _ in cexpr.split_top_level(targs)]
            if args not in wanted:
                wanted.append(args)

    def _concrete(self, targ: str, host: Function | None, depth: int) -> list[str]:
        """`targ` (template arguments written in `host`) with host's template parameters replaced by
        the arguments of each call (written, else deduced from the declared types of its arguments)
        or explicit instantiation of host, transitively; none where one is not known."""
        params = host.template_params if host is not None else []
        words = set(re.findall(r"\w+", targ))
        consts = constexpr_locals(self.src, host, self.options.get("defines", ())) if host is not None else {}
        if words & set(consts):  # `constexpr unsigned int TILE{32U};` in the host: its value
            targ = re.sub(r"\b\w+\b", lambda m: consts.get(m.group(0), m.group(0)), targ)
            words = set(re.findall(r"\w+", targ))
        if host is not None and words & self._runtime_names(host):
            return []  # `k<T, VECTORS_PER_BLOCK>`, a local of the host function: not known here
        if not set(params) & words:
            return [targ]
        if depth > 3:
            return []
        out: list[str] = []
        for call, fn, written in self._calls_of(host.name):
            given = [a for a, _ in cexpr.split_top_level(self.src.text_of(fn.child_by_field_name(
                "arguments")).strip()[1:-1])] if written else []
            caller = self.module.function_at(call)
            if len(given) < len(params) and call.type == "call_expression":
                # `perplexity_search(d_distance, d_data, n)`: deduced from the arguments' declared types
                given = deduce(self.src, host, call_args(call), caller, given) or []
            bound = dict(zip(params, given))
            if len(given) != len(params) and set(params[len(given):]) & words:
                continue  # `template void h<true>(const float *)` leaves T to deduction: known only where targ needs none of it
            for t in self._concrete(substitute_types(targ, bound), caller, depth + 1):
                if t not in out:
                    out.append(t)
        # the launching member of a class template: its class's explicit instantiations (`template class C<float>;`)
        return out + [t for t in self.class_instantiated(targ, host, lambda t: self._concrete(t, None, 1)) if t not in out] \
            if depth == 0 else out

    def _calls_of(self, name: str) -> list:
        """(call, function node, template arguments written?) of each call or explicit instantiation
        of the function named `name`: the unit's calls indexed by callee once, not walked per question."""
        calls = self.__dict__.get("_kp_calls_by_name")
        if calls is None:
            calls = self.__dict__["_kp_calls_by_name"] = {}
            for call in self.src.index.of_types("call_expression", "template_instantiation"):
                if call.type == "call_expression":
                    fn = call.child_by_field_name("function")
                else:  # `template void launch<float>(float*, int);`: an explicit instance of the host template
                    fn = next((n for n in self.src.index.subtree(call) if n.type == "template_function"), None)
                written = fn is not None and fn.type == "template_function"
                callee = fn.child_by_field_name("name") if written else fn
                if callee is not None and callee.type == "identifier":
                    calls.setdefault(self.src.text_of(callee), []).append((call, fn, written))
        return calls.get(name, [])

    def _runtime_names(self, host: Function) -> set[str]:
        """The names of a host function's parameters and locals (what a template argument written
        there may name that is no file-scope constant)."""
        names = {p.name for p in host.params}
        for d in self.src.index.subtree(host.body):
            if d.type == "declaration":
                names |= {ident_name(x) for x in d.children_by_field_name("declarator")} - {None}
        return names

    def _render_helper(self, h: Function) -> str:
        drop, over = self._qualifiers(h)
        plan = self.plan_of(h)
        plist = self._declarator(h).child_by_field_name("parameters")
        copies = []
        for sig in plan.sigs:
            self.cur_sig[h.name] = sig
            self._apply_prefixes(h.name, sig)
            ptext = self._helper_params(h, sig)
            self.rw.replace(plist, ptext)
            over_sig = {**over, **self.object_overrides(h, sig, h.node)}  # `int idx(int x) const constant`
            try:
                text = self._realign(h, self._head_stitch(h.node, drop, over_sig), ptext)
            finally:
                self.rw.remove(plist)
            if h.template_node is not None:
                text = self.template_head(h) + text
            copies.append(text)
        self.cur_sig[h.name] = plan.sigs[0]
        # a member's overloads stand in its class, at its indentation
        return ("\n" + self._indent_of(h.node) if self.in_class_member(h) else "\n\n").join(copies)

    def _helper_params(self, h: Function, sig: tuple[str, ...]) -> str:
        """A helper's parameter list for one address-space signature, with the extras it receives."""
        entries, i = [], 0
        for j, p in enumerate(h.params):
            if (tex := self.texture_param(h, j, None)) is not None:
                entries.append(tex)
            elif p.pointer:
                entries.append(self._param_text(p, sig[i], False, None, True))
                i += 1
            elif self.spaced_reference(p):  # thread: Metal's meaning of an unqualified reference
                entries.append(self._param_text(p, None if sig[i] == "thread" else sig[i], False, None, False))
                i += 1
            else:
                entries.append(self._param_text(p, None, False, None, False))
        return self._params_text(h, entries, self.extra_params(h))  # (prototype_extras.py)

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
        for n in order * (2 if self.fn_argument_groups() else 1):  # twice: functions passed as one template
            # argument share their extras (function_args.py), and their callers see the shared ones
            f = self.device[n]
            plan = self.plans[n]
            plan.shared = [] if f.is_kernel else self._hoisted(n)
            self._apply_prefixes(n, self.cur_sig.get(n, ()))
            body = self.rw.text(f.body)
            if f.launch_bounds is not None:
                body += self.rw.text(f.launch_bounds)
            seen = body + self._macro_texts(body)  # `CUDA_KERNEL_LOOP(i, n)`: its value's built-ins are the body's
            plan.builtins = [b for b in BUILTINS if re.search(r"\b%s\b" % re.escape(self.names[b]), seen)]
            plan.constants = self.constants_used(body, plan.callees)
            self.share_fn_extras(n)
        self._specialisations_share_extras()

    def _specialisations_share_extras(self) -> None:
        """An explicit specialisation (`template <> float row<-1>(...)`) has its primary template's
        parameter list, so each gets what either needs (the recursion's end reads no `__constant__`
        array the primary passes on: without it, `row<-1>` matches no template)."""
        groups: dict[str, list[str]] = {}
        for n, f in self.helpers.items():
            if f.template_node is not None:
                groups.setdefault(f.name.split("<")[0], []).append(n)
        for names in groups.values():
            if len(names) < 2 or not any("<" in self.device[n].name for n in names):
                continue
            plans = [self.plans[n] for n in names]
            builtins = {b for p in plans for b in p.builtins}
            constants = list(dict.fromkeys(c for p in plans for c in p.constants))
            shared = list({s.name: s for p in plans for s in p.shared}.values())
            for p in plans:
                p.builtins = [b for b in BUILTINS if b in builtins]
                p.constants, p.shared = list(constants), list(shared)

    def _macro_texts(self, text: str) -> str:
        """The (rewritten) values of the macros `text` names, and of those they name."""
        values = getattr(self, "_macro_value_nodes", None)
        if values is None:
            values = self._macro_value_nodes = {
                self.src.text_of(m.child_by_field_name("name")): m.child_by_field_name("value")
                for m in self.src.index.of_types("preproc_def", "preproc_function_def")
                if m.child_by_field_name("value") is not None}
        if not values:
            return ""
        out, todo, seen = [], set(re.findall(r"[A-Za-z_]\w*", text)) & values.keys(), set()
        while todo:
            name = todo.pop()
            seen.add(name)
            value = self.rw.text(values[name])
            out.append(value)
            todo |= (set(re.findall(r"[A-Za-z_]\w*", value)) & values.keys()) - seen
        return "\n".join(out)


def _referenced(d: Node) -> Node | None:
    """The declarator a reference declarator holds (`V& operator+=(const V& o)`: no `declarator` field there)."""
    return next((c for c in d.named_children if "declarator" in c.type), None) if d.type == "reference_declarator" \
        else None
