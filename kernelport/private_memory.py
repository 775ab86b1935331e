"""A thread's local object larger than the target's private memory per lane: KP239 at its declaration.

p2r's `propagate-tor-test_cuda_v2.cu` (heldout52) keeps whole per-event structures in each thread's locals
(`struct MP6x6F { float data[36*ntrks]; }` with ntrks 9600: 1382400 bytes a thread).  nvcc -c takes it;
hipcc stops in the AMDGPU backend with "stack frame size (1382616) exceeds limit (262112)", far from the
cause.  The limit is the hardware's: a wave's scratch is COMPUTE_TMPRING_SIZE.WAVESIZE, 13 bits in units of
256 dwords, at most (256 * 4) * 8191 = 8387584 bytes a wave (LLVM's GCNSubtarget::MaxWaveScratchSize, checked
in AMDGPUAsmPrinter), divided among its lanes: 131056 bytes a lane on 64-wide waves (gfx90a), 262112 on 32-wide
(gfx1030); measured with ROCm 5.2's hipcc: a frame of 131072 bytes fails gfx90a and builds gfx1030.  That
figure is backend data (`Backend.scratch_wave_bytes`, per run's dialect); a backend without one is not checked.

An object is reported only where its size is proved and the compiler must keep it in memory:
  - its size: scalar and CUDA vector types, pointers (8), structs/classes/unions the unit and its headers
    define outside templates (the sum of their sized fields: a lower bound, padding left out), through
    typedef/using, times array lengths the unit decides (literals, one-value macros, file-scope and the
    function's own integer constants: device_allocas.known_constants).  A function template's `T buf[N]` is
    sized per instance the unit writes (`k<float, 4096><<<...>>>`, `template __global__ void k<...>(...);`,
    `pick<float>(v)` with N's default: kernelport/template_instances.py) and said naming it; a type from a
    template parameter the unit does not decide, a template class's instance, a library's type or a length not
    decided is not sized: nothing is said of it;
  - held in memory: indexed by a subscript not constant, or its address taken (`&x`, an argument, a pointer
    or reference initialised or assigned from it, returned).  An object only read and written at constant
    places may live in registers or vanish (SROA), so nothing is said of it;
  - in a function the compile emits: a kernel, a device function neither inline, static nor a template, a
    template the unit instantiates with arguments it writes, or one such a function calls.
It is an error where no run of the backend can hold it (no port builds), a warning where some can (the
port builds only there).  Static, `__shared__`, `__constant__` and extern objects are not a thread's."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import arch_branches, backends, lazy_re, template_instances
from .cexpr import CExprError, SIZEOF, evaluate
from .device_allocas import known_constants
from .diagnostics import Diagnostic
from .vector_types import SIZES as VECTOR_SIZES

POINTER = 8
_NOT_A_THREADS = lazy_re.compile(r"\b(static|extern|__shared__|__constant__|__managed__|thread_local)\b")
_TYPE_WORDS = lazy_re.compile(r"\b(const|volatile|struct|class|union|typename|__restrict__|restrict)\b")
_RECORDS = ("struct_specifier", "class_specifier", "union_specifier")
_DEPTH = 16
HINT = "keep it in global memory (one buffer the host allocates, each thread indexing its own part) or shrink it"


def check_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    backend = backends.get(tr.backend)
    limits = [(r, backends.get(r.dialect).scratch_wave_bytes) for r in backend.runs]
    limits = [(r, wave // r.wave, wave) for r, wave in limits if wave]
    if not limits:
        return
    least = min(lane for _, lane, _ in limits)
    instances = template_instances.of(tr.module)
    sizer = None
    for f in _emitted(tr.module, instances):
        sized: set[int] = set()  # objects sized without the template's arguments: said once, not per instance
        for inst in [None, *(instances.get(f.name, ()) if f.template_params else ())]:
            objects = []
            for decl in tr.src.index.under(f.body, "declaration"):
                if _NOT_A_THREADS.search(_specifiers(tr.src, decl)) or tr.module.function_at(decl) is not f:
                    continue
                sizer = sizer or _Sizer(tr)
                for ident, bytes_, type_text in sizer.objects(decl, f, inst):
                    if inst is None:
                        sized.add(ident.id)
                    elif ident.id in sized:
                        continue
                    if bytes_ > least and _in_memory(tr.src, f.body, decl, ident, {**sizer.known, **sizer.local_constants(f, inst)}):
                        objects.append((bytes_, ident, type_text))
            if objects:
                _report(tr, backend, limits, f, inst, objects)


def _report(tr, backend, limits, f, inst, objects) -> None:
    """KP239 at the largest of `objects` (bytes, declarator, type text) of `f` (in the instance `inst`, if one)."""
    bytes_, ident, type_text = max(objects, key=lambda o: (o[0], -o[1].start_byte))
    over = [r for r, lane, _ in limits if bytes_ > lane]
    each = ", ".join(f"{lane} bytes a lane on {r.arch} ({r.wave}-wide waves)" for r, lane, _ in limits)
    more = f"; {len(objects) - 1} more local object(s) of `{f.name}` too large" if len(objects) > 1 else ""
    every = len(over) == len(backend.runs)  # (a run without a limit, NVIDIA's in a portable port, builds it)
    where = "any target" if every else ", ".join(r.arch for r in over)
    fn = f"`{f.name}`" if inst is None else f"`{inst.text}` (instantiated at line {tr.src.loc(inst.node).line})"
    tr.port.diagnostics.append(Diagnostic(
        "KP239", tr.src.loc(ident),
        f"`{tr.src.text_of(ident)}` ({type_text}) in {fn} needs at least {bytes_} bytes of private memory "
        f"a thread; AMD scratch holds {each}: the port does not build for {where} (hipcc: 'stack frame size "
        f"exceeds limit'){more}", HINT, "error" if every else "warning"))


def _specifiers(src, decl: Node) -> str:
    """The declaration's specifiers: its text before its first declarator (`float __shared__ s[N]` too)."""
    d = decl.child_by_field_name("declarator")
    return src.data[decl.start_byte:d.start_byte if d is not None else decl.end_byte].decode("utf-8", "replace")


def _emitted(module, instances):
    """The device functions a compile of the unit emits: kernels, external device functions, templates the unit
    instantiates with arguments it writes, and those they call."""
    fns = module.functions
    todo = [f for f in fns.values() if f.is_device and f.body is not None and
            (f.is_kernel or f.name in instances or not ({"inline", "static", "__forceinline__"} & f.qualifiers or f.template_node))]
    seen = {id(f) for f in todo}
    out = []
    while todo:
        f = todo.pop()
        out.append(f)
        for call in module.source.index.under(f.body, "call_expression"):
            fn = call.child_by_field_name("function")
            g = fns.get(fn.text.decode()) if fn is not None and fn.type == "identifier" else None
            if g is not None and g.is_device and g.body is not None and id(g) not in seen:
                seen.add(id(g))
                todo.append(g)
    return sorted(out, key=lambda f: f.node.start_byte)


def _in_memory(src, body: Node, decl: Node, d: Node, known) -> bool:
    """Whether a use of the object `d` declares after `decl` needs it in memory: a subscript not constant, or its
    address (`&x`; the object or an array member passed on, `x.data` as an argument; a whole array bound to a
    pointer, a reference or returned).  An element read at constant places is a value: nothing proved."""
    name = src.text_of(d)
    array = d.parent is not None and d.parent.type == "array_declarator"
    for use in src.index.under(body, "identifier"):
        if use.start_byte < decl.end_byte or src.text_of(use) != name:
            continue
        node, p, last = use, use.parent, None
        while p is not None:
            if p.type in ("field_expression", "parenthesized_expression") and p.named_children[0].id == node.id:
                node, p, last = p, p.parent, p.type if p.type == "field_expression" else last
            elif p.type == "subscript_expression" and p.child_by_field_name("argument").id == node.id:
                idx = p.child_by_field_name("indices") or p.child_by_field_name("index")
                if idx is None or _constant_index(src, idx, known) is None:
                    return True
                node, p, last = p, p.parent, p.type
            else:
                break
        if p is None:
            continue
        if p.type == "pointer_expression" and p.child_by_field_name("operator").type == "&":
            return True
        if p.type == "argument_list" and (last is None or last == "field_expression"):
            return True
        bound = p.type in ("return_statement", "initializer_list") or \
            p.type == "init_declarator" and p.child_by_field_name("value") is not None and \
            p.child_by_field_name("value").id == node.id or \
            p.type == "assignment_expression" and p.child_by_field_name("right").id == node.id
        if bound and last is None and (array or p.type == "init_declarator" and
                                       p.child_by_field_name("declarator").type in ("reference_declarator",
                                                                                    "pointer_declarator")):
            return True
    return False


def _constant_index(src, idx: Node, known) -> int | None:
    text = src.text_of(idx).strip()
    text = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    if not names <= set(known):
        return None
    try:
        v = evaluate(text, {n: known[n] for n in names})
    except (CExprError, ValueError, TypeError, ZeroDivisionError):
        return None
    return v if isinstance(v, int) else None


class _Sizer:
    """Sizes of types the unit defines (a lower bound for a record: its sized fields' sum), None if unknown."""

    def __init__(self, tr):
        self.tr = tr
        self.known = dict(known_constants(tr))
        self.records: dict[str, tuple | None] = {}  # name -> (src, record node), None where defined twice
        self.aliases: dict[str, tuple | None] = {}  # name -> (src, type node)
        for s in arch_branches.unit_sources(tr):
            for kind in _RECORDS:
                for rec in s.index.of_type(kind):
                    name, body = rec.child_by_field_name("name"), rec.child_by_field_name("body")
                    if body is None or _in_template(rec):
                        continue
                    if name is None and rec.parent is not None and rec.parent.type == "type_definition":
                        name = rec.parent.child_by_field_name("declarator")
                    if name is not None:
                        self._add(self.records, s.text_of(name), (s, rec))
            for td in s.index.of_type("type_definition"):
                t, d = td.child_by_field_name("type"), td.child_by_field_name("declarator")
                if t is not None and d is not None and d.type == "type_identifier" and not _in_template(td) \
                        and (t.type not in _RECORDS or t.child_by_field_name("body") is None):  # `typedef struct S T;`
                    self._add(self.aliases, s.text_of(d), (s, t))
            for ad in s.index.of_type("alias_declaration"):
                n, t = ad.child_by_field_name("name"), ad.child_by_field_name("type")
                if n is not None and t is not None and not _in_template(ad):
                    self._add(self.aliases, s.text_of(n), (s, t))
        self.memo: dict[str, int | None] = {}

    @staticmethod
    def _add(table: dict, name: str, value) -> None:
        table[name] = value if name not in table or table[name] == value else None

    def objects(self, decl: Node, f, inst=None):
        """(declarator's name, bytes, type text) of each object `decl` declares whose size is proved (in the
        template instance `inst`, its arguments bound, if one)."""
        src = self.tr.src
        t = decl.child_by_field_name("type")
        if t is None:
            return
        local = self.local_constants(f, inst)
        elem = self.type_size(_bound(src.text_of(t), inst.types) if inst is not None else src.text_of(t))
        for d in decl.children_by_field_name("declarator"):
            if d.type == "init_declarator":
                d = d.child_by_field_name("declarator")
            n, ident = self._declarator(src, d, elem, local)
            if n is not None and ident is not None:
                yield ident, n, " ".join(src.text_of(t).split()) + _dims(src, d)

    def _declarator(self, src, d: Node, elem: int | None, local) -> tuple[int | None, Node | None]:
        count = 1
        while d is not None and d.type == "array_declarator":
            size = d.child_by_field_name("size")
            n = self._length(src, size, local) if size is not None else None
            if n is None:
                return None, None
            count *= n
            d = d.child_by_field_name("declarator")
        if d is None or d.type not in ("identifier", "field_identifier"):
            return (POINTER * count if d is not None and d.type == "pointer_declarator" else None), None
        return (elem * count if elem is not None else None), d

    def _length(self, src, size: Node, local) -> int | None:
        return self._value(src.text_of(size), local)

    def _value(self, text: str, local) -> int | None:
        names = set(re.findall(r"[A-Za-z_]\w*", text))
        values = {n: local.get(n, self.known.get(n)) for n in names}
        if any(v is None for v in values.values()):
            return None
        try:
            v = evaluate(text, values)
        except (CExprError, ValueError, TypeError, ZeroDivisionError):
            return None
        return v if isinstance(v, int) and v > 0 else None

    def local_constants(self, f, inst=None) -> dict[str, int]:
        """The function's own `const`/`constexpr` integers of a decided value (`constexpr int N = 64;`), and the
        value arguments of the template instance `inst` that the unit decides."""
        memo = self.__dict__.setdefault("_locals", {})
        if (id(f), inst) not in memo:
            src, got = self.tr.src, {}
            for name, text in (inst.values.items() if inst is not None else ()):
                v = self._value(text, got)
                if v is not None:
                    got[name] = v
            for decl in src.index.under(f.body, "declaration"):
                if not re.search(r"\b(const|constexpr)\b", _specifiers(src, decl)):
                    continue
                for d in decl.children_by_field_name("declarator"):
                    name, value = d.child_by_field_name("declarator"), d.child_by_field_name("value")
                    if d.type == "init_declarator" and name is not None and name.type == "identifier" and value is not None:
                        v = self._length(src, value, got)
                        if v is not None:
                            got[src.text_of(name)] = v
            memo[(id(f), inst)] = got
        return memo[(id(f), inst)]

    def type_size(self, text: str, depth: int = 0) -> int | None:
        t = " ".join(_TYPE_WORDS.sub(" ", text).split())
        if t in SIZEOF or t in VECTOR_SIZES:
            return SIZEOF.get(t) or VECTOR_SIZES[t]
        if t.endswith(("*", "&")):
            return POINTER
        if t not in self.memo:
            self.memo[t] = None  # (a record holding itself: unknown)
            self.memo[t] = self._named(t, depth) if depth < _DEPTH else None
        return self.memo[t]

    def _named(self, t: str, depth: int) -> int | None:
        if (alias := self.aliases.get(t)) is not None:
            s, node = alias
            return self.type_size(s.text_of(node), depth + 1)
        rec = self.records.get(t)
        if rec is None:
            return None
        s, node = rec
        sizes = [self._field(s, fd, depth) for fd in node.child_by_field_name("body").named_children
                 if fd.type == "field_declaration"]
        for base in (c for c in node.named_children if c.type == "base_class_clause"):
            sizes += [self.type_size(s.text_of(b), depth + 1) or 0 for b in base.named_children
                      if b.type in ("type_identifier", "qualified_identifier")]
        total = max(sizes, default=0) if node.type == "union_specifier" else sum(sizes)
        return total or None

    def _field(self, s, fd: Node, depth: int) -> int:
        """A field's bytes in its record (0 where not sized: the record's size is a lower bound)."""
        t = fd.child_by_field_name("type")
        if t is None or any(c.type == "storage_class_specifier" for c in fd.children) \
                or any(c.type == "bitfield_clause" for c in fd.children):
            return 0
        elem = self.type_size(s.text_of(t), depth + 1)
        total = 0
        for d in fd.children_by_field_name("declarator"):
            if d.type == "function_declarator" or d.type == "reference_declarator":
                continue
            n, _ = self._declarator(s, d, elem, {})
            total += n or 0
        return total


def _bound(text: str, types: dict) -> str:
    """A type's text with the instance's type arguments in place of its type parameters."""
    return re.sub(r"[A-Za-z_]\w*", lambda m: types.get(m.group(0), m.group(0)), text) if types else text


def _in_template(node: Node) -> bool:
    p = node.parent
    while p is not None:
        if p.type == "template_declaration":
            return True
        p = p.parent
    return False


def _dims(src, d: Node) -> str:
    dims = []
    while d is not None and d.type == "array_declarator":
        size = d.child_by_field_name("size")
        dims.insert(0, f"[{src.text_of(size) if size is not None else ''}]")
        d = d.child_by_field_name("declarator")
    return "".join(dims)
