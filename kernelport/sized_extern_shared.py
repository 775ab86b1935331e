"""`extern __shared__` of a complete type: nvcc defines it, statically.  chen-pbf (heldout103) declares
`extern __shared__ Particle sharedParticles[256];` in a kernel.  Only an array of unknown bound (`extern __shared__
float s[]`, `s[][32]`) is CUDA's dynamic shared memory; of a complete type (a bound, a scalar) nvcc 13 says "extern
declaration of the entity s is treated as a static definition" (warning #20044) and the PTX holds `.shared .b8
s[1024]` in the kernel, sized by the declaration, whatever the launch passes as its dynamic bytes, initialised by
nothing.  clang refuses it ("__shared__ variable 's' cannot be 'extern'"), so the port as written did not compile.
The model reads such a declaration as a static shared array (model.SharedArray.dynamic is `unbounded` below: the
lint's and Metal's shared-memory rules then see what nvcc builds), and where the backend says its compiler refuses
it (`Backend.extern_shared_definitions_refused`, data) the port writes nvcc's definition on the declaration's line:
  - a class type (any type not a built-in one: a class, a typedef, a template parameter) in a function body, one
    declarator, no other attribute: the same bytes uninitialised, named with the declared type
    (kernelport/shared_storage.py's form: `__shared__ unsigned char kp_s_storage[sizeof(T[256])] ...; T (&s)[256] =
    *reinterpret_cast<T (*)[256]>(kp_s_storage);`): nvcc runs no constructor there (Particle has none by default,
    and default member initializers clang would refuse on a `__shared__` definition);
  - otherwise (a built-in element type; file scope; several declarators; a lambda that may copy it): `extern` is
    dropped (`__shared__ float s[256];`), nvcc's own reading; a class there is left to hipcc to report.
Left alone: an array of unknown bound (dynamic: HIP takes `extern __shared__ T s[]` as CUDA does), and a declaration
mixing the two kinds (`extern __shared__ float a[], b[4];`: hipcc reports it)."""
from __future__ import annotations

from tree_sitter import Node

from . import backends
from .source import ident_name

_BUILTIN = ("primitive_type", "sized_type_specifier")


def unbounded(d: Node) -> bool:
    """Whether declarator `d` (of an `extern __shared__` declaration) declares an array of unknown bound, nvcc's dynamic
    shared memory (`s[]`, `s[][32]`, `*s[]`).  A scalar or a bounded array: False.  A declarator read as neither (the
    parse saw macro text): True, the dynamic reading kernelport held before."""
    first, n = None, d
    while n is not None and n.type in ("init_declarator", "array_declarator", "pointer_declarator",
                                       "parenthesized_declarator", "reference_declarator"):
        if n.type == "array_declarator":
            first = n  # the innermost is the first bracket
        n = n.child_by_field_name("declarator") or (n.named_children[-1] if n.type in (
            "parenthesized_declarator", "reference_declarator") and n.named_children else None)
    if n is None or n.type != "identifier":
        return True
    return first is not None and first.child_by_field_name("size") is None


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    if not backends.get(tr.backend).extern_shared_definitions_refused or b"extern" not in tr.src.data:
        return
    by_decl: dict[int, list] = {}
    for sa in tr.module.shared:
        by_decl.setdefault(sa.node.id, []).append(sa)
    for arrays in by_decl.values():
        decl = arrays[0].node
        ext = [c for c in decl.children if c.type == "storage_class_specifier" and tr.src.text_of(c) == "extern"]
        if not ext or any(sa.dynamic for sa in arrays):
            continue
        tr.rw.replace(ext[0], "")
        after = ext[0].next_sibling
        if after is not None and tr.src.data[ext[0].end_byte:after.start_byte].isspace():
            tr.rw.drop_span(ext[0].end_byte, after.start_byte)
        if not _as_storage(tr, decl, arrays[0]):
            text = tr.src.text_of(decl)
            tr.note(decl, text.replace("extern", "", 1).lstrip(), f"`{arrays[0].name}`: `extern __shared__` of a "
                    "complete type is a static definition for nvcc (warning #20044) and the target's compiler refuses "
                    "`extern` there, so the port defines it")


def _as_storage(tr, decl: Node, sa) -> bool:
    """shared_storage's raw-bytes form for a class-typed one in a function body; False where it does not apply."""
    from . import shared_storage
    decls = decl.children_by_field_name("declarator")
    t = decl.child_by_field_name("type")
    if sa.function is None or len(decls) != 1 or t is None or t.type in _BUILTIN:
        return False
    if any(c.type not in ("storage_class_specifier", "type_qualifier") and c not in (t, decls[0]) and c.type != ";"
           for c in decl.children) or any(c.type == "type_qualifier" and tr.src.text_of(c) != "__shared__"
                                          for c in decl.children):
        return False  # an attribute, `const`, ...: the reference would carry it
    d, dims, n = decls[0], [], decls[0]
    while n is not None and n.type == "array_declarator":
        dims.insert(0, tr.src.text_of(n.child_by_field_name("size")))
        n = n.child_by_field_name("declarator")
    if n is None or n.type != "identifier" or shared_storage._copied_by_lambda(tr.src, decl, ident_name(n) or ""):
        return False
    shared_storage._rewrite(tr, decl, d, n, tr.src.text_of(t), dims,
                            "`extern __shared__` of a complete type, which nvcc defines (warning #20044)")
    return True
