"""CUDA's vector types declared or named as structs: `struct uchar4;`, `struct int2 *p`.

CUDA's uchar4 & co. are plain structs at global scope, so a header that is also read without CUDA's
headers forward-declares the ones it names (the "CUDA for Engineers" apps' kernel.h: `struct uchar4;
struct int2; void kernelLauncher(uchar4 *d_out, int w, int h, int2 pos);`, included by a host-only
main.cpp), and C code names them with `struct`.  A backend whose runtime has these types built in
under the same names (its `vector_types`: HIP's are aliases of HIP_vector_type<T, n>, Metal's are the
language's own) rejects both: "definition of type 'uchar4' conflicts with type alias of the same name",
"elaborated type refers to a typedef".  So, for a name in the backend's `vector_types`:

- a forward declaration at global scope (also in `#if` branches and `extern "C" { }`) goes from the port
  as a comment: every port includes the target's runtime header, which declares the type;
- an elaborated `struct uchar4` that names the type anywhere else loses its `struct`.

Neither where the file gives the name a type of its own: a struct of that name defined anywhere, or
declared inside a namespace or class (`namespace img { struct uchar4; }` declares img::uchar4).
"""
from __future__ import annotations

from typing import Any, Callable

from tree_sitter import Node

from . import backends
from .source import SourceFile

_TAGS = ("struct_specifier", "class_specifier")
# where a declaration declares a global name (model.SCOPE_CONTAINERS less namespaces and classes)
_GLOBAL = ("translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
           "linkage_specification", "declaration_list")


def _name(src: SourceFile, n: Node) -> str | None:
    name = n.child_by_field_name("name")
    return None if name is None or name.type != "type_identifier" else src.text_of(name)


def _global(n: Node) -> bool:
    p = n.parent
    while p is not None and p.type in _GLOBAL:
        if p.type == "declaration_list" and (p.parent is None or p.parent.type != "linkage_specification"):
            return False  # a namespace's body
        if p.type == "translation_unit":
            return True
        p = p.parent
    return False


def _forward(n: Node) -> Node | None:
    """The `;` of a forward declaration `struct V;` whose tag is `n`, at global scope; else None."""
    semi = n.next_sibling
    return semi if semi is not None and semi.type == ";" and _global(n) else None


def tagged_vectors(src: SourceFile, vectors: frozenset[str]) -> list[tuple[Node, Node | None]]:
    """Each `struct V` without a body that names one of `vectors` as the target has it, with the `;` that
    makes it a global forward declaration (None: an elaborated use), in source order."""
    tags = src.index.of_types(*_TAGS)  # the node index, not a second walk of the tree
    own = {_name(src, t) for t in tags
           if t.child_by_field_name("body") is not None or (_forward(t) is None and t.next_sibling is not None
                                                            and t.next_sibling.type == ";")}
    out = [(t, _forward(t)) for t in tags
           if t.child_by_field_name("body") is None and (nm := _name(src, t)) in vectors and nm not in own]
    return sorted(out, key=lambda p: p[0].start_byte)


class VectorDeclarations:
    """Mixin of Translator: the pass above."""
    src: SourceFile
    backend: str
    rw: Any
    note: Callable[..., None]

    def drop_vector_declarations(self) -> None:
        b = backends.get(self.backend)
        for tag, semi in tagged_vectors(self.src, b.vector_types) if b.vector_types else ():
            name = _name(self.src, tag)
            if semi is not None:
                self.rw.replace(tag, f"/* {self.src.text_of(tag)}; (a CUDA vector type, which {b.display_name} "
                                     "declares itself) */")
                self.rw.replace(semi, "")
                self.note(tag, "/* ... */", f"a forward declaration of CUDA's {name}, which {b.display_name} "
                          "declares itself (not as a struct)")
            else:
                self.rw.replace(tag, name)
                self.note(tag, name, f"{b.display_name}'s {name} is no struct: `struct {name}` would not name it")
