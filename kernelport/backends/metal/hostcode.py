"""Host code: what a Metal port leaves out.

A Metal port holds device code only (a Metal host binds and dispatches as the sidecar says):
host functions, and the file-scope items that only host code needs (macros, types, variables,
prototypes, `using namespace std;`), are left out, each with a one-line comment.  What device code
needs is decided by the model (`model.device_references`: the names kernels and `__device__`
functions use, closed over the definitions they name), never by the look of the text; a macro
named in an `#if`/`#ifdef` condition stays, so the preprocessor structure keeps its meaning.

Includes: Metal has no C or C++ standard library (its own is `<metal_stdlib>`, which the
prologue includes), so every `<...>` include is left out.  A project header (`"..."`) is read
from beside the source: when device code uses a name it defines, or host code launches a
kernel it defines, the port cannot stand alone and the include is an error at its line (KP209);
otherwise it is left out.
"""
from __future__ import annotations

import re
from pathlib import Path

from tree_sitter import Node

from ... import backends, dialect
from ...model import defined_names, device_references, file_scope_items, specialization_of
from ...macros import IGNORED_QUALIFIERS
from ...macro_signatures import LINKAGE
from .conversion_operators import host_conversion_operators
from .defaulted_members import defaulted_member
from .function_args import kernel_macro_spans
from .headers import condition_names, device_macro_uses, header_names, host_definition_uses, locate, prototype, wanted_names

_HOST_ONLY_DECL = ("__device__", "__constant__", "__managed__", "__shared__")
_NO_METAL_QUALIFIER = ("__host__", "__noinline__")  # Metal has no host functions, and no noinline
_C_QUALIFIERS = ("inline", "static", "__inline__")


def _without_comments(text: str) -> str:
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


class HostCode:
    """Mixin of MetalTranslator: the `leave_out_host_code` and `rewrite_includes` passes."""

    def _stem(self) -> str:
        return self.src.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]

    def leave_out_host_code(self) -> None:
        refs = {s.reference[0] for s in self.specs.values() if s.reference}
        for name, f in self.host.items():
            node = f.template_node or f.node
            if node.parent is not None and node.parent.type == "linkage_specification":
                node = node.parent  # extern "C" goes with the function
            if name in refs:
                text = f"// {name}() is the CPU reference (kernelport verify runs it): left out of the Metal port."
            elif any(l.function == name for l in self.module.launches):
                text = (f"// {name}() is a host launcher: left out (a Metal host binds and dispatches as "
                        f"{self._stem()}.metal.json says).")
            else:
                text = f"// {name}() is host code: left out of the Metal port."
            self.rw.replace(node, self.comment_for(node, text))
            self._drop_leading_macros(node)
        host_nodes = [(f.node.start_byte, f.node.end_byte) for f in self.host.values()]
        for item, fn, name in host_conversion_operators(self.src):
            self.rw.replace(item, self.comment_for(item, f"// {name}() is host code: left out of the Metal port."))
            host_nodes.append((fn.start_byte, fn.end_byte))

        def in_host(n: Node) -> bool:
            return any(s <= n.start_byte < e for s, e in host_nodes)

        # by place, not by name: a device overload of a host function's name (helper_math.h's
        # `fminf(float2, float2)` beside its host-only `fminf(float, float)`) keeps its uses
        self.module.uses = [u for u in self.module.uses if not in_host(u.node)]
        for s in self.analysis.sites:
            if in_host(s.node):  # (a site's function is its key, fnscopes; the host's are by name)
                s.confirmed = False

    def unreached_header_code(self) -> None:
        """A spliced header's device functions that nothing of the port reaches (its kernels, the
        file's device functions, what they call, the macros they expand, closed over) are left out: a
        helper header (ccminer's cuda_helper.h) holds many, and one the kernels never call must
        not refuse the port for a name Metal lacks (a double intrinsic)."""
        if self.origin is None:
            return
        def from_header(f) -> bool:
            return self.origin_location(self.src.loc(f.node)).path != self.src.path
        macros = {self.src.text_of(m.child_by_field_name("name")): m.child_by_field_name("value")
                  for m in self.src.index.of_types("preproc_def", "preproc_function_def")
                  if m.child_by_field_name("value") is not None}
        by_name: dict[str, list] = {}
        for key, f in self.device.items():
            by_name.setdefault(f.name, []).append(key)
        words = re.compile(r"[A-Za-z_]\w*")
        # an operator is called by no name (`packed[k]`, `a + b`): it is reached with its type, a
        # member operator with its class, a free one with a parameter's type; a type is named
        # through its typedefs and aliases (`typedef Packed128<floatX> x128;`)
        types = {name: item for item in file_scope_items(self.src) if item.type in ("type_definition", "alias_declaration")
                 for name in defined_names(self.src, item)}
        operators = {key: self._operand_types(f) for key, f in self.device.items() if f.name.startswith("operator")}
        todo = [k for k, f in self.device.items() if f.is_kernel or not from_header(f)]  # (kernels all stay)
        reached, seen = set(todo), set()
        # a template kernel's instances name their arguments' types (`march<TFExp>`: TFExp's operator(), which
        # the kernel calls as `(*tf)(x)`, is named by host code only)
        pending = {w for f in self.device.values() if f.is_kernel and f.template_params
                   for targs in self.template_instances(f) for a in targs for w in words.findall(a)}
        while todo or pending:
            while todo or pending:
                names = pending | (set(words.findall(self.src.text_of(self.device[todo.pop()].node))) if todo else set())
                pending = set()
                while names:
                    name = names.pop()
                    if name in seen:
                        continue
                    seen.add(name)
                    for key in by_name.get(name, ()):
                        if key not in reached:
                            reached.add(key)
                            todo.append(key)
                    if name in macros:
                        names |= set(words.findall(self.src.text_of(macros[name])))
                    if name in types:
                        names |= set(words.findall(self.src.text_of(types[name])))
            todo = [key for key, owners in operators.items() if key not in reached and owners & seen]
            reached.update(todo)
        for key, f in list(self.device.items()):
            if key in reached or f.is_kernel:
                continue
            node = f.template_node or f.node
            header = Path(self.origin_location(self.src.loc(node)).path).name
            self.rw.replace(node, self.comment_for(node, f"// {f.name}(): in \"{header}\", reached by none of this "
                                                        "file's device code: left out of the Metal port"))
            self._drop_leading_macros(node)
            self._forget(key, node)

    def comment_for(self, node, text: str) -> str:
        """`text` (a `//` comment) for what stands at `node`, as a block comment where code follows on
        the node's last line (`struct P { float g; void set(float v) { g = v; } };`: a line comment would
        take the class's `};` with it)."""
        end = self.src.data.find(b"\n", node.end_byte)
        rest = self.src.data[node.end_byte:len(self.src.data) if end < 0 else end].strip()
        return text if not rest or rest.startswith(b"//") else f"/* {text[3:]} */"

    def _operand_types(self, f) -> set[str]:
        """The types an operator function works on: a member's class, a free one's parameter types."""
        n = f.node.parent
        while n is not None and n.type not in ("struct_specifier", "class_specifier", "union_specifier"):
            n = n.parent
        name = n.child_by_field_name("name") if n is not None else None
        if name is not None:
            return {self.src.text_of(name)}
        return {w for p in f.params for w in re.findall(r"[A-Za-z_]\w*", p.type)} - {"const", "volatile"}

    def _forget(self, key: str, node: Node) -> None:
        """A device function left out of the port: no pass ports it, and what it uses is not used."""
        f = self.device.pop(key)
        self.__dict__.setdefault("_forgotten", set()).add(node.start_byte)
        self.fkeys.pop(id(f), None)  # no pass finds it by its definition either (threadgroup arrays)
        self.helpers.pop(key, None)
        inside = lambda n: node.start_byte <= n.start_byte < node.end_byte  # noqa: E731
        self.module.uses = [u for u in self.module.uses if not inside(u.node)]
        for site in self.analysis.sites:
            if inside(site.node):
                site.confirmed = False

    def written_defines(self) -> dict[str, str]:
        """The run's -D that the file names: each is a `#define` at the port's top (command_line_defines),
        so the port defines it, a type macro (`-D DW_DTYPE=float`) as much as a value's."""
        return {n: v for n, v in self.options.get("defines", ()) if re.search(r"\b%s\b" % re.escape(n), self.src.text)}

    def command_line_defines(self) -> None:
        """The run's `-D NAME=VALUE` (and `[tool.kernelport] defines`) that the file names: a Metal
        port is compiled on its own, so each is a `#define` at its top, or an `#ifdef` would take
        the other branch there and a macro's use would name nothing."""
        defines = list(self.written_defines().items())
        first = next((c for c in self.src.root.children), None)
        if not defines or first is None:
            return
        self.rw.insert_before(first, "".join(f"#define {n} {v}  // -D {n}={v} of this run: the CUDA build's\n"
                                             for n, v in defines))

    def nothing_to_port(self) -> None:
        """A file with no kernel and no device function (host code only: a `main.cu` whose kernels
        live in another file or in a library's templates) has no Metal port: an empty one is not a
        port.  A warning (KP227) at the first launch, or at the file's start, says so, and nothing
        is written (Port.empty).  A `double` in its file-scope declarations (gpu4pyscf's constant.cu:
        `__constant__ BasisProdCache c_bpcache;`, a struct of `double*` fields the host fills) is no
        refusal then: no port holds them here (a host-filled `__constant__` is bound as a buffer of
        the kernels that read it, in their files, where a `double` they use is refused); the checker,
        which still reads the empty port, passes over their lines (`moot_lines`)."""
        if self.kernels or self.device:
            return
        moot = [d for d in self.port.diagnostics if d.code == "KP214" and d.severity == "error"]
        if any(d.severity == "error" and not any(d is m for m in moot) for d in self.port.diagnostics):
            return
        from ...diagnostics import Diagnostic
        from ...errors import Location
        self.port.diagnostics[:] = [d for d in self.port.diagnostics if not any(d is m for m in moot)]
        launches = sorted(self.module.launches, key=lambda l: l.node.start_byte)
        loc = self.src.loc(launches[0].node) if launches else Location(self.src.path, 1, 1)
        where = (f"; the kernel it launches, '{launches[0].kernel}', is defined in another file" if launches else "")
        # the checker still reads the empty port (device code the parse missed shows there), but
        # not for these lines: the double it would find in them is accounted for here
        self.moot_lines = {(a.path, a.line) for a in (self.origin_location(d.location) for d in moot)}
        self.moot_lines |= self._host_item_lines()
        if moot:
            at = self.origin_location(moot[0].location)
            where += f"; the double of its file-scope declarations ({at}) is ported only with device code that uses it"
        from .thrust_work import described
        thrust = described(self) if not launches else None
        if thrust is not None:  # its device work is Thrust's, which has no Metal port
            self.port.diagnostics.append(Diagnostic(
                "KP227", self.src.loc(thrust[0]), f"no Metal port written: the file's device code is {thrust[1]}, "
                "which have no Metal port (Thrust has none); it defines no kernel or device function of its own",
                "write that work as kernels (their Metal ports are written), or keep this file on CUDA and HIP",
                "warning"))
        else:
            self.port.diagnostics.append(Diagnostic(
                "KP227", loc, f"no Metal port written: the file has no device code (no kernel or device function)"
                f"{where}; a Metal port holds device code only", "translate the files that define the kernels; a "
                "Metal host runs this host code's launches as their ports' .metal.json sidecars say", "warning"))
        self.port.empty = True

    def ported_by_includer(self) -> None:
        """A `.cu` file that another file includes and that cannot stand alone (rodinia b+tree's
        `kernel_gpu_cuda.cu`, which uses the `knode` its wrapper's earlier include defines; HeCBench
        radixsort's `RadixSort_kernels.cu` and the `CTA_SIZE` of RadixSort.cu) is a fragment of its
        includer's translation unit: its Metal port is the includer's, which splices it where it is
        included (metal/headers.py), with diagnostics located in it.  So no port of the fragment alone is
        written: a warning (KP228) at its first line names the includer, in place of what the fragment
        alone lacks (refused here, or found by the checker: `fragment_of_includer`).  A file that stands
        alone (its own port is clean) keeps it."""
        vis = self.module.visible
        found = vis.elsewhere if vis is not None and vis.elsewhere is not None else None
        if found is None or found.root is None or not str(found.root).endswith(self._fragment_suffixes()):
            return
        self.includer_of_file = found.project.included_by(found.root)  # decided at finish (rendering refuses too)

    def _fragment_suffixes(self) -> tuple[str, ...]:
        from ... import backends
        return backends.get("cuda").source_extensions[:1]  # a .cu: a header (.cuh, .h) is spliced already

    def fragment_of_includer(self) -> bool:
        """KP228 in place of the errors of a fragment's own port (see ported_by_includer); True if so."""
        got = getattr(self, "includer_of_file", None)
        if got is not None and getattr(self, "fragment_port", False):
            self.port.diagnostics[:] = [d for d in self.port.diagnostics if d.severity != "error"]
            return True
        if got is None or not any(d.severity == "error" for d in self.port.diagnostics):
            return False
        from ...diagnostics import Diagnostic
        from ...errors import Location
        g, inc = got
        first = next(d for d in self.port.diagnostics if d.severity == "error")
        self.port.diagnostics[:] = [d for d in self.port.diagnostics if d.severity != "error"]
        self.port.diagnostics.append(Diagnostic(
            "KP228", Location(self.src.path, 1, 1), f"no Metal port of its own: the file is included by {g.name} "
            f"(line {inc.location.line}), and the Metal port of a source that includes it splices it there, with what "
            f"comes before it; on its own it is refused ({first.code} at line {first.location.line}: "
            f"{first.message.split(' (')[0]})", f"translate {g}, or a source that includes it", "warning"))
        self.port.empty = self.fragment_port = True
        return True

    def qualifier_macros(self) -> None:
        """`#define HD __host__ __device__`: a macro of function qualifiers (the parse reads its uses
        as attributes, so nothing else rewrites it) is spelled as Metal spells them: `__device__`
        and `__host__` are nothing (every function of a port is device code), `__forceinline__` is
        `inline`."""
        for m in self.src.index.of_type("preproc_def"):
            value = m.child_by_field_name("value")
            if value is None or self.rw.has(m) or self.rw.has(value):
                continue
            words, out = _without_comments(self.src.text_of(value)).split(), []
            for w in words:
                c = dialect.lookup("cuda", w)
                if c is not None and c.kind == "qualifier" and c.key != "kernel":
                    out.append(c.spelling(self.backend) or "")
                elif w in _NO_METAL_QUALIFIER or w in _C_QUALIFIERS:
                    out.append("" if w in _NO_METAL_QUALIFIER else w)
                else:
                    break
            else:
                if words and out != words:
                    self.rw.replace(value, " ".join(o for o in out if o))
                    self.note(value, " ".join(o for o in out if o) or "(nothing)",
                              "a macro of CUDA function qualifiers: Metal's spelling of them")
        for m in self.src.masks:  # `__device__ struct Config {...};`: words CUDA ignores there, Metal cannot spell
            if m.name == IGNORED_QUALIFIERS:
                self.rw.drop_span(m.start, m.end)
        for k in self.kernels:  # `CUDA_GLOBAL void k(`: the use written `kernel` (before any rendering reads the gap)
            kernel_macro_spans(self, k)

    def _drop_leading_macros(self, node: Node) -> None:
        """A macro of qualifiers right before what is left out (`HOSTFN float f() {...}`) goes too, and so does
        the `extern "C"` of a definition whose signature a macro spells (kernelport/macro_signatures.py)."""
        for m in self.src.masks:
            if (m.reason == "attribute" or (m.reason, m.name) == ("grammar", LINKAGE)) and m.end <= node.start_byte and \
                    not self.src.data[m.end:node.start_byte].strip():
                gap = self.src.data[m.end:node.start_byte]
                self.rw.drop_span(m.start, m.end + (len(gap) - len(gap.lstrip(b" \t"))))  # with its blanks

    def _host_item_lines(self) -> set[tuple[str, int]]:
        """The lines of the file-scope items that name no CUDA device word (`__global__`, `__device__`, ...,
        written or behind a macro): no device code the parse missed can be there, so what the checker
        finds in them (an `#error` of an `#if` over a header's macro, a class template's host members the
        grammar misreads) is no reason to refuse a file that has no port."""
        from ...errors import Location
        words = ("__global__", "__device__", "__constant__", "__shared__", "__managed__")
        device_uses = [u.node.start_byte for u in self.module.uses if u.concept.kind not in ("runtime", "type", "header")]
        lines = set()
        for item in file_scope_items(self.src):  # (an atomic in a block the grammar put at file scope: device code)
            text = self.src.data[item.start_byte:item.end_byte].decode("utf-8", "replace")
            if not _extern_declaration(self.src, item) and (
                    any(item.start_byte <= b < item.end_byte for b in device_uses) or any(w in text for w in words) or any(
                        item.start_byte <= m.start < item.end_byte and any(w in (m.expansion or "") for w in words)
                        for m in self.src.masks)):
                continue
            for line in range(item.start_point[0] + 1, item.end_point[0] + 2):
                at = self.origin_location(Location(self.src.path, line, 1))
                lines.add((at.path, at.line))
        return lines

    def library_names(self) -> None:
        """`std::X` in the code the port keeps, where Metal's standard library has X with the same
        meaning (the backend's `library_counterparts`): `metal::X` (`std::numeric_limits<unsigned>::max()`
        in a constant device code reads, `std::min(a, b)`).  Any other `std::` name stays as written and
        the checker refuses the port at its line (KP224): Metal has no namespace std."""
        b = backends.get(self.backend)
        lib, own = b.library_namespace
        for n in self.src.index.of_types("qualified_identifier", "qualified_type_identifier"):
            scope = n.child_by_field_name("scope")
            if scope is None or scope.type != "namespace_identifier" or self.src.text_of(scope) != lib or \
                    self.rw.has(scope) or self.rw.within(scope):
                continue
            name = _head_name(self.src, n.child_by_field_name("name"))
            if name in b.library_types and n.child_by_field_name("name").type in ("type_identifier", "identifier"):
                self.rw.replace(n, name)  # `std::int16_t`: Metal's own type of that name, unqualified
                self.note(n, name, f"Metal has {name} as a type of its own")
            elif name in b.library_counterparts:
                self.rw.replace(scope, own)
                self.note(scope, own, f"Metal's standard library has {name} in namespace {own}")

    def _device_needs(self) -> set[str]:
        """What the device code the port keeps needs (not the header helpers it leaves out: llm.c's
        `using reduction_func_t = float (*)(float);` is needed by blockReduce alone)."""
        if getattr(self, "_needs_cache", None) is None:
            left_out = frozenset(self.__dict__.get("_forgotten", ()))
            self._needs_cache = device_references(self.module, left_out) | device_macro_uses(self.src, self.module)
            # the types of a template kernel's instances (`run<4, RGBA8>(...)` of a host template that
            # launches it: model.device_references sees the launch's own arguments only)
            self._needs_cache |= {w for k in self.module.kernels if k.template_node is not None
                                  for args in self.template_instances(k) for a in args for w in re.findall(r"[A-Za-z_]\w*", a)}
        return self._needs_cache

    def left_out_at(self, node) -> bool:
        """Whether `node` lies in a file-scope declaration leave_out_host_items left out of the port."""
        return any(s <= node.start_byte and node.end_byte <= e for s, e in getattr(self, "left_out_spans", ()))

    def leave_out_host_items(self) -> None:
        """File-scope items no device code needs (nor any `#if` condition) are host code (a pass
        after the device functions the port leaves out are known)."""
        needed = self._device_needs() | self._condition_names()
        self._left_out: set[str] = set()
        self.left_out_spans: list[tuple[int, int]] = []  # file-scope declarations the port leaves out
        uses = host_definition_uses(self.src, self.module)  # `C_IFACE(pack, lr)`: host functions
        items = file_scope_items(self.src)
        for start, end in uses:  # the masked bytes no item holds go (the first says why), the items too
            inside = [(i.start_byte, i.end_byte) for i in items if start <= i.start_byte and i.end_byte <= end]
            for n, m in enumerate(sorted((m for m in self.src.masks if start <= m.start and m.end <= end and
                                          not any(s <= m.start < e for s, e in inside)), key=lambda m: m.start)):
                name = self.src.data[start:end].split(b"(")[0].decode("utf-8", "replace")
                self.rw.drop_span(m.start, m.end, "" if n else f"/* {name}(...): defines host code only, left out "
                                                               f"of the Metal port */")
        for item in items:
            if any(s <= item.start_byte and item.end_byte <= e for s, e in uses):
                self.rw.replace(item, "")  # the use's arguments, which the parse saw as statements
                continue
            if self.rw.has(item) or self.module.function_at(item) is not None:
                continue
            if item.type in ("using_declaration", "static_assert_declaration"):
                # `using namespace std;`, `using std::cout;`, a static_assert on host types; a directive
                # stays where device code names what its namespace declares (`half` of `using namespace nvtype;`)
                nominated = self._nominated(item, items)
                names = self._names_of(item) | nominated
                lib, own = backends.get(self.backend).library_namespace
                if " ".join(self.src.text_of(item).split()) == f"using namespace {lib};":
                    self.rw.replace(item, f"/* {self.src.text_of(item).strip()} Metal has no namespace {lib}: "
                                          f"its standard library is namespace {own}, which the port opens */")
                    continue
                if nominated & needed and not self._names_of(item) & self._left_out:
                    continue  # its namespace keeps names device code uses: the directive stays, whatever host
                    # code the namespace also declares is left out (jpeggpu's `using namespace jpeggpu;`)
                if not names & needed or names & self._left_out:
                    self.rw.replace(item, f"/* {self.src.text_of(item).strip()} host code, left out of the Metal port */")
                continue
            if item.type == "template_instantiation":  # `template void launch<float>(float*, int);`
                fn = self._instantiated(item)  # a kernel's instance names a Metal kernel (KP216 says how)
                if fn is not None and fn not in {k.name for k in self.module.kernels}:
                    why = "host code" if fn in self.host or fn not in needed else \
                        "device code (Metal instantiates it where it is used)"
                    self.rw.replace(item, f"/* {fn}<...>: an explicit instance for {why}, left out of the Metal port */")
                elif fn is not None:  # the kernel's instance: its [[host_name]] instantiation follows its definition
                    self.rw.replace(item, f"/* {fn}<...>: an explicit instance of a kernel, named with [[host_name]] "
                                          "after its definition */")
                continue
            if (member := defaulted_member(self.src, item)) is not None:  # `G::~G() = default;`: goes with its class
                if member[0] not in needed:
                    self.rw.replace(item, f"/* {member[1]} = {self.src.text_of(item).rsplit('=', 1)[1].strip(' ;')}: "
                                          f"a member of {member[0]}, used by host code only, left out of the Metal port */")
                continue
            if item.type not in ("preproc_def", "preproc_function_def", "struct_specifier", "class_specifier",
                                 "union_specifier", "enum_specifier", "type_definition", "alias_declaration",
                                 "template_declaration", "declaration"):
                continue
            if any(c.type == "function_definition" for c in item.children):
                continue  # a function template: a function, decided above
            names = defined_names(self.src, item)
            device_decl = item.type == "declaration" and any(self.src.text_of(c) in _HOST_ONLY_DECL for c in item.children)
            # a device function's prototype nothing in the port calls goes (fractals.hpp's `__device__ float
            # cuda_mandelbulb_de(..., double pow);` in the port of a unit that neither defines nor calls it)
            unused_prototype = device_decl and prototype(item) and not names & needed
            if device_decl and not unused_prototype:
                continue  # device memory: stays, whoever uses it
            spec = specialization_of(self.src, item)  # `k_type<v512>`: needed with k_type and v512
            if names and (_host_prototype(self.src, item) or _host_extern(self.src, item)):
                pass  # no device code calls or reads it, whatever its name spells there
            elif not names or names & needed or self._plain_constant(item) or \
                    (spec is not None and spec[0] in needed and spec[1] <= needed):
                continue
            self._left_out |= names
            self.left_out_spans.append((item.start_byte, item.end_byte))
            label = ", ".join(sorted(names))
            text = f"{label}: {'a prototype nothing in the port calls' if unused_prototype else 'used by host code only'}, left out of the Metal port"
            if item.parent is not None and item.parent.type == "linkage_specification":
                item = item.parent  # `extern "C" void f();`: the linkage goes with its one declaration
            self._drop_leading_macros(item)
            for m in self.src.masks:  # `template struct P<float>;` (the parse saw no `template`): it goes too
                if m.name == "template" and m.reason == "grammar" and m.end <= item.start_byte and \
                        not self.src.data[m.end:item.start_byte].strip():
                    self.rw.drop_span(m.start, item.start_byte)
            # a block comment where code may follow on the line (`extern "C" { void f(); }`)
            self.rw.replace(item, (f"// {text}\n" if item.type.startswith("preproc") else f"/* {text} */")
                            + self._inner_defines(item, needed))

    def _inner_defines(self, item: Node, needed: set[str]) -> str:
        """The `#define`s inside a left-out item that device code uses (pedsim's ped_model.h: `#define
        SIZE 1024` in the body of its host class Model): the preprocessor defines them for the rest of
        the unit wherever they sit, so they stay, after the item's comment."""
        keep = [d for d in self.src.index.under_types(item, "preproc_def", "preproc_function_def")
                if self.src.text_of(d.child_by_field_name("name")) in needed]
        return "".join("\n" + self.src.text_of(d).rstrip("\n") for d in keep) + ("\n" if keep else "")

    def _instantiated(self, item: Node) -> str | None:
        """The function an explicit instantiation names (`f` of `template void f<float>(float*);`)."""
        d = item.child_by_field_name("declarator")
        while d is not None and d.type not in ("template_function", "identifier", "qualified_identifier"):
            d = d.child_by_field_name("declarator")
        if d is not None and d.type == "template_function":
            d = d.child_by_field_name("name")
        return self.src.text_of(d) if d is not None else None

    def _plain_constant(self, item: Node) -> bool:
        """A `#define` or a `const`/`constexpr` scalar whose value is literals and other macros: a
        constant stays in the port, used or not (a Metal host may share it)."""
        if item.type == "preproc_def":
            value = item.child_by_field_name("value")
            text = self.src.text_of(value) if value is not None else ""
            return set(re.findall(r"\b[A-Za-z_]\w*", re.sub(r"\b\d\w*", "", text))) <= set(self.module.macros)
        if item.type != "declaration":
            return False
        words = {self.src.text_of(c) for c in item.children if c.type in ("type_qualifier", "storage_class_specifier")}
        t = item.child_by_field_name("type")
        if not words & {"const", "constexpr"} or t is None or t.type not in ("primitive_type", "sized_type_specifier"):
            return False
        decls = item.children_by_field_name("declarator")
        return all(d.type == "init_declarator" and d.child_by_field_name("declarator").type == "identifier" and
                   self._names_of(d.child_by_field_name("value")) <= set(self.module.macros) for d in decls)

    def _nominated(self, item: Node, items: list[Node]) -> set[str]:
        """The names a `using namespace X;` directive brings in: those the file's `namespace X` blocks declare."""
        if not any(c.type == "namespace" for c in item.children) or not item.named_children:
            return set()
        ns = self.src.text_of(item.named_children[-1]).replace(" ", "").split("::")[-1]
        out: set[str] = set()
        for i in items:
            p = i.parent.parent if i.parent is not None else None  # an item's declaration_list, its namespace
            if p is not None and p.type == "namespace_definition" and (nm := p.child_by_field_name("name")) is not None \
                    and self.src.text_of(nm).replace(" ", "").split("::")[-1] == ns:
                out |= defined_names(self.src, i)
        return out

    def _names_of(self, node: Node) -> set[str]:
        return {self.src.text_of(n) for n in self.src.index.subtree(node)
                if n.type in ("identifier", "namespace_identifier", "type_identifier")}

    def _condition_names(self) -> set[str]:
        return condition_names(self.src)

    # -- includes ----------------------------------------------------------------------------
    def rewrite_includes(self) -> None:
        super().rewrite_includes()  # CUDA headers: the shared table (left out, or KP209)
        from ...includewalk import ruled_out
        needed = self._device_needs()
        launched = {l.kernel for l in self.module.launches}
        for n in self.src.index.of_type("preproc_include"):
            path = n.child_by_field_name("path")
            if path is None or self.rw.has(n) or self.rw.has(path):
                continue
            raw = self.src.text_of(path)
            origin = self.origin[self.src.loc(n).line - 1][0] if self.origin else self.src.path
            header = locate(Path(origin).parent, raw, self.options.get("include_dirs", ()))
            if path.type == "system_lib_string" and header is None:
                self.rw.replace(n, f"// #include {raw}: Metal has no C/C++ standard library (<metal_stdlib> is "
                                   f"included above)\n")
                continue
            inner = raw[1:-1]
            if path.type == "string_literal" and _in_body(n) and ruled_out(  # its statements are the function's
                    self.src, n, set(self.src.macros) | {d for d, _ in self.options.get("defines", ())}) is None:
                self.problem("KP234", n, f"\"{inner}\" is included inside a body: its code is the function's, "
                             "and a Metal port is one file that cannot include it",
                             "paste the fragment into the body (or make it a function) and translate again")
                continue
            used = header_names(header, self.src.included_macros) if header is not None else None
            why = ""
            if used is not None:
                defines, kernels = wanted_names(used, self.module), used[1]
                hit = sorted(defines & needed) or sorted(kernels & launched)
                if hit:
                    what = "kernel" if not (defines & needed) else "name"
                    why = (f"the port needs {what} '{hit[0]}' from \"{inner}\" (a CUDA/C++ header a Metal "
                           f"port cannot include)")
            if why:
                self.problem("KP209", n, why,
                             f"translate \"{inner}\" itself, or move what the kernels need into "
                             f"{self.src.path.rsplit('/', 1)[-1]}")
            else:
                state = "not found beside the source or on the include path" if used is None else "device code uses nothing of it"
                self.rw.replace(n, f"// #include {raw}: {state}, left out of the Metal port\n")


_DEVICE_HEAD = re.compile(r"\b(?:__device__|__global__|constexpr)\b")
_NAMED = ("identifier", "qualified_identifier", "field_identifier", "operator_name", "template_function",
          "destructor_name")


def _host_prototype(src, item: Node) -> bool:
    """A file-scope declaration of functions only, none marked for device code (no `__device__`,
    `__global__`, `constexpr`, nor a macro the parse saw as an attribute before its declarator): a
    host function's prototype.  CUDA lets no device code call one (nvcc rejects the call), so a name
    device code spells alike does not keep it (LEAP's `extern cudaError_t scale(float*, ...);` in
    cuda_utils.h beside guided_filter.cu's kernel parameter `float* scale`)."""
    if item.type != "declaration":
        return False
    decls = item.children_by_field_name("declarator")
    if not decls:
        return False
    for d in decls:
        while d is not None and d.type in ("pointer_declarator", "reference_declarator"):
            d = d.child_by_field_name("declarator")
        inner = d.child_by_field_name("declarator") if d is not None and d.type == "function_declarator" else None
        if inner is None or inner.type not in _NAMED:  # a variable, or a pointer to a function
            return False
    head_end = decls[0].start_byte
    if _DEVICE_HEAD.search(_without_comments(src.data[item.start_byte:head_end].decode("utf-8", "replace"))):
        return False
    return not any(m.reason == "attribute" and (item.start_byte <= m.start < head_end or
                   m.end <= item.start_byte and not src.data[m.end:item.start_byte].strip()) for m in src.masks)


def _host_extern(src, item: Node) -> bool:
    """`extern const unsigned int PosNoeudsVariable[_M];` at file scope: a host variable defined in another
    unit (no device memory word, no initializer, nothing masked before it).  Device code cannot read one
    (nvcc rejects it), so a device name spelled alike (ldpc's kernel parameter of that name) does not keep
    it; Metal refuses an `extern` variable outside constant memory."""
    if item.type != "declaration" or not any(c.type == "storage_class_specifier" and src.text_of(c) == "extern"
                                             for c in item.children):
        return False
    decls = item.children_by_field_name("declarator")
    if not decls or any(d.type in ("init_declarator", "function_declarator") for d in decls):
        return False
    if _DEVICE_HEAD.search(_without_comments(src.data[item.start_byte:decls[0].start_byte].decode("utf-8", "replace"))):
        return False
    return not any(item.start_byte <= m.start < decls[0].start_byte for m in src.masks)


def _in_body(n: Node) -> bool:
    """Whether `n` sits inside a function's or class's body (a fragment's include)."""
    p = n.parent
    while p is not None and p.type not in ("compound_statement", "field_declaration_list"):
        p = p.parent
    return p is not None


def _head_name(src, n: Node | None) -> str | None:
    """The first name of a qualified name's rest: `numeric_limits` of `numeric_limits<float>::max`."""
    while n is not None:
        if n.type in ("identifier", "type_identifier", "namespace_identifier"):
            return src.text_of(n)
        n = n.child_by_field_name("name" if n.type in ("template_type", "template_function", "template_method")
                                  else "scope") if n.type.startswith(("template_", "qualified_")) else None
    return None


def _extern_declaration(src, item) -> bool:
    """`extern __device__ vec3dyn dev_data1[NN];` at file scope (a host-only printFunctions.cu of an `-rdc=true`
    build; held-out set 72): a declaration of device data that another file of the build defines, no
    initializer, no body.  A file with no kernel and no device function holds nothing of it in a Metal port
    (the defining file's port has the variable), so the checker's word on its line is no reason to refuse
    a file that has no port; a definition (`__device__ float buf[16];`, no `extern`) is not this."""
    if item.type != "declaration" or any(c.type == "init_declarator" for c in item.named_children):
        return False
    return any(c.type == "storage_class_specifier" and src.text_of(c) == "extern" for c in item.children)
