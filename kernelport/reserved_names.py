"""Names the target reserves that CUDA's C++ leaves free (the backend's `reserved_words`): words of the
Metal Shading Language (`thread`, `device`, `kernel`, `uint`, `half`, ...), or a macro of HIP's headers
(`__local`, device_library_decls.h's address space: a parameter named so is "parameter may not be qualified
with an address space" to hipcc).  Where the CUDA file declares one (a variable, parameter, field,
function, type or macro), every use of it is renamed consistently (`thread` -> `thread_`, a
suffix no name of the file has), with a note for `--explain`.  A reserved word the file only
uses and never declares is the target's own (`uint` from a header's typedef left out) and stays.
A word declared only as a member of named namespaces (`namespace nvtype { typedef struct {...} half; }`)
is renamed where it names that declaration: inside those namespaces, qualified by one (`nvtype::half`),
or everywhere once a `using namespace` nominates one; outside, the word is another entity (CUDA's
`half` from cuda_fp16.h, which is Metal's `half`) and stays.
"""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends
from .source import ident_name

_NAMES = ("identifier", "type_identifier", "field_identifier", "namespace_identifier")
_CLASSES = ("class_specifier", "struct_specifier", "union_specifier")
# where a declared name sits: the declarator (through pointers, arrays, references, functions) of these
_DECLARING = ("declaration", "parameter_declaration", "optional_parameter_declaration", "field_declaration",
              "type_definition", "init_declarator", "variadic_parameter_declaration")
# or their `name`
_NAMED = ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier", "enumerator",
          "alias_declaration", "namespace_definition", "namespace_alias_definition", "preproc_def",
          "preproc_function_def", "type_parameter_declaration", "optional_type_parameter_declaration")


class ReservedWords:
    """Mixin of the translators: the `rename_reserved_words` pass."""

    def rename_reserved_words(self) -> None:
        backend = backends.get(self.backend)
        reserved = backend.reserved_words
        if not any(w in self.src.text for w in reserved):
            return  # (none written: no file walk)
        same = self._same_typedefs(backend.builtin_typedefs)
        clashes = (self._declared_names() & reserved) - same
        if not clashes:
            return
        taken = {self.src.text_of(n) for t in _NAMES for n in self.src.index.of_type(t)}
        taken |= set(getattr(self, "names", {}).values())  # (Metal's helper names: lane_id, ...)
        renamed: dict[str, str] = {}
        for name in sorted(clashes):
            new, i = f"{name}_", 1
            while new in taken:
                i += 1
                new = f"{name}_{i}"
            taken.add(new)
            renamed[name] = new
        self.renamed_words = renamed
        self.port.renamed.update(renamed)
        scoped = {name: spaces for name in renamed if (spaces := self._declaring_namespaces(name))}
        noted: set[str] = set()
        for t in _NAMES:
            for n in self.src.index.of_type(t):
                name = self.src.text_of(n)
                if name in renamed and not self.rw.has(n) and self._names_it(n, scoped.get(name)):
                    self.rw.replace(n, renamed[name])
                    if name not in noted:
                        noted.add(name)
                        self.note(n, renamed[name], backend.reserved_why.format(name=name))
        self._rename_macro_bodies(renamed, scoped)

    def _declared_names(self) -> set[str]:
        """Every name this file declares (Metal's adds the -D its port writes: metal/unported.py)."""
        return declared_names(self.src, self.module)

    def _declaring_namespaces(self, name: str) -> set[tuple[str, ...]]:
        """The named namespaces that declare `name`, where every declaration of it in the file is a
        namespace member or a local inside one (not a class member: `s.half` is used anywhere), and no
        `using namespace` nominates one of them; else empty (the word is renamed everywhere)."""
        spaces: set[tuple[str, ...]] = set()
        for t in _NAMES:
            for n in self.src.index.of_type(t):
                if self.src.text_of(n) != name or not is_declared_name(n):
                    continue
                path = _namespaces(n)
                if not path or any(p.type in _CLASSES for p in _ancestors(n)):
                    return set()
                spaces.add(path)
        if self.module.macros.get(name) is not None or any(f.name == name for f in self.module.functions.values()):
            return set()  # a macro or function of that name the model knows: not only these namespaces'
        for u in self.src.index.of_type("using_declaration"):
            if any(c.type == "namespace" for c in u.children) and u.named_children and \
                    any(self.src.text_of(u.named_children[-1]).split("::")[-1] == s[-1] for s in spaces):
                return set()
        return spaces

    def _names_it(self, n: Node, spaces: set[tuple[str, ...]] | None) -> bool:
        """Whether the word at `n` names the file's declaration (always, unless only namespaces declare it)."""
        if not spaces:
            return True
        here = _namespaces(n)
        if any(here[:len(s)] == s for s in spaces):
            return True
        q = n.parent.parent if n.parent is not None and n.parent.type == "template_type" else n.parent
        scope = q.child_by_field_name("scope") if q is not None and q.type == "qualified_identifier" else None
        return scope is not None and any(self.src.text_of(scope) == s[-1] for s in spaces)

    def _same_typedefs(self, builtin: dict[str, str]) -> set[str]:
        """`typedef unsigned int uint;`: Metal's own type of that name is the same type, so the
        typedef is left out rather than the name renamed (a header may use it before it)."""
        same = set()
        for n in self.src.index.of_type("type_definition"):
            decls = n.children_by_field_name("declarator")
            t = n.child_by_field_name("type")
            if len(decls) == 1 and decls[0].type == "type_identifier" and t is not None and \
                    builtin.get(self.src.text_of(decls[0])) == " ".join(self.src.text_of(t).split()):
                name = self.src.text_of(decls[0])
                same.add(name)
                self.rw.replace(n, f"/* typedef {name}: Metal's {name} is this type */")
        return same

    def _rename_macro_bodies(self, renamed: dict[str, str], scoped: dict[str, set[tuple[str, ...]]]) -> None:
        for arg in self.src.index.of_type("preproc_arg"):  # macro bodies are text to the grammar
            words = {w: r for w, r in renamed.items() if w not in scoped or self._names_it(arg, scoped[w])}
            pattern = re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b") if words else None
            text = self.src.text_of(arg)
            if pattern is not None and pattern.search(text) and not self.rw.has(arg):
                self.rw.replace(arg, pattern.sub(lambda m: words[m.group(1)], text))


def _ancestors(n: Node):
    p = n.parent
    while p is not None:
        yield p
        p = p.parent


def _namespaces(n: Node) -> tuple[str, ...]:
    """The named namespaces around `n`, outermost first (`namespace a::b {` is two)."""
    out: list[str] = []
    for p in _ancestors(n):
        if p.type == "namespace_definition" and (name := p.child_by_field_name("name")) is not None:
            out[:0] = name.text.decode().replace(" ", "").split("::")
    return tuple(out)


def is_declared_name(n: Node) -> bool:
    """Whether `n` is the name a declaration declares (not a use of it as a type or value)."""
    cur, p = n, n.parent
    while p is not None and p.type.endswith("declarator") and p.child_by_field_name("declarator") == cur:
        cur, p = p, p.parent
    if p is None:
        return False
    if p.type == "nested_namespace_specifier":  # `namespace a::device {`: each of its names is declared there
        while p is not None and p.type == "nested_namespace_specifier":
            p = p.parent
        return p is not None and p.type == "namespace_definition"
    if p.type in _DECLARING:
        return cur in p.children_by_field_name("declarator")
    return p.type in _NAMED and p.child_by_field_name("name") == cur


def declared_names(src, module, defines=(), skip=frozenset()) -> set[str]:
    """Every name the file declares or defines, anywhere (locals and parameters included), and `defines`;
    `skip`: (start, end) byte spans of specifiers that declare nothing of the file's own (`struct float4;`)."""
    names = set(module.macros) | {f.name for f in module.functions.values()} | set(defines)
    for f in module.functions.values():
        names |= set(f.template_params)
    for t in _DECLARING:
        for d in src.index.of_type(t):
            for decl in d.children_by_field_name("declarator"):
                nm = ident_name(decl)
                inner = decl
                while nm is None and inner is not None:
                    if inner.type in ("type_identifier", "identifier"):
                        nm = src.text_of(inner)
                    inner = inner.child_by_field_name("declarator") or (  # `typedef float (*P)[N];`: `(*P)`'s child
                        inner.named_children[0] if inner.type == "parenthesized_declarator" and inner.named_child_count == 1
                        else None)
                if nm:
                    names.add(nm)
    for t in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier", "enumerator",
              "alias_declaration", "namespace_definition", "namespace_alias_definition",
              "preproc_function_def", "preproc_def", "type_parameter_declaration",
              "optional_type_parameter_declaration"):
        for d in src.index.of_type(t):
            if (d.start_byte, d.end_byte) in skip:
                continue
            nm = d.child_by_field_name("name")
            if nm is None and d.named_children:
                nm = d.named_children[-1] if t.endswith("type_parameter_declaration") else None
            if nm is not None:  # `namespace a::b::c {` (C++17) declares each of a, b and c
                names.update(w.strip() for w in src.text_of(nm).split("::"))
    for d in src.index.of_type("function_declarator"):
        nm = d.child_by_field_name("declarator")
        if nm is not None:
            names.add(src.text_of(nm).split("::")[-1])
    for d in src.index.of_type("function_definition"):  # `CUDA_KERNEL_LOOP(i, n) {`: a statement
        if d.parent is not None and d.parent.type == "compound_statement":  # macro's arguments name its locals
            fd = d.child_by_field_name("declarator")
            params = fd.child_by_field_name("parameters") if fd is not None else None
            names.update(src.text_of(n) for n in (src.index.subtree(params) if params is not None else ())
                         if n.type in ("identifier", "type_identifier"))
    macros = src.macros
    for m in src.masks:  # what a macro the parse saw as blanks declares (`#define NS_BEGIN namespace ns {`)
        body = macros[m.name].body if m.name in macros else (m.expansion or "")
        names.update(re.findall(r"\b(?:namespace|struct|class|union|enum)\s+([A-Za-z_]\w*)", body))
    return names
