"""A function-scope `__shared__` variable whose class type has default member initializers, held as raw storage.
g3p-vm-gpu (heldout87) declares `__shared__ DPlainNode child_a_work[kGpuReproKernelMaxNodes];` where
`struct PlainNode { int kind = 0; int i0 = 0; int i1 = 0; };` (a header's, through `using DPlainNode = PlainNode`).
nvcc accepts it and runs no initialisation (shared memory is never initialised: the PTX holds no store for it);
clang refuses it ("initialization is not supported for __shared__ variables": the default constructor is not
empty by CUDA's rule), so the port, right as written, does not compile.  Where the backend says its compiler
refuses so (`Backend.shared_initializers_refused`, data) the port declares the same bytes uninitialised and
names them with the declared type, on the declaration's line:
    __shared__ unsigned char kp_child_a_work_storage[sizeof(T[N])] __attribute__((aligned(alignof(T)))); T (&child_a_work)[N]
        = *reinterpret_cast<T (*)[N]>(kp_child_a_work_storage);
what nvcc's build has: the variable's bytes in shared memory, nothing written to them.  Only where that is
proved: a declaration in a function body of one variable (or array) with no initialiser, not `extern`, whose
type names a class the file or the headers read before it (`visible.elsewhere`) define once with a body in
which a data member has a default initializer (`= v` or `{v}`), or a member of such a class type, through
`typedef` / `using` names, or a default constructor the class writes with a member-initializer list or
statements (heldout100: nvcc 13 takes it with warning #20054 and runs it nowhere; clang refuses it).  An empty
default constructor (`{}`, `= default`) leaves the members to decide; one defined outside the class is left
alone, as are templates' parameters and classes nothing here defines: hipcc then reports them itself.  So is a
variable a lambda of the function may capture by copy (`[=]`, `[work]`, an init-capture naming it): the static
`__shared__` object is no capture, each call reads the shared bytes, while the port's reference would be captured
as a copy of the object taken when the lambda is made (a stale private array: another value, no error)."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends, device_allocas
from .source import ident_name

_CLASS = ("struct_specifier", "class_specifier")


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    if not backends.get(tr.backend).shared_initializers_refused or b"__shared__" not in tr.src.data:
        return
    classes = None
    for sa in tr.module.shared:
        decl = sa.node
        if sa.dynamic or sa.function is None or len(decl.children_by_field_name("declarator")) != 1:
            continue
        d = decl.child_by_field_name("declarator")
        dims, n = [], d
        while n is not None and n.type == "array_declarator":
            size = n.child_by_field_name("size")
            if size is None:
                break
            dims.insert(0, tr.src.text_of(size))
            n = n.child_by_field_name("declarator")
        if n is None or n.type != "identifier" or any(c.type == "storage_class_specifier" for c in decl.children):
            continue
        t = decl.child_by_field_name("type")
        if t is None or t.type not in ("type_identifier", "qualified_identifier"):
            continue
        classes = _classes(tr) if classes is None else classes
        why = _initialised(tr.src.text_of(t), classes, _aliases(tr), 0)
        if why is None or _copied_by_lambda(tr.src, decl, tr.src.text_of(n)):
            continue
        _rewrite(tr, decl, d, n, tr.src.text_of(t), dims, why)


def _rewrite(tr, decl: Node, d: Node, name: Node, elem: str, dims: list[str], why: str) -> None:
    var = tr.src.text_of(name)
    storage = device_allocas._fresh(tr, f"kp_{var}_storage")  # (a name neither the file nor a port's storage holds)
    shape = "".join(f"[{x}]" for x in dims)
    raw = f"__shared__ unsigned char {storage}[sizeof({elem}{shape})] __attribute__((aligned(alignof({elem}))));"
    ref = f"(&{var}){shape}" if dims else f"&{var}"
    cast = f"*reinterpret_cast<{elem} (*){shape}>({storage})" if dims else f"*reinterpret_cast<{elem} *>({storage})"
    tr.rw.insert_before(decl, raw)
    for q in decl.children:
        if q.type == "type_qualifier" and tr.src.text_of(q) == "__shared__":
            tr.rw.replace(q, "")
    tr.rw.replace(d, f"{ref} = {cast}")
    tr.note(decl, storage, f"`{var}`: {why}; nvcc runs no initialisation of __shared__ memory and the target's "
                           "compiler refuses one, so the port holds the same bytes uninitialised")


def _aliases(tr) -> dict[str, str]:
    """typedef / using names of the file and its headers -> the type text they name."""
    out: dict[str, str] = {}
    vis = tr.module.visible
    srcs = [m.source for m in _header_modules(tr)] + [tr.src]
    for src in srcs:
        for a in src.index.of_type("alias_declaration"):
            n, t = a.child_by_field_name("name"), a.child_by_field_name("type")
            if n is not None and t is not None:
                out[src.text_of(n)] = src.text_of(t)
        for a in src.index.of_type("type_definition"):
            t, d = a.child_by_field_name("type"), a.child_by_field_name("declarator")
            if t is not None and d is not None and d.type == "type_identifier":
                out[src.text_of(d)] = src.text_of(t)
    if vis is not None:
        out.update({k: v for k, v in (getattr(vis, "types", None) or {}).items() if isinstance(v, str)})
    return out


def _header_modules(tr) -> list:
    vis = tr.module.visible
    elsewhere = getattr(vis, "elsewhere", None) if vis is not None else None
    if elsewhere is None:
        return []
    try:
        return list(elsewhere.modules())
    except Exception:  # noqa: BLE001 - a header that does not parse defines nothing here
        return []


def _classes(tr) -> dict[str, list[tuple[object, Node]]]:
    """Class name -> [(source, the class's field list)] of each definition with a body."""
    out: dict[str, list] = {}
    for src in [m.source for m in _header_modules(tr)] + [tr.src]:
        for k in _CLASS:
            for c in src.index.of_type(k):
                n, body = c.child_by_field_name("name"), c.child_by_field_name("body")
                if n is not None and body is not None:
                    out.setdefault(src.text_of(n), []).append((src, body))
    return out


def _initialised(type_text: str, classes: dict, aliases: dict, depth: int) -> str | None:
    """Why the class `type_text` names has a non-empty default construction (a default member initializer,
    its own or a member's), or None (not known to be so: a template's parameter, a constructor written, a
    class defined twice or nowhere here)."""
    name = re.sub(r"^(struct|class)\s+", "", type_text.strip())
    seen = 0
    while name in aliases and name not in classes and seen < 8:
        name, seen = re.sub(r"^(struct|class)\s+", "", aliases[name].strip()), seen + 1
    short = name.rsplit("::", 1)[-1]
    found = classes.get(short, [])
    if len(found) != 1 or depth > 4:
        return None
    src, body = found[0]
    ctors = [f for f in body.named_children if f.type in ("function_definition", "declaration", "field_declaration")
             and short in src.text_of(f).split("(")[0].split() and "(" in src.text_of(f)]
    if ctors:
        why = _default_constructor(src, ctors, short)
        if why != "":
            return why  # None: no default construction known (nvcc's own rule then)
    for f in body.named_children:
        if f.type != "field_declaration" or any(c.type == "storage_class_specifier" for c in f.children):
            continue
        if f.child_by_field_name("default_value") is not None or any(c.type == "initializer_list" for c in f.children):
            member = ident_name(f.child_by_field_name("declarator")) or "?"
            return f"`{short}` initialises its member `{member}` by default"
        t = f.child_by_field_name("type")
        if t is not None and t.type in ("type_identifier", "qualified_identifier"):
            inner = _initialised(src.text_of(t), classes, aliases, depth + 1)
            if inner is not None:
                return inner
    return None


def _default_constructor(src, ctors: list[Node], short: str) -> str | None:
    """Of the constructors the class body writes: why its default construction is not empty (a default
    constructor with a member-initializer list or statements), "" where it is empty (`V() {}`, `= default`:
    the members then decide), None where no default constructor is known (only others, or one defined
    outside the class)."""
    for f in ctors:
        text = src.text_of(f)
        head = text.split(")", 1)[0]
        params = head.split("(", 1)[1].strip() if "(" in head else ""
        if params not in ("", "void") and not all("=" in p for p in params.split(",")):
            continue  # not default-callable
        if f.type != "function_definition":
            return "" if re.search(r"=\s*default\s*;", text) else None
        if any(c.type == "field_initializer_list" for c in f.children):
            return f"`{short}`'s default constructor initialises its members"
        b = f.child_by_field_name("body")
        if b is not None and src.text_of(b).strip("{} \t\r\n"):
            return f"`{short}`'s default constructor runs statements"
        return ""
    return None


def _copied_by_lambda(src, decl: Node, var: str) -> bool:
    """Whether a lambda in the function holding `decl` names `var` and captures by copy (a `=` default, `var`
    listed without `&`, or an init-capture)."""
    fn = decl.parent
    while fn is not None and fn.type != "function_definition":
        fn = fn.parent
    if fn is None:
        return False
    for lam in src.index.under(fn, "lambda_expression"):
        if not re.search(rf"\b{re.escape(var)}\b", src.text_of(lam)):
            continue
        cap = lam.child_by_field_name("captures")
        items = [x.strip() for x in src.text_of(cap).strip("[]").split(",")] if cap is not None else []
        if any(x == "=" or "=" in x or x == var for x in items):
            return True
    return False
