"""The tuple a CUB radix sort's decomposer returns, in the backend's library (HIP: hipCUB's own tuple).

CUB 2.x sorts keys of a user type through a decomposer: a function object passed to
`cub::DeviceRadixSort::SortPairs/SortKeys(...)` (or a `BlockRadixSort`'s `Sort*`) whose
`operator()(Key&)` returns a libcu++ tuple of references to the key's members,
`return cuda::std::tie(k.hi, k.lo);`, the first the most significant. hipCUB (ROCm 6.2 and later)
takes the same decomposer but asks for `hipcub::tuple` (rocPRIM's tuple on AMD: a static_assert
"is_tuple_of_references is only implemented for rocprim::tuple" otherwise), and orders the
elements as CUB does. The C++ library's `std::tie`, which `cuda::std::tie` is elsewhere
(library_namespaces), is no such tuple, and hipCUB has no `tie`: in the `operator()` of a class
whose object a radix sort call of the run is given, `cuda::std::tie(a, b)` becomes
`hipcub::tuple<decltype((a)), decltype((b))>{a, b}` (each element's reference type, as tie makes it)
and `cuda::std::tuple<...>` becomes `hipcub::tuple<...>`. The same class used elsewhere only, or a
function object returning a tuple that no radix sort is given, keeps the C++ library's spelling.
A decomposer whose class the call does not name (a template parameter, a class in another file)
is left to the compiler, which stops at hipCUB's assertion: never a silent port."""
from __future__ import annotations

from tree_sitter import Node

from . import backends

SORTS = ("SortPairs", "SortPairsDescending", "SortKeys", "SortKeysDescending")
BLOCK_SORTS = ("Sort", "SortDescending", "SortBlockedToStriped", "SortDescendingBlockedToStriped")
RADIX_CLASSES = ("DeviceRadixSort", "DeviceSegmentedRadixSort")


def _path(src, q: Node) -> str:
    return src.text_of(q).replace(" ", "").lstrip(":").split("<", 1)[0]


def _last_name(src, t: Node | None) -> str | None:
    """`Dec` of `ns::Dec` / `Dec` / `Dec<int>` (a type or callee node)."""
    if t is None:
        return None
    text = src.text_of(t).replace(" ", "").split("<", 1)[0]
    return text.rsplit("::", 1)[-1] or None


def _block_sort_names(src) -> set[str]:
    """`cub::BlockRadixSort` and the names a `using` or `typedef` of the file gives it."""
    names = {"BlockRadixSort"}
    for n in src.index.of_types("alias_declaration", "type_definition"):
        value = n.child_by_field_name("type")
        if value is not None and "BlockRadixSort<" in src.text_of(value).replace(" ", ""):
            names.update(_last_name(src, d) for d in n.children_by_field_name("declarator") or
                         [n.child_by_field_name("name")] if d is not None)
    return names


def _block_sort_object(src, obj: Node | None, names: set[str]) -> bool:
    """`BlockSortT(temp)`, `cub::BlockRadixSort<...>(temp)` or a variable declared with such a type."""
    if obj is not None and obj.type == "call_expression":
        return _last_name(src, obj.child_by_field_name("function")) in names
    return obj is not None and obj.type == "identifier" and _declared_type(src, obj) in names


def _sort_calls(src) -> list[Node]:
    """The radix sort calls: `cub::DeviceRadixSort::SortPairs(...)` and a block sort's `x.Sort(...)`."""
    out, block_names = [], None
    for call in src.index.of_type("call_expression"):
        fn = call.child_by_field_name("function")
        if fn is None:
            continue
        if fn.type == "qualified_identifier":
            parts = _path(src, fn).split("::")
            if len(parts) >= 2 and parts[-1] in SORTS and parts[-2] in RADIX_CLASSES and "cub" in parts[:-2]:
                out.append(call)
        elif fn.type == "field_expression":
            field = fn.child_by_field_name("field")
            if field is not None and src.text_of(field) in BLOCK_SORTS:
                block_names = _block_sort_names(src) if block_names is None else block_names
                if _block_sort_object(src, fn.child_by_field_name("argument"), block_names):
                    out.append(call)
    return out


def _declared_type(src, ident: Node) -> str | None:
    """The class named by the declaration of the variable `ident` in its function (`ns::Dec d;`)."""
    name, fn = src.text_of(ident), ident.parent
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    if fn is None:
        return None
    for decl in src.index.under_types(fn, "declaration", "parameter_declaration"):
        if decl.start_byte >= ident.start_byte:
            break
        ds = [d.child_by_field_name("declarator") if d.type in ("init_declarator", "function_declarator") else d
              for d in decl.children_by_field_name("declarator")]  # `T d = ...`, `T d{}`, `T d(temp)`
        if any(d is not None and src.text_of(d).lstrip("&*").strip() == name for d in ds):
            return _last_name(src, decl.child_by_field_name("type"))
    return None


def _argument_classes(src, call: Node) -> set[str]:
    args = call.child_by_field_name("arguments")
    names = set()
    for a in args.named_children if args is not None else ():
        if a.type == "compound_literal_expression":  # `Dec{}`
            names.add(_last_name(src, a.child_by_field_name("type")))
        elif a.type == "call_expression":  # `Dec()`
            f = a.child_by_field_name("function")
            if f is not None and f.type in ("identifier", "qualified_identifier", "template_function"):
                names.add(_last_name(src, f))
        elif a.type == "identifier":  # `d`, declared `Dec d;`
            names.add(_declared_type(src, a))
    return {n for n in names if n}


def _call_operators(src, classes: set[str]) -> list[Node]:
    """The `operator()` definitions in the bodies of the classes so named."""
    out = []
    for spec in src.index.of_types("struct_specifier", "class_specifier"):
        name, body = spec.child_by_field_name("name"), spec.child_by_field_name("body")
        if name is None or body is None or _last_name(src, name) not in classes:
            continue
        for f in body.named_children:
            d = f.child_by_field_name("declarator") if f.type == "function_definition" else None
            op = d.child_by_field_name("declarator") if d is not None and d.type == "function_declarator" else None
            if op is not None and op.type == "operator_name" and src.text_of(op).replace(" ", "") == "operator()":
                out.append(f)
    return out


def rewrite(tr) -> None:
    """Each libcu++ tuple a radix sort's decomposer returns, as the backend's library's (module docstring)."""
    tuple_ = backends.get(tr.backend).decomposer_tuple
    if not tuple_ or b"cuda::std::" not in tr.src.data or b"Sort" not in tr.src.data:
        return
    src = tr.src
    classes = set().union(*(_argument_classes(src, c) for c in _sort_calls(src)))
    if not classes:
        return
    from .translate import Note
    why = f"{backends.get(tr.backend).display_name}'s radix sort decomposer tuple"
    for op in _call_operators(src, classes):
        for q in src.index.under(op, "qualified_identifier"):
            up = q.parent
            if up is not None and up.type == "qualified_identifier" or tr.rw.has(q) or tr.rw.within(q) \
                    or tr.cuda_only_region(q):
                continue
            path = _path(src, q)
            if path == "cuda::std::tuple":
                args = next((c for c in src.index.under(q, "template_argument_list")), None)
                tr.rw.replace(q, lambda rw, n, a=args: tuple_ + (rw.text(a) if a is not None else ""))
                if q == op.child_by_field_name("type") and args is not None:  # hipCUB's tuple: explicit constructors
                    for ret in src.index.under(op, "return_statement"):
                        init = next((c for c in ret.named_children if c.type == "initializer_list"), None)
                        if init is not None and not tr.rw.has(init):
                            tr.rw.replace(init, lambda rw, n, a=args: tuple_ + rw.text(a) + rw.stitch(n))
            elif path == "cuda::std::tie" and up is not None and up.type == "call_expression" \
                    and up.child_by_field_name("function") == q and not tr.rw.has(up):
                call_args = up.child_by_field_name("arguments")
                elems = [a for a in call_args.named_children if a.type != "comment"] if call_args is not None else []
                tr.rw.replace(up, lambda rw, n, es=elems: tuple_ + "<" + ", ".join(
                    f"decltype(({rw.text(e)}))" for e in es) + ">{" + ", ".join(rw.text(e) for e in es) + "}")
            else:
                continue
            tr.port.notes.append(Note(src.loc(q), path, tuple_, why, category="api:library-namespace"))
