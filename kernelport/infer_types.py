"""The type a kernel parameter holds, in the names the emulator's inputs know (issue 18).

Real code rarely spells `float`: llm.c's buffers hold `floatX` (a typedef chosen by `#if`),
polybench's `DATA_TYPE` (a typedef), hecbench's `INPUT_TYPE` (a macro with a trailing comment),
cuFFT samples' `Complex` (`typedef float2 Complex`), the C library's `clock_t`.  `resolve`
follows template arguments, macros, typedefs and `using` aliases of the file and its headers
(the active `#if` branch, as kernelport.project scans them) to a numeric type of
kernelport.inputs.DTYPES, or to the struct definition a struct parameter needs.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from .cexpr import int_spelling
from .inputs import DTYPES
from .model import Module, file_scope_items

# The C library's integer typedefs (glibc on x86-64 and every CUDA target): what `clock()` returns.
STD_TYPEDEFS = {"clock_t": "long", "ptrdiff_t": "long", "ssize_t": "long", "intptr_t": "long",
                "uintptr_t": "unsigned long", "int16_t": "short", "uint16_t": "unsigned short",
                "time_t": "long", "unsigned long int": "unsigned long", "long int": "long",
                "long long int": "long long", "unsigned long long int": "unsigned long long"}
QUALIFIERS = re.compile(r"\b(?:const|volatile|__restrict__|__restrict|restrict|__grid_constant__|struct|class|"
                        r"typename)\b")
STRUCTS = ("struct_specifier", "class_specifier")
HOPS = 12  # aliases of aliases: far beyond real code


@dataclass
class Resolved:
    """A type name followed through its aliases to a numeric type or a struct."""
    name: str  # a DTYPES name where the type is numeric, else the last name reached
    struct: Node | None = None  # the struct/class definition (with its field list) it names
    via: tuple[str, ...] = ()  # the names followed, for the notes: ("floatX", "float")

    @property
    def numeric(self) -> bool:
        return self.struct is None and self.name in DTYPES


def clean(text: str) -> str:
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    return " ".join(QUALIFIERS.sub(" ", text).split())


def resolve(type_text: str, tmap: dict[str, str], scope, kernel_module: Module | None = None) -> Resolved:
    """`type_text` (a parameter's element type) followed through `tmap` (template parameter ->
    argument), type macros (via `scope`, the launch's host scope), typedefs and aliases."""
    t = clean(type_text)
    via = [t]
    modules = [m for m in (kernel_module, scope.module if scope is not None else None) if m is not None]
    for _ in range(HOPS):
        t = int_spelling(t)  # (a typedef's `long unsigned int` too)
        if t in tmap:
            t = clean(tmap[t])
        elif t in DTYPES:
            return Resolved(t, None, tuple(via))
        elif t in STD_TYPEDEFS:
            t = STD_TYPEDEFS[t]
        else:
            node = next((n for m in modules if (n := _types(m).get(t)) is not None), None)
            if node is not None and node.type in STRUCTS:
                body = node if node.child_by_field_name("body") is not None else \
                    next((n for m in modules if (n := _structs(m).get(t)) is not None), None)
                return Resolved(t, body, tuple(via))
            if node is not None:
                t = clean(node.text.decode("utf-8", "replace"))
            else:
                d = scope.lookup(t) if scope is not None and re.fullmatch(r"[A-Za-z_]\w*", t) else None
                body = next((n for m in modules if (n := _structs(m).get(t)) is not None), None)
                if body is None:  # a library's state type the emulator models (cuRAND's curandState)
                    from .emulator.frontend.curand_model import host_struct
                    body = host_struct(t)
                if body is not None:
                    return Resolved(t, body, tuple(via))
                if d is None or not (d.note == "macro" or d.note.startswith("the template argument")) or \
                        clean(d.text) == t:
                    return Resolved(t, None, tuple(via))
                t = clean(d.text)
        via.append(t)
    return Resolved(t, None, tuple(via))


def alias(name: str, scope) -> str | None:
    """The numeric type a typedef or alias name stands for where host code reads it in an
    expression (`sizeof(floatX)`), else None (a variable, a struct, an unknown name)."""
    r = resolve(name, {}, scope)
    return r.name if r.numeric and r.name != name else None


def template_bindings(fn, call, src, caller=None, pointer_name=None) -> list[tuple[str, str]]:
    """A host function template's parameters and the arguments its call names (`conv3D<float>(...)`),
    else those C++ deduces from the declared types of the call's arguments (`search(d_x, n)` with
    `float *d_x`: `const T* x` gives T = float; `pointer_name` reads `&d_x`, `(void*)d_x`); a
    parameter that cannot be deduced is left out."""
    if not fn.template_params:
        return []
    f = call.child_by_field_name("function")
    al = f.child_by_field_name("arguments") if f is not None and f.type == "template_function" else None
    if al is not None:
        return list(zip(fn.template_params, [src.text_of(a) for a in al.named_children]))
    args = call.child_by_field_name("arguments")
    argn = [a for a in (args.named_children if args else []) if a.type != "comment"]
    out = []
    for tp in fn.template_params:
        for p, a in zip(fn.params, argn):
            name = pointer_name(src.text_of(a)) if p.pointer and pointer_name else src.text_of(a).strip()
            d = caller.lookup(f"{name}#type") if caller is not None and name and clean(p.type) == tp else None
            if d is not None and d.text:
                out.append((tp, d.text))
                break
    return out


def explicit_instantiation(fn, modules) -> tuple[Module, Node, list[tuple[str, str]]] | None:
    """The template arguments of a host function template's explicit instantiation (`template void
    launch<float>(float const*, ...);`, else deduced from its parameters' types), for a template no
    call in the project instantiates: (module, the instantiation, [(parameter, argument)]), the first
    in the project's order (the original and every port are run with the same one); None without
    any, or where a parameter is neither written nor deduced."""
    for m in modules:
        for item in file_scope_items(m.source):
            if item.type != "template_instantiation":
                continue
            d = next((c for c in item.named_children if c.type == "function_declarator"), None)
            name = d.child_by_field_name("declarator") if d is not None else None
            al = name.child_by_field_name("arguments") if name is not None and name.type == "template_function" else None
            base = name.child_by_field_name("name") if al is not None else name
            if base is None or m.source.text_of(base).split("::")[-1].strip() != fn.name:
                continue
            if al is not None:
                args = [m.source.text_of(a) for a in al.named_children if a.type != "comment"]
                pairs = list(zip(fn.template_params, args))
            else:  # `template void launch(float const*, int);`: deduced from the declared types
                ps = d.child_by_field_name("parameters")
                types = [clean(m.source.text_of(t)) for p in (ps.named_children if ps is not None else [])
                         if (t := p.child_by_field_name("type")) is not None]
                pairs = [(tp, types[i]) for tp in fn.template_params for i, p in enumerate(fn.params)
                         if i < len(types) and clean(p.type) == tp]
                pairs = list(dict(reversed(pairs)).items())  # the first parameter of each T
            if len(pairs) == len(fn.template_params):
                return m, item, pairs
    return None


_CACHE: dict[tuple[str, int], tuple[Module, dict]] = {}  # per model: it is built once a run


def _cached(kind: str, m: Module, make) -> dict:
    hit = _CACHE.get((kind, id(m)))
    if hit is None or hit[0] is not m:
        if len(_CACHE) > 256:
            _CACHE.clear()
        hit = _CACHE[(kind, id(m))] = (m, make(m))
    return hit[1]


def _types(m: Module) -> dict[str, Node]:
    return _cached("types", m, _make_types)


def _structs(m: Module) -> dict[str, Node]:
    return _cached("structs", m, _make_structs)


def _make_types(m: Module) -> dict[str, Node]:
    """typedef/using names of the translation unit: the project's scan (active branches, the
    headers too) where the module came from one, else the file's own (first definition wins)."""
    if m.visible is not None and m.visible.types:
        return m.visible.types
    from .project import _type_names
    out: dict[str, Node] = {}
    for item in file_scope_items(m.source):
        if item.type in ("type_definition", "alias_declaration"):
            for name, t in _type_names(m.source, item):
                out.setdefault(name, t)
    return out


def _make_structs(m: Module) -> dict[str, Node]:
    """`struct Name { ... }` definitions (with a body) in the file and its typedefs' types."""
    out: dict[str, Node] = {}
    nodes = [*file_scope_items(m.source), *((m.visible.types.values()) if m.visible is not None else ())]
    for item in nodes:
        for n in [item, item.child_by_field_name("type")] if item.type not in STRUCTS else [item]:
            if n is not None and n.type in STRUCTS and n.child_by_field_name("body") is not None:
                name = n.child_by_field_name("name")
                if name is not None:
                    out.setdefault(name.text.decode("utf-8", "replace"), n)
    return out
