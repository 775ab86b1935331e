"""An initialised variable-length array in host code, which g++ (nvcc's host compiler) takes and clang rejects.

GSPARC (heldout68) keeps a mask per mode in host code as

    mask_t SLITOM_MASK[slitom->nmodes] = {}; // initialized to zeros by default

g++ accepts an initialiser on a variable-length array (a GNU extension: the elements it names are set, the
rest value-initialised); clang (hipcc) accepts the array but not its initialiser ("variable-sized object may
not be initialized"), so the port, right as written, does not compile.  Where the backend says so
(`Backend.vla_initializer_refused`, data) and the initialiser zeroes every element (`= {}`, `{}`, `= {0}`,
`{0}`, a zero literal of any spelling: `0`, `0.0f`, `'\\0'`, `false`, `nullptr`, `NULL`, braces around one),
the port declares the array without it and value-initialises each element after the declaration:

    mask_t SLITOM_MASK[slitom->nmodes]; for (decltype(sizeof 0) kp_i0 = 0; kp_i0 < sizeof(SLITOM_MASK) /
        sizeof(SLITOM_MASK[0]); ++kp_i0) SLITOM_MASK[kp_i0] = {};

The same values: clang takes a variable-length array only of a POD element type ("variable length array of
non-POD element type" otherwise), whose default initialisation does nothing and whose `x = {}` is its value
initialisation; `{0}` sets the first scalar to zero and value-initialises the rest, which is zero too.
`sizeof` of a variable-length array is its run-time size, so the bound is read once, where it was.

An array is variable-length where a bound names, outside `sizeof`, a parameter of its function, a local
declared before it without `const`/`constexpr` (or one whose initialiser is itself such), or reaches through
`->`; any other bound (literals, macros, constants, members) is left as written.  Only in host functions
(nvcc rejects a variable-length array in device code).  Any other initialiser (`{1, 2}`, a string), a `const`
array, an element type the file aliases to an array type (`typedef float v3[3]; v3 a[n] = {};`: the loop
cannot assign an array), or a declaration not directly in a block (or a `case`'s statements) is refused
(KP252), located: the port would not compile."""
from __future__ import annotations

import re

from tree_sitter import Node

from . import backends
from .nvcc_leniencies import nearest_local

HINT = ("declare the array without an initialiser and set its elements in a loop (or use a std::vector sized "
        "at run time)")
_ZERO_WORDS = frozenset({"false", "nullptr", "NULL"})


def rewrite_pass(tr) -> None:
    """A translator pass (kernelport.translate.Translator.passes): this module's docstring."""
    why = backends.get(tr.backend).vla_initializer_refused
    if why is None or b"[" not in tr.src.data:
        return
    src = tr.src
    fills: dict[int, tuple[Node, list[str]]] = {}  # declaration -> its `;`, the loops after it (`int a[n] = {}, b[n];`)
    for init in src.index.of_type("init_declarator"):
        arr = init.child_by_field_name("declarator")
        value = init.child_by_field_name("value")
        if arr is None or arr.type != "array_declarator" or value is None:
            continue
        f = tr.module.function_at(init)
        if f is None or f.is_device or f.body is None or not _inside(init, f.body) or tr.cuda_only_region(init):
            continue
        dims, name = _dims(arr)
        if name is None or not any(_runtime(tr, f, d, init, 0) for d in dims if d is not None):
            continue
        decl = init.parent
        problem = _refusal(src, decl, init, value, name)
        if problem:
            tr.problem("KP252", init, f"`{src.text_of(arr)}` is a variable-length array with an initialiser "
                       f"({problem}): {why}", HINT)
            continue
        eq = next((c for c in init.children if c.type == "="), None)
        if eq is not None:
            tr.rw.replace(eq, "")
        tr.rw.replace(value, "")
        fill = _fill(name, len(dims), _fresh(src))
        fills.setdefault(decl.id, (decl.children[-1], []))[1].append(fill)
        tr.note(init, f"{src.text_of(arr)}; {fill}", f"a variable-length array's zero initialiser as a loop: {why}")
    for semi, loops in fills.values():
        tr.rw.replace(semi, "; " + " ".join(loops))


def _inside(node: Node, outer: Node) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


def _dims(arr: Node) -> tuple[list[Node | None], str | None]:
    """The bounds of an array declarator, outermost first, and the name it declares (None: not a plain name)."""
    dims: list[Node | None] = []
    d = arr
    while d is not None and d.type == "array_declarator":
        dims.insert(0, d.child_by_field_name("size"))
        d = d.child_by_field_name("declarator")
    return dims, (None if d is None or d.type != "identifier" else d.text.decode())


def _runtime(tr, f, size: Node, at: Node, depth: int) -> bool:
    """Whether `size` is a run-time value where `at` reads it (this module's docstring's rule)."""
    src = tr.src
    if depth > 4:
        return False
    stack = [size]
    while stack:
        n = stack.pop()
        if n.type == "sizeof_expression":
            continue
        if n.type == "field_expression":
            op = n.child_by_field_name("operator")
            if op is not None and op.type == "->":
                return True
            stack.append(n.child_by_field_name("argument"))
            continue
        if n.type == "identifier":
            name = src.text_of(n)
            local = _local(tr, f, name, at)
            if local is not None:
                decl, value = local
                if not any(c.type in ("type_qualifier", "storage_class_specifier") and
                           src.text_of(c) in ("const", "constexpr", "static") for c in decl.children):
                    return True
                if value is not None and _runtime(tr, f, value, decl, depth + 1):
                    return True
            elif f.param(name) is not None and name not in f.template_params:
                return True
            continue
        stack.extend(c for c in n.named_children if c is not None)
    return False


def _local(tr, f, name: str, at: Node):
    """(declaration, initial value or None) of the nearest local `name` declared before `at` in a block around it."""
    found = nearest_local(tr, f.body, name, at)
    if found is None:
        return None
    decl, d = found
    return decl, (d.child_by_field_name("value") if d.type == "init_declarator" else None)


def _refusal(src, decl: Node, init: Node, value: Node, name: str) -> str:
    """Why the zero fill cannot stand for the initialiser ('' where it can)."""
    if decl is None or decl.type != "declaration" or decl.parent is None or \
            decl.parent.type not in ("compound_statement", "case_statement"):
        return "not declared directly in a block, where a loop can follow it"
    if any(c.type == "type_qualifier" and src.text_of(c) in ("const", "constexpr") for c in decl.children):
        return "declared `const`, so its elements cannot be set after it"
    if not _zeroes(src, value):
        return f"`{' '.join(src.text_of(value).split())}` sets elements to values other than zero"
    if _array_alias(src, decl.child_by_field_name("type")):
        return "its element type is an array type, which the loop's `= {}` cannot assign"
    later = [d for d in decl.children_by_field_name("declarator") if d.start_byte > init.start_byte]
    if any(re.search(rf"\b{re.escape(name)}\b", src.text_of(d)) for d in later):
        return "a later declarator of the same declaration reads it"
    return ""


def _array_alias(src, t: Node | None) -> bool:
    """Whether the type name `t` is a typedef or alias of an array type in this file (`typedef float v3[3];`)."""
    if t is None or t.type != "type_identifier":
        return False
    name = src.text_of(t)
    for n in src.index.of_types("type_definition", "alias_declaration"):
        if n.type == "alias_declaration":
            if src.text_of(n.child_by_field_name("name")) == name and "[" in src.text_of(n.child_by_field_name("type")):
                return True
            continue
        for d in n.children_by_field_name("declarator"):
            array = d.type == "array_declarator"
            while d is not None and d.type == "array_declarator":
                d = d.child_by_field_name("declarator")
            if array and d is not None and d.type == "type_identifier" and src.text_of(d) == name:
                return True
    return False


def _zeroes(src, value: Node) -> bool:
    """Whether an initialiser list sets every element to zero: `{}`, or braces around one zero."""
    if value.type != "initializer_list":
        return False
    items = [c for c in value.named_children if c.type != "comment"]
    if not items:
        return True
    if len(items) != 1:
        return False
    item = items[0]
    if item.type == "initializer_list":
        return _zeroes(src, item)
    text = src.text_of(item)
    if item.type in ("false", "null", "nullptr") or text in _ZERO_WORDS:
        return True
    if item.type == "char_literal":
        return text in ("'\\0'", "'\\x0'", "'\\x00'", "'\\000'")
    if item.type == "number_literal":
        return _zero_number(text)
    return False


def _zero_number(text: str) -> bool:
    """Whether a C++ number literal's value is zero (any base, suffix, digit separators, exponent)."""
    t = text.replace("'", "").lower()
    if t.startswith(("0x", "0b")):
        mantissa = re.sub(r"[ul]+$", "", t[2:]).split("p")[0]
    else:
        mantissa = re.sub(r"[ulf]+$", "", t).split("e")[0]
    return "0" in mantissa and set(mantissa) <= {"0", "."}


def _fresh(src) -> str:
    """A loop index prefix the file does not use."""
    base, k = "kp_i", 1
    while re.search(rb"\b" + base.encode() + rb"\d", src.data):
        k += 1
        base = f"kp_i{k}_"
    return base


def _fill(name: str, rank: int, index: str) -> str:
    """Loops value-initialising every element of a `rank`-dimensional array `name`."""
    out, element = [], name
    for k in range(rank):
        i = f"{index}{k}"
        out.append(f"for (decltype(sizeof 0) {i} = 0; {i} < sizeof({element}) / sizeof({element}[0]); ++{i}) ")
        element = f"{element}[{i}]"
    return "".join(out) + f"{element} = {{}};"
