"""Member functions defined out of the class with an execution space their declaration lacks.

nvcc takes `__device__` on an out-of-line definition (`__device__ void Lock::acquire() {...}`)
for a member declared in the class without it; clang, which compiles HIP, keeps host and device
functions apart and refuses the definition ("out-of-line definition does not match any
declaration").  Where the backend's compiler needs them (`Backend.member_spaces_in_class`), the
port gives the in-class declaration the definition's `__host__`/`__device__`: what nvcc made of
it, so nvcc still compiles the port the same.

A free function (or template) declared with no space and defined with some is the converse: the
port's prototype says the definition's spaces (`_prototypes_take_defined_spaces`).

The same holds for a function template's explicit specializations (`Backend.specialization_spaces_match`):
clang matches `template<> __host__ __device__ float f(float4)` only to a primary template declared
`__host__ __device__` too ("no function template matches function template specialization"), where
nvcc takes each as written.  The port gives the primary and every specialization of it all the
spaces any of them has (a declaration with none runs on the host).
"""
from __future__ import annotations

import bisect
import re

from tree_sitter import Node

from . import backends

_SPACES = ("__host__", "__device__")


def _spaces(text: str) -> tuple[str, ...]:
    return tuple(s for s in _SPACES if re.search(rf"\b{s}\b", text))


def _declarator(node: Node) -> Node | None:
    """The function_declarator of a declaration or definition (under pointers and references)."""
    d = node.child_by_field_name("declarator")
    while d is not None and d.type in ("pointer_declarator", "reference_declarator"):
        d = d.child_by_field_name("declarator") or next((c for c in d.named_children if c.type.endswith("declarator")), None)
    return d if d is not None and d.type == "function_declarator" else None


def _class_and_member(q: Node) -> tuple[Node, Node | None]:
    """The class and the member a qualified definition's name says: `Class` and `f` in
    `ns::inner::Class::f` too (the grammar nests each `::` to the right)."""
    scope, name = q.child_by_field_name("scope"), q.child_by_field_name("name")
    while name is not None and name.type == "qualified_identifier" and name.child_by_field_name("scope") is not None:
        scope, name = name.child_by_field_name("scope"), name.child_by_field_name("name")
    return scope, name


def _arity(fd: Node) -> int:
    params = fd.child_by_field_name("parameters")
    return 0 if params is None else sum(c.type in ("parameter_declaration", "optional_parameter_declaration",
                                                   "variadic_parameter_declaration") for c in params.named_children)


_SCOPES = ("translation_unit", "declaration_list", "linkage_specification", "preproc_if", "preproc_ifdef",
           "preproc_else", "preproc_elif")


def _free_function(src, node: Node) -> tuple[tuple[str, int], tuple[str, ...]] | None:
    """(name, arity) and the spaces written before the declarator of a free function's declaration
    or definition (`HD` macros' expansions too), None where `node` is none."""
    fd = _declarator(node)
    name = fd.child_by_field_name("declarator") if fd is not None else None
    if name is None or name.type != "identifier":
        return None
    head = src.data[node.start_byte:fd.start_byte].decode("utf-8", "replace")
    if re.search(r"\b__global__\b", head):
        return None
    words = set(src.macro_words(node.start_byte, fd.start_byte)) if src.masks else set()
    return (src.text_of(name), _arity(fd)), tuple(s for s in _SPACES if s in words or re.search(rf"\b{s}\b", head))


def exact_key(src, node: Node, key: tuple[str, int]) -> tuple:
    """(name, arity, the parameters' types) of a free function's declaration or definition: a definition
    takes only the spaces of a declaration of its own parameter types (a host overload `int cp(const char*)`
    is not the lone `__host__ __device__ float cp(float)`); names and top-level const set aside."""
    params = _declarator(node).child_by_field_name("parameters")
    return (*key, tuple(_parameter_type(src, p) for p in (params.named_children if params is not None else ())))


def _parameter_type(src, p: Node) -> str:
    """A parameter's type less its name and its top-level const: `const float x` and `float` read `float`,
    `const int * const q` reads `const int *` (the pointee's const kept)."""
    quals = sorted(src.text_of(c) for c in p.named_children if c.type == "type_qualifier")
    t, ops, d = p.child_by_field_name("type"), [], p.child_by_field_name("declarator")
    while d is not None and d.type in ("pointer_declarator", "reference_declarator", "array_declarator",
                                       "abstract_pointer_declarator", "abstract_reference_declarator",
                                       "abstract_array_declarator"):
        kind = "*" if "pointer" in d.type else "&" if "reference" in d.type else "[]"
        if kind == "&" and src.text_of(d).startswith("&&"):
            kind = "&&"
        ops.append(kind + "".join(src.text_of(c) for c in d.named_children if c.type == "type_qualifier"))
        d = d.child_by_field_name("declarator") or next((c for c in d.named_children if c.type.endswith("declarator")), None)
    if d is not None and d.type not in ("identifier", "field_identifier"):  # a function pointer's, a parenthesised
        return "".join(src.text_of(p).split())  # declarator's: as written (told apart from everything else)
    if ops:  # the innermost declarator's qualifiers are the parameter's own (`int * const q`): one type
        ops[-1] = ops[-1].rstrip("constvolatile")
    else:  # a by-value parameter's const
        quals = [q for q in quals if q not in ("const", "volatile")]
    return " ".join([*quals, "".join(src.text_of(t).split()) if t is not None else "", *ops])


def head_words(src, node: Node, fd: Node) -> tuple[str, ...]:
    """The words written before the declarator, a masked macro's name and its expansion's words where
    known (`CUDA_FUNC_IN`, masked right before a member's declaration, which the grammar then starts
    after it; a header parsed alone knows no expansion: its includer resolves the name)."""
    start, masks, data = node.start_byte, src.masks, src.data
    i = bisect.bisect_right(masks, start, key=lambda m: m.end) - 1
    while i >= 0 and not data[masks[i].end:start].strip():
        start, i = masks[i].start, i - 1
    words = re.findall(r"[A-Za-z_]\w*", data[start:fd.start_byte].decode("utf-8", "replace"))
    return tuple(words) + tuple(src.macro_words(start, fd.start_byte) if masks else ()) + \
        _unmasked_expansions(src, start, fd.start_byte)


def _unmasked_expansions(src, start: int, end: int) -> tuple[str, ...]:
    """The expansions' words of the known macros named in [start, end) that no mask covers: the grammar
    read hipims' second `HEMI_DEV_CALLABLE_INLINE_MEMBER Vector3(const Vector1& a);` as a declaration
    of type `HEMI_DEV_CALLABLE_INLINE_MEMBER`, so only the first constructor's macro was masked (and
    expanded); its words must come out the same as the masked one's, or the two constructors of one
    arity read as declared differently and the out-of-class definitions were given no space."""
    masks, out = src.masks, []
    for m in re.finditer(rb"[A-Za-z_]\w*", src.data[start:end]):
        at = start + m.start()
        k = bisect.bisect_right(masks, at, key=lambda x: x.start) - 1
        if k >= 0 and masks[k].start <= at < masks[k].end:
            continue  # macro_words gave a masked name's expansion
        name = m.group().decode("utf-8", "replace")
        mac = src.macros.get(name) if name not in _SPACES else None
        if mac is not None and mac.body:
            out += re.findall(r"[A-Za-z_]\w*", mac.body)
    return tuple(out)


def spaces_of(words, macros) -> tuple[str, ...]:
    """The execution spaces among `words`, a macro's expansion's included (`macros`: name -> its body)."""
    found, todo, seen = set(), list(words), set()
    while todo:
        w = todo.pop()
        if w in _SPACES:
            found.add(w)
        elif w in macros and w not in seen and len(seen) < 64:
            seen.add(w)
            todo.extend(re.findall(r"[A-Za-z_]\w*", macros[w] or ""))
    return tuple(s for s in _SPACES if s in found)


def _member_declarations(src):
    """Each class's member function declarations: ('Class::name', arity) -> (the declaration, its declarator)."""
    for n in src.index.of_types("class_specifier", "struct_specifier"):
        body, cls = n.child_by_field_name("body"), n.child_by_field_name("name")
        for decl in body.named_children if body is not None and cls is not None else ():
            inner = decl.named_children[-1] if decl.type == "template_declaration" and decl.named_children else decl
            fd = _declarator(inner) if inner.type in ("declaration", "field_declaration") else None
            name = fd.child_by_field_name("declarator") if fd is not None else None
            if name is not None and name.type in ("identifier", "field_identifier"):
                yield (f"{src.text_of(cls)}::{src.text_of(name)}", _arity(fd)), inner, fd


def merge_spaces(known: dict, key, spaces: tuple[str, ...]) -> None:
    """Record that `key` (name, arity) is declared with `spaces` (() for none: a host prototype); two
    declarations that differ leave (), so no overload's spaces are guessed for a bare definition."""
    known[key] = () if known.get(key, spaces) != spaces else spaces


def declared_spaces(src) -> dict[tuple[str, int], tuple[str, ...]]:
    """The file's prototypes of free functions that name an execution space (`int __device__
    __host__ sha512(const unsigned char *m, size_t n, unsigned char *out);`): (name, arity) -> spaces,
    or the words before the declarator where macros stood there (`CTL_EXPORT CUDA_DEVICE CUDA_HOST float
    legendreP(int l, float x);`, resolved by the includer: spaces_of);
    and its classes' member function declarations (`CTL_EXPORT CUDA_DEVICE CUDA_HOST static float
    eval(float x);` in `class Spline`): ('Spline::eval', arity) -> the words before the declarator
    (head_words: macro names its includer resolves, spaces_of), left out where two declarations of
    that name and arity differ (no overload is guessed). A free function's overloads of one arity
    declared with different spaces (GpuShareSat's `__device__ __host__ void printC(MultiAgg);` beside
    `void printC(VarUpdate);`) map to (), as a host prototype does: none is guessed (merge_spaces, which
    keeps that across the headers of a unit too)."""
    out: dict[tuple[str, int], tuple[str, ...]] = {}
    for n in src.index.of_type("declaration"):
        got = _free_function(src, n) if n.parent is not None and n.parent.type in _SCOPES else None
        if got is not None and not got[1] and src.masks:  # `CTL_EXPORT CUDA_DEVICE CUDA_HOST float legendreP(int l, float x);`:
            words = head_words(src, n, _declarator(n))  # the macros' names, which the includer resolves
            got = (got[0], words) if words else got
        if got is not None:
            merge_spaces(out, *got)
            merge_spaces(out, exact_key(src, n, got[0]), got[1])
    if b"__device__" in src.data or src.masks or b"class" in src.data or b"struct" in src.data:
        # (a class may say its members' spaces through a macro another header defines: OpenHurricane's
        # `cu_dual`, in a header that writes no `__device__` and parses without a mask)
        members: dict[tuple[str, int], tuple[str, ...]] = {}
        for key, inner, fd in _member_declarations(src):
            words = head_words(src, inner, fd)
            members[key] = words if members.get(key, words) == words else ()
        out.update((k, v) for k, v in members.items() if v)
    return out


class MemberSpaces:
    """Mixin of the Translator: the pass that gives in-class declarations their definitions' spaces."""

    def rewrite_member_spaces(self) -> None:
        if not backends.get(self.backend).member_spaces_in_class:
            return
        text = self.src.text_of
        classes: dict[str, Node] = {}
        wanted: dict[tuple[str, str, int], tuple[str, ...]] = {}
        bare: dict[tuple[str, str, int], list[Node]] = {}  # out-of-class definitions that name no space
        spaced: dict[tuple[str, str, int], list[tuple[Node, tuple[str, ...]]]] = {}  # and those that name some
        for n in self.src.index.of_types("class_specifier", "struct_specifier"):
            if n.child_by_field_name("body") is not None and n.child_by_field_name("name") is not None:
                classes.setdefault(text(n.child_by_field_name("name")), n)
        for n in self.src.index.of_type("function_definition"):
            fd = _declarator(n)
            q = fd.child_by_field_name("declarator") if fd is not None else None
            if q is None or q.type != "qualified_identifier" or q.child_by_field_name("scope") is None:
                continue
            scope, name = _class_and_member(q)
            if scope.type == "template_type" and text(scope) not in classes:  # `Box<T>::get`, not
                scope = scope.child_by_field_name("name")  # an explicit specialization's `complex<float>::`
            spaces = _spaces(self.src.data[n.start_byte:fd.start_byte].decode("utf-8", "replace")) \
                or (self._written_spaces(n, fd) if name is not None else ())  # `inline HD complex<float>::complex`
            if spaces and name is not None:
                wanted[(text(scope), text(name), _arity(fd))] = spaces
                if not self.cuda_only_region(n):
                    spaced.setdefault((text(scope), text(name), _arity(fd)), []).append((n, spaces))
            elif name is not None and not self.cuda_only_region(n):
                bare.setdefault((text(scope), text(name), _arity(fd)), []).append(n)
        self._definitions_take_declared_spaces(bare)
        self._definitions_take_missing_spaces(spaced)
        for (cls, name, arity), spaces in wanted.items():
            body = classes[cls].child_by_field_name("body") if cls in classes else None
            if body is None:
                continue
            for decl in body.named_children:
                inner = decl.named_children[-1] if decl.type == "template_declaration" and decl.named_children else decl
                if inner.type not in ("declaration", "field_declaration"):
                    continue
                fd = _declarator(inner)
                if fd is None or fd.child_by_field_name("declarator") is None or \
                        text(fd.child_by_field_name("declarator")) != name or _arity(fd) != arity:
                    continue
                said = _spaces(self.src.data[inner.start_byte:fd.start_byte].decode("utf-8", "replace")) \
                    or self._written_spaces(inner, fd)
                if said and not set(said) < set(spaces):
                    continue  # the declaration says where it runs (a macro too), no fewer than the definition
                # (declared `__device__`, defined `__host__ __device__`: nvcc treats it as both, warning 20036)
                words = " ".join(s for s in spaces if s not in said)
                self.rw.insert_before(inner, words + " ")
                self.note(inner, words, f"'{cls}::{name}' is defined {words} out of the class; clang needs the "
                          "declaration to say so too")

    def _written_spaces(self, node: Node, fd: Node) -> tuple[str, ...]:
        return spaces_of(head_words(self.src, node, fd), self._macro_bodies())

    def _macro_bodies(self) -> dict[str, str]:
        """Every macro this file sees, name -> its body (its own over its headers'), once per file.
        A header's macro is the project model's active definition (`Visible.macros`) over the one the
        file was parsed with: OpenHurricane's cuPreset.hpp defines `cu_host` as `__host__` under
        CUDA_PARALLEL and empty in its #else, and the parse's copy held the empty one."""
        got = self.__dict__.get("_kp_macro_bodies")
        if got is None:
            from .macros import definitions
            vis = self.module.visible
            got = self.__dict__["_kp_macro_bodies"] = {
                **{n: m.body for n, m in self.src.included_macros.items()},
                **({n: m.value for n, m in vis.macros.items()} if vis is not None else {}),
                **{n: m.body for n, m in definitions(self.src.text, self.src.path).items()}}
        return got

    def _definitions_take_declared_spaces(self, bare: dict) -> None:
        """A member declared with spaces in its class (`CUDA_FUNC_IN NormalizedT<S> normalized() const;`,
        `CUDA_FUNC_IN` being `__host__ __device__ inline`, in this file or a header it includes) and
        defined out of the class with none: nvcc gives the definition the declaration's spaces, clang
        reads a host function overloading the declared one.  The port's definition says them."""
        if not bare:
            return
        known, bodies = self._known_member_spaces()
        for (cls, name, arity), defs in bare.items():
            spaces = spaces_of(known.get((f"{cls}::{name}", arity), ()), bodies)
            if not spaces:
                continue
            words = " ".join(spaces)
            for n in defs:
                self.rw.insert_before(n, words + " ")
                self.note(n, words, f"'{cls}::{name}' is declared {words} in the class; nvcc gives this "
                          "definition those spaces, clang needs it to say them")

    def _known_member_spaces(self) -> tuple[dict, dict[str, str]]:
        vis = self.module.visible
        return {**(vis.declared_spaces if vis is not None else {}), **declared_spaces(self.src)}, self._macro_bodies()

    def _definitions_take_missing_spaces(self, spaced: dict) -> None:
        """A member declared `__host__ __device__` in its class (OpenHurricane's `cu_dual cu_ushort
        nsp() const;`) and defined out of the class with one of the two (`inline cu_device cu_ushort
        reactionTable::nsp() const`, in the .inl its header includes): nvcc treats the function as
        `__host__ __device__` (warning 20040, "redeclared with __device__, hence treated as a __host__
        __device__ function"), clang reads a device function overloading the declared one and refuses
        it.  The port's definition adds the space its declaration has and it lacks.  Only where the
        declaration says every space the definition does: a declaration of other spaces (or two that
        differ) is left to clang's diagnostic."""
        if not spaced:
            return
        known, bodies = self._known_member_spaces()
        for (cls, name, arity), defs in spaced.items():
            declared = spaces_of(known.get((f"{cls}::{name}", arity), ()), bodies)
            for n, spaces in defs:
                missing = [s for s in declared if s not in spaces]
                if not missing or not set(spaces) <= set(declared):
                    continue
                words = " ".join(missing)
                self.rw.insert_before(n, words + " ")
                self.note(n, words, f"'{cls}::{name}' is declared {' '.join(declared)} in the class; nvcc treats "
                          f"this {' '.join(spaces)} definition as {' '.join(declared)} too, clang needs it to say so")

    def rewrite_specialization_spaces(self) -> None:
        if not backends.get(self.backend).specialization_spaces_match:
            return
        text = self.src.text_of
        family: dict[tuple[str, int], list[tuple[Node, tuple[str, ...], bool]]] = {}
        for t in self.src.index.of_type("template_declaration"):
            params = t.child_by_field_name("parameters")
            inner = t.named_children[-1] if t.named_children else None
            if params is None or inner is None or inner.type not in ("function_definition", "declaration"):
                continue
            fd = _declarator(inner)
            name = fd.child_by_field_name("declarator") if fd is not None else None
            if name is not None and name.type == "template_function":  # `f<float4>(...)`
                name = name.child_by_field_name("name")
            if name is None:
                continue
            head = self.src.data[inner.start_byte:fd.start_byte].decode("utf-8", "replace")
            if re.search(r"\b__global__\b", head):
                continue
            key = (text(name), _arity(fd))
            family.setdefault(key, []).append((inner, _spaces(head), params.named_child_count == 0))
        for (name, _), members in family.items():
            if not any(special for *_, special in members) or all(special for *_, special in members):
                continue  # a specialization with its primary in this file, or nothing to match
            runs = {n: set(spaces or ("__host__",)) for n, spaces, _ in members}
            union = set().union(*runs.values())
            for node, spaces, _ in members:
                if runs[node] == union:
                    continue
                words = " ".join(s for s in _SPACES if s in union and (not spaces or s not in spaces))
                self.rw.insert_before(node, words + " ")
                self.note(node, words, f"the primary template and the explicit specializations of '{name}' run "
                          f"{' and '.join(sorted(union))} between them; clang matches a specialization only to "
                          "a primary with the same spaces")

    def rewrite_declared_spaces(self) -> None:
        """A free function defined with no execution space after a declaration with one (solanity's
        sha512.h declares `__device__ __host__`, sha512.cu defines it bare): nvcc gives the definition
        the declaration's spaces; clang reads a host function overloading the device one.  The port's
        definition says them."""
        if not backends.get(self.backend).definition_spaces_declared:
            return
        self._prototypes_take_defined_spaces()
        from .wrong_side_calls import widen_device_callers
        widen_device_callers(self)
        vis = self.module.visible
        known = dict(vis.declared_spaces if vis is not None else {})
        for key, spaces in declared_spaces(self.src).items():
            merge_spaces(known, key, spaces)
        if not any(known.values()):
            return
        bodies = self._macro_bodies()
        for f in self.module.functions.values():
            got = _free_function(self.src, f.node) if f.node.parent is not None and f.node.parent.type in _SCOPES else None
            declared = spaces_of(known.get(exact_key(self.src, f.node, got[0]), ()), bodies) if got is not None else ()
            # a definition with fewer spaces than its declaration (THOR's ultrahot_thermo.h declares
            # `__device__ __host__`, the .cu defines `__host__`): nvcc treats it as declared, clang reads an
            # overload; one with spaces the declaration lacks (or none in common) is left to clang's diagnostic
            spaces = tuple(s for s in declared if s not in got[1]) if got is not None and \
                set(got[1]) < set(declared) else ()
            if not spaces or self.cuda_only_region(f.node):
                continue
            words = " ".join(spaces)
            self.rw.insert_before(f.node, words + " ")
            self.note(f.node, words, f"'{f.name}' is declared {' '.join(declared)} before this definition; nvcc gives "
                      "the definition those spaces, clang needs it to say them")

    def _prototypes_take_defined_spaces(self) -> None:
        """The converse: a free function (or function template, an operator too) declared with no
        execution space and defined below with some (cuda_complex.hpp's `template<class _Tp>
        complex<_Tp> operator*(const complex<_Tp>&, const complex<_Tp>&);`, then its definition under
        `CUDA_CALLABLE_MEMBER`, `__host__ __device__`): nvcc treats the function as the definition
        says (warning 20040), clang reads the definition as overloading a host function and refuses
        it.  The port's prototype says the definition's spaces.  Overloads are told apart by their
        parameter types (template parameters by position), never by name alone."""
        defined: dict[tuple, tuple[str, ...] | None] = {}
        protos: list[tuple[tuple, Node]] = []
        for kind in ("function_definition", "declaration"):
            for n in self.src.index.of_type(kind):
                top = n.parent if n.parent is not None and n.parent.type == "template_declaration" else n
                fd = _declarator(n)
                if fd is None or top.parent is None or top.parent.type not in _SCOPES:
                    continue
                key = _signature(self.src, top, n, fd)
                if key is None or re.search(r"\b__global__\b", self.src.data[n.start_byte:fd.start_byte].decode(
                        "utf-8", "replace")):
                    continue
                spaces = _spaces(self.src.data[n.start_byte:fd.start_byte].decode("utf-8", "replace")) \
                    or self._written_spaces(n, fd)
                if kind == "function_definition":
                    defined[key] = spaces if defined.get(key, spaces) == spaces else None
                elif not spaces and not self.cuda_only_region(n):
                    protos.append((key, n))
        for key, n in protos:
            spaces = defined.get(key)
            if not spaces:
                continue
            words = " ".join(spaces)
            self.rw.insert_before(n, words + " ")
            self.note(n, words, f"'{key[0]}' is defined {words} below this declaration; nvcc takes the "
                      "definition's spaces, clang needs the declaration to say them")


def _signature(src, top: Node, node: Node, fd: Node) -> tuple | None:
    """(name, template parameter count, the parameters' types) of a free function's declaration or
    definition: its parameters' text less their names, template parameters' names by position."""
    name = fd.child_by_field_name("declarator")
    if name is None or name.type not in ("identifier", "operator_name"):
        return None
    tparams: list[str] = []
    if top is not node:
        for p in (top.child_by_field_name("parameters").named_children
                  if top.child_by_field_name("parameters") is not None else ()):
            ids = [c for c in p.named_children if c.type == "type_identifier"]
            tparams.append(src.text_of(ids[-1]) if ids else src.text_of(p))
    params = fd.child_by_field_name("parameters")
    types = []
    for p in params.named_children if params is not None else ():
        d, ident = p.child_by_field_name("declarator"), None
        while d is not None and ident is None:
            ident = d if d.type == "identifier" else None
            d = d.child_by_field_name("declarator") or next(
                (c for c in d.named_children if c.type == "identifier" or c.type.endswith("declarator")), None)
        text = src.data[p.start_byte:p.end_byte]
        if ident is not None:
            text = src.data[p.start_byte:ident.start_byte] + src.data[ident.end_byte:p.end_byte]
        text = text.decode("utf-8", "replace").split("=")[0]
        for i, t in enumerate(tparams):
            text = re.sub(rf"\b{re.escape(t)}\b", f"${i}", text)
        types.append("".join(text.split()))
    return src.text_of(name), len(tparams), tuple(types)
