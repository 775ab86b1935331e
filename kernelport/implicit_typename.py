"""`typename` written before a dependent qualified type where C++20 lets it be left out (P0634), for a compiler without P0634.

cuinterval's tests (heldout53) write `using T = I::value_type;` in a member template: nvcc -std=c++20 takes it (P0634,
"Down with typename!"), ROCm 5.2's clang 15 does not ("missing 'typename' prior to dependent type name"; clang has
P0634 from 16).  Where the backend's compiler lacks it (`Backend.typename_required`, data) the port writes
`typename I::value_type`: `typename` before a qualified name that names a type is valid in every C++ since 11,
so the port means what the source means for every compiler that reads it.

Only in P0634's contexts, where the grammar makes the name a type (never an expression: `T::value` stays):
the type-id of an alias declaration, a trailing return type, a cast's target type (`static_cast<T::R>`), a default
template argument of a type parameter; the type of a class member (data or function) and of a member function's
parameters (declared in the class, or defined outside it under a qualified name); the return type of a function
declared at namespace scope.  Not at block scope (`T::x * y;` is an expression there, and C++20 still asks
for `typename`), not as a plain function's parameter or a template argument (P0634 keeps both).  And only
where the name is dependent: a part before its last `::` names a template parameter of an enclosing template."""
from __future__ import annotations

from tree_sitter import Node

from . import backends
from .source import ident_name

_CASTS = frozenset({"static_cast", "const_cast", "reinterpret_cast", "dynamic_cast"})
_TYPE_PARAMS = ("type_parameter_declaration", "optional_type_parameter_declaration", "variadic_type_parameter_declaration",
                "template_template_parameter_declaration")
_VALUE_PARAMS = ("parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration")
WHY = ("C++20 lets `typename` be left out here (P0634) and nvcc does so; {compiler} wants it before a dependent "
       "qualified type, and it is valid in every C++ since 11")


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    backend = backends.get(tr.backend)
    if backend.typename_required is None or b"::" not in tr.src.data or b"template" not in tr.src.data:
        return
    for q in tr.src.index.of_type("qualified_identifier"):
        if _type_context(q) and _names_a_type(q) and _dependent(tr.src, q):
            tr.rw.insert_before(q, "typename ")
            tr.note(q, f"typename {tr.src.text_of(q)}", WHY.format(compiler=backend.typename_required))
    casts = [q for q in _functional_casts(tr.src) if _dependent(tr.src, q)]
    if casts:
        kinds = _member_kinds(tr)
        for q in casts:
            if kinds.get(_last(tr.src, q)) == "type":
                tr.rw.insert_before(q, "typename ")
                tr.note(q, f"typename {tr.src.text_of(q)}", CAST_WHY.format(compiler=backend.typename_required))


CAST_WHY = ("nvcc reads a dependent qualified name that its instances make a type as a functional cast without "
            "`typename` (`FD::storage()`), which C++ (P0634 too) asks for in an expression; {compiler} does not")


def _functional_casts(src) -> list[Node]:
    """Qualified names called or brace-initialised as expressions (`T::X()`, `T::X{}`) with no `typename` before."""
    out = []
    for kind, field in (("call_expression", "function"), ("compound_literal_expression", "type")):
        for e in src.index.of_type(kind):
            q = e.child_by_field_name(field)
            if q is None or q.type != "qualified_identifier" or q.prev_sibling is not None:
                continue
            if not _after_typename(src.data, q.start_byte) and q.child_by_field_name("name") is not None and \
                    q.child_by_field_name("name").type in ("identifier", "type_identifier"):
                out.append(q)
    return out


def _after_typename(data: bytes, at: int) -> bool:
    """Whether `typename` ends just before `at` (blanks between): read back from `at`, not a copy of the
    file's text up to it (which made the pass quadratic in a file's qualified calls)."""
    while at > 0 and data[at - 1:at].isspace():
        at -= 1
    return data[max(0, at - 8):at] == b"typename"


def _last(src, q: Node) -> str:
    while q.type == "qualified_identifier":
        q = q.child_by_field_name("name")
    return src.text_of(q)


def _member_kinds(tr) -> dict[str, str]:
    """name -> "type" where every member of that name in the classes of this file and the headers it reads is a
    type (a typedef, an alias, a nested class), "value" where one is a function, a data member or an enumerator."""
    srcs = [tr.src]
    vis = tr.module.visible
    ew = vis.elsewhere if vis is not None else None
    if ew is not None and ew.paths:
        proj = ew.project
        for f in ew.paths:
            try:
                srcs.append(proj.module(f).source)
            except Exception:  # noqa: BLE001 - a header that does not parse: its own run reports it
                continue
    kinds: dict[str, str] = {}

    def put(name: str | None, kind: str) -> None:
        if name:
            kinds[name] = "value" if kinds.get(name) == "value" else kind

    for src in srcs:
        for body in src.index.of_type("field_declaration_list"):
            for item in body.named_children:
                while item.type == "template_declaration" and item.named_children:
                    item = item.named_children[-1]
                if item.type == "type_definition":
                    for d in item.children_by_field_name("declarator"):
                        put(src.text_of(d) if d.type == "type_identifier" else None, "type")
                elif item.type == "alias_declaration":
                    name = item.child_by_field_name("name")
                    put(src.text_of(name) if name is not None else None, "type")
                elif item.type in ("field_declaration", "function_definition", "declaration"):
                    t = item.child_by_field_name("type")
                    decls = item.children_by_field_name("declarator")
                    for d in decls:
                        put(ident_name(d) or _function_name(src, d), "value")
                    if t is not None and t.type.endswith("_specifier") and t.child_by_field_name("name") is not None:
                        if t.type == "enum_specifier":
                            for e in src.index.under(t, "enumerator"):
                                put(src.text_of(e.child_by_field_name("name")), "value")
                        if not decls:
                            put(src.text_of(t.child_by_field_name("name")), "type")
    return kinds


def _function_name(src, d: Node) -> str | None:
    while d is not None and d.type in ("function_declarator", "pointer_declarator", "reference_declarator"):
        d = d.child_by_field_name("declarator")
    return src.text_of(d) if d is not None and d.type in ("field_identifier", "identifier") else None


def _type_context(q: Node) -> bool:
    """Whether `q` stands where P0634 makes a qualified name a type (this module's docstring)."""
    p = q.parent
    if p is None:
        return False
    if p.type == "type_descriptor" and _is(p, "type", q):
        up = p.parent
        if up is None:
            return False
        if up.type in ("alias_declaration", "trailing_return_type"):
            return True
        if up.type == "template_argument_list" and up.parent is not None and up.parent.type == "template_function":
            fn = up.parent.child_by_field_name("name")
            return fn is not None and fn.text.decode() in _CASTS and len(up.named_children) == 1
        return False
    if p.type == "optional_type_parameter_declaration":
        return _is(p, "default_type", q)
    if p.type == "field_declaration":
        return _is(p, "type", q)
    if p.type in ("declaration", "function_definition") and _is(p, "type", q):
        return _namespace_scope(p)
    if p.type in ("parameter_declaration", "optional_parameter_declaration") and _is(p, "type", q):
        return _member_parameter(p)
    return False


def _is(parent: Node, field: str, node: Node) -> bool:
    got = parent.child_by_field_name(field)
    return got is not None and got.id == node.id


def _namespace_scope(decl: Node) -> bool:
    p = decl.parent
    while p is not None and p.type in ("template_declaration", "declaration_list", "linkage_specification",
                                       "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif"):
        if p.type == "declaration_list":
            p = p.parent  # a namespace's body
            if p is None or p.type != "namespace_definition":
                return False
        p = p.parent
    return p is not None and p.type == "translation_unit"


def _member_parameter(param: Node) -> bool:
    """A parameter of a member function: declared in its class, or defined outside under a qualified name."""
    plist = param.parent
    fd = plist.parent if plist is not None else None
    if fd is None or fd.type != "function_declarator" or plist.type != "parameter_list":
        return False
    name = fd.child_by_field_name("declarator")
    if name is not None and name.type == "qualified_identifier":
        return True
    d = fd.parent
    while d is not None and d.type in ("pointer_declarator", "reference_declarator"):
        d = d.parent
    return d is not None and (d.type == "field_declaration" or d.type == "function_definition" and
                              d.parent is not None and d.parent.type == "field_declaration_list")


def _names_a_type(q: Node) -> bool:
    """The innermost name is one the grammar read as a type (`T::type`, `T::template X<U>`), not `T::value`."""
    while q.type == "qualified_identifier":
        name = q.child_by_field_name("name")
        if name is None:
            return False
        q = name
    return q.type in ("type_identifier", "template_type")


def _dependent(src, q: Node) -> bool:
    """A part before the last `::` names a template parameter of a template enclosing `q`."""
    params = _template_params(src, q)
    if not params:
        return False
    node = q
    while node.type == "qualified_identifier":
        scope = node.child_by_field_name("scope")
        if scope is not None and _mentions(src, scope, params):
            return True
        node = node.child_by_field_name("name")
        if node is None:
            return False
    return False


def _mentions(src, node: Node, params: set[str]) -> bool:
    if node.type in ("namespace_identifier", "type_identifier", "identifier") and src.text_of(node) in params:
        return True
    return any(_mentions(src, c, params) for c in node.named_children)


def _template_params(src, node: Node) -> set[str]:
    out: set[str] = set()
    p = node.parent
    while p is not None:
        if p.type == "template_declaration":
            plist = p.child_by_field_name("parameters")
            for tp in (plist.named_children if plist is not None else ()):
                if tp.type in _TYPE_PARAMS:  # `class T`, `typename U = T::type`, `template <class> class C`
                    out |= {src.text_of(c) for c in tp.named_children if c.type == "type_identifier"}
                elif tp.type in _VALUE_PARAMS:  # `int N`, `auto... Ns`
                    d = tp.child_by_field_name("declarator")
                    while d is not None and d.type != "identifier":
                        d = d.named_children[-1] if d.named_children else None
                    if d is not None:
                        out.add(src.text_of(d))
        p = p.parent
    return out
