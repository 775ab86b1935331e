"""The names a file or a translation unit's headers declare: a user's own name is never a CUDA API name.

A module of its own, not the translator's renames' (kernelport/api_names.py imports it from here):
lint asks it of every unit's headers (project.Visible.declared) and need not import those renames
and the eight modules they import to ask."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends, lazy_re

# Node fields that name what a declaration declares.
_DECLARING = ("declarator", "name")
_TESTS = ("preproc_ifdef", "preproc_elifdef")
# Nodes whose `name` field is a use, not a declaration: a macro tested, a template named with
# arguments, a qualified name (`::cudaFree(p)`; `void S::f()` declares f through its declarator).
_NOT_DECLARING = (*_TESTS, "template_function", "template_method", "template_type", "qualified_identifier")
_NAME_TYPES = ("identifier", "type_identifier", "field_identifier", "namespace_identifier")
_TAGGED = ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier")


def _names_a_type(node: Node) -> bool:
    """`struct cudaChannelFormatDesc d;`: a tagged type with no body used as a declaration's type
    refers to the type (CUDA's here); only a body or a bare `struct X;` declares it."""
    if node.type not in _TAGGED or node.child_by_field_name("body") is not None:
        return False
    p = node.parent
    return p is not None and p.child_by_field_name("type") == node


def names_declared_in(src) -> frozenset[str]:
    """`declared_names` of a parsed file, once per parse (each backend's translator, a header's
    second port and the project's view of the header ask for it)."""
    got = src.__dict__.get("_kp_declared")
    if got is None:
        got = src.__dict__["_kp_declared"] = declared_names(src.index.order, src.text_of)
    return got


def declared_names(order: list[Node], text_of) -> frozenset[str]:
    """Every name the file declares: variables, parameters, functions, fields, types, enumerators,
    macros, namespaces (what a declaration's `declarator` or `name` field leads to)."""
    out: set[str] = set()
    from .source import field_ids
    declarator, name = field_ids(*_DECLARING)  # (a field's id: its name is looked up on every call)
    stands_in: dict = {}  # _stands_in_for_cuda's answers by (ancestor, branch), shared by the file's declarations
    for node in order:
        if not node.child_count:  # a token: no field to follow (most of the nodes)
            continue
        found = []
        for f in (declarator, name):
            d = node.child_by_field_id(f)
            while d is not None and d.type not in _NAME_TYPES:
                d = d.child_by_field_id(declarator) or d.child_by_field_id(name)
            if d is not None:
                found.append(d)
        # (the node's own tests only where a field leads to a name: most nodes have neither field)
        if found and node.type not in _NOT_DECLARING and not _names_a_type(node) and \
                not _stands_in_for_cuda(node, text_of, stands_in) and \
                not _aliases_api_name(node, text_of) and not _same_typedef(node, text_of) and \
                not _defines_toolkit_macro(node, text_of):  # `#ifdef X`, `f<T>()` name X and f, declare neither
            out.update(text_of(d) for d in found)
    return frozenset(out)


def _defines_toolkit_macro(node: Node, text_of) -> bool:
    """`#define __CUDACC__ 1` (MonoAlg3D's gpu_utils.h, under `#ifdef __JETBRAINS_IDE__`, so that an IDE's
    parser reads its .cu files): a definition of a macro the CUDA toolkit itself defines in every CUDA
    compile (the source dialect's `toolkit_macros`: the compiler's macros, the runtime headers' guards)
    stands in for that toolkit where it is absent; where nvcc compiles, the name is the toolkit's anyway.
    The name stays CUDA's, not the user's own: before, it made every `#ifdef __CUDACC__` of the unit a
    project macro the HIP port kept as written, which hipcc leaves undefined, so the port compiled the
    host compiler's branches (another include, no `BLOCK_SIZE`) where nvcc compiles the CUDA ones."""
    if node.type not in ("preproc_def", "preproc_function_def"):
        return False
    name = node.child_by_field_name("name")
    return name is not None and text_of(name) in backends.source().toolkit_macros


def _same_typedef(node: Node, text_of) -> bool:
    """`typedef cudaStream_t cudaStream_t;` (Bridge++'s bridgeACC.h): a typedef of a name as itself
    redeclares the type the name already is (valid C++), so the name stays the toolkit's, not the user's
    own: the port renames both sides (`typedef hipStream_t hipStream_t;`) and its uses.  The same in a
    namespace, of the global name (`namespace proj { typedef ::cudaStream_t cudaStream_t; }`, or `using
    cudaStream_t = ::cudaStream_t;`): `proj::cudaStream_t` is the toolkit's type, and code outside the
    namespace names the toolkit's (main kept every `cudaStream_t` of the file as the user's: hipcc stopped at
    "unknown type name 'cudaStream_t'" outside the namespace).  A typedef of another type under a CUDA name
    (`typedef int cudaStream_t;`) is the user's own name."""
    if node.type == "alias_declaration":
        t, d = node.child_by_field_name("type"), node.child_by_field_name("name")
    elif node.type == "type_definition":
        t, d = node.child_by_field_name("type"), node.child_by_field_name("declarator")
    else:
        return False
    return t is not None and d is not None and d.type == "type_identifier" and \
        "".join(text_of(t).split()).removeprefix("::") == text_of(d)


def _aliases_api_name(node: Node, text_of) -> bool:
    """`#define cudaArray hipArray`: a project's own HIPIFY layer (ASTRA's gpu_runtime_wrapper.h,
    for its HIP build) defines a CUDA API name as a backend's spelling of it, exactly as that
    backend's table has it. The name stays CUDA's, not the user's own: a port renames its uses
    to that very spelling, which is what the alias gives where it is compiled."""
    if node.type != "preproc_def":
        return False
    name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
    if name is None or value is None:
        return False
    cuda, alias = text_of(name), text_of(value).strip()
    pattern = backends.source().api_pattern
    if not (pattern and re.fullmatch(pattern, cuda)) or not re.fullmatch(r"\w+", alias):
        return False
    return any((t := b.api()) is not None and t.spelling(cuda) == alias for b in backends.all())


def unit_declared(project, sc, root, before_root: bool = False) -> frozenset[str]:
    """Every name the headers of `root`'s translation unit declare (project.Scan `sc`), less the
    macros a header defines only in branches this unit does not compile: ASTRA's
    gpu_runtime_wrapper.h defines `cudaStream_t` and `cudaMemcpyToSymbolAsync(S, ...)` under
    `#ifdef ASTRA_BUILDING_HIP`, for its own HIP build; its CUDA build, the one ported, has
    CUDA's names there, which the port renames.  `before_root`: `sc` is an includer's walk, and
    only the files it reads before `root` count (kernelport/context_macros.py's declared_before)."""
    out: set[str] = set()
    for p in sc.order:
        if p == root and before_root:
            break
        if p == root or (pf := project.file(p)) is None:
            continue
        src = pf.src
        every = src.__dict__.get("_kp_macro_names")
        if every is None:
            every = src.__dict__["_kp_macro_names"] = frozenset(
                src.text_of(n) for node in src.index.of_types("preproc_def", "preproc_function_def")
                for n in [node.child_by_field_name("name")] if n is not None)  # (a set: the order is no matter)
        active = set(sc.local.get(p, {})) | {src.text_of(n) for node in sc.functions.get(p, [])
                                             for n in [node.child_by_field_name("name")] if n is not None}
        out |= project.declared(p) - (every - active)
    return frozenset(out)


_CONDITIONALS = ("preproc_if", "preproc_ifdef")
_BRANCHES = ("preproc_else", "preproc_elif", "preproc_elifdef")
_CUDA_HEADER = lazy_re.compile(r"[<\"](cuda|cuda_runtime|cuda_runtime_api)\.h[>\"]")


def _stands_in_for_cuda(node: Node, text_of, memo: dict | None = None) -> bool:
    """A declaration in one branch of a conditional whose other branch includes CUDA's header
    (`#ifndef NO_CUDA #include <cuda.h> #else ...cudaSetDevice(int d) { return 1; }`), or in the
    branch a build with CUDA's compiler or headers skips (`#ifndef __DRIVER_TYPES_H__`, the source
    dialect's `toolkit_macros`): a stand-in for builds without CUDA, so the name stays CUDA's where
    the CUDA build is compiled.

    `memo` (one per parse): the answer from each (ancestor, branch entered) state up, so the
    declarations of one conditional share its test.  Without it, every declaration of a header in
    an include guard listed the guard's children again: quadratic in the header's declarations."""
    p, branch = node.parent, None
    walked: list[tuple[int, int | None]] = []  # the states passed, each answered by what is found above
    found = False
    while p is not None:
        key = (p.id, branch.id if branch is not None else None)
        if memo is not None:
            hit = memo.get(key)
            if hit is not None:
                found = hit
                break
            walked.append(key)
        if p.type in _BRANCHES:
            branch = p
        elif p.type == "preproc_ifdef" and _skipped_by_cuda(p, branch, text_of):
            found = True
            break
        if p.type in _CONDITIONALS:
            alt = p.child_by_field_name("alternative")
            others = [alt] if branch is None and alt is not None else \
                [c for c in p.children if c is not branch and c is not alt and c.type not in _BRANCHES]
            if branch is not None or alt is not None:
                if any(c.type == "preproc_include" and _CUDA_HEADER.search(text_of(c)) for o in others
                       for c in ([o] if o.type == "preproc_include" else o.children)):
                    found = True
                    break
            branch = None
        p = p.parent
    if memo is not None:
        for key in walked:
            memo[key] = found
    return found


def _skipped_by_cuda(cond: Node, branch: Node | None, text_of) -> bool:
    """The branch of `#ifdef`/`#ifndef M` a CUDA build does not compile, M a toolkit macro: the
    `#ifndef` body (branch None) or the `#ifdef`'s `#else`."""
    name = cond.child_by_field_name("name")
    if name is None or text_of(name) not in backends.source().toolkit_macros:
        return False
    negated = cond.children[0].type == "#ifndef"
    return (branch is None) if negated else (branch is not None and branch.type == "preproc_else")
