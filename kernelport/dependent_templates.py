"""`template` written before a member template called on an object whose type depends on a template parameter.

spmv-acc's merge_path_reduction.h (heldout101) calls `BlockScanT(*temp).InclusiveScan<ITEMS_PER_THREAD>(pair, pair, op)`
in a kernel template where `using BlockScanT = cub::BlockScan<KeyValuePair<int, T>, BLOCK_THREAD_NUM>;`: nvcc's EDG
takes the `<` as a template argument list, C++ ([temp.names]) and clang ask for `.template InclusiveScan<...>` there
("use 'template' keyword to treat 'InclusiveScan' as a dependent template name").  The grammar has already read the
`<` as a template argument list (a `template_method`); the port writes `template` before the name where the object is
dependent by what the grammar shows: inside a template, the object is (through `*`, `&`, parentheses, `[]`, `.`/`->`
members) a variable, parameter or class member declared with a type that names a template parameter, or a
functional cast to such a type (`S(s)`, `BlockScanT(*temp)`); a type alias or typedef of a dependent type in an
enclosing scope counts as one.  `obj.template f<N>(x)` is valid C++ for every compiler since C++11 wherever `f` is a
member template, so the port means what the source means; an object the grammar does not show dependent (`auto`,
a function's result, `this`) is left as written (clang then rejects it: a compile error, never another meaning)."""
from __future__ import annotations

from tree_sitter import Node

from .implicit_typename import _mentions, _template_params

WHY = ("the object's type depends on a template parameter: C++ asks for `template` before a member template's name "
       "there (nvcc's EDG does not, clang does); valid for every compiler")
_SCOPES = ("function_definition", "class_specifier", "struct_specifier", "template_declaration", "translation_unit",
           "namespace_definition", "declaration_list", "field_declaration_list")


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    src = tr.src
    if b"template" not in src.data or b"<" not in src.data:
        return
    data = None
    for m in src.index.of_type("template_method"):
        fe = m.parent
        if fe is None or fe.type != "field_expression" or fe.child_by_field_name("field") != m:
            continue
        data = _data_members(src) if data is None else data
        name = m.child_by_field_name("name")
        if name is not None and src.text_of(name) in data:  # `s.x < N > (y)`: a comparison of the file's data member
            continue
        params = _template_params(src, fe)
        if not params:
            continue
        params |= _dependent_aliases(src, fe, params)
        if _dependent(src, fe.child_by_field_name("argument"), params, fe):
            tr.rw.insert_before(m, "template ")
            tr.note(m, f"template {src.text_of(m)}", WHY)


def _data_members(src) -> set[str]:
    """Names the file declares as data members of a class (`int x;`, `T *x[4];`) and as no member function: `s.x < N > (y)`
    on such a name is two comparisons, where `template` before it would not compile (C++ asks it only of a member
    template)."""
    data, functions = set(), set()
    for d in src.index.of_type("field_declaration"):
        for decl in d.children_by_field_name("declarator"):
            while decl is not None and decl.type not in ("field_identifier", "function_declarator"):
                decl = decl.child_by_field_name("declarator")
            if decl is not None and decl.type == "field_identifier":
                data.add(src.text_of(decl))
    for f in src.index.of_type("function_declarator"):
        n = f.child_by_field_name("declarator")
        if n is not None and n.type in ("field_identifier", "identifier"):
            functions.add(src.text_of(n))
    return data - functions


def _dependent_aliases(src, at: Node, params: set[str]) -> set[str]:
    """Names of type aliases and typedefs in the scopes enclosing `at` whose type names a template parameter
    (or another such alias, declared before it)."""
    out: set[str] = set()
    p = at.parent
    while p is not None:
        for c in p.named_children:
            if c.start_byte >= at.start_byte:
                break
            if c.type == "alias_declaration":
                name, ty = c.child_by_field_name("name"), c.child_by_field_name("type")
            elif c.type == "type_definition":
                name, ty = c.child_by_field_name("declarator"), c.child_by_field_name("type")
            else:
                continue
            if name is not None and ty is not None and _mentions(src, ty, params | out):
                out.add(src.text_of(name).lstrip("*& "))
        p = p.parent
    return out


def _dependent(src, e: Node | None, params: set[str], use: Node) -> bool:
    if e is None:
        return False
    if e.type in ("parenthesized_expression", "pointer_expression", "subscript_expression"):
        inner = e.child_by_field_name("argument") or (e.named_children[0] if e.named_children else None)
        return _dependent(src, inner, params, use)
    if e.type == "field_expression":
        return _dependent(src, e.child_by_field_name("argument"), params, use)
    if e.type == "call_expression":  # a functional cast to a dependent type
        fn = e.child_by_field_name("function")
        return fn is not None and fn.type in ("identifier", "type_identifier", "template_function",
                                              "qualified_identifier") and _names_dependent_type(src, fn, params)
    if e.type == "identifier":
        ty = declared_type(src, src.text_of(e), use)
        return ty is not None and _mentions(src, ty, params)
    return False


def _names_dependent_type(src, fn: Node, params: set[str]) -> bool:
    """`S` (a type parameter or a dependent alias), `Scan<K>`, `typename T::X`: a type whose name mentions one."""
    if fn.type == "identifier":
        return src.text_of(fn) in params
    return _mentions(src, fn, params)


def declared_type(src, name: str, use: Node) -> Node | None:
    """The type node of the nearest declaration of `name` before `use` in its enclosing function (parameters
    and body) and classes (members); None where none is found."""
    p = use.parent
    while p is not None:
        if p.type in ("compound_statement", "function_definition", "field_declaration_list", "for_statement",
                      "parameter_list"):
            found = None
            for d in _declarations(p):
                if d.start_byte < use.start_byte or p.type == "field_declaration_list":
                    if _declares(src, d, name):
                        found = d
            if found is not None:
                return found.child_by_field_name("type")
        if p.type == "function_definition":
            decl = p.child_by_field_name("declarator")
            while decl is not None and decl.type != "function_declarator":
                decl = decl.child_by_field_name("declarator")
            plist = decl.child_by_field_name("parameters") if decl is not None else None
            for d in (plist.named_children if plist is not None else ()):
                if _declares(src, d, name):
                    return d.child_by_field_name("type")
        p = p.parent
    return None


def _declarations(scope: Node):
    for c in scope.named_children:
        if c.type in ("declaration", "field_declaration"):
            yield c


def _declares(src, d: Node, name: str) -> bool:
    for decl in d.children_by_field_name("declarator"):
        while decl is not None and decl.type != "identifier" and decl.type != "field_identifier":
            nxt = decl.child_by_field_name("declarator")
            if nxt is None:
                nxt = next((c for c in decl.named_children if c.type in ("identifier", "field_identifier")), None)
            decl = nxt
        if decl is not None and src.text_of(decl) == name:
            return True
    return False
